// Reading a file the user imports, in a dedicated Web Worker (import-worker.ts): bytes → text → capture records off
// the page's thread, which only gathers the records as they come back, in batches of a few milliseconds each. Read on
// the page's thread, a capture log's 4 MiB slice was one task of ~0.1–0.2 s, and a 182 MB HAR, parsed whole, one of
// ~1.3 s (Chromium). Where no worker can be started — its script not loaded, `new Worker` refused (a page of an opaque
// origin: Chromium refuses a file:// page a worker, as it refuses the viewer's module scripts there; Firefox runs
// both), or no Worker at all (the unit tests, in Node) — and for a file whose records the worker cannot post (a value
// nested deeper than structured clone goes), the file is read here as before, in slices between which the thread is
// given back (import-read.ts): the same capture, the same errors.
import { afterPaint, giveBackThread } from '../lib/give-back-thread.ts';
import { readFileHere, type ReadOutcome } from './import-read.ts';
import { READ_HERE, readInWorker, startImportWorker } from './import-worker-client.ts';

export { Fingerprint, fileFingerprint, type ReadOutcome } from './import-read.ts';

/**
 * The file's capture, unless `shown(fingerprint)` says it is already shown (a file read whole is then not parsed).
 * `onProgress`: the share of a capture log read so far (0–1), after each slice. Errors are InputErrors naming the
 * file. `signal`: an abort stops the reading (the worker is terminated) and rejects with its reason.
 */
export async function readImportFile(file: Blob, name: string, shown: (fingerprint: string) => boolean, onProgress: (read: number) => void, signal?: AbortSignal): Promise<ReadOutcome> {
  const worker = startImportWorker();
  if (worker) {
    const read = await readInWorker(worker, file, name, shown, onProgress, signal);
    if (read !== READ_HERE) return read;
  }
  return readFileHere(file, name, shown, onProgress, { pacing: { betweenSlices: giveBackThread, beforeWholeParse: afterPaint }, signal });
}

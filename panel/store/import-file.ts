// Reading a file the user imports (import-read.ts), on the page's thread: given back between a capture log's slices,
// and a file read whole parsed after the status line is painted.
import { afterPaint, giveBackThread } from '../lib/give-back-thread.ts';
import { readFileHere, type ReadOutcome } from './import-read.ts';

export { Fingerprint, fileFingerprint, type ReadOutcome } from './import-read.ts';

/**
 * The file's capture, unless `shown(fingerprint)` says it is already shown (a file read whole is then not parsed).
 * `onProgress`: the share of a capture log read so far (0–1), after each slice. Errors are InputErrors naming the file.
 */
export async function readImportFile(file: Blob, name: string, shown: (fingerprint: string) => boolean, onProgress: (read: number) => void): Promise<ReadOutcome> {
  return readFileHere(file, name, shown, onProgress, { pacing: { betweenSlices: giveBackThread, beforeWholeParse: afterPaint } });
}

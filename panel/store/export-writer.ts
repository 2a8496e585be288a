// Writing an export file without holding the page: the parts (export.ts) are drained a slice at a time, the thread
// given back between slices so the panel keeps painting and the dialog's Cancel is heard. Made at once, the HAR of a
// 300 MB capture held the page for ~13 s (redacted: ~19 s) — the export dialog, the panel, and a live capture's
// updates all stood still.
import type { ExportFile, ExportProgress } from './export.ts';
import { giveBackThread } from '../lib/give-back-thread.ts';

/** An export stopped by the user (the dialog's Cancel): no file is made. */
export class ExportCancelled extends Error {
  constructor() {
    super('Export cancelled.');
    this.name = 'ExportCancelled';
  }
}

/** What the dialog shows while a file is made. */
export interface ExportStatus extends ExportProgress {
  /** Bytes of the file written so far. */
  bytes: number;
}

export interface WriteOptions {
  signal?: AbortSignal;
  onProgress?: (status: ExportStatus) => void;
  /** Time spent writing before the thread is given back (ms): short enough for the page to paint at its frame rate. */
  sliceMs?: number;
}

/** Text gathered into one Blob at a time (UTF-16 units): the Blob holds it outside the JavaScript heap. */
const BLOB_PIECE = 4 << 20;

/**
 * The file as a Blob of pieces, written in slices, each piece checked readable. The Blob is never one string: a HAR
 * may be more than a string holds. The pieces are small (making a Blob encodes its text at once: a task as long as
 * the piece).
 */
export async function writeExportBlob(file: ExportFile, options: WriteOptions = {}): Promise<Blob> {
  const { signal, onProgress, sliceMs = 12 } = options;
  const progress: ExportProgress = { phase: 'prepare', done: 0, total: 0 };
  const parts = file.parts(progress)[Symbol.iterator]();
  const blobs: Blob[] = [];
  let pending: string[] = [];
  let length = 0;
  let bytes = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const blob = new Blob(pending);
    blobs.push(blob);
    bytes += blob.size;
    pending = [];
    length = 0;
  };
  for (;;) {
    if (signal?.aborted) throw new ExportCancelled();
    const until = performance.now() + sliceMs;
    let finished = false;
    do {
      const next = parts.next();
      if (next.done) {
        finished = true;
        break;
      }
      if (next.value === '') continue; // a pause: time to look at the clock
      pending.push(next.value);
      length += next.value.length;
      if (length >= BLOB_PIECE) flush();
    } while (performance.now() < until);
    if (finished) break;
    onProgress?.({ ...progress, bytes: bytes + length });
    await giveBackThread();
  }
  flush();
  onProgress?.({ ...progress, bytes });
  await checkReadable(blobs, bytes, signal);
  return new Blob(blobs, { type: file.mime });
}

/**
 * Each piece read back one byte: a browser that cannot keep the file (Chromium keeps ~500 MB of a page's Blobs in
 * memory, and pages more to disk only in a profile on disk — not in a private window) makes Blobs that cannot be
 * read, and its download was cancelled while the dialog closed as if it had been saved.
 */
async function checkReadable(pieces: Blob[], bytes: number, signal?: AbortSignal): Promise<void> {
  try {
    for (const piece of pieces) {
      if (signal?.aborted) throw new ExportCancelled();
      if (piece.size > 0) await piece.slice(piece.size - 1).arrayBuffer();
    }
  } catch (err) {
    if (err instanceof ExportCancelled) throw err;
    throw new Error(`The browser could not keep the ${(bytes / 1e6).toFixed(0)} MB file to save (past ~500 MB it needs a profile ` +
      'on disk, not a private window): export the capture log (a HAR is ~3.5× larger), or the selected connection only.');
  }
}

/** Save a Blob the browser way (a Blob URL we created, on an anchor we created; nothing captured becomes a URL). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Write the file in slices and save it. Rejects with ExportCancelled when `signal` aborts: nothing is saved then. */
export async function download(file: ExportFile, options: WriteOptions = {}): Promise<void> {
  const blob = await writeExportBlob(file, options);
  if (options.signal?.aborted) throw new ExportCancelled();
  saveBlob(blob, file.name);
}

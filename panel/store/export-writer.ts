// Writing an export file without holding the page: the parts (export.ts) are drained a slice at a time, the thread
// given back between slices so the panel keeps painting and the dialog's Cancel is heard. Made at once, the HAR of a
// 300 MB capture held the page for ~13 s (redacted: ~19 s) — the export dialog, the panel, and a live capture's
// updates all stood still.
// The text goes to a Blob that is then downloaded, or, for a file larger than the browser keeps as a Blob, straight
// to a file the user chose (the File System Access API, where there is one): see saveToFile.
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

/**
 * Text handed on at a time (UTF-16 units): a Blob piece, or one write to the file. Each is encoded to UTF-8 at once,
 * in the slice that fills it: at 4 Mi characters that took up to ~130 ms (a HAR of multi-byte text written to a file).
 */
const PIECE = 1 << 20;

/** Where the text goes, a piece at a time (each piece is encoded at once: a task as long as the piece). */
interface Sink {
  put(text: string): void | Promise<void>;
  /** Bytes put so far. */
  readonly bytes: number;
}

/** Drains the file's parts into `sink` in slices, giving the thread back between them; pieces of about PIECE. */
async function drain(file: ExportFile, sink: Sink, { signal, onProgress, sliceMs = 12 }: WriteOptions): Promise<void> {
  const progress: ExportProgress = { phase: 'prepare', done: 0, total: 0 };
  const parts = file.parts(progress)[Symbol.iterator]();
  let pending: string[] = [];
  let length = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    length = 0;
    await sink.put(text);
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
      if (length >= PIECE) await flush();
    } while (performance.now() < until);
    if (finished) break;
    onProgress?.({ ...progress, bytes: sink.bytes + length });
    await giveBackThread();
  }
  await flush();
  onProgress?.({ ...progress, bytes: sink.bytes });
}

/**
 * The file as a Blob of pieces, written in slices, each piece checked readable. The Blob is never one string: a HAR
 * may be more than a string holds.
 */
export async function writeExportBlob(file: ExportFile, options: WriteOptions = {}): Promise<Blob> {
  const pieces: Blob[] = [];
  let bytes = 0;
  await drain(file, {
    put(text) {
      const blob = new Blob([text]);
      pieces.push(blob);
      bytes += blob.size;
    },
    get bytes() {
      return bytes;
    },
  }, options);
  await checkReadable(pieces, bytes, options.signal);
  return new Blob(pieces, { type: file.mime });
}

/**
 * Each piece read back one byte: a browser that cannot keep the file makes Blobs that cannot be read, and its
 * download was cancelled while the dialog closed as if it had been saved. (Chromium 156 headless kept no more than
 * ~500 MB of a page's Blobs, in a private window and with a profile on disk alike: a 400 MiB Blob could not be read
 * beside one of 256 MiB.)
 */
async function checkReadable(pieces: Blob[], bytes: number, signal?: AbortSignal): Promise<void> {
  try {
    for (const piece of pieces) {
      if (signal?.aborted) throw new ExportCancelled();
      if (piece.size > 0) await piece.slice(piece.size - 1).arrayBuffer();
    }
  } catch (err) {
    if (err instanceof ExportCancelled) throw err;
    throw new Error(`The browser could not keep the ${(bytes / 1e6).toFixed(0)} MB file to save (past ~500 MB of files it may not): ` +
      'export the capture log (a HAR is ~3.5× larger), or the selected connection only — or open the viewer in Chrome or Edge, ' +
      'which writes a large file straight to disk.');
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

/** Write the file in slices and save it as a download. Rejects with ExportCancelled when `signal` aborts. */
export async function download(file: ExportFile, options: WriteOptions = {}): Promise<void> {
  const blob = await writeExportBlob(file, options);
  if (options.signal?.aborted) throw new ExportCancelled();
  saveBlob(blob, file.name);
}

/** The File System Access API's file picker (Chromium, in a page that is no cross-origin frame): not in lib.dom. */
type SaveFilePicker = (options: { suggestedName?: string }) => Promise<FileSystemFileHandle>;

/** The save-file picker, where a page may open one: Chromium, not inside DevTools (a cross-origin frame); no Firefox. */
export function saveFilePicker(): SaveFilePicker | undefined {
  const picker = (globalThis as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  let framed = true;
  try {
    framed = window.top !== window;
  } catch {
    // a cross-origin parent: framed
  }
  return typeof picker === 'function' && !framed ? picker.bind(globalThis) : undefined;
}

/**
 * Write the file in slices straight to `handle` (chosen with the save-file picker): nothing of it is kept in memory,
 * so there is no limit but the disk's. Cancelled, the file is left as it was (the browser writes to a temporary file
 * and moves it into place only on close).
 */
export async function saveToFile(file: ExportFile, handle: FileSystemFileHandle, options: WriteOptions = {}): Promise<void> {
  const writable = await handle.createWritable();
  // Encoded into one buffer (encodeInto: ~2.5× faster than encode on multi-byte text, ~5 ms a piece), then copied.
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(3 * PIECE); // a UTF-16 unit is at most 3 bytes of UTF-8
  let bytes = 0;
  try {
    await drain(file, {
      async put(text) {
        // A piece may be longer than PIECE (the part that filled it): what does not fit goes in the next round.
        for (let rest = text; rest !== '';) {
          const { read, written } = encoder.encodeInto(rest, buffer);
          bytes += written;
          await writable.write(buffer.slice(0, written));
          rest = rest.slice(read);
        }
      },
      get bytes() {
        return bytes;
      },
    }, options);
  } catch (err) {
    await writable.abort().catch(() => {});
    throw err;
  }
  await writable.close();
}

// Reading a file the user imports, bytes → text → capture records, where it is called: in the import worker
// (import-worker-serve.ts), or on the page's thread when no worker can be started (import-file.ts). A capture log is
// read in slices (Blob.slice), decoded and read a line at a time (capture-log-stream.ts): it may be of any size — an
// export of several large captures side by side is more than one string holds, and was refused by the import it
// came from. Anything else is one JSON document or one body, read whole: up to MAX_INPUT_BYTES, refused by its size
// before it is read.
import type { Capture } from '../../src/core/capture/model.ts';
import { CAPTURE_LOG_HEAD_BYTES, CaptureLogStream, inputTooLarge, loadInput, MAX_INPUT_BYTES, startsAsCaptureLog } from '../core-bridge.ts';

/** Bytes of a capture log read at once: a slice is decoded and its lines read before the next is asked for. */
export const SLICE_BYTES = 4 << 20;

/**
 * Size and an FNV-1a hash of the bytes, fed in slices: the same file chosen again, under any name (100 MB hash in
 * ~0.1 s). The same value whether the file is read whole or in slices.
 */
export class Fingerprint {
  private hash = 0x811c9dc5;
  private size = 0;

  update(bytes: Uint8Array): void {
    let h = this.hash;
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    this.hash = h;
    this.size += bytes.length;
  }

  get value(): string {
    return `${this.size}:${(this.hash >>> 0).toString(16)}`;
  }
}

export function fileFingerprint(bytes: Uint8Array): string {
  const f = new Fingerprint();
  f.update(bytes);
  return f.value;
}

export type ReadOutcome = { fingerprint: string; capture: Capture } | { fingerprint: string; alreadyShown: true };

/** Where the reading waits, on the page's thread: nowhere in a worker, whose thread holds nothing else. */
export interface ReadPacing {
  /** Between two slices of a capture log (the page's thread given back). */
  betweenSlices(): Promise<void>;
  /** Before a file read whole is parsed, in one piece (the status line painted first). */
  beforeWholeParse(): Promise<void>;
}

const NO_PAUSE: ReadPacing = { betweenSlices: async () => {}, beforeWholeParse: async () => {} };

/**
 * The file's capture, unless `shown(fingerprint)` says it is already shown (a file read whole is then not parsed).
 * `onProgress`: the share of a capture log read so far (0–1), after each slice. Errors are InputErrors naming the
 * file. `signal`: looked at between slices — an abort stops the reading there.
 */
export async function readFileHere(
  file: Blob, name: string, shown: (fingerprint: string) => boolean | Promise<boolean>, onProgress: (read: number) => void,
  { pacing = NO_PAUSE, signal }: { pacing?: ReadPacing; signal?: AbortSignal } = {},
): Promise<ReadOutcome> {
  const head = new Uint8Array(await file.slice(0, CAPTURE_LOG_HEAD_BYTES).arrayBuffer());
  if (startsAsCaptureLog(head)) return readCaptureLog(file, name, onProgress, pacing, signal);
  if (file.size > MAX_INPUT_BYTES) throw inputTooLarge(file.size, name); // not read: it cannot be used
  const bytes = new Uint8Array(await file.arrayBuffer());
  const fingerprint = fileFingerprint(bytes);
  if (await shown(fingerprint)) return { fingerprint, alreadyShown: true };
  await pacing.beforeWholeParse();
  signal?.throwIfAborted();
  return { fingerprint, capture: loadInput(bytes, name) };
}

async function readCaptureLog(file: Blob, name: string, onProgress: (read: number) => void, pacing: ReadPacing, signal: AbortSignal | undefined): Promise<ReadOutcome> {
  const stream = new CaptureLogStream(name);
  const fingerprint = new Fingerprint();
  for (let at = 0; at < file.size; at += SLICE_BYTES) {
    signal?.throwIfAborted();
    const bytes = new Uint8Array(await file.slice(at, at + SLICE_BYTES).arrayBuffer());
    fingerprint.update(bytes);
    stream.push(bytes);
    onProgress(Math.min(1, (at + bytes.length) / file.size));
    await pacing.betweenSlices();
  }
  return { fingerprint: fingerprint.value, capture: stream.end() };
}

// The panel's side of the import worker (import-worker.ts): the file handed over, its records gathered batch by
// batch as they come (each message checked, import-worker-messages.ts), the worker's error thrown as it was thrown
// there. A worker that fails before it says anything (it could not be loaded), or cannot hand over what it read, is
// told apart: the caller reads the file itself then (import-file.ts).
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { InputError } from '../core-bridge.ts';
import type { ReadOutcome } from './import-read.ts';
import { importWorkerToPanelSchema, type ImportWorkerToPanel, type PanelToImportWorker } from './import-worker-messages.ts';

/** What the panel uses of a Worker (a test passes one that runs the worker's side in this thread). */
export interface ImportWorker {
  postMessage(message: PanelToImportWorker): void;
  addEventListener(type: 'message' | 'messageerror' | 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

/** The import worker, or undefined where none can be started (no Worker; a page whose origin may not load one). */
export function startImportWorker(): ImportWorker | undefined {
  if (typeof Worker !== 'function') return undefined;
  try {
    // The URL written out in the call: that is how the bundlers find the worker and emit it as a script of its own.
    return new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module', name: 'replyscope-import' });
  } catch {
    return undefined; // a page of an opaque origin (Chromium, from file://: "cannot be accessed from origin 'null'")
  }
}

/**
 * Not read in the worker, to be read on the page's thread: the worker failed before its first message (it could not
 * be loaded), or said `read-here` (its records could not be posted).
 */
export const READ_HERE = Symbol('read the file on the page’s thread');

/**
 * Reads `file` in `worker`, which is terminated when the reading ends (it holds nothing more); or resolves to
 * READ_HERE. `signal`: an abort terminates the worker and rejects with the signal's reason.
 */
export function readInWorker(
  worker: ImportWorker, file: Blob, name: string, shown: (fingerprint: string) => boolean, onProgress: (read: number) => void, signal?: AbortSignal,
): Promise<ReadOutcome | typeof READ_HERE> {
  return new Promise((resolve, reject) => {
    const records: CaptureRecord[] = [];
    let heard = false;
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      worker.terminate();
      signal?.removeEventListener('abort', aborted);
      settle();
    };
    const failed = (why: string) => finish(() => reject(new InputError(`${name}: could not read the input: ${why}`)));
    const aborted = () => finish(() => reject(signal?.reason));

    worker.addEventListener('message', (event) => {
      if (done) return;
      heard = true;
      const checked = importWorkerToPanelSchema.safeParse((event as MessageEvent).data);
      if (!checked.success) {
        failed(`the import worker's message was refused (${checked.error.issues[0]?.message ?? 'not one the panel reads'})`);
        return;
      }
      // The message as it came, not the checker's copy of it: the check transforms nothing (import-worker-messages.ts),
      // and the records keep their keys' order — a HAR's as its reader wrote them, as when it is read here.
      const message = (event as MessageEvent).data as ImportWorkerToPanel;
      switch (message.type) {
        case 'progress':
          onProgress(message.share);
          return;
        case 'fingerprint':
          worker.postMessage({ type: 'shown', shown: shown(message.fingerprint) });
          return;
        case 'records':
          for (const r of message.records) records.push(r); // one by one: a spread of 4096 arguments, times ~50,000
          return;
        case 'already-shown':
          finish(() => resolve({ fingerprint: message.fingerprint, alreadyShown: true }));
          return;
        case 'read-here':
          finish(() => resolve(READ_HERE));
          return;
        case 'read':
          if (records.length !== message.records) failed(`${records.length} of its ${message.records} records came back from the import worker`);
          else finish(() => resolve({ fingerprint: message.fingerprint, capture: { header: message.header, records } }));
          return;
        case 'failed':
          finish(() => reject(rebuilt(message)));
      }
    });
    worker.addEventListener('messageerror', () => failed('a message from the import worker could not be read'));
    worker.addEventListener('error', (event) => {
      event.preventDefault(); // said here, not also as an uncaught error in the console
      if (!heard) finish(() => resolve(READ_HERE));
      else {
        const what = (event as Partial<ErrorEvent>).message; // an ErrorEvent for an error thrown in it
        failed(`the import worker stopped${what ? ` (${what})` : ''}`);
      }
    });
    if (signal?.aborted) {
      aborted();
      return;
    }
    signal?.addEventListener('abort', aborted);
    worker.postMessage({ type: 'read', file, name });
  });
}

/** The worker's error, as the reading on this thread would have thrown it. */
function rebuilt(message: Extract<ImportWorkerToPanel, { type: 'failed' }>): Error {
  if (message.name === 'InputError') return new InputError(message.message, message.line);
  const err = new Error(message.message);
  err.name = message.name;
  return err;
}

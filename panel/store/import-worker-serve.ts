// The import worker's side of the reading (import-worker.ts is its entry): a `read` message's file read with the
// reader the page's thread would use (import-read.ts), its records posted back in batches, its error as the panel
// throws it. No DOM, no worker globals: the unit tests run it against the panel's side in one thread.
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { readFileHere } from './import-read.ts';
import { panelToImportWorkerSchema, recordBatches, type ImportWorkerToPanel } from './import-worker-messages.ts';

/** What handles the panel's messages, posting the answers with `post`. One file is read per worker. */
export function importReadService(post: (message: ImportWorkerToPanel) => void): (data: unknown) => void {
  let answer: ((shown: boolean) => void) | undefined;
  return (data) => {
    const parsed = panelToImportWorkerSchema.safeParse(data);
    if (!parsed.success) {
      post({ type: 'failed', name: 'Error', message: `the import worker refused a message: ${parsed.error.issues[0]?.message ?? 'not one it reads'}` });
      return;
    }
    const message = parsed.data;
    if (message.type === 'shown') {
      answer?.(message.shown);
      answer = undefined;
      return;
    }
    const shown = (fingerprint: string) => new Promise<boolean>((resolve) => {
      answer = resolve;
      post({ type: 'fingerprint', fingerprint });
    });
    readFileHere(message.file, message.name, shown, (share) => post({ type: 'progress', share }))
      .then((read) => {
        if ('alreadyShown' in read) {
          post({ type: 'already-shown', fingerprint: read.fingerprint });
          return;
        }
        let posted: number;
        try {
          posted = postRecords(read.capture.records, post);
        } catch (err) { // postMessage's clone refused a record: what came of it so far is dropped on the other side
          post({ type: 'read-here', why: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
          return;
        }
        post({ type: 'read', fingerprint: read.fingerprint, header: read.capture.header, records: posted });
      })
      .catch((err: unknown) => post(failure(err)));
  };
}

/** Posts the records in batches; returns how many. Each batch posted is a copy on its way: this one is let go. */
function postRecords(records: CaptureRecord[], post: (message: ImportWorkerToPanel) => void): number {
  let posted = 0;
  for (const batch of recordBatches(records)) {
    post({ type: 'records', records: batch });
    records.fill(undefined as unknown as CaptureRecord, posted, posted + batch.length); // the worker holds one capture, not two
    posted += batch.length;
  }
  return posted;
}

/** An error as the panel rebuilds it: an InputError keeps its line, anything else its name (a DOMException's). */
function failure(err: unknown): ImportWorkerToPanel {
  if (!(err instanceof Error)) return { type: 'failed', name: 'Error', message: String(err) };
  const line = (err as { line?: unknown }).line;
  return { type: 'failed', name: err.name, message: err.message, ...(typeof line === 'number' ? { line } : {}) };
}

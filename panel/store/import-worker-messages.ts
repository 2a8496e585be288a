// The messages between the panel and its import worker (import-worker.ts), one zod-checked union each way, as every
// hop of the capture pipeline is checked (src/extension/messages.ts):
//
//   panel ──read {file, name}──────────────────────────────────────────────────────────────────▶ worker
//         ◀── progress… · fingerprint? · records… · then read | already-shown | read-here | failed ──
//         ──shown──▶ (the answer to `fingerprint`: a file read whole is not parsed when it is shown already)
//
// The records cross as batches of about BATCH_CHARS characters: each is copied (structured clone) and checked on the
// page's thread in a task of its own, a few milliseconds, where the whole capture at once was the long task the
// worker is there to take away.
import { z } from 'zod';
import type { CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';
import {
  chunkSchema, connectionSchema, endSchema, evictedSchema, headerSchema, messageSchema, navigationSchema, noticeSchema,
} from '../core-bridge.ts';

/** Characters of record text (chunks' text or base64, messages' data, bodies) per batch, about. */
export const BATCH_CHARS = 1 << 18;
/** Records per batch, at most: small ones (ends, notices) are checked one by one too. */
export const BATCH_RECORDS = 1024;

// The records are the capture log's (src/core/capture/schemas.ts), as a reader made them: a time not known is NaN here
// (the log writes it as null), and the readers make Infinity of a time too large — structured clone keeps both. (A
// browser HAR's status or size that is no integer, 200.5, is no longer kept as it is: the import reads the response
// without such a status, and rounds a size — har-import-browser.ts.)
const time = z.custom<number>((v) => typeof v === 'number', 'expected a number');
export const importedRecordSchema = z.discriminatedUnion('kind', [
  connectionSchema.safeExtend({ startTime: time, responseTime: time.optional() }),
  chunkSchema.safeExtend({ t: time }),
  messageSchema.safeExtend({ t: time }),
  endSchema.safeExtend({ t: time }),
  evictedSchema.safeExtend({ t: time }),
  noticeSchema.safeExtend({ t: time }),
  navigationSchema.safeExtend({ t: time }),
]);

// ── panel → worker ──────────────────────────────────────────────────────────────────────────────────
export const panelToImportWorkerSchema = z.discriminatedUnion('type', [
  /** Read this file (a File, or the Blob the viewer fetched), named `name` in what is said of it. */
  z.strictObject({ type: z.literal('read'), file: z.instanceof(Blob), name: z.string() }),
  /** The answer to `fingerprint`: whether a file of that fingerprint is shown already. */
  z.strictObject({ type: z.literal('shown'), shown: z.boolean() }),
]);
export type PanelToImportWorker = z.infer<typeof panelToImportWorkerSchema>;

// ── worker → panel ──────────────────────────────────────────────────────────────────────────────────
export const importWorkerToPanelSchema = z.discriminatedUnion('type', [
  /** The share of a capture log read (0–1), after each slice. */
  z.strictObject({ type: z.literal('progress'), share: z.number().min(0).max(1) }),
  /** A file read whole, before it is parsed: is it shown already? (answered by `shown`) */
  z.strictObject({ type: z.literal('fingerprint'), fingerprint: z.string() }),
  /** The next records of the capture, in order. */
  z.strictObject({ type: z.literal('records'), records: z.array(importedRecordSchema).max(BATCH_RECORDS) }),
  /** Every batch is posted: the capture's header, and how many records they held (a check). */
  z.strictObject({ type: z.literal('read'), fingerprint: z.string(), header: headerSchema, records: z.number().int().nonnegative() }),
  /** Not parsed: `shown` said so. */
  z.strictObject({ type: z.literal('already-shown'), fingerprint: z.string() }),
  /**
   * Read, but the records cannot be handed over (`why`): structured clone refuses a value JSON.parse reads — nested
   * ~10,000 deep, in an eviction's digest — so the panel reads the file itself.
   */
  z.strictObject({ type: z.literal('read-here'), why: z.string() }),
  /** The reading failed: the error, to be thrown on the panel's side as it was thrown in the worker. */
  z.strictObject({ type: z.literal('failed'), name: z.string(), message: z.string(), line: z.number().int().optional() }),
]);
export type ImportWorkerToPanel = z.infer<typeof importWorkerToPanelSchema>;

// Compile-time proof that a batch holds the records of model.ts and that the check changes nothing in what it passes
// (no transform): the panel keeps the records as they came, not the checker's copies (see import-worker-client.ts).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const recordsMatch: Same<z.infer<typeof importedRecordSchema>, CaptureRecord> = true;
const headerMatches: Same<z.infer<typeof headerSchema>, CaptureHeader> = true;
const recordsUnchanged: Same<z.input<typeof importWorkerToPanelSchema>, z.output<typeof importWorkerToPanelSchema>> = true;
void recordsMatch;
void headerMatches;
void recordsUnchanged;

/** The characters a record holds, about: its text, or what it carries besides its few fixed fields. */
function weight(r: CaptureRecord): number {
  switch (r.kind) {
    case 'chunk': return 64 + (r.text ?? r.base64 ?? '').length;
    case 'message': return 64 + r.data.length + r.type.length;
    case 'connection': return 256 + r.url.length + (r.requestBody?.text ?? r.requestBody?.base64 ?? '').length;
    case 'notice': return 64 + r.text.length;
    default: return 64;
  }
}

/**
 * `records` in batches of about BATCH_CHARS characters and at most BATCH_RECORDS records, in order: a record larger
 * than a batch (a body held as one chunk) is a batch of its own.
 */
export function* recordBatches(records: readonly CaptureRecord[]): Generator<CaptureRecord[]> {
  let from = 0;
  let chars = 0;
  for (let i = 0; i < records.length; i++) {
    chars += weight(records[i]);
    if (chars >= BATCH_CHARS || i + 1 - from === BATCH_RECORDS) {
      yield records.slice(from, i + 1);
      from = i + 1;
      chars = 0;
    }
  }
  if (from < records.length) yield records.slice(from);
}

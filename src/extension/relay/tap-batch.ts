// The relay's check of the tap's batches, with a fast path for the usual one: fetch chunks only.
//
// Why: the relay runs on the page's main thread, and zod spent ~40 µs on each batch of four chunk records (~8 ms of
// the page's thread per 50 MB read, measured in a CPU profile of the page). A batch of plain `bytes` records is
// checked here by hand — exactly the checks tapToRelaySchema makes for it — and used as it is (zod would return an
// equal copy). Anything else — another record kind, a Uint8Array of another realm (Firefox's wrappers, which the
// schema converts), any field out of shape — goes to zod, which decides and words the reason for the drop counter.
// test/unit/extension/tap-batch.test.ts holds the two equal on generated batches.
import { acceptMessage, MAX_TAP_BATCH_RECORDS, tapToRelaySchema, type DropCounter, type TapToRelay } from '../messages.ts';

function plainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

/** Own enumerable string keys (what a strict object counts; a structured clone has no others). */
function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

/** True when `data` is `{ type: 'records', records }` with only well-formed same-realm `bytes` records. */
export function isPlainBytesBatch(data: unknown): data is TapToRelay {
  if (!plainObject(data) || data.type !== 'records' || keyCount(data) !== 2) return false;
  const records = data.records;
  if (!Array.isArray(records) || records.length > MAX_TAP_BATCH_RECORDS) return false;
  for (const r of records) {
    if (!plainObject(r) || r.kind !== 'bytes' || keyCount(r) !== 5) return false;
    if (typeof r.conn !== 'string' || typeof r.t !== 'number' || !Number.isFinite(r.t)) return false;
    if (typeof r.bytes !== 'number' || !Number.isSafeInteger(r.bytes) || r.bytes < 0 || !(r.payload instanceof Uint8Array)) return false;
  }
  return true;
}

/** A tap batch as tapToRelaySchema accepts it, or undefined (dropped and counted). */
export function acceptTapBatch(data: unknown, drops: DropCounter): TapToRelay | undefined {
  return isPlainBytesBatch(data) ? data : acceptMessage(tapToRelaySchema, data, drops, 'tap→relay');
}

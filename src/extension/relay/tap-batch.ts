// The relay's check of the tap's batches, with a fast path for the usual ones: fetch chunks, the connection and end
// records around them, notices (a page opening a WebSocket at load sends one first), and the messages of an
// EventSource or a recorded WebSocket (one record per message: an agent socket sends thousands a second).
//
// Why: the relay runs on the page's main thread. zod spent ~40 µs on each batch of four chunk records (~8 ms of the
// page's thread per 50 MB read, measured in a CPU profile of the page), and a page's first connection record cost
// 10–18 ms more there: zod builds its checks of each schema on first use. These records are checked here by hand —
// exactly the checks tapToRelaySchema makes for them — and used as they are (zod would return an equal copy).
// (A notice left to zod cost the page those 10–18 ms at load on every page that opens a socket or a worker.)
// Anything else — another record kind, a Uint8Array of another realm (Firefox's wrappers, which the schema
// converts), a null time (which the schema turns into NaN), a key present but undefined, any field out of shape —
// goes to zod, which decides and words the reason for the drop counter.
// test/unit/extension/tap-batch.test.ts holds the two equal on generated batches.
import { acceptMessage, MAX_TAP_BATCH_RECORDS, tapToRelaySchema, type DropCounter, type TapToRelay } from '../messages.ts';

type Obj = Record<string, unknown>;

function plainObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

/** Own enumerable string keys (what a strict object counts; a structured clone has no others). */
function keyCount(o: object): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const safeInt = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const TRANSPORTS = new Set(['fetch', 'eventsource', 'xhr', 'websocket', 'import']);
const END_STATES = new Set(['complete', 'cancelled', 'aborted', 'error', 'evicted-open', 'open']);

/**
 * Counts the optional keys of `r` that are present, each checked with its test; -1 when one fails (or is present
 * but undefined: zod's answer to that is left to zod).
 */
function optionals(r: Obj, checks: Record<string, (v: unknown) => boolean>): number {
  let n = 0;
  for (const key in checks) {
    if (!(key in r)) continue;
    if (!checks[key](r[key])) return -1;
    n++;
  }
  return n;
}

function isHeaders(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const pair of v) if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return false;
  return true;
}

function isBody(v: unknown): boolean {
  if (!plainObject(v) || !safeInt(v.size) || (v.size as number) < 0) return false;
  const n = optionals(v, {
    text: (x) => typeof x === 'string',
    base64: (x) => typeof x === 'string' && BASE64.test(x),
    truncated: (x) => typeof x === 'boolean',
    abridged: (x) => x === true, // as the schema (the tap never writes it: its check is the fast path's, not a rule)
  });
  return n >= 0 && keyCount(v) === 1 + n;
}

function isBytes(r: Obj): boolean {
  return keyCount(r) === 5 && typeof r.conn === 'string' && finite(r.t) && safeInt(r.bytes) && (r.bytes as number) >= 0 && r.payload instanceof Uint8Array;
}

function isEnd(r: Obj): boolean {
  if (typeof r.conn !== 'string' || !finite(r.t) || typeof r.state !== 'string' || !END_STATES.has(r.state)) return false;
  const n = optionals(r, { error: (x) => typeof x === 'string' });
  return n >= 0 && keyCount(r) === 4 + n;
}

/** A notice (the tap writes one when the page opens a WebSocket or a worker: at load, on many pages — see blind-spots.ts). */
function isNotice(r: Obj): boolean {
  if (!finite(r.t) || (r.level !== 'info' && r.level !== 'warning') || typeof r.text !== 'string') return false;
  const n = optionals(r, { conn: (x) => typeof x === 'string' });
  return n >= 0 && keyCount(r) === 4 + n;
}

function isMessage(r: Obj): boolean {
  return keyCount(r) === 6 && typeof r.conn === 'string' && finite(r.t) && typeof r.type === 'string' && typeof r.data === 'string' && typeof r.lastEventId === 'string';
}

const CONNECTION_OPTIONALS: Record<string, (v: unknown) => boolean> = {
  isSubframe: (x) => typeof x === 'boolean',
  requestBody: isBody,
  status: safeInt,
  statusText: (x) => typeof x === 'string',
  responseHeaders: isHeaders,
  responseTime: finite,
};

function isConnection(r: Obj): boolean {
  if (typeof r.id !== 'string' || r.id.length === 0 || typeof r.transport !== 'string' || !TRANSPORTS.has(r.transport)) return false;
  if (typeof r.frameUrl !== 'string' || typeof r.method !== 'string' || typeof r.url !== 'string') return false;
  if (!isHeaders(r.requestHeaders) || !finite(r.startTime)) return false;
  const n = optionals(r, CONNECTION_OPTIONALS);
  return n >= 0 && keyCount(r) === 8 + n;
}

/** True when `data` is `{ type: 'records', records }` with only well-formed same-realm bytes, end, connection, notice and message records. */
export function isPlainTapBatch(data: unknown): data is TapToRelay {
  if (!plainObject(data) || data.type !== 'records') return false;
  const seq = 'seq' in data ? (safeInt(data.seq) && (data.seq as number) >= 0 ? 1 : -1) : 0;
  if (seq === -1 || keyCount(data) !== 2 + seq) return false;
  const records = data.records;
  if (!Array.isArray(records) || records.length > MAX_TAP_BATCH_RECORDS) return false;
  for (const r of records) {
    if (!plainObject(r)) return false;
    const ok = r.kind === 'bytes' ? isBytes(r) : r.kind === 'end' ? isEnd(r) : r.kind === 'connection' ? isConnection(r) : r.kind === 'notice' ? isNotice(r) : r.kind === 'message' ? isMessage(r) : false;
    if (!ok) return false;
  }
  return true;
}

/** A tap batch as tapToRelaySchema accepts it, or undefined (dropped and counted). */
export function acceptTapBatch(data: unknown, drops: DropCounter): TapToRelay | undefined {
  return isPlainTapBatch(data) ? data : acceptMessage(tapToRelaySchema, data, drops, 'tap→relay');
}

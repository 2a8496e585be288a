// Importing what is shown already, under another name: the capture log and the HAR of one capture hold the same
// records (a HAR export keeps them), and the viewer's preloaded file can be imported again — each gave a second set
// of identical rows (a notice banner twice), nothing telling them apart. A connection of the file whose records are
// the same as a shown one's, but for its id, is that connection; a note or page boundary the same as a shown one is
// that one. (The same bytes are caught before they are read: import-file.ts's fingerprint.)
//
// Done in slices, the thread given back between them: a large connection shown already is compared record by record,
// and its 56,000 records (200,000 events) held the panel for 0.35–0.6 s (Chromium) when each was written out as JSON
// in one go; 280,000 records (1,000,000 events), ~1.7 s. Told apart mostly without JSON now (`sameContent`), they take
// ~0.1 s and ~0.3 s in all, in slices of ~10 ms.
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { TimeSlices, type SliceOptions } from '../lib/give-back-thread.ts';

/** The connection a record belongs to (a connection record's own id), if any. */
const connOf = (r: CaptureRecord): string | undefined => (r.kind === 'connection' ? r.id : 'conn' in r ? r.conn : undefined);

/** The fields that hold a stream's content (a chunk's, an EventSource or WebSocket message's): most of a capture. */
const TEXTS = ['text', 'base64', 'data'] as const;

const sortedKeys = (_key: string, v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;

/**
 * A record's JSON without its connection id (and the fields `without`), its objects' keys sorted (two writers may
 * order them differently).
 */
function content(r: CaptureRecord, without: readonly string[] = []): string {
  const { id: _id, conn: _conn, ...rest } = r as CaptureRecord & { id?: string; conn?: string };
  for (const key of without) delete (rest as Record<string, unknown>)[key];
  return JSON.stringify(rest, sortedKeys);
}

/** Fields `content` leaves out, or that `sameContent` compares apart. */
const APART = new Set<string>(['id', 'conn', ...TEXTS]);

/** A value two of which are written alike as JSON when they are the same (===; a NaN is not the same as itself). */
const plain = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null;

/**
 * Whether the records' other fields are the same plain values, key for key: then their JSON is the same. False also
 * when that cannot be told so (a nested object, a NaN, a key of no value): the JSON decides.
 */
function samePlainFields(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let fields = 0;
  // (for…in, not Object.entries: no arrays made for each of a million records — their collection held slices up)
  for (const key in x) {
    if (!Object.hasOwn(x, key) || APART.has(key)) continue;
    const v = x[key];
    if (v !== y[key] || !plain(v) || !Object.hasOwn(y, key)) return false;
    fields++;
  }
  for (const key in y) if (Object.hasOwn(y, key) && !APART.has(key)) fields--;
  return fields === 0;
}

/**
 * Whether two records' contents are the same: what comparing their `content` says, told without writing JSON where
 * it can be — their texts compared as strings (a JSON string is the same exactly when its string is), the few other
 * fields of a chunk or a message as values. A connection record (its headers) and what is not plain data is compared
 * as JSON.
 */
function sameContent(a: CaptureRecord, b: CaptureRecord): boolean {
  if (a.kind !== b.kind) return false;
  const x = a as Partial<Record<(typeof TEXTS)[number], unknown>>;
  const y = b as Partial<Record<(typeof TEXTS)[number], unknown>>;
  for (const key of TEXTS) {
    const s = x[key];
    const t = y[key];
    if (typeof s === 'string' && typeof t === 'string') {
      if (s !== t) return false;
    } else if (s !== undefined || t !== undefined) return content(a) === content(b); // a text and none: as a whole
  }
  return samePlainFields(a, b) || content(a, TEXTS) === content(b, TEXTS);
}

/** Each wanted connection's records of `records[0, end)`, in order. */
async function byConnection(records: readonly CaptureRecord[], end: number, wanted: (id: string) => boolean, slices: TimeSlices): Promise<Map<string, CaptureRecord[]>> {
  const out = new Map<string, CaptureRecord[]>();
  for (let i = 0; i < end; i++) {
    if (slices.dueAt(i)) await slices.giveBack();
    const r = records[i];
    const id = connOf(r);
    if (id === undefined || !wanted(id)) continue;
    const list = out.get(id);
    if (list) list.push(r);
    else out.set(id, [r]);
  }
  return out;
}

/**
 * Whether two connections' records are the same, but for their ids. What rules most pairs out comes first — their
 * number, their first and last records (a capture that went on longer, a retried request) — and then the rest, in
 * order, to the first that differs. `compared(n)`: n more records were compared.
 */
async function sameRecords(a: readonly CaptureRecord[], b: readonly CaptureRecord[], slices: TimeSlices, compared: (n: number) => void): Promise<boolean> {
  if (a.length !== b.length) return false;
  if (a.length === 0) return true;
  if (!sameContent(a[0], b[0]) || !sameContent(a[a.length - 1], b[b.length - 1])) return false;
  for (let i = 1; i < a.length - 1; i++) {
    if (slices.due()) {
      compared(i);
      await slices.giveBack();
    }
    if (!sameContent(a[i], b[i])) return false;
  }
  return true;
}

export interface ShownAlready {
  /** The file's records less those shown already. */
  records: CaptureRecord[];
  /** The file's connections shown already: its id → the shown connection's id. */
  known: Map<string, string>;
}

export interface CompareOptions extends SliceOptions {
  /** The share (0–1) of the records to compare record by record that were compared, as the thread is given back. */
  onProgress?: (share: number) => void;
}

/**
 * `incoming` without what `shown` holds already (the records it holds when this starts). Only connections whose
 * connection records agree are compared record by record, so a file of new streams costs a look at the connection
 * records. In slices: the thread is given back between them.
 */
export async function withoutShown(shown: readonly CaptureRecord[], incoming: readonly CaptureRecord[], options: CompareOptions = {}): Promise<ShownAlready> {
  const slices = new TimeSlices(options);
  const end = shown.length; // a live capture goes on meanwhile: what comes later is no connection shown already
  const heads = new Map<string, string[]>(); // a connection record's content → the shown connections with it
  const loose = new Set<string>(); // shown records of no connection (notes, page boundaries)
  for (let i = 0; i < end; i++) {
    if (slices.dueAt(i)) await slices.giveBack();
    const r = shown[i];
    if (r.kind === 'connection') {
      const key = content(r);
      heads.set(key, [...(heads.get(key) ?? []), r.id]);
    } else if (connOf(r) === undefined) loose.add(content(r));
  }
  const candidates = new Map<string, string[]>();
  for (let i = 0; i < incoming.length; i++) {
    if (slices.dueAt(i)) await slices.giveBack();
    const r = incoming[i];
    const ids = r.kind === 'connection' ? heads.get(content(r)) : undefined;
    if (ids && r.kind === 'connection') candidates.set(r.id, ids);
  }
  const known = new Map<string, string>();
  if (candidates.size > 0) {
    const wanted = new Set([...candidates.values()].flat());
    const shownRecords = await byConnection(shown, end, (id) => wanted.has(id), slices);
    const incomingRecords = await byConnection(incoming, incoming.length, (id) => candidates.has(id), slices);
    const total = [...candidates.keys()].reduce((n, id) => n + (incomingRecords.get(id)?.length ?? 0), 0);
    let settled = 0; // records of the candidates decided
    let shownShare = 0;
    const progress = (n: number) => {
      const share = Math.min(1, (settled + n) / total);
      if (share > shownShare) options.onProgress?.((shownShare = share));
    };
    const taken = new Set<string>();
    for (const [id, ids] of candidates) {
      const mine = incomingRecords.get(id) ?? [];
      let match: string | undefined;
      for (const s of ids) {
        if (!taken.has(s) && (await sameRecords(mine, shownRecords.get(s) ?? [], slices, progress))) {
          match = s;
          break;
        }
      }
      settled += mine.length;
      if (match === undefined) continue;
      taken.add(match);
      known.set(id, match);
    }
  }
  const records: CaptureRecord[] = [];
  for (let i = 0; i < incoming.length; i++) {
    if (slices.dueAt(i)) await slices.giveBack();
    const r = incoming[i];
    const id = connOf(r);
    if (id !== undefined ? !known.has(id) : !loose.has(content(r))) records.push(r);
  }
  return { records, known };
}

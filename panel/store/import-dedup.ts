// Importing what is shown already, under another name: the capture log and the HAR of one capture hold the same
// records (a HAR export keeps them), and the viewer's preloaded file can be imported again — each gave a second set
// of identical rows (a notice banner twice), nothing telling them apart. A connection of the file whose records are
// the same as a shown one's, but for its id, is that connection; a note or page boundary the same as a shown one is
// that one. (The same bytes are caught before they are read: import-file.ts's fingerprint.)
//
// Done in slices, the thread given back between them: a large connection shown already is compared record by record,
// and its 56,000 records (200,000 events) held the panel for 0.35–0.6 s (Chromium) when they were compared in one go;
// 280,000 records (1,000,000 events), ~1.7 s.
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { TimeSlices, type SliceOptions } from '../lib/give-back-thread.ts';

/** The connection a record belongs to (a connection record's own id), if any. */
const connOf = (r: CaptureRecord): string | undefined => (r.kind === 'connection' ? r.id : 'conn' in r ? r.conn : undefined);

const sortedKeys = (_key: string, v: unknown) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;

/** A record's JSON without its connection id, its objects' keys sorted (two writers may order them differently). */
function content(r: CaptureRecord): string {
  const { id: _id, conn: _conn, ...rest } = r as CaptureRecord & { id?: string; conn?: string };
  return JSON.stringify(rest, sortedKeys);
}

const sameContent = (a: CaptureRecord, b: CaptureRecord) => content(a) === content(b);

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

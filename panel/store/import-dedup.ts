// Importing what is shown already, under another name: the capture log and the HAR of one capture hold the same
// records (a HAR export keeps them), and the viewer's preloaded file can be imported again — each gave a second set
// of identical rows (a notice banner twice), nothing telling them apart. A connection of the file whose records are
// the same as a shown one's, but for its id, is that connection; a note or page boundary the same as a shown one is
// that one. (The same bytes are caught before they are read: import-file.ts's fingerprint.)
import type { CaptureRecord } from '../../src/core/capture/model.ts';

/** The connection a record belongs to (a connection record's own id), if any. */
const connOf = (r: CaptureRecord): string | undefined => (r.kind === 'connection' ? r.id : 'conn' in r ? r.conn : undefined);

/** A record's JSON without its connection id, its objects' keys sorted (two writers may order them differently). */
function content(r: CaptureRecord): string {
  const { id: _id, conn: _conn, ...rest } = r as CaptureRecord & { id?: string; conn?: string };
  return JSON.stringify(rest, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v);
}

function byConnection(records: readonly CaptureRecord[], wanted: (id: string) => boolean): Map<string, CaptureRecord[]> {
  const out = new Map<string, CaptureRecord[]>();
  for (const r of records) {
    const id = connOf(r);
    if (id === undefined || !wanted(id)) continue;
    const list = out.get(id);
    if (list) list.push(r);
    else out.set(id, [r]);
  }
  return out;
}

const sameRecords = (a: readonly CaptureRecord[], b: readonly CaptureRecord[]) => a.length === b.length && a.every((r, i) => content(r) === content(b[i]));

export interface ShownAlready {
  /** The file's records less those shown already. */
  records: CaptureRecord[];
  /** The file's connections shown already: its id → the shown connection's id. */
  known: Map<string, string>;
}

/**
 * `incoming` without what `shown` holds already. Only connections whose connection records agree are compared
 * record by record, so a file of new streams costs a look at the connection records.
 */
export function withoutShown(shown: readonly CaptureRecord[], incoming: readonly CaptureRecord[]): ShownAlready {
  const heads = new Map<string, string[]>(); // a connection record's content → the shown connections with it
  const loose = new Set<string>(); // shown records of no connection (notes, page boundaries)
  for (const r of shown) {
    if (r.kind === 'connection') {
      const key = content(r);
      heads.set(key, [...(heads.get(key) ?? []), r.id]);
    } else if (connOf(r) === undefined) loose.add(content(r));
  }
  const candidates = new Map<string, string[]>();
  for (const r of incoming) {
    const ids = r.kind === 'connection' ? heads.get(content(r)) : undefined;
    if (ids && r.kind === 'connection') candidates.set(r.id, ids);
  }
  const known = new Map<string, string>();
  if (candidates.size > 0) {
    const wanted = new Set([...candidates.values()].flat());
    const shownRecords = byConnection(shown, (id) => wanted.has(id));
    const incomingRecords = byConnection(incoming, (id) => candidates.has(id));
    const taken = new Set<string>();
    for (const [id, ids] of candidates) {
      const match = ids.find((s) => !taken.has(s) && sameRecords(incomingRecords.get(id) ?? [], shownRecords.get(s) ?? []));
      if (match === undefined) continue;
      taken.add(match);
      known.set(id, match);
    }
  }
  const records = incoming.filter((r) => {
    const id = connOf(r);
    return id !== undefined ? !known.has(id) : !loose.has(content(r));
  });
  return { records, known };
}

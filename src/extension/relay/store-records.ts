// The capture store's records as it holds them (capture-store.ts): each connection's state — where its record and its
// data stand in the store's list, what it lost — what a record costs against the store's limit, and the list's
// compaction once eviction has left it mostly holes.
import type { ConnectionRecord } from '../../core/capture/model.ts';
import type { EvictionDigest } from '../../core/analysis/eviction-digest.ts';
import type { WireRecord } from '../messages.ts';

export type CaptureRecord = WireRecord;
export type DataRecord = Extract<CaptureRecord, { kind: 'chunk' | 'message' | 'bytes' }>;

export interface ConnState {
  record: ConnectionRecord;
  /** Index of `record` in the store's records. */
  at: number;
  order: number;
  ended: boolean;
  /** Digest of everything evicted so far; `null` once a record could not be digested (then nothing is derived). */
  digest?: EvictionDigest | null;
  /** Indexes into `records` of this connection's chunks/messages not yet evicted, oldest first. */
  data: number[];
  dataHead: number;
  /** Evicted records of this connection still in the store's digest queue. */
  undigested: number;
  /** What went, and when last; `cleared`: how many of the chunks and messages Clear dropped (the rest the cap). */
  evicted: { chunks: number; messages: number; bytes: number; t: number; cleared?: number };
}

export function dataCost(rec: DataRecord): number {
  if (rec.kind === 'message') return rec.data.length + rec.type.length + rec.lastEventId.length + 32;
  if (rec.kind === 'bytes') return rec.payload.byteLength + 32;
  return Math.max(rec.bytes, (rec.text?.length ?? 0) + (rec.base64?.length ?? 0)) + 32;
}

/** Counts a data record the store let go (evicted, or dropped by Clear) in `lost`: a message or a chunk, its bytes. */
export function countLost(lost: { chunks: number; messages: number; bytes: number }, rec: DataRecord): void {
  if (rec.kind === 'message') lost.messages += 1;
  else lost.chunks += 1;
  lost.bytes += rec.kind === 'message' ? rec.data.length : rec.bytes;
}

export function fixedCost(rec: CaptureRecord): number {
  if (rec.kind === 'connection') return 256 + rec.url.length + (rec.requestBody?.text?.length ?? 0) + (rec.requestBody?.base64?.length ?? 0);
  if (rec.kind === 'notice') return 64 + rec.text.length;
  return 64;
}

/**
 * Drops the null holes once they dominate, re-pointing the per-connection indexes: the records without them, or
 * `records` itself while they do not.
 */
export function compactIfSparse(records: (CaptureRecord | null)[], conns: Iterable<ConnState>): (CaptureRecord | null)[] {
  let live = 0;
  for (const r of records) if (r) live += 1;
  if (live * 2 > records.length) return records;
  const remap = new Map<number, number>();
  const next: (CaptureRecord | null)[] = [];
  records.forEach((r, i) => {
    if (!r) return;
    remap.set(i, next.length);
    next.push(r);
  });
  for (const conn of conns) {
    conn.data = conn.data.slice(conn.dataHead).map((i) => remap.get(i) as number);
    conn.dataHead = 0;
    conn.at = remap.get(conn.at) as number;
  }
  return next;
}

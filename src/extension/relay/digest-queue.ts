// The capture store's evicted records waiting for their connection's EvictionDigest (capture-store.ts says what the
// digest is for). The digest reads what it gets like the panel does — ~200 ms per eviction of a realistic 64 MB
// capture's oldest tenth, on the page's own thread — so evicted records wait here and are digested in small slices in
// idle time (`CaptureStore.digestPending`, driven by the relay).
import type { EvictionDerived, EvictionRecord } from '../../core/capture/model.ts';
import { EvictionDigest } from '../../core/analysis/eviction-digest.ts';
import { payloadRecord } from '../../core/frames/byte-chunks.ts';
import { dataCost, type ConnState, type DataRecord } from './store-records.ts';

/** Evicted records not digested yet, oldest first, and their cost. */
export class DigestQueue {
  private pending: { conn: ConnState; rec: DataRecord }[] = [];
  private head = 0;
  private pendingCost = 0;

  /** Evicted records waiting to be digested. */
  get length(): number {
    return this.pending.length - this.head;
  }

  /** What the waiting records cost (dataCost): memory the store no longer counts, but still holds. */
  get cost(): number {
    return this.pendingCost;
  }

  /** An evicted record of `conn`, to be digested after those before it. */
  push(conn: ConnState, rec: DataRecord): void {
    this.pending.push({ conn, rec });
    this.pendingCost += dataCost(rec);
    conn.undigested++;
  }

  /**
   * Digests queued records while `more()` says there is time (CaptureStore.digestPending says what it returns); those
   * of a connection the store no longer holds (`isKept`) go undigested.
   */
  digest(more: () => boolean, now: number, isKept: (conn: ConnState) => boolean): EvictionRecord[] {
    const done = new Set<ConnState>();
    while (this.head < this.pending.length && more()) {
      const { conn, rec } = this.pending[this.head];
      this.pending[this.head++] = undefined as never; // let the bytes go
      this.pendingCost -= dataCost(rec);
      conn.undigested--;
      if (!isKept(conn)) continue; // let go whole meanwhile: nothing left to continue
      digestInto(conn, rec);
      if (conn.undigested === 0) done.add(conn);
    }
    if (this.head === this.pending.length) {
      this.pending = [];
      this.head = 0;
    }
    const out: EvictionRecord[] = [];
    for (const conn of done) {
      const derived = derivedOf(conn);
      if (derived) out.push({ kind: 'evicted', conn: conn.record.id, t: now, chunks: 0, messages: 0, bytes: 0, derived });
    }
    return out;
  }

  /** Empties the queue: the records of the connections `goesOn` names are digested first, in order; the rest dropped. */
  drain(goesOn: (conn: ConnState) => boolean): void {
    for (let i = this.head; i < this.pending.length; i++) {
      const { conn, rec } = this.pending[i];
      if (goesOn(conn)) digestInto(conn, rec);
    }
    this.pending = [];
    this.head = 0;
    this.pendingCost = 0;
  }
}

/** Feeds one evicted record to its connection's digest; a record the digest rejects stops deriving (never guesses). */
export function digestInto(conn: ConnState, rec: DataRecord): void {
  if (conn.digest === null) return;
  try {
    const digest = (conn.digest ??= new EvictionDigest(conn.record));
    digest.push(rec.kind === 'bytes' ? { kind: 'chunk', conn: rec.conn, t: rec.t, ...payloadRecord(rec) } : rec);
  } catch {
    conn.digest = null;
  }
}

/** The connection's digest so far; one that fails to write itself out stops deriving, like one rejecting a record. */
export function derivedOf(conn: ConnState | undefined): EvictionDerived | undefined {
  if (!conn?.digest) return undefined;
  try {
    return conn.digest.derived();
  } catch {
    conn.digest = null;
    return undefined;
  }
}

// One document's capture, held by its relay (isolated world) — where a service-worker restart cannot lose it.
//
// Checks the record stream for consistency (a chunk must belong to a connection this document opened; nothing after
// an end), and bounds memory: when the captured data exceeds the limit, the oldest chunks/messages are evicted —
// oldest connection first, a single endless connection from its start — down to 90% of the limit, and an
// EvictionRecord per affected connection reports it.
// Live eviction records are increments; a snapshot carries one cumulative record per connection, placed right after
// its connection record (so a reader learns of the gap before it sees the remaining chunks).
// What was evicted stays *derived*: each evicted record of a connection goes, in order, through that connection's
// EvictionDigest (created at its first eviction — nothing runs before), and the eviction records carry the digest
// (the client's unfinished line, the events read, every reply's message so far) so analysis continues from there.
// Evicted records wait in a queue and are digested in small slices in idle time (digest-queue.ts says why). A live
// eviction record therefore comes without `derived`; once a connection's queue is digested, a record with zero counts
// carries its digest. A snapshot digests everything first.
// The queue is bounded: past a quarter of the limit it is digested at once.
// Fetch chunks are held as the tap sent them, as bytes (BytesRecord): only what gets evicted is decoded, here.
// A connection's request body goes before its data (it was sent first); when nothing else is left to evict and the
// store is still over its limit, ended connections go whole, oldest first (retirement.ts says why).
// Each connection's state and what a record costs against the limit: store-records.ts.
import type { EvictionRecord } from '../../core/capture/model.ts';
import type { RelayRecord, RetiredRecord } from '../messages.ts';
import { requestBodyCost, retiredConnectionsNotice, withoutRequestBody } from '../retirement.ts';
import { DigestQueue, derivedOf, digestInto } from './digest-queue.ts';
import { compactIfSparse, countLost, dataCost, fixedCost, type CaptureRecord, type ConnState, type DataRecord } from './store-records.ts';

export interface AddResult {
  /** The records to forward live: the accepted ones, then increments of eviction and retirements. */
  forward: RelayRecord[];
  rejected: number;
}

/**
 * The newest data record is not evicted while it costs at most this, whatever the limit: a page that reads slower than
 * the network gets 2 MiB chunks from Chromium, and under the smallest cap (1 MiB) evicting down to 90% of it threw the
 * newest chunk away with the rest — the capture kept nothing of a stream it had just seen (an e2e flaked on it under
 * load). The bound becomes the limit plus one such record; a larger one (a huge EventSource message) still goes.
 */
export const NEWEST_KEPT_MAX = 4 * 1024 * 1024;

export class CaptureStore {
  private records: (CaptureRecord | null)[] = [];
  private conns = new Map<string, ConnState>();
  private bytes = 0;
  rejected = 0;
  /** Data was evicted since the start (or the last clear): more came than the limit let it keep. */
  hasEvicted = false;
  /** Connections not ended yet (asked after every batch: counted, not searched for). */
  private open = 0;
  /** Evicted records not digested yet (see the top of the file). */
  private readonly queue = new DigestQueue();
  /** The data record accepted last (see NEWEST_KEPT_MAX). */
  private newest: DataRecord | undefined;
  /** Connections let go whole since the start (or the last clear), and when the last went. */
  private retired = { count: 0, t: 0 };
  private nextOrder = 0;
  /** What the kept request bodies cost (see `evict`). */
  private bodyBytes = 0;

  constructor(public limitBytes: number) {}

  get size(): number {
    return this.bytes;
  }

  /** Evicted records waiting to be digested (the relay calls `digestPending` in idle time while there are any). */
  get digestBacklog(): number {
    return this.queue.length;
  }

  /**
   * Digests queued evicted records while `more()` says there is time; returns an eviction record with zero counts and
   * the connection's digest for each connection whose queue it emptied (for watchers: their cumulative record's
   * `derived` is current again).
   */
  digestPending(more: () => boolean, now: number): EvictionRecord[] {
    return this.queue.digest(more, now, (conn) => this.conns.get(conn.record.id) === conn);
  }

  /** A connection has not ended yet (its capture may still grow). */
  get hasOpenConnections(): boolean {
    return this.open > 0;
  }

  add(incoming: readonly CaptureRecord[], now: number): AddResult {
    const forward: RelayRecord[] = [];
    let rejected = 0;
    for (const rec of incoming) {
      if (this.accept(rec)) forward.push(rec);
      else rejected += 1;
    }
    this.rejected += rejected;
    forward.push(...this.enforce(now));
    return { forward, rejected };
  }

  /** Evicts down to 90% of the limit when over it (e.g. after the limit was lowered); the records that say so. */
  enforce(now: number): RelayRecord[] {
    return this.bytes > this.limitBytes ? this.evict(now) : [];
  }

  private get target(): number {
    return Math.floor(this.limitBytes * 0.9);
  }

  private accept(rec: CaptureRecord): boolean {
    if (rec.kind === 'connection') {
      if (this.conns.has(rec.id)) return false;
      this.open += 1;
      this.conns.set(rec.id, { record: rec, at: this.records.length, order: this.nextOrder++, ended: false, data: [], dataHead: 0, undigested: 0, evicted: { chunks: 0, messages: 0, bytes: 0, t: 0 } });
      this.bodyBytes += requestBodyCost(rec);
      this.push(rec, fixedCost(rec));
      return true;
    }
    if (rec.kind === 'notice') {
      if (rec.conn !== undefined && !this.conns.has(rec.conn)) return false;
      this.push(rec, fixedCost(rec));
      return true;
    }
    if (rec.kind === 'evicted') return false; // only this store decides what is evicted
    const conn = this.conns.get(rec.conn);
    if (!conn || conn.ended) return false;
    if (rec.kind === 'end') {
      conn.ended = true;
      this.open -= 1;
      this.push(rec, fixedCost(rec));
      return true;
    }
    conn.data.push(this.records.length);
    this.push(rec, dataCost(rec));
    this.newest = rec;
    return true;
  }

  private push(rec: CaptureRecord, cost: number): void {
    this.records.push(rec);
    this.bytes += cost;
  }

  private evict(now: number): RelayRecord[] {
    const target = this.target;
    const touched = new Map<string, EvictionRecord>();
    const retired: RelayRecord[] = [];
    /** The newest data record's cost when it stayed past the target (see NEWEST_KEPT_MAX). */
    let newestKept = 0;
    // Connections in the order they started; the oldest with data left gives up its oldest data first.
    const ordered = [...this.conns.entries()].sort((a, b) => a[1].order - b[1].order);
    // Request bodies may take half the limit: past that the oldest go before any data. A chat page posts its whole
    // conversation each turn, and those bodies (each holding the one before) would otherwise crowd out every stream.
    for (let i = 0; i < ordered.length && this.bodyBytes > this.limitBytes / 2; i++) this.retireBody(ordered[i][1], now, retired);
    for (const [id, conn] of ordered) {
      // Its request body was sent before any of its data came: it goes first.
      if (this.bytes > target) this.retireBody(conn, now, retired);
      while (this.bytes > target && conn.dataHead < conn.data.length) {
        const index = conn.data[conn.dataHead];
        const rec = this.records[index] as DataRecord;
        if (rec === this.newest && dataCost(rec) <= NEWEST_KEPT_MAX) {
          newestKept = dataCost(rec);
          break; // the last of its connection's data too
        }
        conn.dataHead++;
        this.records[index] = null;
        this.hasEvicted = true;
        this.queue.push(conn, rec);
        this.bytes -= dataCost(rec);
        let ev = touched.get(id);
        if (!ev) {
          ev = { kind: 'evicted', conn: id, t: now, chunks: 0, messages: 0, bytes: 0 };
          touched.set(id, ev);
        }
        countLost(ev, rec);
        countLost(conn.evicted, rec);
        conn.evicted.t = now;
      }
      if (conn.dataHead > 1024 && conn.dataHead * 2 > conn.data.length) {
        conn.data = conn.data.slice(conn.dataHead);
        conn.dataHead = 0;
      }
      if (this.bytes <= target) break;
    }
    // Only records left (and the newest read, which stays whatever they weigh): a large read past the limit is no
    // reason to let connections go — their records passing it is.
    if (this.bytes - newestKept > target) this.retireWhole(now, retired, newestKept);
    this.records = compactIfSparse(this.records, this.conns.values());
    // The queue's bound: the memory it holds on to stays within a quarter of the limit.
    const out = this.queue.cost > this.limitBytes / 4 ? this.digestPending(() => this.queue.cost > this.limitBytes / 8, now) : [];
    for (const ev of touched.values()) {
      const conn = this.conns.get(ev.conn);
      const derived = conn && conn.undigested === 0 ? derivedOf(conn) : undefined;
      if (derived) ev.derived = derived;
    }
    return [...[...touched.values()].filter((e) => this.conns.has(e.conn)), ...out.filter((e) => !touched.has(e.conn)), ...retired];
  }

  /** The connection's request body goes; a stub with its size (and what a client reads of it) stays (retirement.ts). */
  private retireBody(conn: ConnState, now: number, out: RelayRecord[]): void {
    const record = withoutRequestBody(conn.record);
    if (record === conn.record) return; // none, a stub already, or nothing to let go
    const freed = requestBodyCost(conn.record) - requestBodyCost(record);
    conn.record = record;
    this.records[conn.at] = record;
    this.bytes -= freed;
    this.bodyBytes -= freed;
    out.push({ kind: 'retired', conn: record.id, t: now, what: 'request-body' } satisfies RetiredRecord);
  }

  /**
   * No data is left to evict (but the newest read, `newestKept`), and the records of ended connections still pass the
   * target: the oldest of them go whole (with their end records and notices) — down to half the target, so that such
   * records, piling up, do not evict every new stream as it comes. Open connections keep their record (their next
   * records need it).
   */
  private retireWhole(now: number, out: RelayRecord[], newestKept: number): void {
    const done = [...this.conns.values()].filter((c) => c.ended && c.dataHead === c.data.length).sort((a, b) => a.order - b.order);
    const gone = new Set<string>();
    for (const conn of done) {
      if (this.bytes - newestKept <= this.target / 2) break;
      gone.add(conn.record.id);
      this.conns.delete(conn.record.id);
      this.records[conn.at] = null;
      this.bytes -= fixedCost(conn.record);
      this.bodyBytes -= requestBodyCost(conn.record);
      out.push({ kind: 'retired', conn: conn.record.id, t: now, what: 'connection' } satisfies RetiredRecord);
    }
    if (gone.size === 0) return;
    for (let i = 0; i < this.records.length; i++) {
      const r = this.records[i];
      if (r && r.kind !== 'connection' && 'conn' in r && r.conn !== undefined && gone.has(r.conn)) {
        this.records[i] = null;
        this.bytes -= fixedCost(r); // ends and notices: its data was all evicted before
      }
    }
    this.retired = { count: this.retired.count + gone.size, t: now };
  }

  /** Everything kept, in arrival order, with one cumulative EvictionRecord after each connection that lost data. */
  snapshot(): CaptureRecord[] {
    this.digestPending(() => true, 0); // a snapshot's eviction records carry complete digests
    const out: CaptureRecord[] = [];
    if (this.retired.count > 0) out.push(retiredConnectionsNotice(this.retired.count, this.retired.t));
    for (const rec of this.records) {
      if (!rec) continue;
      out.push(rec);
      if (rec.kind === 'connection') {
        const conn = this.conns.get(rec.id);
        const ev = conn?.evicted;
        if (ev && (ev.chunks || ev.messages)) {
          const derived = derivedOf(conn);
          out.push({ kind: 'evicted', conn: rec.id, t: ev.t, ...pick(ev), ...(ev.cleared ? { cleared: ev.cleared } : {}), ...(derived ? { derived } : {}) });
        }
      }
    }
    return out;
  }

  /**
   * Forgets everything. With `keepOpen` (the panel's Clear), connections still open keep their connection record
   * (their next chunks need it), and what they lost is reported as evicted so a reader knows the stream does not
   * start at the beginning. Without it (the site was switched off) nothing is kept.
   * What stays is what an open connection needs to go on: its record and its digest, which forgets the replies that
   * ended (EvictionDigest.forgetEnded). An ended connection keeps nothing, and what it had waiting for its digest is
   * dropped undigested.
   */
  clear(now: number, keepOpen = true): void {
    // In order: what was evicted before what Clear drops — of the connections that go on.
    this.queue.drain((conn) => keepOpen && !conn.ended && this.conns.get(conn.record.id) === conn);
    const kept: CaptureRecord[] = [];
    const keptConns = new Map<string, ConnState>();
    for (const rec of this.records) {
      if (!rec || rec.kind !== 'connection') continue;
      const conn = this.conns.get(rec.id);
      if (!conn || conn.ended || !keepOpen) continue;
      const lost = { ...conn.evicted };
      const cleared = conn.data.length - conn.dataHead;
      for (let i = conn.dataHead; i < conn.data.length; i++) {
        const d = this.records[conn.data[i]] as DataRecord;
        digestInto(conn, d); // what Clear drops is evicted too: the rest of the stream continues from its digest
        countLost(lost, d);
      }
      lost.t = now;
      // Said as Clear's, not the memory cap's: "evicted 15 events (memory cap)" after a Clear sent the user to the cap.
      if (cleared > 0) lost.cleared = (lost.cleared ?? 0) + cleared;
      conn.digest?.forgetEnded();
      keptConns.set(rec.id, { record: rec, at: kept.length, order: keptConns.size, ended: false, data: [], dataHead: 0, undigested: 0, evicted: lost, digest: conn.digest });
      kept.push(rec);
    }
    this.records = kept;
    this.conns = keptConns;
    this.newest = undefined;
    this.retired = { count: 0, t: 0 };
    this.nextOrder = keptConns.size;
    this.bodyBytes = kept.reduce((n, r) => n + (r.kind === 'connection' ? requestBodyCost(r) : 0), 0);
    this.open = keptConns.size; // only open connections are kept
    this.hasEvicted = false;
    this.bytes = kept.reduce((n, r) => n + fixedCost(r), 0);
  }
}

function pick(ev: { chunks: number; messages: number; bytes: number }): { chunks: number; messages: number; bytes: number } {
  return { chunks: ev.chunks, messages: ev.messages, bytes: ev.bytes };
}

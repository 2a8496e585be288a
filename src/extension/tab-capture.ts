// A tab's capture as a watcher sees it: the documents (frames × page loads) of the tab, each with its records,
// assembled from the background's snapshot / records / document-gone messages. Used by the panel client and by the
// background's debug collector.
//
// "Preserve log" (off by default) decides what happens to documents that went away: off — a navigation of the top
// frame drops the documents of the page that was left (subframes that come and go within a page stay until then);
// on — nothing is dropped until clear(), or until the panel outgrows its memory bound (panel-compaction.ts): then
// the oldest of those documents go first (`dropOldestGone`), and a note at the top of the capture says how many.
// Where it keeps connections of a page that was left, records() puts a `navigation` record before the next page's
// documents, so the panel (and an export of it) can tell which page each stream came from (see page-visits.ts).
import type { CaptureRecord, EvictionRecord } from '../core/capture/model.ts';
import { payloadRecord } from '../core/frames/byte-chunks.ts';
import { DOCUMENT_GONE_END } from '../core/capture/notices.ts';
import { isDevtoolsConn, withoutTapTwins } from '../core/capture/devtools-entry.ts';
import { COMPACT_FACTOR, dataBytes } from './panel-compaction.ts';
import { beginVisit, visitOrderedRecords, type VisitRef } from './page-visits.ts';
import type { BackgroundToPanel, PageRecord, WireRecord } from './messages.ts';
import { applyRetired } from './retirement.ts';

/** Wall-clock epoch ms: the time an orphaned stream is ended at (the panel's clock; the page's is the same machine's). */
const nowMs = (): number => Date.now();

/** Fetch chunks arrive as bytes (see messages.ts); here, off the page's thread, they become capture log records. */
export function toCaptureRecords(records: readonly WireRecord[]): PageRecord[] {
  return records.map((r) => (r.kind === 'bytes' ? { kind: 'chunk', conn: r.conn, t: r.t, ...payloadRecord(r) } : r));
}

export interface DocumentCapture {
  docId: string;
  frameId: number;
  frameUrl: string;
  isTop: boolean;
  siteOrigin: string;
  siteEnabled: boolean;
  records: CaptureRecord[];
  gone: boolean;
  /** The navigation generation the document was first seen in. */
  generation: number;
  /**
   * When each visit began (epoch ms): [0] its first snapshot — for a top document, when the page was navigated to —
   * then each return from the back/forward cache (see page-visits.ts).
   */
  visits: number[];
  /** The visit each connection was declared in, for connections of a visit before the last. */
  visitOfConn: Map<string, number>;
}

export type CaptureChange =
  | { kind: 'reset' } // the whole record list changed: re-read records()
  | { kind: 'append'; records: CaptureRecord[] };

export class TabCapture {
  private docs = new Map<string, DocumentCapture>();
  private generation = 0;
  private currentTop: string | undefined;
  preserveLog = false;
  /** Invalid messages and records the relays reported (sum over the documents' last snapshots). */
  private droppedByDoc = new Map<string, number>();
  /** Documents preserve-log kept that were let go for memory (see dropOldestGone), and when the last one was. */
  private goneDropped = { count: 0, t: 0 };
  /** Every document's visits in the order they began (the order records() reads them in). */
  private order: VisitRef[] = [];

  apply(message: BackgroundToPanel): CaptureChange | undefined {
    switch (message.type) {
      case 'snapshot': {
        const { type: _t, records: wire, dropped, ...info } = message;
        const records = toCaptureRecords(wire);
        const previous = this.docs.get(message.docId);
        if (info.isTop && this.currentTop !== message.docId) this.navigated(message.docId);
        const visits = previous?.visits ?? [nowMs()];
        const visitOfConn = previous?.visitOfConn ?? new Map<string, number>();
        const doc: DocumentCapture = { ...info, records: [...records], gone: false, generation: previous?.generation ?? this.generation, visits, visitOfConn };
        // (A document let go and then seen again — back from the cache without preserve log — starts afresh.)
        if (!previous) this.order = [...this.order.filter((v) => v.docId !== message.docId), { docId: message.docId, visit: 0 }];
        else if (previous.gone) {
          // Back from the back/forward cache: what it captures from now on comes after the pages visited meanwhile.
          beginVisit(doc, nowMs());
          this.order.push({ docId: message.docId, visit: doc.visits.length - 1 });
        }
        this.docs.set(message.docId, doc);
        this.droppedByDoc.set(message.docId, dropped);
        return { kind: 'reset' };
      }
      case 'records': {
        const doc = this.docs.get(message.docId);
        if (!doc) return undefined; // a snapshot always comes first; stray records are ignored
        const records: PageRecord[] = [];
        for (const wire of message.records) {
          if (wire.kind === 'retired') {
            // The relay let go of more than data: this copy follows, and the panel learns of it from the next
            // snapshot (its own copy is bounded by panel-compaction.ts) — a notice about it comes as a record.
            doc.records = applyRetired(doc.records, wire);
            continue;
          }
          const [r] = toCaptureRecords([wire]);
          records.push(r);
          if (r.kind === 'evicted') evictFrom(doc, r);
          else doc.records.push(r);
        }
        return { kind: 'append', records };
      }
      case 'page-reach':
        return undefined; // about the page, not its capture (see panel-connection.ts)
      case 'document-gone': {
        const doc = this.docs.get(message.docId);
        if (!doc) return undefined;
        doc.gone = true;
        const ends = endOrphanedStreams(doc, nowMs());
        if (message.isTop && this.currentTop === message.docId) {
          // Kept until the tab shows its next page (that page's first snapshot, or the tab's loading: topNavigated) —
          // a tab that closes has none: a panel opened as a tab dropped what it showed and said "Connected — waiting
          // for agent streams". One whose loading came first (a page without a relay next) goes now, as before.
          if (doc.generation === this.generation) return ends.length ? { kind: 'append', records: ends } : undefined;
          this.navigated(undefined);
          return { kind: 'reset' };
        }
        if (!this.preserveLog && doc.generation < this.generation) {
          this.docs.delete(doc.docId);
          return { kind: 'reset' };
        }
        return ends.length ? { kind: 'append', records: ends } : undefined;
      }
    }
  }

  /**
   * The tab started loading a new page (tabs.onUpdated status 'loading'). Needed when the top frame itself never
   * captured anything, so no document-gone tells us about the navigation.
   */
  topNavigated(): CaptureChange {
    this.navigated(this.currentTop);
    return { kind: 'reset' };
  }

  /** The top frame has a new document (or lost its old one): the page that was left is history. */
  private navigated(newTop: string | undefined): void {
    this.currentTop = newTop;
    this.generation += 1;
    if (this.preserveLog) return;
    for (const doc of [...this.docs.values()]) {
      if (doc.gone && doc.generation < this.generation) this.docs.delete(doc.docId);
    }
  }

  /**
   * Forgets the oldest documents that went away — kept only by "preserve log" — while together they hold more than
   * `bytes` of captured data. Returns how many went; records() then starts with a note saying so.
   */
  dropOldestGone(bytes: number, now: number): number {
    const gone = [...this.docs.values()].filter((d) => d.gone);
    let held = 0;
    const sizes = gone.map((d) => dataBytes(d.records));
    for (const n of sizes) held += n;
    let dropped = 0;
    for (let i = 0; i < gone.length && held > bytes; i++) {
      held -= sizes[i];
      this.docs.delete(gone[i].docId);
      this.droppedByDoc.delete(gone[i].docId);
      dropped++;
    }
    if (dropped > 0) this.goneDropped = { count: this.goneDropped.count + dropped, t: now };
    return dropped;
  }

  /** All records of all documents kept, documents in the order first seen (visits in the order begun), with page boundaries. */
  records(): CaptureRecord[] {
    const out: CaptureRecord[] = [];
    const { count, t } = this.goneDropped;
    if (count > 0) {
      out.push({
        kind: 'notice', t, level: 'info',
        text: `Preserve log: the ${count === 1 ? 'oldest page was' : `${count} oldest pages were`} let go to keep the panel within its memory bound (${COMPACT_FACTOR}× the capture cap)`,
      });
    }
    this.order = this.order.filter((v) => this.docs.has(v.docId)); // forget the visits of documents let go
    visitOrderedRecords(this.order, this.docs, out);
    // The DevTools page's log (devtools-log.ts) lists the tap's streams too: those go, its own (a Worker's) stay.
    for (const id of this.docs.keys()) if (isDevtoolsConn(id)) return withoutTapTwins(out);
    return out;
  }

  documents(): DocumentCapture[] {
    return [...this.docs.values()];
  }

  topDocument(): DocumentCapture | undefined {
    return this.currentTop ? this.docs.get(this.currentTop) : undefined;
  }

  dropped(): number {
    let n = 0;
    for (const v of this.droppedByDoc.values()) n += v;
    return n;
  }

  /** Forgets all records and the documents that are gone; live documents stay known (origin, site switch). */
  clear(): void {
    for (const doc of [...this.docs.values()]) {
      if (doc.gone) this.docs.delete(doc.docId);
      else doc.records = [];
    }
    this.droppedByDoc.clear();
    this.goneDropped = { count: 0, t: 0 };
  }
}

/**
 * The streams of a document that went away (a removed iframe, a page left) still without an end: the browser aborted
 * them with it, and no tap is left to say so — they read "live" for good. Ended here, as aborted, with why.
 */
function endOrphanedStreams(doc: DocumentCapture, t: number): CaptureRecord[] {
  const ended = new Set<string>();
  for (const r of doc.records) if (r.kind === 'end') ended.add(r.conn);
  const ends: CaptureRecord[] = [];
  for (const r of doc.records) {
    if (r.kind === 'connection' && !ended.has(r.id)) ends.push({ kind: 'end', conn: r.id, t, state: 'aborted', error: `${DOCUMENT_GONE_END} (the frame was removed or navigated, or its tab closed)` });
  }
  for (const e of ends) doc.records.push(e);
  return ends;
}

/**
 * A live eviction increment: the relay dropped the oldest `chunks`/`messages` of a connection. The watcher drops the
 * same records, so its memory stays bounded like the relay's, and keeps one cumulative eviction record right after
 * the connection record — the shape of a snapshot, so a later export reads exactly like the relay's own capture.
 */
function evictFrom(doc: DocumentCapture, ev: EvictionRecord): void {
  let chunks = ev.chunks;
  let messages = ev.messages;
  let previous: EvictionRecord | undefined;
  doc.records = doc.records.filter((r) => {
    if (r.kind === 'evicted' && r.conn === ev.conn) {
      previous = r;
      return false;
    }
    if (r.kind === 'chunk' && r.conn === ev.conn && chunks > 0) {
      chunks--;
      return false;
    }
    if (r.kind === 'message' && r.conn === ev.conn && messages > 0) {
      messages--;
      return false;
    }
    return true;
  });
  const merged: EvictionRecord = {
    kind: 'evicted', conn: ev.conn, t: ev.t,
    chunks: (previous?.chunks ?? 0) + ev.chunks,
    messages: (previous?.messages ?? 0) + ev.messages,
    bytes: (previous?.bytes ?? 0) + ev.bytes,
    ...(previous?.cleared ? { cleared: previous.cleared } : {}), // (an increment is the cap's: Clear comes in a snapshot)
    // The relay digests what it evicts in idle time (relay/capture-store.ts): an increment without a digest makes the
    // previous one stale (it covers less than the counts now say), so it is dropped until a later increment — one with
    // zero counts, sent once the digest caught up — brings the current one.
    ...(ev.derived ? { derived: ev.derived } : ev.chunks + ev.messages === 0 && previous?.derived ? { derived: previous.derived } : {}),
  };
  const at = doc.records.findIndex((r) => r.kind === 'connection' && r.id === ev.conn);
  doc.records.splice(at + 1, 0, merged);
}

// The order a tab's capture is read in, with its page boundaries. Documents (frames × page loads) are read in the
// order they were first seen, so a page's frames follow its top document — except a document the back/forward cache
// restored: the tab left it and came back to it (Back), so what it captures after its return belongs after the pages
// visited meanwhile. Each return opens a new *visit* of the document; a connection belongs to the visit it was
// declared in, and its records are read there (all of them in order, as analysis needs).
//
// A top document's visit after the first (a page navigated to, or returned to) gets a `navigation` record before it
// — only once a connection of an earlier page is kept above it (without preserve log the old page went with its
// connections, and a boundary with nothing above it would say nothing).
import type { CaptureRecord } from '../core/capture/model.ts';

export interface VisitedDocument {
  frameUrl: string;
  isTop: boolean;
  records: CaptureRecord[];
  /** When each visit began (epoch ms): [0] when the document was first seen, then each return from the bfcache. */
  visits: number[];
  /** Connections declared in a visit before the last (set when a visit ends by the document's return). */
  visitOfConn: Map<string, number>;
}

export interface VisitRef {
  docId: string;
  visit: number;
}

/** The document came back (bfcache restore): the connections it holds so far belong to the visit that ends here. */
export function beginVisit(doc: VisitedDocument, t: number): void {
  const ending = doc.visits.length - 1;
  for (const r of doc.records) if (r.kind === 'connection' && !doc.visitOfConn.has(r.id)) doc.visitOfConn.set(r.id, ending);
  doc.visits.push(t);
}

/** The records of `docs`, visit by visit in `order`, with a navigation record where a later page begins. */
export function visitOrderedRecords(order: readonly VisitRef[], docs: ReadonlyMap<string, VisitedDocument>, out: CaptureRecord[]): void {
  let connectionsBefore = false;
  let firstTop = true;
  for (const { docId, visit } of order) {
    const doc = docs.get(docId);
    if (!doc || visit >= doc.visits.length) continue; // let go (clear, memory, navigation without preserve log)
    if (doc.isTop) {
      if (!firstTop && connectionsBefore) out.push({ kind: 'navigation', t: doc.visits[visit], url: doc.frameUrl });
      firstTop = false;
    }
    const last = doc.visits.length - 1;
    const visitOf = (conn: string): number => doc.visitOfConn.get(conn) ?? last;
    for (const r of doc.records) {
      // A page note (no connection) stays with the first visit: when it came is not recorded.
      const v = last === 0 ? 0 : r.kind === 'connection' ? visitOf(r.id) : r.kind !== 'navigation' && r.conn !== undefined ? visitOf(r.conn) : 0;
      if (v !== visit) continue;
      out.push(r);
      if (r.kind === 'connection') connectionsBefore = true;
    }
  }
}

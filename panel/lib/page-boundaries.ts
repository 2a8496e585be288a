// Where the connection list draws its "Navigated to …" rows. A boundary is recorded as a position among all
// connections (CaptureAnalyzer.navigations); the list may show fewer (URL filter, "Has errors"), so each boundary goes
// before the first shown connection declared after it — or after the last row when none is (the new page has no
// stream yet, or the filter hides them all: the row still says the ones above came from an earlier page). With no
// connection shown at all there is nothing to set apart, and no boundary is drawn.
import type { PageBoundary } from '../../src/core/analysis/analyze.ts';

/** Boundaries by the index in `shownIds` of the row they precede (`shownIds.length`: after the last row). */
export function placeBoundaries(allIds: readonly string[], shownIds: readonly string[], boundaries: readonly PageBoundary[]): Map<number, PageBoundary[]> {
  const out = new Map<number, PageBoundary[]>();
  if (boundaries.length === 0 || shownIds.length === 0) return out;
  const position = new Map<string, number>();
  allIds.forEach((id, i) => position.set(id, i));
  let row = 0;
  for (const b of boundaries) {
    // Boundaries come in capture order, their `before` never decreasing: the scan goes on from the last one.
    while (row < shownIds.length && (position.get(shownIds[row]) ?? 0) < b.before) row++;
    const at = out.get(row);
    if (at) at.push(b);
    else out.set(row, [b]);
  }
  return out;
}

// A "Navigated to …" row in the connection grid: the connections above it came from a page the tab has left (kept by
// Preserve log), those below from the page named. It is a row of the grid so a screen reader reading the table meets
// it where it stands, but not a connection: no id, no aria-selected — arrow keys and aria-activedescendant skip it.
import type { PageBoundary } from '../../src/core/analysis/analyze.ts';

/** The page's local time of day, to the second (a capture log's times are epoch ms; unknown ones are NaN). */
function clock(t: number): string | undefined {
  if (!Number.isFinite(t)) return undefined;
  return new Date(t).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function PageBoundaryRow({ boundary, columns }: { boundary: PageBoundary; columns: number }) {
  const time = clock(boundary.t);
  return (
    <tr class="page-boundary" data-testid="page-boundary">
      <td colSpan={columns} title={`Navigated to ${boundary.url}${time ? ` at ${new Date(boundary.t).toISOString()}` : ''}`}>
        <span class="page-boundary-text">Navigated to {boundary.url}</span>
        {time ? <time class="page-boundary-time" dateTime={new Date(boundary.t).toISOString()}>{time}</time> : null}
      </td>
    </tr>
  );
}

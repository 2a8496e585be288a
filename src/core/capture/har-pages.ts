// A HAR export's pages (log.pages and each entry's pageref), from the capture's page visits: apart from the entries'
// writing (har.ts), which asks for them once per export.
import type { Page } from 'har-format';
import type { Capture, ConnectionRecord, NavigationRecord } from './model.ts';

/**
 * `log.pages`, one per page visit the capture holds, and each visit's page id (undefined: no page written for it).
 * A HAR reader tells a capture's pages apart by the entries' `pageref` (ours draws a boundary where it changes between
 * two streams: har-import-browser.ts), and names a page by its `title` — Chrome's is the page's URL, as here: the
 * capture records no document titles. A visit after the first is a `navigation` record: its URL, its time. The first
 * page has no record of its own: its URL is the header's `pageUrl` when the capture has one page (the panel writes the
 * tab's page as it exports: with several, the last one), else the frame URL of its first top-frame connection.
 *
 * HAR 1.2 makes pages optional (an entry's `pageref` is left out "if the application does not support grouping by
 * pages"). One page is written when its URL is known — a HAR viewer heads the entries with it, and an import without
 * our records reads the capture's page URL back from it — and none when it is not (an imported body, a log without
 * page URLs): a page of no URL would tell a reader nothing. With navigations, the first page is written whenever a
 * connection was declared on it, titled '' if its URL is not known: a reader draws a boundary only between the
 * entries of two pages, so without it the first navigation's boundary would be lost.
 */
export function harPages(capture: Capture, navigations: readonly NavigationRecord[], connections: readonly { conn: ConnectionRecord; visit: number }[]): { pages: Page[]; idOf: (string | undefined)[] } {
  const visits = [{ url: undefined as string | undefined, t: Number.NaN, conns: [] as ConnectionRecord[] }, ...navigations.map((n) => ({ url: n.url, t: n.t, conns: [] as ConnectionRecord[] }))];
  for (const { conn, visit } of connections) visits[visit].conns.push(conn);
  const first = visits[0];
  first.url = (navigations.length === 0 ? capture.header.pageUrl : undefined) || first.conns.find((c) => !c.isSubframe && c.frameUrl !== '')?.frameUrl || undefined;
  const pages: Page[] = [];
  const idOf = visits.map((v, k) => {
    if (k === 0 && v.url === undefined && (navigations.length === 0 || v.conns.length === 0)) return undefined;
    // When the page began: its navigation's time, else the earliest start of its connections (the first page's load
    // is not recorded), else when the capture was made.
    let t = v.t;
    if (!Number.isFinite(t)) {
      t = Infinity;
      for (const c of v.conns) if (c.startTime < t) t = c.startTime; // (NaN is never less)
    }
    const id = `page_${pages.length + 1}`;
    pages.push({ startedDateTime: isoTime(t, capture.header.created), id, title: v.url ?? '', pageTimings: {} });
    return id;
  });
  return { pages, idOf };
}

/** `ms` as an ISO time, or `fallback` when it is no time (the entries' times too). */
export function isoTime(ms: number, fallback: string): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
}

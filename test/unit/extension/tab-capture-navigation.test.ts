// Page boundaries in a tab's capture: where Preserve log keeps connections of a page the tab left, records() marks
// where the next page begins with a `navigation` record (the panel's "Navigated to …" row, kept by an export).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageRecord } from '../../../src/core/capture/model.ts';
import type { BackgroundToPanel } from '../../../src/extension/messages.ts';
import { TabCapture } from '../../../src/extension/tab-capture.ts';

const conn = (id: string, page: string): PageRecord => ({ kind: 'connection', id, transport: 'fetch', frameUrl: page, method: 'GET', url: `${page}stream`, requestHeaders: [], startTime: 0 });
const notice = (text: string): PageRecord => ({ kind: 'notice', t: 1, level: 'info', text });
const snapshot = (docId: string, isTop: boolean, url: string, records: PageRecord[]): BackgroundToPanel => ({
  type: 'snapshot', docId, frameId: isTop ? 0 : 7, frameUrl: url, isTop, siteOrigin: new URL(url).origin, siteEnabled: true, records, dropped: 0,
});
const gone = (docId: string, isTop = true): BackgroundToPanel => ({ type: 'document-gone', docId, isTop });
/** The records as one line each: a connection by id, a navigation by URL and time. */
const outline = (c: TabCapture): string[] =>
  c.records().map((r) => (r.kind === 'connection' ? r.id : r.kind === 'navigation' ? `→ ${r.url} @${r.t}` : r.kind));

describe('TabCapture page boundaries', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('with preserve log, marks where each later page begins, with its URL and the time its document was first seen', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    vi.setSystemTime(1000);
    c.apply(snapshot('top1', true, 'https://a.test/', [conn('a1', 'https://a.test/')]));
    c.apply(snapshot('frame1', false, 'https://w.test/embed', [conn('f1', 'https://w.test/embed')]));
    c.topNavigated();
    c.apply(gone('frame1', false));
    c.apply(gone('top1'));
    vi.setSystemTime(2000);
    c.apply(snapshot('top2', true, 'https://b.test/chat?x=1', []));
    // The new page has no stream yet: the boundary already says the ones above came from the page left.
    expect(outline(c)).toEqual(['a1', 'end', 'f1', 'end', '→ https://b.test/chat?x=1 @2000']);
    c.apply({ type: 'records', docId: 'top2', records: [conn('b1', 'https://b.test/chat?x=1')] });
    c.apply(gone('top2'));
    vi.setSystemTime(3000);
    c.apply(snapshot('top3', true, 'https://c.test/', [conn('c1', 'https://c.test/')]));
    // A later snapshot of the same document (a service-worker restart) keeps the time it was first seen.
    vi.setSystemTime(9000);
    c.apply(snapshot('top3', true, 'https://c.test/', [conn('c1', 'https://c.test/')]));
    expect(outline(c)).toEqual(['a1', 'end', 'f1', 'end', '→ https://b.test/chat?x=1 @2000', 'b1', 'end', '→ https://c.test/ @3000', 'c1']);
  });

  it('marks nothing when no connection of an earlier page is kept', () => {
    const c = new TabCapture();
    c.apply(snapshot('top1', true, 'https://a.test/', [conn('a1', 'https://a.test/')]));
    c.apply(gone('top1'));
    c.apply(snapshot('top2', true, 'https://b.test/', [conn('b1', 'https://b.test/')]));
    expect(outline(c)).toEqual(['b1']); // without preserve log the old page went with its connections

    const p = new TabCapture();
    p.preserveLog = true;
    p.apply(snapshot('top1', true, 'https://a.test/', [notice('a worker')])); // a page note, no connection
    p.apply(gone('top1'));
    p.apply(snapshot('top2', true, 'https://b.test/', [conn('b1', 'https://b.test/')]));
    expect(outline(p)).toEqual(['notice', 'b1']);
  });

  it('a subframe reporting before its top document (a panel opened on a loaded page) is no page boundary', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    c.apply(snapshot('frame1', false, 'https://w.test/embed', [conn('f1', 'https://w.test/embed')]));
    c.apply(snapshot('top1', true, 'https://a.test/', [conn('a1', 'https://a.test/')]));
    expect(outline(c)).toEqual(['f1', 'a1']);
  });

  it('a page the back/forward cache restores is a new visit: what it streams after its return comes after the page left', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    vi.setSystemTime(1000);
    c.apply(snapshot('a', true, 'https://a.test/', [conn('a1', 'https://a.test/')]));
    c.apply(gone('a')); // frozen: the browser closed its port
    vi.setSystemTime(2000);
    c.apply(snapshot('b', true, 'https://b.test/', [conn('b1', 'https://b.test/')]));
    c.apply(gone('b'));
    vi.setSystemTime(3000);
    c.apply(snapshot('a', true, 'https://a.test/', [conn('a1', 'https://a.test/')])); // Back: the same document, restored
    c.apply({ type: 'records', docId: 'a', records: [conn('a2', 'https://a.test/'), { kind: 'end', conn: 'a1', t: 4, state: 'complete' }] });
    // a1's late record stays with a1 (its visit); a2 is the returned page's.
    expect(outline(c)).toEqual(['a1', 'end', '→ https://b.test/ @2000', 'b1', 'end', '→ https://a.test/ @3000', 'a2']);
    // A service-worker restart re-sends the snapshot of a live document: no new visit.
    c.apply(snapshot('a', true, 'https://a.test/', [conn('a1', 'https://a.test/'), conn('a2', 'https://a.test/')]));
    expect(outline(c)).toEqual(['a1', '→ https://b.test/ @2000', 'b1', 'end', '→ https://a.test/ @3000', 'a2']);
  });

  it('without preserve log, a page restored after it was let go reads once, as a new document', () => {
    const c = new TabCapture();
    c.apply(snapshot('a', true, 'https://a.test/', [conn('a1', 'https://a.test/')]));
    c.apply(gone('a'));
    c.apply(snapshot('b', true, 'https://b.test/', []));
    c.apply(gone('b'));
    c.apply(snapshot('a', true, 'https://a.test/', [conn('a1', 'https://a.test/')]));
    c.apply({ type: 'records', docId: 'a', records: [conn('a2', 'https://a.test/')] });
    expect(outline(c)).toEqual(['a1', 'a2']);
  });

  it('pages let go for memory and clear() take their boundaries with them', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    for (let i = 1; i <= 3; i++) {
      vi.setSystemTime(i * 1000);
      c.apply(snapshot(`top${i}`, true, `https://p${i}.test/`, [conn(`c${i}`, `https://p${i}.test/`), { kind: 'chunk', conn: `c${i}`, t: 1, bytes: 100, text: 'x'.repeat(100) }]));
      if (i < 3) c.apply(gone(`top${i}`));
    }
    expect(outline(c).filter((l) => l.startsWith('→'))).toEqual(['→ https://p2.test/ @2000', '→ https://p3.test/ @3000']);
    c.dropOldestGone(100, 5); // page 1 goes: page 2 is now the oldest kept, nothing above it to set apart
    expect(outline(c).filter((l) => /^(→|c\d)/.test(l))).toEqual(['c2', '→ https://p3.test/ @3000', 'c3']);
    c.clear();
    expect(outline(c)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { CaptureRecord, PageRecord } from '../../../src/core/capture/model.ts';
import type { BackgroundToPanel } from '../../../src/extension/messages.ts';
import { TabCapture } from '../../../src/extension/tab-capture.ts';

const notice = (text: string): PageRecord => ({ kind: 'notice', t: 1, level: 'info', text });
const snapshot = (docId: string, isTop: boolean, records: PageRecord[]): BackgroundToPanel => ({
  type: 'snapshot', docId, frameId: isTop ? 0 : 7, frameUrl: `https://app.test/${docId}`, isTop, siteOrigin: 'https://app.test', siteEnabled: true, records, dropped: 0,
});
const texts = (c: TabCapture): string[] => c.records().map((r) => (r.kind === 'notice' ? r.text : r.kind));

describe('TabCapture', () => {
  it('assembles documents: snapshot replaces, records append, stray records are ignored', () => {
    const c = new TabCapture();
    expect(c.apply({ type: 'records', docId: 'top1', records: [notice('stray')] })).toBeUndefined();
    expect(c.apply(snapshot('top1', true, [notice('a')]))).toEqual({ kind: 'reset' });
    expect(c.apply({ type: 'records', docId: 'top1', records: [notice('b')] })).toEqual({ kind: 'append', records: [notice('b')] });
    c.apply(snapshot('frame1', false, [notice('f')]));
    expect(texts(c)).toEqual(['a', 'b', 'f']);
    c.apply(snapshot('top1', true, [notice('a'), notice('b'), notice('c')])); // e.g. after a worker restart
    expect(texts(c)).toEqual(['a', 'b', 'c', 'f']);
  });

  it('live evictions: the watcher drops the same records; a digest stays only while it covers every evicted record', () => {
    const c = new TabCapture();
    const conn: PageRecord = { kind: 'connection', id: 'x', transport: 'fetch', frameUrl: 'https://app.test/', method: 'GET', url: 'https://app.test/s', requestHeaders: [], startTime: 0 };
    const chunk = (t: number): PageRecord => ({ kind: 'chunk', conn: 'x', t, bytes: 9, text: `data: ${t}\n\n` });
    c.apply(snapshot('top1', true, [conn, chunk(1), chunk(2), chunk(3)]));
    const derived = (events: number) => ({ events, carry: '', replies: [] });
    const evicted = (chunks: number, d?: ReturnType<typeof derived>): BackgroundToPanel => ({
      type: 'records', docId: 'top1', records: [{ kind: 'evicted', conn: 'x', t: 5, chunks, messages: 0, bytes: 9 * chunks, ...(d ? { derived: d } : {}) }],
    });
    const head = () => c.records()[1] as Extract<CaptureRecord, { kind: 'evicted' }>;
    c.apply(evicted(1, derived(1)));
    expect(head()).toMatchObject({ chunks: 1, derived: derived(1) });
    c.apply(evicted(1)); // evicted before the relay digested it: the old digest no longer covers the gap
    expect(head().chunks).toBe(2);
    expect(head().derived).toBeUndefined();
    c.apply(evicted(0, derived(2))); // the digest caught up
    expect(head()).toMatchObject({ chunks: 2, bytes: 18, derived: derived(2) });
    expect(c.records().filter((r) => r.kind === 'chunk').map((r) => r.t)).toEqual([3]);
  });

  it('a live eviction after a Clear keeps the count of what Clear dropped: the merged record is said as both', () => {
    const c = new TabCapture();
    const conn: PageRecord = { kind: 'connection', id: 'x', transport: 'fetch', frameUrl: 'https://app.test/', method: 'GET', url: 'https://app.test/s', requestHeaders: [], startTime: 0 };
    const chunk = (t: number): PageRecord => ({ kind: 'chunk', conn: 'x', t, bytes: 9, text: `data: ${t}\n\n` });
    // The relay's snapshot after Clear: three chunks dropped by it, the stream going on.
    c.apply(snapshot('top1', true, [conn, { kind: 'evicted', conn: 'x', t: 4, chunks: 3, messages: 0, bytes: 27, cleared: 3 }, chunk(5), chunk(6)]));
    c.apply({ type: 'records', docId: 'top1', records: [{ kind: 'evicted', conn: 'x', t: 7, chunks: 1, messages: 0, bytes: 9 }] }); // the cap's
    expect(c.records()[1]).toEqual({ kind: 'evicted', conn: 'x', t: 7, chunks: 4, messages: 0, bytes: 36, cleared: 3 });
  });

  it('without preserve log, leaving a page drops its documents; a removed iframe stays until then', () => {
    const c = new TabCapture();
    c.apply(snapshot('top1', true, [notice('old page')]));
    c.apply(snapshot('frame1', false, [notice('old frame')]));
    c.apply({ type: 'document-gone', docId: 'frame1', isTop: false });
    expect(texts(c)).toEqual(['old page', 'old frame']);
    c.apply(snapshot('top2', true, [notice('new page')])); // the new page may report before the old one is gone
    c.apply({ type: 'document-gone', docId: 'top1', isTop: true });
    expect(texts(c)).toEqual(['new page']);
  });

  it('a stream of a document that went away (a removed iframe) is ended as aborted, not left "live" for good', () => {
    const c = new TabCapture();
    const conn = (id: string): PageRecord => ({ kind: 'connection', id, transport: 'fetch', frameUrl: 'https://app.test/f', method: 'GET', url: 'https://app.test/s', requestHeaders: [], startTime: 0 });
    c.apply(snapshot('top1', true, [notice('page')]));
    c.apply(snapshot('frame1', false, [conn('open'), conn('done'), { kind: 'end', conn: 'done', t: 2, state: 'complete' }]));
    const change = c.apply({ type: 'document-gone', docId: 'frame1', isTop: false });
    expect(change).toEqual({ kind: 'append', records: [expect.objectContaining({ kind: 'end', conn: 'open', state: 'aborted', error: expect.stringMatching(/document went away/) })] });
    expect(c.records().filter((r) => r.kind === 'end').map((r) => (r as { conn: string }).conn)).toEqual(['done', 'open']);
  });

  it('the top document gone with no next page (its tab closed) keeps its capture, its streams ended; the next page drops it', () => {
    const c = new TabCapture();
    const conn: PageRecord = { kind: 'connection', id: 'open', transport: 'fetch', frameUrl: 'https://app.test/', method: 'GET', url: 'https://app.test/s', requestHeaders: [], startTime: 0 };
    c.apply(snapshot('top1', true, [notice('page'), conn]));
    // Was a reset to nothing: a panel opened as a tab lost what it showed when the tab it inspected closed.
    expect(c.apply({ type: 'document-gone', docId: 'top1', isTop: true })).toEqual({ kind: 'append', records: [expect.objectContaining({ kind: 'end', conn: 'open', state: 'aborted' })] });
    expect(texts(c)).toEqual(['page', 'connection', 'end']);
    c.apply(snapshot('top2', true, [notice('next page')])); // a navigation after all: the next page drops it
    expect(texts(c)).toEqual(['next page']);
  });

  it('the top document gone after the tab began loading its next page (one without a capture) goes at once', () => {
    const c = new TabCapture();
    c.apply(snapshot('top1', true, [notice('page')]));
    c.topNavigated();
    expect(c.apply({ type: 'document-gone', docId: 'top1', isTop: true })).toEqual({ kind: 'reset' });
    expect(c.records()).toEqual([]);
  });

  it('with preserve log, nothing is dropped until clear()', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    c.apply(snapshot('top1', true, [notice('old page')]));
    c.apply({ type: 'document-gone', docId: 'top1', isTop: true });
    c.apply(snapshot('top2', true, [notice('new page')]));
    expect(texts(c)).toEqual(['old page', 'new page']);
    c.clear();
    expect(c.records()).toEqual([]);
  });

  it('a navigation signalled by the tab (top frame never captured) drops gone subframe documents', () => {
    const c = new TabCapture();
    c.apply(snapshot('frame1', false, [notice('frame')]));
    c.topNavigated();
    expect(texts(c)).toEqual(['frame']); // still alive: it may be the new page's
    c.apply({ type: 'document-gone', docId: 'frame1', isTop: false });
    expect(texts(c)).toEqual([]);
  });

  it('lets the oldest pages preserve-log kept go when they hold too much, and says so at the top', () => {
    const c = new TabCapture();
    c.preserveLog = true;
    const data = (id: string, bytes: number): PageRecord[] => [
      { kind: 'connection', id, transport: 'fetch', frameUrl: 'https://app.test/', method: 'GET', url: 'https://app.test/s', requestHeaders: [], startTime: 0 },
      { kind: 'chunk', conn: id, t: 1, bytes, text: 'x'.repeat(bytes) },
    ];
    for (let i = 1; i <= 4; i++) {
      c.apply(snapshot(`top${i}`, true, data(`c${i}`, 100)));
      if (i < 4) c.apply({ type: 'document-gone', docId: `top${i}`, isTop: true });
    }
    expect(c.dropOldestGone(300, 5)).toBe(0); // the three gone pages hold 300: within
    expect(c.dropOldestGone(150, 7)).toBe(2); // the oldest two go; the live page is never let go
    expect(c.documents().map((d) => d.docId)).toEqual(['top3', 'top4']);
    const [note] = c.records();
    expect(note).toEqual({ kind: 'notice', t: 7, level: 'info', text: 'Preserve log: the 2 oldest pages were let go to keep the panel within its memory bound (3× the capture cap)' });
    expect(c.dropOldestGone(0, 9)).toBe(1);
    expect(c.records()[0]).toMatchObject({ t: 9, text: expect.stringMatching(/^Preserve log: the 3 oldest pages were/) });
    c.clear();
    expect(c.records()).toEqual([]);
  });
});


// Page boundaries from a capture log to the connection list: the analyzer places a `navigation` record among the
// connections declared around it, and the list puts its row before the first shown connection after it.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import { makeHeader, readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { placeBoundaries } from '../../../panel/lib/page-boundaries.ts';

const conn = (id: string): CaptureRecord => ({ kind: 'connection', id, transport: 'fetch', frameUrl: 'https://a.test/', method: 'GET', url: `https://a.test/${id}`, requestHeaders: [], startTime: 1 });
const nav = (url: string, t = 5): CaptureRecord => ({ kind: 'navigation', t, url });

describe('page boundaries', () => {
  it('the analyzer counts the connections declared before each navigation record; later records of a connection do not move it', () => {
    const a = new CaptureAnalyzer();
    a.push([conn('a1'), conn('a2'), nav('https://b.test/'), { kind: 'end', conn: 'a1', t: 6, state: 'aborted' }, conn('b1'), nav('https://c.test/', 9)]);
    expect(a.navigations()).toEqual([{ t: 5, url: 'https://b.test/', before: 2 }, { t: 9, url: 'https://c.test/', before: 3 }]);
    expect(a.connections().map((c) => c.record.id)).toEqual(['a1', 'a2', 'b1']);
    expect(a.notices()).toEqual([]); // a page boundary is no note above the list
  });

  it('survives a capture log round trip, and a log without one reads as before', () => {
    const capture = { header: makeHeader('t'), records: [conn('a1'), nav('https://b.test/?q=1'), conn('b1')] };
    const text = writeCaptureLog(capture);
    expect(text.split('\n')[2]).toBe('{"kind":"navigation","t":5,"url":"https://b.test/?q=1"}');
    expect(readCaptureLog(text)).toEqual(capture);
    const old = readCaptureLog(writeCaptureLog({ header: capture.header, records: [conn('a1'), conn('b1')] }));
    const a = new CaptureAnalyzer();
    a.push(old.records);
    expect(a.navigations()).toEqual([]);
  });

  it('the list puts a boundary before the first shown connection after it, or after the last row', () => {
    const all = ['a1', 'a2', 'b1', 'b2', 'c1'];
    const b = (before: number) => ({ t: 1, url: `u${before}`, before });
    const rows = (shown: string[], bs: ReturnType<typeof b>[]) => Object.fromEntries([...placeBoundaries(all, shown, bs)].map(([k, v]) => [k, v.map((x) => x.url)]));
    expect(rows(all, [b(2), b(4)])).toEqual({ 2: ['u2'], 4: ['u4'] });
    // The filter hides b1: the boundary moves down to b2, the first row of that page still shown.
    expect(rows(['a1', 'b2', 'c1'], [b(2), b(4)])).toEqual({ 1: ['u2'], 2: ['u4'] });
    // It hides the whole middle page: both boundaries stand together (two navigations happened there).
    expect(rows(['a1', 'c1'], [b(2), b(4)])).toEqual({ 1: ['u2', 'u4'] });
    // The new page has no connection yet: its boundary closes the list.
    expect(rows(all, [b(5)])).toEqual({ 5: ['u5'] });
    expect(rows(all, [])).toEqual({});
    expect(rows([], [b(2)])).toEqual({}); // nothing shown: nothing to set apart
  });
});

import { describe, expect, it } from 'vitest';
import type { ConnectionRecord } from '../../../src/core/capture/model.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import type { PageRecord } from '../../../src/extension/messages.ts';

const conn = (id: string): ConnectionRecord => ({
  kind: 'connection', id, transport: 'fetch', frameUrl: 'https://app.test/', method: 'GET', url: `https://app.test/${id}`, requestHeaders: [], startTime: 1,
});
const chunk = (c: string, text: string, t = 2): PageRecord => ({ kind: 'chunk', conn: c, t, bytes: text.length, text });

describe('CaptureStore', () => {
  it('keeps records in order and refuses records that do not belong to a connection it knows', () => {
    const store = new CaptureStore(1 << 20);
    const { forward, rejected } = store.add([
      conn('a'),
      chunk('a', 'data: 1\n\n'),
      chunk('ghost', 'x'), // unknown connection
      { kind: 'end', conn: 'a', t: 3, state: 'complete' },
      chunk('a', 'late'), // after the end
      conn('a'), // duplicate id
      { kind: 'evicted', conn: 'a', t: 4, chunks: 1, messages: 0, bytes: 1 }, // only the store evicts
    ], 10);
    expect(rejected).toBe(4);
    expect(forward.map((r) => r.kind)).toEqual(['connection', 'chunk', 'end']);
    expect(store.snapshot()).toEqual(forward);
  });

  it('evicts the oldest chunks of the oldest connection first, reports it, and stays under the limit', () => {
    const limit = 64 * 1024;
    const store = new CaptureStore(limit);
    store.add([conn('old'), conn('new')], 0);
    const piece = 'x'.repeat(1000);
    let evictions: PageRecord[] = [];
    for (let i = 0; i < 60; i++) evictions.push(...store.add([chunk('old', piece, i)], i).forward.filter((r) => r.kind === 'evicted'));
    for (let i = 0; i < 60; i++) evictions.push(...store.add([chunk('new', piece, 100 + i)], 100 + i).forward.filter((r) => r.kind === 'evicted'));
    expect(store.size).toBeLessThanOrEqual(limit);
    expect(evictions.length).toBeGreaterThan(0);
    // All eviction hit the old connection before the new one lost anything.
    const evictedOld = evictions.filter((e) => e.kind === 'evicted' && e.conn === 'old').reduce((n, e) => n + (e.kind === 'evicted' ? e.chunks : 0), 0);
    const snap = store.snapshot();
    const keptOld = snap.filter((r) => r.kind === 'chunk' && r.conn === 'old');
    const keptNew = snap.filter((r) => r.kind === 'chunk' && r.conn === 'new');
    if (keptOld.length > 0) expect(keptNew).toHaveLength(60);
    expect(evictedOld + keptOld.length).toBe(60);
    // What is kept of the old connection is its newest data, in order.
    expect(keptOld.map((r) => (r.kind === 'chunk' ? r.t : -1))).toEqual(Array.from({ length: keptOld.length }, (_, i) => 60 - keptOld.length + i));
    // The snapshot carries one cumulative eviction record right after the connection record.
    const i = snap.findIndex((r) => r.kind === 'connection' && r.id === 'old');
    expect(snap[i + 1]).toMatchObject({ kind: 'evicted', conn: 'old', chunks: evictedOld, bytes: evictedOld * 1000 });
  });

  it('a single endless connection is evicted from its start', () => {
    const store = new CaptureStore(32 * 1024);
    store.add([conn('only')], 0);
    for (let i = 0; i < 200; i++) store.add([chunk('only', 'y'.repeat(500), i)], i);
    const kept = store.snapshot().filter((r) => r.kind === 'chunk');
    const last = kept[kept.length - 1];
    expect(last.kind === 'chunk' && last.t).toBe(199);
    expect(kept.length).toBeLessThan(200);
    const ev = store.snapshot().find((r) => r.kind === 'evicted');
    expect(ev).toMatchObject({ chunks: 200 - kept.length });
  });

  it('clear keeps open connections (with what they lost) and drops finished ones; keepOpen=false drops all', () => {
    const store = new CaptureStore(1 << 20);
    store.add([conn('done'), chunk('done', 'a'), { kind: 'end', conn: 'done', t: 3, state: 'complete' }, conn('open'), chunk('open', 'bb'), chunk('open', 'ccc')], 5);
    store.clear(9);
    // What Clear dropped of the open connection is digested like evicted data: its unfinished line carries over. It is
    // counted as Clear's (`cleared`), so no reader says the memory cap took it.
    const derived = { events: 0, carry: 'bbccc', replies: [], sse: { frameStart: true, lastEventId: '' } };
    expect(store.snapshot()).toEqual([conn('open'), { kind: 'evicted', conn: 'open', t: 9, chunks: 2, messages: 0, bytes: 5, cleared: 2, derived }]);
    expect(store.add([chunk('open', 'd')], 10).rejected).toBe(0);
    expect(store.add([chunk('done', 'e')], 10).rejected).toBe(1);
    store.clear(11, false);
    expect(store.snapshot()).toEqual([]);
  });
});

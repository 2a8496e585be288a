// When the panel is handed its capture anew (see panel-connection.test.ts for the whole flow through a real relay).
import { describe, expect, it } from 'vitest';
import type { CaptureRecord, EvictionRecord } from '../../../src/core/capture/model.ts';
import { COMPACT_FACTOR, PanelCompaction, dataBytes } from '../../../src/extension/panel-compaction.ts';

const MB = 1024 * 1024;
const chunk = (bytes: number): CaptureRecord => ({ kind: 'chunk', conn: 'a', t: 0, bytes, text: 'x'.repeat(bytes) });
const conn: CaptureRecord = { kind: 'connection', id: 'a', transport: 'fetch', frameUrl: 'https://a/', method: 'GET', url: 'https://a/s', requestHeaders: [], startTime: 0 };
const evicted = (derived: boolean): EvictionRecord => ({
  kind: 'evicted', conn: 'a', t: 0, chunks: 9, messages: 0, bytes: 9 * MB,
  ...(derived ? { derived: { carry: '', events: 9, replies: [] } as unknown as EvictionRecord['derived'] } : {}),
});

describe('PanelCompaction', () => {
  it('counts chunk bytes and message characters', () => {
    expect(dataBytes([conn, chunk(5), { kind: 'message', conn: 'a', t: 0, type: 'message', data: 'abc', lastEventId: '' }])).toBe(8);
  });

  it('hands the capture anew once the panel holds the threshold and the capture at most half of it', () => {
    const c = new PanelCompaction(MB);
    c.snapshotSent([conn]);
    let looks = 0;
    const kept = () => (looks++, [conn, evicted(true), chunk(MB)]);
    expect(c.appended([chunk(COMPACT_FACTOR * MB - 1)], kept)).toBe(false);
    expect(looks).toBe(0); // below the threshold the capture is not even looked at
    expect(c.appended([chunk(1)], kept)).toBe(true);
    c.snapshotSent(kept());
    expect(c.appended([chunk(MB)], kept)).toBe(false); // 2 MB held: below the threshold again
  });

  it('does not when the capture kept is no smaller (nothing evicted: preserved documents, a cap raised)', () => {
    const c = new PanelCompaction(MB);
    const big = [conn, chunk(4 * MB)];
    c.snapshotSent([conn]);
    expect(c.appended([chunk(4 * MB)], () => big)).toBe(false);
    expect(c.appended([chunk(64 * 1024)], () => big)).toBe(false); // looked again one step (cap / 16) later
  });

  it('waits for the relay\'s digest, but not past twice the threshold', () => {
    const c = new PanelCompaction(MB);
    c.snapshotSent([conn]);
    const stale = () => [conn, evicted(false), chunk(MB)];
    expect(c.appended([chunk(COMPACT_FACTOR * MB)], stale)).toBe(false);
    expect(c.appended([chunk(COMPACT_FACTOR * MB - 1)], stale)).toBe(false); // a byte short of twice the threshold
    expect(c.appended([chunk(64 * 1024)], stale)).toBe(true); // the next look, past it
  });

  it('hands the capture again once the digest an eviction lacked when it was handed over comes', () => {
    const c = new PanelCompaction(MB);
    c.snapshotSent([conn, evicted(false), chunk(MB)]); // forced past twice the threshold: no digest yet
    let kept = [conn, evicted(false), chunk(2 * MB)];
    expect(c.appended([chunk(MB)], () => kept)).toBe(false);
    // The relay's digest catches up: a zero-count eviction record carrying it, which the capture kept here takes in.
    kept = [conn, evicted(true), chunk(2 * MB)];
    expect(c.appended([{ ...evicted(true), chunks: 0, bytes: 0 }], () => kept)).toBe(true);
    c.snapshotSent(kept);
    expect(c.appended([{ ...evicted(true), chunks: 0, bytes: 0 }], () => kept)).toBe(false); // once
  });

  it('follows the cap', () => {
    const c = new PanelCompaction(MB);
    c.snapshotSent([conn]);
    c.setCap(4 * MB);
    expect(c.appended([chunk(COMPACT_FACTOR * MB)], () => [conn])).toBe(false);
    expect(c.appended([chunk(COMPACT_FACTOR * 3 * MB)], () => [conn])).toBe(true);
  });
});

// stream.held-back (src/core/analysis/held-back.ts): events that reached the page seconds later, counted from their
// created_at, than others — a buffering proxy — are told; a stream that arrived as it was made is not, whatever the
// offset between the server's and the browser's clocks, nor one whose server stamps every event with one time.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import { importHar } from '../../../src/core/capture/har-import.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';
import type { CaptureRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { EVENTSOURCE_RECONNECT_NOTICE } from '../../../src/core/capture/notices.ts';
import { Utf8ChunkEncoder } from '../../../src/core/frames/utf8-chunks.ts';

const T0 = Date.UTC(2026, 11, 1, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString(); // 2026-12-01T10:00:01.234Z

/** A reply of `n` deltas made `step` ms apart from T0 (created_at `stamp(i)`), the i-th event read at `arrival(i)`. */
function capture(n: number, step: number, arrival: (i: number, created: number) => number, stamp: (created: number) => string | number = iso, opts: { startTime?: number; transport?: 'fetch' | 'eventsource'; made?: (i: number) => number } = {}): CaptureRecord[] {
  const made = opts.made ?? ((i: number) => T0 + i * step);
  const events = [
    { type: 'REPLY_START', session_id: 's', name: 'Friday' },
    { type: 'TEXT_BLOCK_START', block_id: 'b' },
    ...Array.from({ length: n }, () => ({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'tok ' })),
    { type: 'TEXT_BLOCK_END', block_id: 'b' },
    { type: 'REPLY_END', session_id: 's' },
  ].map((e, i) => ({ id: `e${i}`, created_at: stamp(made(i)), reply_id: 'r1', ...e }));
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'c1', transport: opts.transport ?? 'fetch', frameUrl: 'http://127.0.0.1/app', method: 'GET', url: 'http://127.0.0.1/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: opts.startTime ?? T0 - 50, // (asked before the reply was made)
  };
  const enc = new Utf8ChunkEncoder();
  const records: CaptureRecord[] = [conn];
  events.forEach((e, i) => records.push(opts.transport === 'eventsource'
    ? { kind: 'message', conn: 'c1', t: arrival(i, made(i)), type: 'message', data: JSON.stringify(e), lastEventId: e.id }
    : { kind: 'chunk', conn: 'c1', t: arrival(i, made(i)), ...enc.push(new TextEncoder().encode(`data: ${JSON.stringify(e)}\n\n`)) }));
  records.push({ kind: 'end', conn: 'c1', t: arrival(events.length - 1, made(events.length - 1)) + 1, state: 'complete' });
  return records;
}

function heldBack(records: CaptureRecord[]) {
  const a = new CaptureAnalyzer();
  a.push(records);
  return a.connections()[0].diagnostics.filter((d) => d.code === 'stream.held-back');
}

describe('stream.held-back', () => {
  it('tells a reply made over 4 s that reached the page in one read at its end, at the event that waited longest', () => {
    const end = T0 + 44 * 100 + 30;
    const found = heldBack(capture(40, 100, () => end));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', index: 0, related: [43] });
    expect(found[0].message).toMatch(/^event #0 reached the page 4\.3 s later, counted from its created_at, than event #43 did/);
  });

  it('tells a stream let go in bursts (a proxy buffer filling), not only one held to its end', () => {
    // Every 10th event flushes what waited: the first of each burst waited ~1.5 s longer than its last.
    const found = heldBack(capture(60, 150, (i) => T0 + (Math.floor(i / 10) + 1) * 10 * 150 + 20));
    expect(found).toHaveLength(1);
  });

  it('says nothing of a stream read as it was made, with the browser\'s clock 3 h and 17 s off the server\'s', () => {
    const offset = 3 * 3600_000 + 17_000;
    const jitter = (i: number) => ((i * 7919) % 400); // up to 0.4 s of network jitter
    expect(heldBack(capture(80, 100, (i, made) => made + offset + jitter(i), iso, { startTime: T0 + offset - 50 }))).toEqual([]);
    // …and tells the same stream buffered, the clocks as far apart
    expect(heldBack(capture(80, 100, () => T0 + offset + 84 * 100, iso, { startTime: T0 + offset - 50 }))).toHaveLength(1);
  });

  it('allows a created_at in whole seconds its second (it may be up to 1 s early), and still tells 2 s and more', () => {
    const whole = (ms: number) => iso(Math.floor(ms / 1000) * 1000).replace('.000Z', 'Z');
    expect(heldBack(capture(50, 100, (_i, made) => made + 40, whole))).toEqual([]);
    expect(heldBack(capture(50, 100, () => T0 + 54 * 100, whole))).toHaveLength(1);
  });

  it('says nothing when the server stamps every event with one time (its delays grow with arrival, it held nothing)', () => {
    expect(heldBack(capture(50, 200, (_i, made) => made + 30, () => iso(T0)))).toEqual([]);
  });

  it('says nothing of events made before the request that brought them: history a server replays first, then streams', () => {
    // 30 events of an earlier turn made an hour before the page asked, sent at once; then the new turn as it is made.
    const asked = T0 + 3600_000;
    const made = (i: number) => (i < 30 ? T0 + i * 100 : asked + (i - 30) * 100 + 200);
    const records = capture(60, 100, (i) => (i < 30 ? asked + 40 : made(i) + 30), iso, { startTime: asked, made });
    expect(heldBack(records)).toEqual([]);
    // The same history streamed after a buffering proxy: the new turn's events are told (the history is left out).
    const held = heldBack(capture(60, 100, () => made(63) + 30, iso, { startTime: asked, made }));
    expect(held).toHaveLength(1);
    expect(held[0].index).toBe(30); // the new turn's first event, not the hour-old history
  });

  it('an EventSource that reconnected: what was made while it was away is not held back; a buffered response still is', () => {
    // Events 0–19 as made; the response ends and the browser reconnects 3 s later; the server sends the 10 events made
    // meanwhile at once, then the rest as made.
    const made = (i: number) => T0 + i * 100;
    const back = T0 + 20 * 100 + 3000;
    const arrival = (i: number) => (i < 20 ? made(i) + 20 : i < 50 ? Math.max(back + 30, made(i) + 20) : made(i) + 20);
    const records = capture(60, 100, arrival, iso, { transport: 'eventsource', made });
    const at = records.findIndex((r) => r.kind === 'message' && r.t >= back);
    records.splice(at, 0, { kind: 'notice', conn: 'c1', t: back, level: 'info', text: `${EVENTSOURCE_RECONNECT_NOTICE} (the last event the page got had the id "e19"); the events after this note come on a new response.` });
    expect(heldBack(records)).toEqual([]);
    // Without the note (an older log, or past the tenth reconnection), the gap reads as held back.
    expect(heldBack(records.filter((r) => r.kind !== 'notice'))).toHaveLength(1);
  });

  it('a WebSocket: a reply the page asks for again (a send) and gets at once was made before it asked', () => {
    const events = capture(20, 100, () => 0).filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text.slice(6, -2));
    const conn: ConnectionRecord = { kind: 'connection', id: 'w1', transport: 'websocket', frameUrl: 'http://127.0.0.1/app', method: 'GET', url: 'ws://127.0.0.1/ws', requestHeaders: [], responseHeaders: [], startTime: T0 - 1000 };
    const msg = (t: number, data: string, type = 'message'): CaptureRecord => ({ kind: 'message', conn: 'w1', t, type, data, lastEventId: '' });
    const records: CaptureRecord[] = [conn, ...events.map((d, i) => msg(T0 + i * 100 + 20, d))];
    const asked = [msg(T0 + 60_000, '{"load":"r1"}', 'send'), ...events.map((d) => msg(T0 + 60_030, d))];
    expect(heldBack([...records, ...asked])).toEqual([]);
    // Without the page's send, the same replay reads as a minute held back.
    expect(heldBack([...records, ...asked.slice(1)])).toHaveLength(1);
    // A socket whose opening time is not known (an import): the send still starts the request.
    expect(heldBack([{ ...conn, startTime: Number.NaN }, ...records.slice(1), ...asked])).toEqual([]);
  });

  it('a HAR EventSource entry saved without its dispatched messages: read from its body, its arrival times unknown', () => {
    const body = capture(40, 100, () => 0).filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text).join('');
    const har = { log: { version: '1.2', creator: { name: 'Chromium', version: '156' }, entries: [{
      startedDateTime: iso(T0 - 50), time: 4500, _resourceType: 'eventsource', request: { method: 'GET', url: 'http://127.0.0.1/s', headers: [] },
      response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { mimeType: 'text/event-stream', text: body } }, timings: {},
    }] } };
    const { records } = importHar(har);
    expect(records.filter((r) => r.kind === 'message')).toHaveLength(44);
    expect(heldBack(records)).toEqual([]);
  });

  it('says nothing without arrival times (a raw SSE body from a file)', () => {
    const body = capture(40, 100, () => 0).filter((r) => r.kind === 'chunk').map((r) => (r as { text: string }).text).join('');
    const loaded = loadInput(body, 'reply.sse');
    const a = new CaptureAnalyzer();
    a.push(loaded.records);
    expect(a.connections()[0].diagnostics.map((d) => d.code)).not.toContain('stream.held-back');
    expect(a.connections()[0].events.length).toBe(44);
  });

  it('a numeric created_at (no AgentScope wire form: the event is invalid) is read in its unit — seconds below 1e11, as Python\'s time.time() writes it', () => {
    // Read as ms, a time.time() stamp shrank the events' making 1000-fold: a reply made over 4 s and held to its end
    // was not told (made in "4 ms"), and one read as it was made over 20 minutes was (its arrival spread as "held").
    const seconds = (ms: number) => ms / 1000;
    const a = new CaptureAnalyzer();
    a.push(capture(3, 100, (_i, made) => made + 40, seconds));
    expect(a.connections()[0].events.map((e) => e.createdAt)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => T0 + i * 100));
    const held = heldBack(capture(40, 100, () => T0 + 44 * 100 + 30, seconds));
    expect(held).toHaveLength(1);
    expect(held[0].message).toMatch(/^event #0 reached the page 4\.3 s later/);
    expect(heldBack(capture(60, 20_000, (_i, made) => made + 40, seconds))).toEqual([]);
    // Whole seconds (int(time.time())) may be a second early, as an ISO time in whole seconds may.
    const whole = (ms: number) => Math.floor(ms / 1000);
    expect(heldBack(capture(50, 100, (_i, made) => made + 40, whole))).toEqual([]);
    expect(heldBack(capture(50, 100, () => T0 + 54 * 100, whole))).toHaveLength(1);
    // Epoch milliseconds (JavaScript's Date.now()) stay milliseconds.
    expect(heldBack(capture(40, 100, () => T0 + 44 * 100 + 30, (ms) => ms))).toHaveLength(1);
    expect(heldBack(capture(60, 20_000, (_i, made) => made + 40, (ms) => ms))).toEqual([]);
  });

  it('a live connection read chunk by chunk tells it as the whole capture does (the watch is incremental)', () => {
    const records = capture(30, 120, (i, made) => (i < 20 ? T0 + 20 * 120 + 10 : made + 10));
    const live = new CaptureAnalyzer();
    let seen: unknown[] = [];
    for (const r of records) {
      live.push([r]);
      seen = live.connections()[0]?.diagnostics.filter((d) => d.code === 'stream.held-back') ?? [];
    }
    expect(seen).toEqual(heldBack(records));
    expect(seen).toHaveLength(1);
  });
});

// A recorded socket carries the app's own messages too: analysis shows them as frames ("other message" rows), not
// as events, so they neither count as protocol errors nor feed the reconstruction. An EventSource's unnamed messages
// are events; its named events of the app's own are frames too.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import type { CaptureRecord, ConnectionRecord, MessageRecord } from '../../../src/core/capture/model.ts';

const conn = (id: string, transport: ConnectionRecord['transport']): ConnectionRecord => ({
  kind: 'connection', id, transport, frameUrl: 'http://127.0.0.1/app', method: 'GET', url: `ws://127.0.0.1/${id}`, requestHeaders: [],
  status: transport === 'websocket' ? 101 : 200, startTime: 1,
});
const texts = [
  '{"type":"chat","text":"hi"}', // sent by the page (below)
  '{"type":"presence","users":2}',
  'ping',
  '{"type":"start"}',
  '{"type":"text_start","contentIndex":0}',
  '{"type":"typing","who":"bot"}',
  '{"type":"text_delta","contentIndex":0,"delta":"hi"}',
  '{"type":"text_end","contentIndex":0}',
  '{"type":"text_delta","contentIndex":0,', // broken: an event that does not parse, reported
  '{"type":"done","reason":"stop"}',
];
const messages = (): MessageRecord[] =>
  texts.map((data, i) => ({ kind: 'message', conn: 'c', t: 10 + i, type: i === 0 ? 'send' : 'message', data, lastEventId: '' }));
function analyse(transport: ConnectionRecord['transport'], records: CaptureRecord[] = messages()) {
  const a = new CaptureAnalyzer();
  a.push([conn('c', transport), ...records, { kind: 'end', conn: 'c', t: 99, state: 'complete' }]);
  return a.connection('c')!;
}

describe('socket messages', () => {
  it('a socket\'s foreign messages are frames, not events; the protocol\'s, broken or not, are events', () => {
    const v = analyse('websocket');
    expect(v.frames.map((f) => f.data)).toEqual(texts);
    expect(v.frames.filter((f) => f.sent).map((f) => f.index)).toEqual([0]);
    expect(v.bytes).toBe(texts.slice(1).join('').length); // received only
    expect(v.frames.filter((f) => f.foreign).map((f) => f.index)).toEqual([1, 2, 5]);
    expect(v.frames.toArray().every((f) => f.heartbeat === (f.foreign === true || f.sent === true))).toBe(true);
    expect(v.events.map((e) => e.frameIndex)).toEqual([3, 4, 6, 7, 8, 9]);
    expect(v.dialect).toBe('pi-proxy');
    // No diagnostic names a foreign or sent message; the broken one is reported.
    const at = new Set(v.diagnostics.map((d) => v.events[d.index]?.frameIndex));
    for (const i of [0, 1, 2, 5]) expect(at.has(i)).toBe(false);
    expect(v.events.find((e) => e.frameIndex === 8)?.valid).toBe(false);
  });

  it('an EventSource reads its unnamed messages as events, whatever they hold; a named event of the app\'s own is a frame', () => {
    const unnamed = analyse('eventsource', messages().map((m) => ({ ...m, type: 'message' })));
    expect(unnamed.events).toHaveLength(texts.length);
    expect(unnamed.frames.toArray().some((f) => f.foreign || f.sent)).toBe(false);
    // The page listens for named events too: the app's `done` ({}) and `presence` beside the agent's events — and a
    // named event that carries a protocol event is one.
    const named = analyse('eventsource', [
      ...messages().slice(3, 8).map((m) => ({ ...m, type: 'message' })),
      { kind: 'message', conn: 'c', t: 30, type: 'presence', data: '{"users":3}', lastEventId: '' },
      { kind: 'message', conn: 'c', t: 31, type: 'agent', data: '{"type":"done","reason":"stop"}', lastEventId: '' },
      { kind: 'message', conn: 'c', t: 32, type: 'done', data: '{}', lastEventId: '' },
    ]);
    expect(named.frames.filter((f) => f.foreign).map((f) => f.event)).toEqual(['presence', 'done']);
    expect(named.events.map((e) => e.type)).toEqual(['start', 'text_start', 'typing', 'text_delta', 'text_end', 'done']);
    expect(named.events.every((e) => e.type !== '?')).toBe(true);
  });

  it('evicted at any message, the digest counts the events a full analysis reads, and the rest continues from it', () => {
    const full = analyse('websocket');
    const all = messages();
    for (let k = 1; k < all.length; k++) {
      const digest = new EvictionDigest(conn('c', 'websocket'));
      for (const m of all.slice(0, k)) digest.push(m);
      const before = full.events.filter((e) => e.frameIndex < k).length;
      expect(digest.eventCount, `evicted ${k}`).toBe(before);
      const part = analyse('websocket', [
        { kind: 'evicted', conn: 'c', t: all[k - 1].t, chunks: 0, messages: k, bytes: 0, derived: digest.derived() },
        ...all.slice(k),
      ]);
      expect(part.evictedEvents + part.events.length, `evicted ${k}`).toBe(full.events.length);
    }
  });
});

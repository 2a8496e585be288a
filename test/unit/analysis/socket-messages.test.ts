// A recorded socket carries the app's own messages too: analysis shows them as frames ("other message" rows), not
// as events, so they neither count as protocol errors nor feed the reconstruction. An EventSource's are events.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';

const conn = (id: string, transport: ConnectionRecord['transport']): ConnectionRecord => ({
  kind: 'connection', id, transport, frameUrl: 'http://127.0.0.1/app', method: 'GET', url: `ws://127.0.0.1/${id}`, requestHeaders: [],
  status: transport === 'websocket' ? 101 : 200, startTime: 1,
});
const texts = [
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
function analyse(transport: ConnectionRecord['transport']) {
  const a = new CaptureAnalyzer();
  const records: CaptureRecord[] = [conn('c', transport), ...texts.map((data, i) => ({ kind: 'message' as const, conn: 'c', t: 10 + i, type: 'message', data, lastEventId: '' }))];
  records.push({ kind: 'end', conn: 'c', t: 99, state: 'complete' });
  a.push(records);
  return a.connection('c')!;
}

describe('socket messages', () => {
  it('a socket\'s foreign messages are frames, not events; the protocol\'s, broken or not, are events', () => {
    const v = analyse('websocket');
    expect(v.frames.map((f) => f.data)).toEqual(texts);
    expect(v.frames.filter((f) => f.foreign).map((f) => f.index)).toEqual([0, 1, 4]);
    expect(v.frames.every((f) => f.heartbeat === (f.foreign === true))).toBe(true);
    expect(v.events.map((e) => e.frameIndex)).toEqual([2, 3, 5, 6, 7, 8]);
    expect(v.dialect).toBe('pi-proxy');
    // No diagnostic names a foreign message; the broken one is reported.
    const at = new Set(v.diagnostics.map((d) => v.events[d.index]?.frameIndex));
    for (const i of [0, 1, 4]) expect(at.has(i)).toBe(false);
    expect(v.events.find((e) => e.frameIndex === 7)?.valid).toBe(false);
  });

  it('an EventSource reads every message as an event (named events are the protocol there)', () => {
    const v = analyse('eventsource');
    expect(v.events).toHaveLength(texts.length);
    expect(v.frames.some((f) => f.foreign)).toBe(false);
  });
});

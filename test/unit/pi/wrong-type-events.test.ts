// An event whose `type` is no string (a number, an object, null) amid a pi stream that carries its message — the
// assistant form's `partial`, an agent message_update's assistantMessageEvent. The message check read the type as a
// block event's (`type.startsWith`) and threw, so the event was one Replyscope could not analyse; it is a malformed
// event like any other: told by the same diagnostics as a wrong string type, and the check skips it (the client does).
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer, analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import { captureOf } from '../../fuzz/pipeline-checks.ts';
import { recordsFor } from '../../fuzz/wire.ts';

const enc = new TextEncoder();
const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const message = (content: unknown[]) => ({ role: 'assistant', content, api: 'a', provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: 1 });
const m0 = message([]);
const m1 = message([{ type: 'text', text: '' }]);
const m2 = message([{ type: 'text', text: 'a' }]);

/** Both ways the analysis runs: live (record by record, as the panel) and batch; they must agree. */
function analyse(events: unknown[]): ConnectionView {
  const body = enc.encode(events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(''));
  const records = recordsFor([body], { contentType: 'text/event-stream', endState: 'complete' });
  const live = new CaptureAnalyzer();
  for (const r of records) {
    live.push([r]);
    live.connections();
  }
  const batch = analyzeCapture(captureOf(records))[0];
  const codes = (v: ConnectionView) => v.diagnostics.map((d) => `${d.code}@${d.index}: ${d.message}`);
  expect(codes(live.connections()[0])).toEqual(codes(batch));
  return batch;
}

const at = (v: ConnectionView, index: number) => v.diagnostics.filter((d) => d.index === index).map((d) => `${d.code}: ${d.message}`);

const WRONG_TYPES: [string, unknown][] = [['a number', 42], ['an object', { a: 1 }], ['null', null], ['an array', ['text_delta']]];

describe('a pi event whose type is no string, amid a stream that carries its message', () => {
  const assistant = (type: unknown) => [
    { type: 'start', partial: m0 },
    { type: 'text_start', contentIndex: 0, partial: m1 },
    { type, contentIndex: 0, delta: 'a', partial: m2 },
    { type: 'text_delta', contentIndex: 0, delta: 'b', partial: message([{ type: 'text', text: 'b' }]) },
    { type: 'done', reason: 'stop', message: message([{ type: 'text', text: 'b' }]) },
  ];

  it.each(WRONG_TYPES)('assistant form, type %s: the client skips it (pi.unknown-event-type), and the check goes on', (_, type) => {
    const v = analyse(assistant(type));
    expect(v.dialect).toBe('pi-assistant');
    expect(v.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    expect(at(v, 2)).toEqual([`pi.unknown-event-type: Unhandled proxy event type: ${String(type)}: the client skips this frame`]);
    // The skipped event is no state of the stream: the next delta builds on the message before it.
    expect(v.diagnostics.filter((d) => d.index > 2)).toEqual([]);
  });

  it('assistant form: a wrong string type reads the same (it was checked as a tool-call event before)', () => {
    const v = analyse(assistant('foo'));
    expect(at(v, 2)).toEqual(['pi.unknown-event-type: Unhandled proxy event type: foo: the client skips this frame']);
  });

  const agent = (type: unknown) => [
    { type: 'agent_start' },
    { type: 'turn_start' },
    { type: 'message_start', message: m0 },
    { type: 'message_update', message: m1, assistantMessageEvent: { type: 'text_start', contentIndex: 0, partial: m1 } },
    { type: 'message_update', message: m2, assistantMessageEvent: { type, contentIndex: 0, delta: 'a', partial: m2 } },
    { type: 'message_end', message: m2 },
    { type: 'turn_end', message: m2, toolResults: [] },
    { type: 'agent_end', messages: [m2] },
  ];

  it.each(WRONG_TYPES)('agent message_update, type %s: the schema tells it (pi.invalid-event), nothing fails', (_, type) => {
    const v = analyse(agent(type));
    expect(v.dialect).toBe('pi-agent');
    expect(v.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    const told = at(v, 4);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^pi\.invalid-event: event does not match the pi agent schema \(assistantMessageEvent\.type: /);
    // The same words as for a wrong string type.
    expect(told[0]).toBe(at(analyse(agent('foo')), 4)[0]);
  });
});

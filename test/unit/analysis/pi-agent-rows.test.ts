// A pi agent stream is mostly message_update events. Each says what changed in its assistantMessageEvent — a
// text_delta on content[1], a toolcall_start — and its event-list row must show that block and delta, as the proxy
// and assistant forms' rows do: they showed an empty Block and Data column, so every update read alike.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { captureOf, sseBody } from './support.ts';

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const msg = (content: unknown[]) => ({ role: 'assistant', stopReason: 'stop', content, api: 'a', provider: 'p', model: 'm', usage, timestamp: 1 });
const update = (assistantMessageEvent: Record<string, unknown>, content: unknown[]) =>
  ({ type: 'message_update', message: msg(content), assistantMessageEvent: { ...assistantMessageEvent, partial: msg(content) } });
const call = { type: 'toolCall', id: 'c1', name: 'read', arguments: {}, partialJson: '' };

describe('rows of a pi agent stream', () => {
  it('show the block and the delta of a message_update', () => {
    const events = [
      { type: 'agent_start' },
      { type: 'turn_start' },
      { type: 'message_start', message: msg([]) },
      update({ type: 'text_start', contentIndex: 0 }, [{ type: 'text', text: '' }]),
      update({ type: 'text_delta', contentIndex: 0, delta: 'Lis' }, [{ type: 'text', text: 'Lis' }]),
      update({ type: 'toolcall_start', contentIndex: 1 }, [{ type: 'text', text: 'Lis' }, call]),
      { type: 'tool_execution_start', toolCallId: 'c1', toolName: 'read', args: {} },
    ];
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(sseBody(events))]),
    });
    expect(conn.dialect).toBe('pi-agent');
    const rows = conn.events.map((e) => [e.type, e.blockId ?? '', e.preview]);
    expect(rows.slice(3)).toEqual([
      ['message_update', '#0', 'text_start'],
      ['message_update', '#0', 'text_delta Lis'],
      ['message_update', '#1', 'toolcall_start'],
      ['tool_execution_start', 'c1', 'read'],
    ]);
  });
});

describe('steps of a pi agent reply', () => {
  it('a step whose event carries the message as it was is "unchanged" (the diff against k−1 is empty)', () => {
    const text = [{ type: 'text', text: 'Hi' }];
    const events = [
      { type: 'message_start', message: msg([]) },
      update({ type: 'text_start', contentIndex: 0 }, [{ type: 'text', text: '' }]),
      update({ type: 'text_delta', contentIndex: 0, delta: 'Hi' }, text),
      update({ type: 'text_end', contentIndex: 0, content: 'Hi' }, text),
      { type: 'message_end', message: msg(text) },
    ];
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(sseBody(events))]),
    });
    expect(conn.replies[0].stepStatus).toEqual(['changed', 'changed', 'changed', 'unchanged', 'unchanged']);
  });

  it('a reply serialised late (every event carries the final message) still times its first token at its first delta', () => {
    const text = [{ type: 'text', text: 'Hi there' }];
    const events = [
      { type: 'start', partial: msg(text) },
      { type: 'text_start', contentIndex: 0, partial: msg(text) },
      { type: 'text_delta', contentIndex: 0, delta: 'Hi ', partial: msg(text) },
      { type: 'text_delta', contentIndex: 0, delta: 'there', partial: msg(text) },
      { type: 'done', reason: 'stop', message: msg(text) },
    ];
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf(events.map((e) => new TextEncoder().encode(sseBody([e])))), // one chunk per event, 1 ms apart
    });
    const [reply] = conn.replies;
    expect(reply.stepStatus).toEqual(['changed', 'unchanged', 'unchanged', 'unchanged', 'unchanged']);
    expect(reply.timeToFirstTokenMs).toBe(2);
  });

  it('an agent reply times its first token at the first update that is a delta, not at its text_start', () => {
    const events = [
      { type: 'message_start', message: msg([]) },
      update({ type: 'text_start', contentIndex: 0 }, [{ type: 'text', text: '' }]),
      update({ type: 'text_delta', contentIndex: 0, delta: 'Hi' }, [{ type: 'text', text: 'Hi' }]),
      { type: 'message_end', message: msg([{ type: 'text', text: 'Hi' }]) },
    ];
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf(events.map((e) => new TextEncoder().encode(sseBody([e])))), // one chunk per event, 1 ms apart
    });
    expect(conn.replies[0].timeToFirstTokenMs).toBe(2);
  });
});

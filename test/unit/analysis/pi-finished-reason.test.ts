// A pi reply's "Finished" column (ReplyView.finishedReason) must say how the reply finished — and nothing before
// it did. pi's message carries stopReason "stop" from its first event on (streamProxy's initial value, pi-ai's
// partial too), so reading it off the last message made a reply still streaming, or cut off without done, read
// "stop": the panel showed a finished reply where the app's agent loop waits forever.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { ReplyView } from '../../../src/core/analysis/types.ts';
import { captureOf, sseBody } from './support.ts';

const requestBody = { model: { id: 'm', api: 'anthropic-messages', provider: 'anthropic' }, context: { messages: [] } };
const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const streaming = [
  { type: 'start' },
  { type: 'text_start', contentIndex: 0 },
  { type: 'text_delta', contentIndex: 0, delta: 'Hello' },
];

function replies(events: unknown[], state: 'complete' | 'open' | 'aborted', withRequest = true): ReplyView[] {
  const [conn] = analyzeCapture({
    header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
    records: captureOf([new TextEncoder().encode(sseBody(events))], { ...(withRequest ? { requestBody } : {}), state }),
  });
  return conn.replies;
}

/** pi-ai's AssistantMessageEvent form of the same events: each carries the message so far. */
function assistantForm(events: { type: string; delta?: string }[]): unknown[] {
  let text = '';
  return events.map((e) => {
    if (e.type === 'text_delta') text += e.delta;
    const message = { role: 'assistant', stopReason: e.type === 'done' ? 'length' : 'stop', content: e.type === 'start' ? [] : [{ type: 'text', text }], api: 'a', provider: 'p', model: 'm', usage, timestamp: 1 };
    return e.type === 'done' ? { ...e, message } : { ...e, partial: message };
  });
}

describe('a pi reply is finished only once it finished', () => {
  it('proxy form: streaming, cut off without done, done, failed at the end', () => {
    expect(replies(streaming, 'open')[0].finishedReason).toBeUndefined();
    expect(replies(streaming, 'complete')[0].finishedReason).toBeUndefined();
    expect(replies([...streaming, { type: 'done', reason: 'length', usage }], 'complete')[0].finishedReason).toBe('length');
    expect(replies([...streaming, { type: 'error', reason: 'error', errorMessage: 'overloaded', usage }], 'complete')[0].finishedReason).toBe('error');
    // The page's Stop fails the client: that is how it finished.
    expect(replies(streaming, 'aborted')[0].finishedReason).toBe('aborted');
  });

  it('assistant form: not before its done', () => {
    expect(replies(assistantForm(streaming), 'open', false)[0].finishedReason).toBeUndefined();
    expect(replies(assistantForm([...streaming, { type: 'done', reason: 'length' } as never]), 'complete', false)[0].finishedReason).toBe('length');
  });

  it('agent form: not before its message_end', () => {
    const [start, ...updates] = assistantForm(streaming) as { partial: unknown }[];
    const message = (e: { partial: unknown }) => e.partial;
    const events = [
      { type: 'agent_start' },
      { type: 'turn_start' },
      { type: 'message_start', message: message(start) },
      ...updates.map((e) => ({ type: 'message_update', message: message(e), assistantMessageEvent: e })),
    ];
    expect(replies(events, 'open', false)[0].finishedReason).toBeUndefined();
    const ended = [...events, { type: 'message_end', message: { ...(message(updates[1]) as object), stopReason: 'length' } }];
    expect(replies(ended, 'open', false)[0].finishedReason).toBe('length');
  });
});

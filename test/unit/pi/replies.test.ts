// Reply splitting and AgentEvent ordering on small hand-written streams (the real-agent streams are covered in
// agent-stream.test.ts).
import { describe, expect, it } from 'vitest';
import { checkAgentSequence, initialAgentSequence } from '../../../src/core/pi/agent-sequence.ts';
import { splitPiReplies } from '../../../src/core/pi/replies.ts';

const assistant = (text: string) => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('pi replies', () => {
  it('puts every frame of a proxy response into one reply, including frames after done', () => {
    const events = [{ type: 'start' }, { type: 'text_start', contentIndex: 0 }, { type: 'done', reason: 'stop' }, { type: 'text_delta', contentIndex: 0, delta: 'x' }];
    expect(splitPiReplies(events)).toEqual([{ ordinal: 0, eventIndices: [0, 1, 2, 3], closed: false, orphan: false }]);
  });

  it('opens one reply per assistant message and skips user/toolResult messages', () => {
    const events = [
      { type: 'agent_start' },
      { type: 'turn_start' },
      { type: 'message_start', message: { role: 'user', content: 'hi' } },
      { type: 'message_end', message: { role: 'user', content: 'hi' } },
      { type: 'message_start', message: assistant('') },
      { type: 'message_update', message: assistant('a') },
      { type: 'message_end', message: assistant('a') },
      { type: 'turn_end' },
      { type: 'turn_start' },
      { type: 'message_update', message: assistant('b') }, // no message_start: orphan
      { type: 'message_end', message: assistant('b') },
      { type: 'agent_end', messages: [] },
    ];
    expect(splitPiReplies(events)).toEqual([
      { ordinal: 0, eventIndices: [4, 5, 6], closed: true, orphan: false, turn: 0 },
      { ordinal: 1, eventIndices: [9, 10], closed: true, orphan: true, turn: 1 },
    ]);
  });
});

describe('AgentEvent ordering', () => {
  function run(events: unknown[]): string[] {
    let s = initialAgentSequence;
    const out: string[] = [];
    [...events, { type: '<end>' }].forEach((ev, i) => {
      const r = checkAgentSequence(s, ev, i);
      s = r.state;
      out.push(...r.diagnostics.map((d) => `${d.code}@${d.index}`));
    });
    return out;
  }

  it('accepts the agent loop order', () => {
    expect(
      run([
        { type: 'agent_start' },
        { type: 'turn_start' },
        { type: 'message_start', message: assistant('') },
        { type: 'message_end', message: assistant('') },
        { type: 'tool_execution_start', toolCallId: 'c' },
        { type: 'tool_execution_update', toolCallId: 'c' },
        { type: 'tool_execution_end', toolCallId: 'c' },
        { type: 'turn_end' },
        { type: 'agent_end' },
      ]),
    ).toEqual([]);
  });

  it('flags broken nesting, unpaired tool executions and a missing agent_end', () => {
    expect(
      run([
        { type: 'turn_start' },
        { type: 'message_update', message: assistant('x') },
        { type: 'message_start', message: assistant('') },
        { type: 'tool_execution_end', toolCallId: 'nope' },
        { type: 'tool_execution_start', toolCallId: 'c' },
      ]),
    ).toEqual([
      'pi.agent-sequence@0',
      'pi.agent-sequence@1',
      'pi.agent-sequence@3',
      'pi.no-terminal@5',
      'pi.agent-sequence@5',
    ]);
  });
});

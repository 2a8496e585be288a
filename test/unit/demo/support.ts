// Test helpers: play a demo scenario through the SessionHub (fast mode, deterministic ids), answering its
// human-in-the-loop request the way the demo page does, and reconstruct the reply with Replyscope's core.

import { SessionHub } from '../../../src/demo/session-hub.ts';
import { sequentialIds } from '../../../src/demo/wire/ids.ts';
import { applyEvent, type ApplyStatus } from '../../../src/core/agentscope/append-event.ts';
import { AssistantMsg } from '../../../src/core/agentscope/message.ts';
import { parseWireEvent, type AgentEvent, type Msg } from '../../../src/core/agentscope/schema.ts';
import type { ScenarioIntent } from '../../../src/demo/scenarios/index.ts';

export const AGENT = 'demo-agent';
export type Answer = 'allow' | 'deny';

/** The JSON text of every `data:` frame a session subscriber received while the scenario ran. */
export async function playScenario(name: string, answer: Answer = 'allow', externalOutput = 'Sun Mar 01 2026 10:00:00 (Europe/Paris)'): Promise<string[]> {
  const frames: string[] = [];
  const texts = () => frames.map((f) => {
    if (!f.startsWith('data: ') || !f.endsWith('\n\n')) throw new Error(`not a data frame: ${JSON.stringify(f)}`);
    return f.slice(6, -2);
  });
  const hub: SessionHub = new SessionHub({
    ids: sequentialIds(),
    speed: 0,
    agentName: 'Friday',
    onPark(sessionId, kind, replyId) {
      const request = texts().map((t) => JSON.parse(t) as { type: string; tool_calls?: { id: string; name: string }[] })
        .reverse().find((e) => e.type === (kind === 'confirm' ? 'REQUIRE_USER_CONFIRM' : 'REQUIRE_EXTERNAL_EXECUTION'));
      if (!request?.tool_calls) throw new Error(`parked on ${kind} without a request event`);
      const input = kind === 'confirm'
        ? { type: 'USER_CONFIRM_RESULT', id: crypto.randomUUID(), created_at: new Date().toISOString(), reply_id: replyId,
            confirm_results: request.tool_calls.map((call) => ({ confirmed: answer === 'allow', tool_call: call, rules: null })) }
        : { type: 'EXTERNAL_EXECUTION_RESULT', id: crypto.randomUUID(), created_at: new Date().toISOString(), reply_id: replyId,
            execution_results: request.tool_calls.map((call) => ({ type: 'tool_result', id: call.id, name: call.name, output: externalOutput, state: 'success' })) };
      hub.trigger(sessionId, AGENT, input);
    },
  });
  const sid = hub.createSession(AGENT);
  hub.subscribe(sid, AGENT, (f) => frames.push(f));
  hub.trigger(sid, AGENT, { name: 'user', role: 'user', content: 'hello', metadata: { scenario: name } });
  await hub.idle();
  return texts();
}

export interface Reconstruction {
  events: AgentEvent[];
  /** Per frame: the core's apply status ('custom' for CUSTOM, which the page routes elsewhere, 'start' for REPLY_START). */
  statuses: (ApplyStatus | 'custom' | 'start')[];
  replies: Msg[];
}

/** Validates every frame from its wire text and rebuilds the replies as the AgentScope web UI does. */
export function reconstruct(texts: string[]): Reconstruction {
  const events: AgentEvent[] = [];
  const statuses: Reconstruction['statuses'] = [];
  const replies: Msg[] = [];
  let current = -1;
  texts.forEach((text, i) => {
    const checked = parseWireEvent(text);
    if (!checked.ok) throw new Error(`frame ${i} is invalid: ${JSON.stringify(checked.issues)}\n${text}`);
    if (checked.extras.length) throw new Error(`frame ${i} has fields the reference does not know: ${checked.extras.join(', ')}`);
    const event = checked.event;
    events.push(event);
    if (event.type === 'CUSTOM') return void statuses.push('custom');
    if (event.type === 'REPLY_START') {
      current = replies.findIndex((m) => m.id === event.reply_id);
      if (current < 0) current = replies.push(AssistantMsg(event.name, [], { id: event.reply_id })) - 1;
      return void statuses.push('start');
    }
    const outcome = applyEvent(replies[current], event);
    replies[current] = outcome.msg;
    statuses.push(outcome.status);
  });
  return { events, statuses, replies };
}

/** The key facts of a message, in the shape of ScenarioIntent, for comparison with the hand-written intent. */
export function factsOf(msg: Msg, intent: ScenarioIntent): ScenarioIntent {
  const blocks = msg.content;
  const outputText = (o: unknown) => (typeof o === 'string' ? o : (o as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text).join(''));
  const facts: ScenarioIntent = {
    finished_reason: msg.finished_reason,
    texts: blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])),
  };
  if (intent.thinking) facts.thinking = blocks.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : []));
  if (intent.toolCalls) facts.toolCalls = blocks.flatMap((b) => (b.type === 'tool_call' ? [{ name: b.name, input: JSON.parse(b.input) as unknown, state: b.state }] : []));
  if (intent.toolResults) {
    facts.toolResults = blocks.flatMap((b) => {
      if (b.type !== 'tool_result') return [];
      const r: NonNullable<ScenarioIntent['toolResults']>[number] = { name: b.name, state: b.state };
      const want = intent.toolResults?.find((t) => t.name === b.name);
      if (want?.text !== undefined) r.text = outputText(b.output);
      if (want?.dataMediaTypes) r.dataMediaTypes = typeof b.output === 'string' ? [] : b.output.flatMap((o) => (o.type === 'data' ? [o.source.media_type] : []));
      return [r];
    });
  }
  if (intent.data) facts.data = blocks.flatMap((b) => (b.type === 'data' ? [b.source.media_type] : []));
  if (intent.hints !== undefined) facts.hints = blocks.filter((b) => b.type === 'hint').length;
  if (intent.usage) {
    const u = msg.usage;
    facts.usage = u ? { input_tokens: u.input_tokens, output_tokens: u.output_tokens } : undefined;
    if (u && intent.usage.cache_input_tokens !== undefined) facts.usage!.cache_input_tokens = u.cache_input_tokens;
    if (u && intent.usage.cache_creation_input_tokens !== undefined) facts.usage!.cache_creation_input_tokens = u.cache_creation_input_tokens;
  }
  if (intent.error) facts.error = msg.error ? { type: msg.error.type, message: msg.error.message } : undefined;
  return facts;
}

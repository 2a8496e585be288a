// The page's message list, updated per event the way the AgentScope web UI's useMessages hook does: CUSTOM goes
// to a side channel, REPLY_START opens a bubble (or re-points at the existing one for a continuation with the same
// reply_id), REPLY_END and everything else go through appendEvent on the current reply. appendEvent here is
// Replyscope's pure core port of `Msg.append_event`.

import { applyEvent } from '../../core/agentscope/append-event.ts';
import { AssistantMsg } from '../../core/agentscope/message.ts';
import { validateEvent, type AgentEvent, type Msg } from '../../core/agentscope/schema.ts';

export interface BubbleState {
  msg: Msg;
  /** streaming until REPLY_END; the reply may be parked on a confirmation in between. */
  phase: 'streaming' | 'done';
  /** What went wrong while applying events (invalid events, events the reference raises on). */
  problems: string[];
}

export interface ChatState {
  bubbles: BubbleState[];
  current: BubbleState | null;
  custom: { name: string; value: unknown }[];
}

export function newChatState(): ChatState {
  return { bubbles: [], current: null, custom: [] };
}

export function addUserBubble(state: ChatState, msg: Msg): void {
  state.bubbles.push({ msg, phase: 'done', problems: [] });
}

/** Applies one event (raw JSON text from the stream). Returns the parsed event, or null when it was not valid. */
export function processEventText(state: ChatState, json: string): AgentEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    state.current?.problems.push(`unparsable frame: ${(err as Error).message}`);
    return null;
  }
  const checked = validateEvent(raw);
  if (!checked.ok) {
    const what = checked.issues.map((i) => `${i.path || '(event)'}: ${i.message}`).join('; ');
    state.current?.problems.push(`invalid ${String((raw as { type?: unknown }).type)} event — ${what}`);
    return null;
  }
  const event = checked.event;
  if (event.type === 'CUSTOM') {
    state.custom.push({ name: event.name, value: event.value });
    return event;
  }
  if (event.type === 'REPLY_START') {
    const existing = state.bubbles.find((b) => b.msg.id === event.reply_id);
    if (existing) {
      existing.phase = 'streaming';
      state.current = existing;
    } else {
      const bubble: BubbleState = { msg: AssistantMsg(event.name, [], { id: event.reply_id }), phase: 'streaming', problems: [] };
      state.bubbles.push(bubble);
      state.current = bubble;
    }
    return event;
  }
  const bubble = state.current;
  if (!bubble) return event; // nothing to apply to (e.g. a stray event before any reply)
  const outcome = applyEvent(bubble.msg, event);
  bubble.msg = outcome.msg;
  if (outcome.status === 'warned' && outcome.warning) bubble.problems.push(`skipped ${event.type}: ${outcome.warning.message}`);
  if (outcome.status === 'error' && outcome.error) bubble.problems.push(`${event.type} raised in the reference: ${outcome.error.message}`);
  if (event.type === 'REPLY_END') {
    bubble.phase = 'done';
    state.current = null;
  }
  return event;
}

/** Re-points `current` at a reply before the page answers its HITL request (as the web UI's onUserConfirm does). */
export function focusReply(state: ChatState, replyId: string): void {
  state.current = state.bubbles.find((b) => b.msg.id === replyId) ?? state.current;
}

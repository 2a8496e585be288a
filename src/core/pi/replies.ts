// How a pi stream divides into replies (messages shown as one bubble):
// - proxy / AssistantMessageEvent streams: the whole HTTP response is ONE assistant message (every frame, also
//   those after done/error, which still change it);
// - AgentEvent streams: one reply per assistant message_start … message_end (message_update in between);
//   user / toolResult messages and agent/turn/tool_execution events belong to no reply. A message_update with no
//   open assistant message opens an orphan reply so its content is not lost.
// Incremental and pure: feed events in order, collect the assignments.
import { detectPiForm, type PiEventForm } from './validate.ts';

export interface PiReplySplitState {
  readonly form?: PiEventForm;
  /** Replies opened so far. */
  readonly count: number;
  /** The reply currently receiving events. */
  readonly open?: { readonly ordinal: number; readonly startIndex: number };
  /** Agent streams: turns started so far (turn of the next message = turns - 1). */
  readonly turns: number;
}

export interface PiReplyAssignment {
  /** Ordinal of the reply the event belongs to; undefined when it belongs to none. */
  reply?: number;
  /** This event opened the reply. */
  opened?: boolean;
  /** This event closed it (message_end; for single-message streams the reply stays open until the body ends). */
  closed?: boolean;
  /** Opened without a message_start. */
  orphan?: boolean;
  /** Agent streams: 0-based turn the reply belongs to (-1 before any turn_start). */
  turn?: number;
}

export const initialPiReplySplit: PiReplySplitState = Object.freeze({ count: 0, turns: 0 });

function roleOf(raw: Record<string, unknown>): unknown {
  const m = raw.message;
  return m !== null && typeof m === 'object' ? (m as Record<string, unknown>).role : undefined;
}

export function assignPiReply(
  state: PiReplySplitState,
  index: number,
  raw: unknown,
  form?: PiEventForm,
): { state: PiReplySplitState; assignment: PiReplyAssignment } {
  const f = state.form ?? form ?? detectPiForm(raw);
  const s: PiReplySplitState = f && !state.form ? { ...state, form: f } : state;
  if (f !== 'agent') {
    // One message per response: the first event opens reply 0, everything else joins it.
    if (s.open) return { state: s, assignment: { reply: s.open.ordinal } };
    return {
      state: { ...s, count: s.count + 1, open: { ordinal: s.count, startIndex: index } },
      assignment: { reply: s.count, opened: true },
    };
  }
  const ev = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const turn = s.turns - 1;
  const openNew = (orphan: boolean) => ({
    state: { ...s, count: s.count + 1, open: { ordinal: s.count, startIndex: index } },
    assignment: { reply: s.count, opened: true, turn, ...(orphan ? { orphan: true } : {}) },
  });
  switch (ev.type) {
    case 'turn_start':
      return { state: { ...s, turns: s.turns + 1 }, assignment: {} };
    case 'message_start':
      return roleOf(ev) === 'assistant' ? openNew(false) : { state: { ...s, open: undefined }, assignment: {} };
    case 'message_update':
      if (s.open) return { state: s, assignment: { reply: s.open.ordinal, turn } };
      return openNew(true);
    case 'message_end':
      if (s.open) return { state: { ...s, open: undefined }, assignment: { reply: s.open.ordinal, closed: true, turn } };
      if (roleOf(ev) === 'assistant') {
        const o = openNew(true);
        return { state: { ...o.state, open: undefined }, assignment: { ...o.assignment, closed: true } };
      }
      return { state: s, assignment: {} };
    default:
      return { state: s, assignment: {} };
  }
}

export interface PiReplySpan {
  ordinal: number;
  eventIndices: number[];
  closed: boolean;
  orphan: boolean;
  turn?: number;
}

/** Batch helper: the replies of a whole list of parsed events (index = position in the list). */
export function splitPiReplies(events: readonly unknown[], form?: PiEventForm): PiReplySpan[] {
  let state = initialPiReplySplit;
  const spans: PiReplySpan[] = [];
  events.forEach((raw, index) => {
    const r = assignPiReply(state, index, raw, form);
    state = r.state;
    const a = r.assignment;
    if (a.reply === undefined) return;
    if (a.opened) spans[a.reply] = { ordinal: a.reply, eventIndices: [], closed: false, orphan: !!a.orphan, ...(a.turn !== undefined ? { turn: a.turn } : {}) };
    spans[a.reply].eventIndices.push(index);
    if (a.closed) spans[a.reply].closed = true;
  });
  return spans;
}

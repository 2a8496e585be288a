// Grouping a session stream into replies, incrementally. One AgentScope stream (the web UI's session SSE) carries
// many replies back to back, with CUSTOM notifications between them. Like the AgentScope web UI, a reply's message
// is created at REPLY_START as an AssistantMsg with id = reply_id, name and role from the event and empty content; a
// second REPLY_START with the same id continues the same message (a reply parked on a confirmation resumes so).
// Events naming a reply that never started are kept — in an orphan group — rather than dropped, so the user sees them.
import type { Msg } from './blocks.ts';
import { applyEvent, type ApplyContext, type ApplyOutcome } from './append-event.ts';
import { AssistantMsg } from './message.ts';
import type { AgentEvent, AgentEventOf } from './schema.ts';

export interface ReplyGroup {
  id: string;
  /** True when the group was created by an event other than REPLY_START (the reply never started in the stream). */
  orphan: boolean;
  /** The message before the group's first event. */
  initial: Msg;
  /** The message after the group's latest event. */
  msg: Msg;
  /** Stream indices of the group's events, in order. */
  eventIndices: number[];
  outcomes: ApplyOutcome[];
  /** Index of the latest REPLY_END, if any. */
  endedAt?: number;
}

export type ReplyPush =
  | { kind: 'reply'; replyId: string; created: boolean; orphan: boolean; outcome: ApplyOutcome }
  /** CUSTOM notifications belong to no reply. */
  | { kind: 'custom'; name: string };

export class AgentScopeReplies {
  private readonly groups = new Map<string, ReplyGroup>();
  private readonly order: ReplyGroup[] = [];
  readonly customIndices: number[] = [];

  /**
   * `keepSteps: false`: do not keep `eventIndices` and `outcomes` (a caller that records the steps itself — the
   * analysis' histories — would otherwise hold a second copy of them for every event).
   */
  constructor(
    private readonly ctx: ApplyContext = {},
    private readonly options: { keepSteps?: boolean } = {},
  ) {}

  /** All groups in order of first appearance. */
  get replies(): readonly ReplyGroup[] {
    return this.order;
  }

  get(replyId: string): ReplyGroup | undefined {
    return this.groups.get(replyId);
  }

  /**
   * Route one validated event (stream index `index`) to its reply and apply it. `ctx` overrides the constructor's
   * context for this event (e.g. `eventTime` = its arrival time).
   */
  push(event: AgentEvent, index: number, ctx?: ApplyContext): ReplyPush {
    if (event.type === 'CUSTOM') {
      this.customIndices.push(index);
      return { kind: 'custom', name: event.name };
    }
    // Merge only when both contexts say something: the spread cost an object per event and evaluated every getter
    // of `ctx` (the analysis' apply context computes its timestamps lazily).
    const context = ctx === undefined ? this.ctx : Object.keys(this.ctx).length === 0 ? ctx : { ...this.ctx, ...ctx };
    let group = this.groups.get(event.reply_id);
    const created = !group;
    if (!group) {
      group = this.create(event, context);
      this.groups.set(event.reply_id, group);
      this.order.push(group);
    } else if (event.type === 'REPLY_START' && group.orphan) {
      // The start arrived late: from here on it is a normal reply (earlier events stay applied and flagged).
      group.orphan = false;
    }
    const outcome = applyEvent(group.msg, event, context);
    group.msg = outcome.msg;
    if (this.options.keepSteps !== false) {
      group.eventIndices.push(index);
      group.outcomes.push(outcome);
    }
    if (event.type === 'REPLY_END') group.endedAt = index;
    return { kind: 'reply', replyId: event.reply_id, created, orphan: group.orphan, outcome };
  }

  /**
   * Start a reply from a message derived elsewhere (the state at a memory-cap eviction point): later events apply
   * to `msg` as if the evicted ones had been pushed. `endedAt` marks a reply whose REPLY_END was evicted.
   */
  seed(id: string, msg: Msg, options: { orphan?: boolean; endedAt?: number } = {}): ReplyGroup {
    if (this.groups.has(id)) throw new Error(`seed: reply ${id} already exists`);
    const group: ReplyGroup = { id, orphan: !!options.orphan, initial: msg, msg, eventIndices: [], outcomes: [] };
    if (options.endedAt !== undefined) group.endedAt = options.endedAt;
    this.groups.set(id, group);
    this.order.push(group);
    return group;
  }

  private create(event: Exclude<AgentEvent, { type: 'CUSTOM' }>, ctx: ApplyContext): ReplyGroup {
    const { initial, orphan } = initialReplyMessage(event, ctx);
    return { id: event.reply_id, orphan, initial, msg: initial, eventIndices: [], outcomes: [] };
  }
}

/**
 * The message a reply starts from, created by its first event: the web UI's AssistantMsg with id = reply_id, name
 * and role from REPLY_START (an orphan — first event not a REPLY_START — gets an empty name and role assistant).
 */
export function initialReplyMessage(event: Exclude<AgentEvent, { type: 'CUSTOM' }>, ctx: ApplyContext): { initial: Msg; orphan: boolean } {
  const start = event.type === 'REPLY_START' ? (event as AgentEventOf<'REPLY_START'>) : undefined;
  const base = AssistantMsg(start?.name ?? '', [], {
    id: event.reply_id,
    created_at: event.created_at ?? ctx.eventTime,
    clock: ctx.now && ctx.newId ? { now: ctx.now, newId: ctx.newId } : undefined,
  });
  // The web UI takes the role from REPLY_START as is; role/content constraints are not re-checked afterwards.
  const initial: Msg = start && start.role !== 'assistant' ? { ...base, role: start.role } : base;
  return { initial, orphan: !start };
}

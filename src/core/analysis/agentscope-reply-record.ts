// An AgentScope stream's record of one reply (ReplyExtra: its working message, history, step statuses, times) and
// what is read from it once the events are in: the reply's view, how it stood after a number of events (an eviction's
// digest), the reply an event belongs to. Apart from AgentScopeStream, which writes the records event by event,
// because none of this runs per event.
import type { EvictedReply } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import type { CheckpointedHistory } from '../history/seekable-history.ts';
import type { Msg } from '../agentscope/blocks.ts';
import type { ReplyGroup } from '../agentscope/replies.ts';
import type { WorkingMsg } from '../agentscope/working-msg.ts';
import type { StepStatus } from './stream-processor.ts';
import { stepsBefore } from './stream-resume.ts';
import type { Dialect, ReplyView } from './types.ts';

export interface ReplyExtra {
  id: string;
  /** The message's id is the reply id (an empty reply_id gets a generated one: every event then warns, pure path). */
  idMatches: boolean;
  /** The message after the reply's latest step, written in place; the history snapshots it at checkpoints. */
  work: WorkingMsg;
  /** Steps are connection event indices; the processor holds their events and times (see StepColumns). */
  history: CheckpointedHistory<Msg, number>;
  stepStatus: StepStatus[];
  diagnostics: Diagnostic[];
  firstT: number;
  lastT: number;
  firstTokenT?: number;
  /** The input has no arrival times: the times above are the events' created_at (the server's clock). */
  byCreatedAt?: boolean;
  /** Created by an event other than REPLY_START (or seeded as such): an orphan until a REPLY_START comes. */
  createdOrphan: boolean;
  /** Its valid REPLY_START (index) and REPLY_END (~index) steps, in order: few per reply, read by `evictedReplyAt`. */
  marks?: number[];
}

/**
 * The view of reply `g`. `seeded`: it began in the evicted head, or on the connection `resumedFrom` (when given) this
 * one resumes.
 */
export function replyView(g: ReplyGroup, x: ReplyExtra, dialect: Dialect, seeded: boolean, resumedFrom: string | undefined): ReplyView {
  const msg = x.work.current; // top-level fields only (the usage object is replaced, never written in place)
  return {
    id: g.id,
    dialect,
    name: msg.name,
    role: msg.role,
    // The history's steps are the reply's connection event indices (one array, not two).
    eventIndices: x.history.steps as number[],
    history: x.history,
    stepStatus: x.stepStatus,
    ...(msg.finished_reason ? { finishedReason: msg.finished_reason } : {}),
    ...(msg.usage ? { usage: msg.usage } : {}),
    // A reply continued after an eviction started before what is kept, or one never started in the stream (an
    // orphan): when it began is not known, so neither is its first token's delay.
    ...(x.firstTokenT !== undefined && !seeded && !g.orphan ? { timeToFirstTokenMs: x.firstTokenT - x.firstT } : {}),
    durationMs: x.lastT - x.firstT,
    ...(x.byCreatedAt ? { timedBy: 'created_at' as const } : {}),
    ...(g.orphan ? { orphan: true } : {}),
    ...(!seeded ? {} : resumedFrom !== undefined ? { continuesConnection: resumedFrom } : { continuesEviction: true }),
    diagnostics: x.diagnostics,
  };
}

/**
 * Reply `g` as it stood after the first `count` events: its message then (from its history), whether it was still an
 * orphan, whether it had ended; undefined when it began later. `seed`: how it stood when the stream was seeded with it.
 */
export function evictedReplyAt(g: ReplyGroup, x: ReplyExtra | undefined, seed: { orphan: boolean; ended: boolean } | undefined, count: number): EvictedReply | undefined {
  const k = x ? stepsBefore(x.history.steps as number[], count) : 0;
  if (k === 0 && !seed) return undefined; // began after that point
  const message = k === 0 ? g.initial : (x as ReplyExtra).history.at(k - 1);
  let orphan = seed ? seed.orphan : (x as ReplyExtra).createdOrphan;
  let ended = seed?.ended ?? false;
  for (const m of x?.marks ?? []) {
    if ((m < 0 ? ~m : m) >= count) break;
    if (m >= 0) orphan = ended = false; // (a REPLY_START continues the message: it is under way again)
    else ended = true;
  }
  const reply: EvictedReply = { id: g.id, name: message.name, role: message.role, message: message as unknown as Record<string, unknown> };
  if (orphan) reply.orphan = true;
  if (ended) reply.ended = true;
  return reply;
}

/** The reply an event index belongs to: binary search in each reply's (sorted) event indices. Only end-of-stream
 * diagnostics ask, a handful per stream; a per-event index → reply table cost 8 bytes per event for them. */
export function replyOfEvent(extra: ReadonlyMap<string, ReplyExtra>, index: number): string | undefined {
  for (const [id, x] of extra) {
    const ix = x.history.steps;
    let lo = 0;
    let hi = ix.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ix[mid] === index) return id;
      if (ix[mid] < index) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return undefined;
}

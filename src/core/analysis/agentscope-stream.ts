// AgentScope streams: validate each event as the reference does (from the wire text), route it to its reply,
// apply it with the reference semantics, check the lifecycle, and keep a seekable history per reply.
import type { ConnectionRecord, EndRecord, EvictionDerived } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { CheckpointedHistory } from '../history/seekable-history.ts';
import { applyEvent, type ApplyContext } from '../agentscope/append-event.ts';
import type { Msg } from '../agentscope/blocks.ts';
import { normaliseLegacyEvent } from '../agentscope/legacy.ts';
import { AgentScopeLifecycle } from '../agentscope/lifecycle.ts';
import { AgentScopeReplies } from '../agentscope/replies.ts';
import { AGENTSCOPE_EVENT_TYPES, MsgSchema, validateEvent, type AgentEvent, type ValidationResult } from '../agentscope/schema.ts';
import { findLoneSurrogate, findRecursionLimit } from '../agentscope/wire-json.ts';
import { fastValidateAgentScope } from './agentscope-fast-validate.ts';
import type { RawEvent } from './body-reader.ts';
import { NO_STRINGS } from './event-view.ts';
import type { Dialect, ReplyView } from './types.ts';
import { parseTime, previewOf, typeOf, type EventFacts, type StepStatus, type StreamProcessor } from './stream-processor.ts';

/**
 * Delta events (text, thinking, tool-call arguments, tool-result text: nearly every event of a real stream) are kept
 * by the history in columns, not as objects: the delta text, a type code and the block / tool-call id (shared with
 * every event naming it) — only the fields append_event reads for these types. Their id, created_at and metadata
 * are not read (the clock comes from the apply context). `deltaEvent` rebuilds the validated event when a seek
 * replays the step. Measured on a million-event capture: ~60 bytes per event less than keeping the event object.
 */
const DELTA_TYPES = ['TEXT_BLOCK_DELTA', 'THINKING_BLOCK_DELTA', 'TOOL_CALL_DELTA', 'TOOL_RESULT_TEXT_DELTA'] as const;
const DELTA_CODE = new Map<string, number>(DELTA_TYPES.map((t, i) => [t, i + 1]));

function deltaEvent(code: number, replyId: string, target: string, delta: string): AgentEvent {
  const type = DELTA_TYPES[code - 1];
  return (code >= 3
    ? { type, metadata: {}, reply_id: replyId, tool_call_id: target, delta }
    : { type, metadata: {}, reply_id: replyId, block_id: target, delta }) as AgentEvent;
}

/** The event type names as constants (an event's own `type` string is a fresh copy per event). */
const TYPE_NAMES = new Map<string, string>(AGENTSCOPE_EVENT_TYPES.map((t) => [t, t]));

/** Python-style local timestamp (no zone) for arrival times, the reference's own clock format. */
function isoOf(t: number): string {
  // The events of one chunk share its arrival time: remember the last conversion (it is on every event's path).
  if (t === lastT) return lastIso;
  lastIso = Number.isFinite(t) ? new Date(t).toISOString().slice(0, -1) : '1970-01-01T00:00:00';
  lastT = t;
  return lastIso;
}
let lastT = NaN;
let lastIso = '';

/**
 * The clock the reference reads while applying an event, made deterministic: blocks are stamped with the event's
 * time and generated ids derive from the event index, so replaying from a checkpoint gives the same message.
 */
export function contextFor(index: number, t: number): ApplyContext {
  // A plain literal (an accessor for a lazy eventTime made creation slower than the cached formatting it saved).
  let n = 0;
  const time = isoOf(t);
  return { now: () => time, newId: () => `gen-${index}-${n++}`, eventTime: time };
}

interface ReplyExtra {
  /** Steps are connection event indices; the processor holds their events and times (see `reduceAt`). */
  history: CheckpointedHistory<Msg, number>;
  stepStatus: StepStatus[];
  diagnostics: Diagnostic[];
  firstT: number;
  lastT: number;
  firstTokenT?: number;
}

const PREVIEW_KEYS = ['delta', 'data', 'tool_call_name', 'model_name', 'name', 'finished_reason', 'state', 'error'];

/**
 * Validating a (non-legacy) event as `parseWireEvent(text)` does, reusing the reader's JSON.parse of the same text:
 * the wire parser differs from JSON.parse only on lone surrogate escapes (checked here) and on NaN/Infinity (which
 * JSON.parse rejects, so such events never get here). Returns the failure, or undefined when the text is fine.
 */
function wireProblem(text: string): ValidationResult | undefined {
  // Lone surrogates can only come from a `\u` escape or a JS string that is not well-formed (both rare): the native
  // check spares the character-by-character scan, which emoji (valid surrogate pairs) would otherwise trigger.
  const wellFormed = (text as string & { isWellFormed?: () => boolean }).isWellFormed?.() ?? false; // ES2024
  const problem = (text.includes('\\u') || !wellFormed ? findLoneSurrogate(text) : null) ?? findRecursionLimit(text);
  return problem ? { ok: false, reason: 'json', issues: [{ path: '', message: problem }] } : undefined;
}

/** Validate a (non-legacy) event from its wire text and the reader's parse of it, exactly as `parseWireEvent(text)`. */
export function validateWire(text: string, raw: unknown): ValidationResult {
  const problem = wireProblem(text);
  if (problem) return problem;
  const event = fastValidateAgentScope(raw);
  return event ? { ok: true, event, extras: NO_STRINGS } : validateEvent(raw);
}

export class AgentScopeStream implements StreamProcessor {
  private readonly groups = new AgentScopeReplies();
  private readonly lifecycle = new AgentScopeLifecycle();
  private readonly extra = new Map<string, ReplyExtra>();
  /** Per connection event index: the event a history step replays (null: invalid, changes nothing) and its arrival
   * time (an unboxed double array). */
  /** The event a history step replays: the validated event, or for a delta its text (see DELTA_TYPES). */
  private readonly stepEvents: (AgentEvent | string | null)[] = [];
  private stepCodes = new Uint8Array(1024);
  private readonly stepTargets: (string | undefined)[] = [];
  private readonly times: number[] = [];
  /** Block / tool-call ids, shared by all events that name them. */
  private readonly targets = new Map<string, string>();

  private reduceAt(msg: Msg, index: number, replyId: string): Msg {
    const e = this.stepEvents[index];
    if (e === null || e === undefined) return msg;
    const event = typeof e === 'string' ? deltaEvent(this.stepCodes[index], replyId, this.stepTargets[index] as string, e) : e;
    return applyEvent(msg, event, contextFor(this.indexBase + index, this.times[index])).msg;
  }

  /** Events evicted before this stream's first event: the clock's ids keep the full stream's numbering. */
  private readonly indexBase: number;
  /** Replies that began in the evicted head (seeded from the eviction digest). */
  private readonly seeded = new Set<string>();

  /**
   * `evicted`: the digest of the connection's evicted head (see eviction-digest.ts). Its replies become the initial
   * messages of their groups (so `history.at(k)` continues from the eviction point) and the lifecycle checker knows
   * the blocks they already hold. Replies that get no further event are not listed (all their events were evicted).
   */
  constructor(private readonly conn: ConnectionRecord, private readonly dialect: Dialect, evicted?: EvictionDerived) {
    this.indexBase = evicted?.events ?? 0;
    if (!evicted || evicted.incomplete !== undefined) return;
    if (evicted.lastCreatedAt !== undefined) this.lifecycle.seedClock(evicted.lastCreatedAt, 0);
    for (const r of evicted.replies) {
      // A digest comes from a log that may have been edited: a reply whose message is not a Msg (or repeats an id)
      // is not seeded — its later events then show as an orphan reply instead of failing the whole connection.
      if (this.groups.get(r.id) || r.message.id !== r.id || !MsgSchema.safeParse(r.message).success) continue;
      const msg = r.message as unknown as Msg;
      this.groups.seed(r.id, msg, { orphan: r.orphan, ...(r.ended ? { endedAt: -1 } : {}) });
      this.seeded.add(r.id);
      this.lifecycle.seedReply(r.id, msg, { ended: !!r.ended, at: 0 });
    }
  }

  push(ev: RawEvent, index: number): EventFacts {
    let parsed: ValidationResult;
    let legacy = false;
    let raw = ev.raw;
    if (ev.parseError === undefined) {
      // A shape the fast path accepts has only current-dialect keys and type names, so it is not legacy.
      const fast = fastValidateAgentScope(ev.raw);
      if (fast) parsed = wireProblem(ev.rawText) ?? { ok: true, event: fast, extras: NO_STRINGS };
      else {
        const norm = normaliseLegacyEvent(ev.raw);
        legacy = norm.legacy;
        raw = norm.raw;
        parsed = legacy ? validateEvent(raw) : wireProblem(ev.rawText) ?? validateEvent(raw);
      }
    } else parsed = { ok: false, reason: 'json', issues: [{ path: '', message: ev.parseError }] };

    let replyId: string | undefined;
    let outcome;
    if (parsed.ok) {
      const r = this.groups.push(parsed.event, index, contextFor(this.indexBase + index, ev.t));
      if (r.kind === 'reply') {
        replyId = r.replyId;
        outcome = r.outcome;
        const group = this.groups.get(r.replyId);
        // The group keeps every outcome (with the message after each event) for its own callers; here the history
        // below is the record of those messages, with checkpoints — keeping both held every intermediate message.
        group?.outcomes.pop();
        if (group) this.record(group.id, group.initial, index, ev.t, parsed.event, outcome.msg, outcome.status, parsed.event.type);
      }
    } else {
      // An invalid event still belongs to the reply it names, as a step that changes nothing.
      const named = (raw as { reply_id?: unknown } | undefined)?.reply_id;
      const group = typeof named === 'string' ? this.groups.get(named) : undefined;
      if (group) {
        replyId = group.id;
        this.record(group.id, group.initial, index, ev.t, null, group.msg, 'invalid', typeOf(raw));
      }
    }
    const diagnostics = this.lifecycle.push(index, parsed, outcome, { legacy });
    if (replyId !== undefined && diagnostics.length) this.extra.get(replyId)?.diagnostics.push(...diagnostics);
    const obj = (raw ?? {}) as Record<string, unknown>;
    const blockId = typeof obj.block_id === 'string' ? this.target(obj.block_id) : typeof obj.tool_call_id === 'string' ? this.target(obj.tool_call_id) : undefined;
    const type = ev.parseError !== undefined ? '(not JSON)' : typeOf(raw);
    const facts: EventFacts = {
      type: TYPE_NAMES.get(type) ?? type,
      valid: parsed.ok,
      issues: parsed.ok ? [] : parsed.issues,
      extras: parsed.ok ? parsed.extras : NO_STRINGS,
      preview: ev.parseError !== undefined ? ev.rawText.slice(0, 120) : previewOf(raw, PREVIEW_KEYS),
      diagnostics,
    };
    if (replyId !== undefined) facts.replyId = replyId;
    if (blockId !== undefined) facts.blockId = blockId;
    const createdAt = parseTime(obj.created_at);
    if (createdAt !== undefined) facts.createdAt = createdAt;
    return facts;
  }

  end(_end: EndRecord | undefined): Diagnostic[] {
    const diags = this.lifecycle.finish();
    for (const d of diags) {
      const id = this.replyOf(d.index);
      if (id !== undefined) this.extra.get(id)?.diagnostics.push(d);
    }
    return diags;
  }

  replies(): ReplyView[] {
    return this.groups.replies.filter((g) => this.extra.has(g.id)).map((g) => {
      const x = this.extra.get(g.id) as ReplyExtra;
      const msg = g.msg;
      return {
        id: g.id,
        dialect: this.dialect,
        name: msg.name,
        role: msg.role,
        // The history's steps are the reply's connection event indices (one array, not two).
        eventIndices: x.history.steps as number[],
        history: x.history,
        stepStatus: x.stepStatus,
        ...(msg.finished_reason ? { finishedReason: msg.finished_reason } : {}),
        ...(msg.usage ? { usage: msg.usage } : {}),
        ...(x.firstTokenT !== undefined ? { timeToFirstTokenMs: x.firstTokenT - x.firstT } : {}),
        durationMs: x.lastT - x.firstT,
        ...(g.orphan ? { orphan: true } : {}),
        ...(this.seeded.has(g.id) ? { continuesEviction: true } : {}),
        diagnostics: x.diagnostics,
      };
    });
  }

  /** The reply an event index belongs to: binary search in each reply's (sorted) event indices. Only end-of-stream
   * diagnostics ask, a handful per stream; a per-event index → reply table cost 8 bytes per event for them. */
  private replyOf(index: number): string | undefined {
    for (const [id, x] of this.extra) {
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

  private target(id: string): string {
    const known = this.targets.get(id);
    if (known !== undefined) return known;
    this.targets.set(id, id);
    return id;
  }

  private record(id: string, initial: Msg, index: number, t: number, event: AgentEvent | null, after: Msg, status: StepStatus, type: string): void {
    let x = this.extra.get(id);
    if (!x) {
      x = { history: new CheckpointedHistory<Msg, number>(initial, (msg, i) => this.reduceAt(msg, i, id)), stepStatus: [], diagnostics: [], firstT: t, lastT: t };
      this.extra.set(id, x);
    }
    // Keep the per-index arrays packed (indices of events outside any reply get holes filled with placeholders).
    while (this.stepEvents.length < index) {
      this.stepEvents.push(null);
      this.stepTargets.push(undefined);
      this.times.push(NaN);
    }
    if (index >= this.stepCodes.length) {
      const grown = new Uint8Array(Math.max(index + 1, this.stepCodes.length * 2));
      grown.set(this.stepCodes);
      this.stepCodes = grown;
    }
    const code = event ? DELTA_CODE.get(event.type) : undefined;
    if (event && code !== undefined) {
      const e = event as AgentEvent & { block_id?: string; tool_call_id?: string; delta: string };
      this.stepEvents[index] = e.delta;
      this.stepCodes[index] = code;
      this.stepTargets[index] = this.target(e.block_id ?? e.tool_call_id ?? '');
    } else {
      this.stepEvents[index] = event;
      this.stepCodes[index] = 0;
      this.stepTargets[index] = undefined;
    }
    this.times[index] = t;
    x.history.pushComputed(index, after);
    x.stepStatus.push(status);
    x.lastT = t;
    if (x.firstTokenT === undefined && type.endsWith('_DELTA')) x.firstTokenT = t;
  }
}

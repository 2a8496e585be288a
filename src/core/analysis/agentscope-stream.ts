// AgentScope streams: validate each event as the reference does (from the wire text), route it to its reply,
// apply it with the reference semantics, check the lifecycle, and keep a seekable history per reply.
import type { ConnectionRecord, EndRecord } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { CheckpointedHistory } from '../history/seekable-history.ts';
import { applyEvent, type ApplyContext } from '../agentscope/append-event.ts';
import type { Msg } from '../agentscope/blocks.ts';
import { normaliseLegacyEvent } from '../agentscope/legacy.ts';
import { AgentScopeLifecycle } from '../agentscope/lifecycle.ts';
import { AgentScopeReplies } from '../agentscope/replies.ts';
import { parseWireEvent, validateEvent, type AgentEvent, type ValidationResult } from '../agentscope/schema.ts';
import type { RawEvent } from './body-reader.ts';
import type { Dialect, ReplyView } from './types.ts';
import { parseTime, previewOf, typeOf, type EventFacts, type StepStatus, type StreamProcessor } from './stream-processor.ts';

/** One step of a reply's history: the validated event (null when invalid: the step changes nothing). */
interface Step {
  event: AgentEvent | null;
  index: number;
  t: number;
}

/** Python-style local timestamp (no zone) for arrival times, the reference's own clock format. */
function isoOf(t: number): string {
  return Number.isFinite(t) ? new Date(t).toISOString().replace('Z', '') : '1970-01-01T00:00:00';
}

/**
 * The clock the reference reads while applying an event, made deterministic: blocks are stamped with the event's
 * time and generated ids derive from the event index, so replaying from a checkpoint gives the same message.
 */
function contextFor(index: number, t: number): ApplyContext {
  let n = 0;
  const time = isoOf(t);
  return { now: () => time, newId: () => `gen-${index}-${n++}`, eventTime: time };
}

function reduce(msg: Msg, step: Step): Msg {
  return step.event ? applyEvent(msg, step.event, contextFor(step.index, step.t)).msg : msg;
}

interface ReplyExtra {
  history: CheckpointedHistory<Msg, Step>;
  /** Connection event indices of the reply's steps (valid and invalid events). */
  eventIndices: number[];
  stepStatus: StepStatus[];
  diagnostics: Diagnostic[];
  firstT: number;
  lastT: number;
  firstTokenT?: number;
}

const DELTA = /_DELTA$/;

export class AgentScopeStream implements StreamProcessor {
  private readonly groups = new AgentScopeReplies();
  private readonly lifecycle = new AgentScopeLifecycle();
  private readonly extra = new Map<string, ReplyExtra>();
  private readonly replyOfIndex = new Map<number, string>();

  constructor(private readonly conn: ConnectionRecord, private readonly dialect: Dialect) {}

  push(ev: RawEvent, index: number): EventFacts {
    let parsed: ValidationResult;
    let legacy = false;
    let raw = ev.raw;
    if (ev.parseError === undefined) {
      const norm = normaliseLegacyEvent(ev.raw);
      legacy = norm.legacy;
      raw = norm.raw;
      // Validate from the wire text (pydantic's JSON mode differs from JSON.parse on lone surrogates).
      parsed = legacy ? validateEvent(raw) : parseWireEvent(ev.rawText);
    } else parsed = { ok: false, reason: 'json', issues: [{ path: '', message: ev.parseError }] };

    let replyId: string | undefined;
    let outcome;
    if (parsed.ok) {
      const r = this.groups.push(parsed.event, index, contextFor(index, ev.t));
      if (r.kind === 'reply') {
        replyId = r.replyId;
        outcome = r.outcome;
        const group = this.groups.get(r.replyId);
        if (group) this.record(r.replyId, group.initial, { event: parsed.event, index, t: ev.t }, outcome.msg, outcome.status, ev.t, parsed.event.type);
      }
    } else {
      // An invalid event still belongs to the reply it names, as a step that changes nothing.
      const named = (raw as { reply_id?: unknown } | undefined)?.reply_id;
      const group = typeof named === 'string' ? this.groups.get(named) : undefined;
      if (group) {
        replyId = group.id;
        this.record(group.id, group.initial, { event: null, index, t: ev.t }, group.msg, 'invalid', ev.t, typeOf(raw));
      }
    }
    const diagnostics = this.lifecycle.push(index, parsed, outcome, { legacy });
    if (replyId !== undefined) this.extra.get(replyId)?.diagnostics.push(...diagnostics);
    const obj = (raw ?? {}) as Record<string, unknown>;
    const blockId = typeof obj.block_id === 'string' ? obj.block_id : typeof obj.tool_call_id === 'string' ? obj.tool_call_id : undefined;
    const createdAt = parseTime(obj.created_at);
    return {
      type: ev.parseError !== undefined ? '(not JSON)' : typeOf(raw),
      valid: parsed.ok,
      issues: parsed.ok ? [] : parsed.issues,
      extras: parsed.ok ? parsed.extras : [],
      ...(replyId !== undefined ? { replyId } : {}),
      ...(blockId !== undefined ? { blockId } : {}),
      ...(createdAt !== undefined ? { createdAt } : {}),
      preview: ev.parseError !== undefined ? ev.rawText.slice(0, 120)
        : previewOf(raw, ['delta', 'data', 'tool_call_name', 'model_name', 'name', 'finished_reason', 'state', 'error']),
      diagnostics,
    };
  }

  end(_end: EndRecord | undefined): Diagnostic[] {
    const diags = this.lifecycle.finish();
    for (const d of diags) {
      const id = this.replyOfIndex.get(d.index);
      if (id !== undefined) this.extra.get(id)?.diagnostics.push(d);
    }
    return diags;
  }

  replies(): ReplyView[] {
    return this.groups.replies.map((g) => {
      const x = this.extra.get(g.id) as ReplyExtra;
      const msg = g.msg;
      return {
        id: g.id,
        dialect: this.dialect,
        name: msg.name,
        role: msg.role,
        eventIndices: x.eventIndices,
        history: x.history,
        stepStatus: x.stepStatus,
        ...(msg.finished_reason ? { finishedReason: msg.finished_reason } : {}),
        ...(msg.usage ? { usage: msg.usage } : {}),
        ...(x.firstTokenT !== undefined ? { timeToFirstTokenMs: x.firstTokenT - x.firstT } : {}),
        durationMs: x.lastT - x.firstT,
        ...(g.orphan ? { orphan: true } : {}),
        diagnostics: x.diagnostics,
      };
    });
  }

  private record(id: string, initial: Msg, step: Step, after: Msg, status: StepStatus, t: number, type: string): void {
    let x = this.extra.get(id);
    if (!x) {
      x = { history: new CheckpointedHistory<Msg, Step>(initial, reduce), eventIndices: [], stepStatus: [], diagnostics: [], firstT: t, lastT: t };
      this.extra.set(id, x);
    }
    x.history.pushComputed(step, after);
    x.stepStatus.push(status);
    x.lastT = t;
    if (x.firstTokenT === undefined && DELTA.test(type)) x.firstTokenT = t;
    x.eventIndices.push(step.index);
    this.replyOfIndex.set(step.index, id);
  }
}

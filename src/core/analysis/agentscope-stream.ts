// AgentScope streams: validate each event as the reference does (from the wire text), route it to its reply,
// apply it with the reference semantics, check the lifecycle, and keep a seekable history per reply.
import type { EndRecord, EvictionDerived } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { CheckpointedHistory } from '../history/seekable-history.ts';
import type { ApplyOutcome } from '../agentscope/append-event.ts';
import type { Msg } from '../agentscope/blocks.ts';
import { normaliseLegacyEvent } from '../agentscope/legacy.ts';
import { checkedAgainstText } from '../agentscope/py-int-literals.ts';
import { AgentScopeLifecycle } from '../agentscope/lifecycle.ts';
import { AgentScopeReplies, type ReplyGroup } from '../agentscope/replies.ts';
import { plainIsoAsUtc, readIsoTimes } from '../agentscope/iso-times.ts';
import { WorkingMsg } from '../agentscope/working-msg.ts';
import { MsgSchema, validateEvent, type AgentEvent, type ValidationResult } from '../agentscope/schema.ts';
import { fastValidateAgentScope, lastFast } from './agentscope-fast-validate.ts';
import { clockOf, contextFor, DELTA_KIND, StepColumns, TYPE_INFO, type TypeInfo } from './agentscope-steps.ts';
import type { RawEvent } from './body-reader.ts';
import { NO_ISSUES, NO_STRINGS } from './event-view.ts';
import type { Dialect, EventView, ReplyView } from './types.ts';
import { latestCreatedAt } from './stream-resume.ts';
import { roundedIntegerDiagnostic } from './rounded-integers.ts';
import { clip, parseTime, typeOf, viewType, type EventFacts, type StepStatus, type StreamProcessor } from './stream-processor.ts';
import { headOf } from '../diagnostics/shown.ts';
import { agentScopePreview } from './agentscope-preview.ts';
import { wireProblem } from './agentscope-wire-validate.ts';
import { evictedReplyAt, replyOfEvent, replyView, type ReplyExtra } from './agentscope-reply-record.ts';

export { contextFor } from './agentscope-steps.ts';
export { validateWire } from './agentscope-wire-validate.ts';

export class AgentScopeStream implements StreamProcessor {
  /** Routes events to replies; the steps themselves are recorded here (histories), not kept twice by the groups. */
  private readonly groups = new AgentScopeReplies({}, { keepSteps: false });
  private readonly lifecycle = new AgentScopeLifecycle();
  private readonly extra = new Map<string, ReplyExtra>();
  /** Per connection event index: what a history replay applies (see agentscope-steps.ts). */
  private readonly steps = new StepColumns();
  /** Block / tool-call ids, shared by all events that name them. */
  private readonly targets = new Map<string, string>();
  /** The reply and (shared) block id of the last event the delta lane took. */
  private laneReply: ReplyExtra | undefined;
  private laneTarget = '';

  /** Events evicted before this stream's first event: the clock's ids keep the full stream's numbering. */
  private readonly indexBase: number;
  /** Replies that began in the evicted head or on the connection this one resumes (seeded), and how they stood. */
  private readonly seeded = new Map<string, { orphan: boolean; ended: boolean }>();
  /** The seed's latest created_at (the clock the lifecycle continues from). */
  private readonly seededClock?: string;
  /** Integers beyond 2^53 already told (see rounded-integers.ts). */
  private readonly rounded = new Set<string>();

  /**
   * `evicted`: the digest of the connection's evicted head (see eviction-digest.ts). Its replies become the initial
   * messages of their groups (so `history.at(k)` continues from the eviction point) and the lifecycle checker knows
   * the blocks they already hold. Replies that get no further event are not listed (all their events were evicted).
   * `resumedFrom`: the seed is where the page stood on an earlier connection this one resumes (stream-resume.ts),
   * not this connection's own evicted head.
   */
  constructor(private readonly dialect: Dialect, evicted?: EvictionDerived, private readonly resumedFrom?: string) {
    this.indexBase = evicted?.events ?? 0;
    if (!evicted || evicted.incomplete !== undefined) return;
    this.seededClock = evicted.lastCreatedAt;
    if (evicted.lastCreatedAt !== undefined) this.lifecycle.seedClock(evicted.lastCreatedAt, 0);
    for (const r of evicted.replies) {
      // A digest comes from a log that may have been edited: a reply whose message is not a Msg (or repeats an id)
      // is not seeded — its later events then show as an orphan reply instead of failing the whole connection.
      if (this.groups.get(r.id) || r.message.id !== r.id || !MsgSchema.safeParse(r.message).success) continue;
      const msg = r.message as unknown as Msg;
      this.groups.seed(r.id, msg, { orphan: r.orphan, ...(r.ended ? { endedAt: -1 } : {}) });
      this.seeded.set(r.id, { orphan: !!r.orphan, ended: !!r.ended });
      this.lifecycle.seedReply(r.id, msg, { ended: !!r.ended, at: 0 });
    }
  }

  push(ev: RawEvent, index: number): EventFacts {
    let parsed: ValidationResult;
    let legacy = false;
    let fromFast: AgentEvent | undefined; // the event the fast validator made (a replay can make it again from the text)
    // The common delta read from its wire shape without JSON.parse (agentscope-wire-delta.ts): the fields the fast
    // validator would have read, so the delta lane takes it as is; only if the lane declines is the text parsed.
    const wd = ev.wireDelta;
    if (wd !== undefined) {
      lastFast.type = wd.type;
      lastFast.replyId = wd.replyId;
      lastFast.createdAt = wd.createdAt;
      lastFast.target = wd.target;
      lastFast.delta = wd.delta;
      const facts = this.deltaLane(ev, index);
      if (facts) return facts;
    }
    let raw = ev.raw; // (parses a wire delta the lane declined)
    if (ev.parseError === undefined) {
      // A shape the fast path accepts has only current-dialect keys and type names, so it is not legacy.
      const fast = fastValidateAgentScope(raw);
      if (fast) {
        fromFast = fast;
        const facts = wd === undefined ? this.deltaLane(ev, index) : undefined; // (a wire delta was tried above)
        if (facts) return this.noteRounded(ev, index, facts);
        parsed = wireProblem(ev.rawText, ev.wellFormed) ?? { ok: true, event: fast, extras: NO_STRINGS };
      }
      else {
        const norm = normaliseLegacyEvent(ev.raw);
        legacy = norm.legacy;
        raw = norm.raw;
        parsed = legacy ? validateEvent(raw) : wireProblem(ev.rawText, ev.wellFormed) ?? checkedAgainstText(ev.rawText, validateEvent(raw));
      }
    } else parsed = { ok: false, reason: 'json', issues: [{ path: '', message: ev.parseError }] };

    const obj = (raw ?? {}) as Record<string, unknown>;
    const type = ev.parseError !== undefined ? '(not JSON)' : typeOf(raw);
    const info = TYPE_INFO.get(type);
    // The block / tool call the event names, as the one string shared by every event naming it (ids then compare
    // by identity when the reducer looks the block up). The tool call id first: a TOOL_RESULT_DATA_DELTA carries both,
    // and its block_id is the id of the data block it adds inside the result, not of a block of the message — the
    // block it changes is the tool result of its tool_call_id (its Block column and "tool call" label said the data
    // block's id).
    const named = typeof obj.tool_call_id === 'string' ? obj.tool_call_id : typeof obj.block_id === 'string' ? obj.block_id : undefined;
    const blockId = named === undefined ? undefined : this.target(named);
    let replyId: string | undefined;
    let outcome: ApplyOutcome | undefined;
    if (parsed.ok) {
      const event = parsed.event;
      const e = event as { block_id?: string; tool_call_id?: string };
      const own = e.tool_call_id ?? e.block_id;
      const target = own === undefined ? undefined : own === named ? blockId : this.target(own);
      const x = event.type === 'CUSTOM' ? undefined : this.extra.get(event.reply_id);
      // The common events are applied to the reply's working message in place (see working-msg.ts); no warning or
      // error can come of them, so the lifecycle needs no outcome.
      const fast = x && x.idMatches && target !== undefined ? x.work.applyInPlace(event, target) : undefined;
      if (x && fast !== undefined) {
        replyId = x.id;
        this.record(x, index, ev.t, clockOf(ev.t, event.created_at), event, fast, info ?? event.type, target, event === fromFast ? ev.rawText : undefined);
      } else {
        // The pure reducer, from a snapshot of the working message (the group's own message is not kept current).
        const before = x && this.groups.get(x.id);
        if (before) before.msg = (x as ReplyExtra).work.snapshot();
        const clock = clockOf(ev.t, event.created_at);
        const r = this.groups.push(event, index, contextFor(this.indexBase + index, clock));
        if (r.kind === 'reply') {
          replyId = r.replyId;
          outcome = r.outcome;
          const group = this.groups.get(r.replyId);
          if (group) {
            const y = this.extraOf(group, ev.t, clock);
            y.work.adopt(outcome.msg);
            this.record(y, index, ev.t, clock, event, outcome.status, info ?? event.type, target, event === fromFast ? ev.rawText : undefined);
          }
        }
      }
    } else {
      // An invalid event still belongs to the reply it names, as a step that changes nothing.
      const rid = (raw as { reply_id?: unknown } | undefined)?.reply_id;
      const group = typeof rid === 'string' ? this.groups.get(rid) : undefined;
      if (group) {
        replyId = group.id;
        this.record(this.extraOf(group, ev.t, ev.t), index, ev.t, ev.t, null, 'invalid', info ?? type, undefined);
      }
    }
    const diagnostics = this.lifecycle.push(index, parsed, outcome, { legacy });
    if (replyId !== undefined && diagnostics.length) this.extra.get(replyId)?.diagnostics.push(...diagnostics);
    const facts: EventFacts = {
      type: info?.name ?? viewType(type),
      valid: parsed.ok,
      issues: parsed.ok ? NO_ISSUES : parsed.issues,
      extras: parsed.ok ? parsed.extras : NO_STRINGS,
      preview: ev.parseError !== undefined ? headOf(ev.rawText, 120) : agentScopePreview(raw),
      diagnostics,
    };
    if (replyId !== undefined) facts.replyId = replyId;
    if (blockId !== undefined) facts.blockId = blockId;
    const createdAt = typeof obj.created_at === 'string' ? plainIsoAsUtc(obj.created_at) ?? parseTime(obj.created_at) : parseTime(obj.created_at);
    if (createdAt !== undefined) facts.createdAt = createdAt;
    return this.noteRounded(ev, index, facts);
  }

  /**
   * `facts` with the event's integers that JSON.parse rounds told (rounded-integers.ts). Not asked of a text the
   * wire-delta reading matched — its fields are strings and its metadata empty — so the delta lane's events skip it.
   */
  private noteRounded(ev: RawEvent, index: number, facts: EventFacts): EventFacts {
    if (ev.wireDelta !== undefined || ev.parseError !== undefined) return facts;
    const d = roundedIntegerDiagnostic(ev.rawText, index, this.rounded, 'python');
    if (d) {
      facts.diagnostics = [...facts.diagnostics, d];
      if (facts.replyId !== undefined) this.extra.get(facts.replyId)?.diagnostics.push(d);
    }
    return facts;
  }

  /**
   * The delta lane: a valid delta event (nearly every event of a stream) of a reply already under way, applied in
   * place, taken entirely from the fields the fast validator read (see `lastFast`) — the same steps as the general
   * path below, which reads them from the event object, whose shape varies by type. Undefined (nothing changed yet)
   * when the event is anything else: the general path then handles it.
   */
  private deltaLane(ev: RawEvent, index: number): EventFacts | undefined {
    const f = lastFast;
    const info = TYPE_INFO.get(f.type);
    if (info === undefined || info.delta === 0 || f.target === undefined || f.delta === undefined) return undefined;
    // Runs of deltas name the same reply and block: compare with the previous event's strings before hashing them.
    let x = this.laneReply;
    if (x === undefined || f.replyId !== x.id) x = this.laneReply = this.extra.get(f.replyId);
    if (x === undefined || !x.idMatches || wireProblem(ev.rawText, ev.wellFormed)) return undefined;
    const target = f.target === this.laneTarget ? this.laneTarget : (this.laneTarget = this.target(f.target));
    const status = x.work.applyDelta(info.delta, target, f.delta);
    if (status === undefined) return undefined;
    const clock = clockOf(ev.t, f.createdAt);
    this.steps.setDelta(index, info.delta, f.delta, target, clock);
    this.step(x, index, ev.t, clock, status, true);
    // created_at read once for both the lifecycle's clock (local time) and the view (see iso-times.ts).
    const createdAt = f.createdAt;
    let local = NaN;
    let view: number | undefined;
    if (createdAt !== undefined) {
      const times = readIsoTimes(createdAt);
      if (createdAt !== '') local = times[1];
      view = Number.isNaN(times[0]) ? parseTime(createdAt) : times[0];
    }
    const diagnostics = this.lifecycle.pushDelta(index, info.name, x.id, DELTA_KIND[info.delta], target, f.delta, createdAt, local);
    if (diagnostics.length) x.diagnostics.push(...diagnostics);
    // Every key in the literal (createdAt possibly undefined): a key added afterwards costs the object a second
    // allocation for its out-of-object properties, on nearly every event.
    return { type: info.name, valid: true, issues: NO_ISSUES, extras: NO_STRINGS, preview: clip(f.delta), diagnostics, replyId: x.id, blockId: target, createdAt: view };
  }

  end(_end: EndRecord | undefined): Diagnostic[] {
    const diags = this.lifecycle.finish();
    for (const d of diags) {
      const id = replyOfEvent(this.extra, d.index);
      if (id !== undefined) this.extra.get(id)?.diagnostics.push(d);
    }
    return diags;
  }

  replies(): ReplyView[] {
    return this.groups.replies.filter((g) => this.extra.has(g.id))
      .map((g) => replyView(g, this.extra.get(g.id) as ReplyExtra, this.dialect, this.seeded.has(g.id), this.resumedFrom));
  }

  /**
   * The replies as they stood after the first `count` events: each one's message then (from its history), whether it
   * was still an orphan, whether it had ended; and the latest created_at so far. Replies that began later are not in it.
   */
  stateAt(count: number, events: readonly EventView[]): EvictionDerived {
    const out: EvictionDerived = { events: this.indexBase + count, carry: '', dialect: this.dialect, replies: [] };
    for (const g of this.groups.replies) {
      const reply = evictedReplyAt(g, this.extra.get(g.id), this.seeded.get(g.id), count);
      if (reply) out.replies.push(reply);
    }
    const clock = latestCreatedAt(events, count, this.seededClock);
    if (clock !== undefined) out.lastCreatedAt = clock;
    return out;
  }

  private target(id: string): string {
    const known = this.targets.get(id);
    if (known !== undefined) return known;
    this.targets.set(id, id);
    return id;
  }

  /** The reply's record (history, statuses, …), created at its first step from the group's message then. */
  private extraOf(group: ReplyGroup, t: number, clock: number): ReplyExtra {
    let x = this.extra.get(group.id);
    if (!x) {
      const id = group.id;
      const work = new WorkingMsg(group.msg);
      const history = new CheckpointedHistory<Msg, number>(group.initial, (msg, i) => this.steps.reduce(msg, i, id, this.indexBase), { live: work });
      const at = Number.isFinite(t) ? t : clock;
      // (A group is created by its first event, so its orphan flag says what that event was — unless it was seeded.)
      const createdOrphan = this.seeded.get(id)?.orphan ?? group.orphan;
      x = { id, idMatches: group.msg.id === id, work, history, stepStatus: [], diagnostics: [], firstT: at, lastT: at, createdOrphan };
      if (!Number.isFinite(t) && Number.isFinite(clock)) x.byCreatedAt = true;
      this.extra.set(id, x);
    }
    return x;
  }

  /** The reply's side of a step: history, status, times (`token`: the event is a content delta). */
  private step(x: ReplyExtra, index: number, arrival: number, clock: number, status: StepStatus, token: boolean): void {
    x.history.pushLive(index);
    x.stepStatus.push(status);
    // Without arrival times (a raw body, a HAR without timings) the reply is timed by the events' created_at.
    const t = Number.isFinite(arrival) ? arrival : clock;
    x.lastT = t;
    // A delta the reference drops (before its block's start, into a finished block) is no token the page shows.
    if (x.firstTokenT === undefined && token && status === 'changed') x.firstTokenT = t;
  }

  /**
   * One step of reply `x` (`t`: arrival time; `clock`: what a replay of the step stamps with, see clockOf). `info`: the event's type (or the type name of an invalid event); `target`: its block id;
   * `wire`: the event's wire text when the fast validator made the event (see StepColumns.setEvent).
   */
  private record(x: ReplyExtra, index: number, t: number, clock: number, event: AgentEvent | null, status: StepStatus, info: TypeInfo | string | undefined, target: string | undefined, wire?: string): void {
    const code = event && typeof info === 'object' ? info.delta : 0;
    if (event && code !== 0) this.steps.setDelta(index, code, (event as AgentEvent & { delta: string }).delta, target ?? this.target(''), clock);
    else this.steps.setEvent(index, event, clock, wire);
    if (event?.type === 'REPLY_START') (x.marks ??= []).push(index);
    else if (event?.type === 'REPLY_END') (x.marks ??= []).push(~index);
    this.step(x, index, t, clock, status, typeof info === 'object' ? info.token : (info ?? '').endsWith('_DELTA'));
  }
}

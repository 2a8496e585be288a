// pi streams (proxy, AssistantMessageEvent and AgentEvent forms): events → replies with seekable histories.
// The proxy form is reconstructed as pi-agent-core's streamProxy does (the lifecycle checker runs the same pure
// client reducer, so each event is reduced once on ingest); the other forms carry their message in every event.
import type { ConnectionRecord, EndRecord, EvictionDerived } from '../capture/model.ts';
import { piRequestJson } from '../capture/stream-request.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { CheckpointedHistory } from '../history/seekable-history.ts';
import { CarriedMessageHistory } from './carried-history.ts';
import { initialPiLifecycle, stepPiLifecycle, type PiLifecycleState } from '../pi/lifecycle.ts';
import { piStateSnapshot, type PiProxyState } from '../pi/proxy-reducer.ts';
import { assignPiReply, initialPiReplySplit, type PiReplySplitState } from '../pi/replies.ts';
import { jsonEqual } from '../json-equal.ts';
import { validatePiEvent, type PiEventForm } from '../pi/validate.ts';
import type { RawEvent } from './body-reader.ts';
import { decodePiState, encodePiState } from './pi-state-json.ts';
import { carriedMessage, innerEventOf, reduceProxy, stepOf, type PiStep } from './pi-event-reading.ts';
import { roundedIntegerDiagnostic } from './rounded-integers.ts';
import type { Dialect, ReplyView, SeekableHistory } from './types.ts';
import { mapHistory, previewOf, typeOf, viewType, type EventFacts, type StepStatus, type StreamProcessor } from './stream-processor.ts';
import { headOf } from '../diagnostics/shown.ts';
import { PI_CODES } from '../pi/diagnostic-codes.ts';

const FORM: Record<string, PiEventForm> = { 'pi-proxy': 'proxy', 'pi-assistant': 'assistant', 'pi-agent': 'agent' };

interface PiReply {
  ordinal: number;
  orphan: boolean;
  eventIndices: number[];
  stepStatus: StepStatus[];
  history: CarriedMessageHistory;
  diagnostics: Diagnostic[];
  firstT: number;
  lastT: number;
  firstTokenT?: number;
  /** See ReplyView.afterEnd. */
  afterEnd?: { message: unknown; reason: string };
  /** Agent streams: its message_end came. */
  closed?: boolean;
}

/** The fields an event's row previews, the first one present. */
const PREVIEW_KEYS = ['delta', 'errorMessage', 'toolName', 'reason'];

/** Events that start a message: a reply whose first kept event is one of them did not begin before an eviction. */
const STARTS = new Set(['start', 'message_start', 'agent_start', 'turn_start']);

/** Checks that need the events before an eviction without state (see PiStream.resumed). */
const NEEDS_BEFORE = new Set<string>([PI_CODES.missingStart, PI_CODES.deltaOnMissingIndex, PI_CODES.contentKindMismatch,
  PI_CODES.toolcallEndIgnored, PI_CODES.ignoredAfterFailure, PI_CODES.clientException, PI_CODES.agentSequence, PI_CODES.partialMismatch]);

export class PiStream implements StreamProcessor {
  private readonly form: PiEventForm;
  /** Diagnostics of the response head, reported with the first event (or at the end when no event came). */
  private headDiagnostics: Diagnostic[] = [];
  private lifecycle: PiLifecycleState;
  private split: PiReplySplitState = initialPiReplySplit;
  private readonly list: PiReply[] = [];
  private readonly replyIds: string[] = [];
  private readonly blockIds: string[] = [];
  /** Integers beyond 2^53 already told (see rounded-integers.ts). */
  private readonly rounded = new Set<string>();
  private readonly proxyHistory?: CheckpointedHistory<PiProxyState, PiStep>;
  /** The stream's head was evicted: the first reply continues from before what is kept (TTFT unknown, duration ≥). */
  private seeded = false;
  /**
   * The head was evicted and no client state came with it (the assistant and agent forms carry their message in
   * every event, so none is kept; a proxy stream whose state could not be derived): until the next message (agent
   * run) starts, the checks that need the events before the cut are not made — they reported the cut itself as a
   * failed client ("delta on a block never started") and as a broken agent sequence on every update.
   */
  private resumed = false;
  /** A done/error (or agent_end) was seen while resumed: the end of the body is then no "no terminal event". */
  private resumedTerminal = false;
  /** The proxy client state came from the digest (the first reply surely continues it). */
  private derivedState = false;
  /** The parsed request body (the proxy client's initial message). */
  private readonly requestBody: unknown;
  /** Events before this stream's first one (an evicted head, or the resumed connection's): the numbering goes on. */
  private readonly eventBase: number;

  /**
   * `evicted`: the digest of the connection's evicted head; a derived proxy client state is the starting state.
   * `errorBody`: an HTTP error answer's body text, when known (the client reads its JSON `error` into its message).
   * `resumedFrom`: `evicted` is where the page stood on an earlier connection this one resumes (stream-resume.ts).
   */
  constructor(private readonly conn: ConnectionRecord, private readonly dialect: Dialect, evicted?: EvictionDerived, errorBody?: string, private readonly resumedFrom?: string) {
    this.form = FORM[dialect] ?? 'proxy';
    this.eventBase = evicted?.events ?? 0;
    // A non-JSON request body: the message starts without model fields; a cut one, from its head's model.
    const body = piRequestJson(conn.requestBody);
    this.requestBody = body;
    this.lifecycle = initialPiLifecycle(body, this.form);
    if (conn.status !== undefined) {
      const head = stepPiLifecycle(this.lifecycle, { kind: 'response', status: conn.status, statusText: conn.statusText, ...(errorBody !== undefined ? { bodyText: errorBody } : {}) });
      this.lifecycle = head.state;
      this.headDiagnostics = head.diagnostics;
    }
    if (this.form === 'proxy' && evicted?.pi?.derived && evicted.pi.state !== undefined) {
      try {
        this.lifecycle = { ...this.lifecycle, client: decodePiState(evicted.pi.state), events: evicted.events };
        this.seeded = true;
      } catch {
        // A digest edited into something else: continue from the request's initial state, as without one.
      }
    }
    this.derivedState = this.seeded;
    if (!this.seeded && evicted !== undefined && evicted.events > 0) {
      this.seeded = true;
      this.resumed = true;
      this.lifecycle = { ...this.lifecycle, events: evicted.events };
    }
    if (this.form === 'proxy') {
      this.proxyHistory = new CheckpointedHistory<PiProxyState, PiStep>(this.lifecycle.client, reduceProxy);
    }
  }

  push(ev: RawEvent, index: number): EventFacts {
    const raw = ev.raw;
    const before = this.lifecycle.client;
    const step = ev.parseError !== undefined
      ? stepPiLifecycle(this.lifecycle, { kind: 'malformed', index, data: ev.rawText, error: ev.parseError })
      : stepPiLifecycle(this.lifecycle, { kind: 'event', index, raw });
    this.lifecycle = step.state;
    // The response head's verdict (e.g. a non-2xx status failing the client) is told at the first event.
    let stepDiagnostics = this.headDiagnostics.length ? [...this.takeHead(), ...step.diagnostics] : step.diagnostics;
    if (this.resumed) stepDiagnostics = this.whileResumed(raw, stepDiagnostics);
    const rounded = ev.parseError === undefined ? roundedIntegerDiagnostic(ev.rawText, index, this.rounded, 'pi') : undefined;
    if (rounded) stepDiagnostics = [...stepDiagnostics, rounded];
    const v = ev.parseError === undefined ? validatePiEvent(raw, this.form) : undefined;
    const a = assignPiReply(this.split, index, raw, this.form);
    this.split = a.state;
    let replyId: string | undefined;
    if (a.assignment.reply !== undefined) {
      const reply = this.replyFor(a.assignment.reply, !!a.assignment.orphan, ev.t);
      // After an eviction the first reply continues from before the cut — unless it starts here, in what was kept.
      if (reply.ordinal === 0 && reply.eventIndices.length === 0 && this.seeded && !this.derivedState && STARTS.has(typeOf(raw))) this.seeded = false;
      replyId = this.replyId(reply.ordinal);
      if (a.assignment.closed) reply.closed = true;
      reply.eventIndices.push(index);
      reply.diagnostics.push(...stepDiagnostics);
      reply.lastT = ev.t;
      /** The page shows this event's message: its first delta doing so is the first token. */
      let shown: boolean;
      if (this.proxyHistory) {
        const after = this.lifecycle.client;
        this.proxyHistory.pushComputed(stepOf(ev), after);
        reply.stepStatus.push(stepDiagnostics.some((d) => d.severity === 'error') ? 'error'
          : after.message !== before.message ? 'changed' : 'unchanged');
        shown = reply.stepStatus[reply.stepStatus.length - 1] === 'changed';
      } else {
        const prev = reply.history.last;
        const carried = carriedMessage(raw);
        reply.history.push(ev.rawText, carried);
        // Every carrying event is parsed anew, so a new object says nothing: a message_end, a done, or an event
        // serialised after later ones (see message-check.ts) carries the message as it was — no change.
        const changed = carried !== undefined && (prev === undefined || !jsonEqual(carried, prev));
        reply.stepStatus.push(ev.parseError !== undefined ? 'invalid' : changed ? 'changed' : 'unchanged');
        // A message serialised late shows the deltas before their events: the delta event still marks the token.
        shown = carried !== undefined;
      }
      // The first token is the first delta the message shows (one the client dropped or failed on is none).
      // (An agent's message_update is a delta when its assistantMessageEvent is: a text_start shows no token yet.)
      const delta = typeOf(raw) === 'message_update' ? /_delta$/.test(typeOf(innerEventOf(raw as Record<string, unknown>))) : /_delta$/.test(typeOf(raw));
      if (reply.firstTokenT === undefined && shown && delta) {
        reply.firstTokenT = ev.t;
      }
    }
    const outer = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    // An agent's message_update says what changed in its assistantMessageEvent (a text_delta on content[1]…): the
    // row shows that event's block and delta, as the proxy and assistant forms' rows do — every update read alike.
    const inner = outer.type === 'message_update' ? innerEventOf(outer) : undefined;
    const obj = inner ?? outer;
    const blockId = typeof obj.contentIndex === 'number' ? this.blockIdOf(obj.contentIndex)
      : typeof obj.toolCallId === 'string' ? obj.toolCallId : typeof obj.id === 'string' ? obj.id : undefined;
    return {
      type: ev.parseError !== undefined ? '(not JSON)' : viewType(typeOf(raw)),
      valid: v?.ok ?? false,
      issues: v && !v.ok ? v.issues : ev.parseError !== undefined ? [{ path: '', message: ev.parseError }] : [],
      extras: v && v.ok ? v.extras : [],
      ...(replyId !== undefined ? { replyId } : {}),
      ...(blockId !== undefined ? { blockId } : {}),
      preview: ev.parseError !== undefined ? headOf(ev.rawText, 120)
        : inner ? `${typeOf(inner)} ${previewOf(inner, PREVIEW_KEYS)}`.trimEnd()
        : previewOf(raw, PREVIEW_KEYS),
      diagnostics: stepDiagnostics,
    };
  }

  /**
   * Resumed after an eviction without state (see `resumed`): the diagnostics of one event without those that need
   * the events before the cut. A message (or agent run) that starts here ends it: checks begin anew from its start.
   */
  private whileResumed(raw: unknown, diagnostics: Diagnostic[]): Diagnostic[] {
    const type = typeOf(raw);
    if (type === (this.form === 'agent' ? 'agent_start' : 'start')) {
      this.resumed = false;
      const fresh = initialPiLifecycle(this.requestBody, this.form);
      // From this start on, as if the stream began here (the start event applied to a fresh state), numbering kept.
      const again = stepPiLifecycle({ ...fresh, events: this.lifecycle.events - 1 }, { kind: 'event', index: this.lifecycle.events - 1, raw });
      this.lifecycle = again.state;
      return again.diagnostics;
    }
    if (type === 'done' || type === 'error' || type === 'agent_end') this.resumedTerminal = true;
    return diagnostics.filter((d) => !NEEDS_BEFORE.has(d.code));
  }

  private takeHead(): Diagnostic[] {
    const head = this.headDiagnostics;
    this.headDiagnostics = [];
    return head;
  }

  end(end: EndRecord | undefined): Diagnostic[] {
    const before = this.lifecycle.client;
    const step = stepPiLifecycle(this.lifecycle, {
      kind: 'end', ...(end ? { endState: end.state } : {}), ...(end?.error !== undefined ? { error: end.error } : {}),
    });
    this.lifecycle = step.state;
    const last = this.list.at(-1);
    // The end failed the proxy client (an abort, a network error): the message it yields is the reply's last word.
    if (this.proxyHistory && last && step.state.client.message !== before.message) {
      const message = piStateSnapshot(step.state.client) as Record<string, unknown>;
      last.afterEnd = { message, reason: `the connection ${end?.state === 'error' ? 'failed' : end?.state ?? 'ended'}` };
    }
    let diags = [...this.takeHead(), ...step.diagnostics];
    // Resumed to the end: the client model never saw this message start, so it cannot tell its terminal event.
    if (this.resumed) diags = diags.filter((d) => !NEEDS_BEFORE.has(d.code) && !(d.code === PI_CODES.noTerminal && this.resumedTerminal));
    if (last) last.diagnostics.push(...diags);
    return diags;
  }

  replies(): ReplyView[] {
    return this.list.map((r) => {
      const history: SeekableHistory = this.proxyHistory ? mapHistory(this.proxyHistory, piStateSnapshot) : r.history;
      const final = (r.afterEnd?.message ?? (history.length > 0 ? history.at(history.length - 1) : undefined)) as Record<string, unknown> | undefined;
      // pi's message says stopReason "stop" from its first event on (the client's initial value), so it tells
      // nothing until the reply finished: the client settled (done/error, or failed at the end of the body), or,
      // in an agent stream, the message ended. Before that the reply is streaming, or was left unfinished.
      const finished = this.form === 'agent' ? r.closed === true : this.lifecycle.client.settled;
      return {
        id: this.replyId(r.ordinal),
        dialect: this.dialect,
        role: 'assistant',
        eventIndices: r.eventIndices,
        history,
        stepStatus: r.stepStatus,
        ...(finished && typeof final?.stopReason === 'string' ? { finishedReason: final.stopReason } : {}),
        ...(final?.usage !== undefined ? { usage: final.usage } : {}),
        // A reply continued after an eviction started before what is kept: its first token is not known.
        ...(r.firstTokenT !== undefined && !(this.seeded && r.ordinal === 0) && !r.orphan ? { timeToFirstTokenMs: r.firstTokenT - r.firstT } : {}),
        durationMs: r.lastT - r.firstT,
        ...(r.orphan ? { orphan: true } : {}),
        ...(!(this.seeded && r.ordinal === 0) ? {} : this.resumedFrom !== undefined ? { continuesConnection: this.resumedFrom } : { continuesEviction: true }),
        ...(r.afterEnd ? { afterEnd: r.afterEnd } : {}),
        diagnostics: r.diagnostics,
      };
    });
  }

  /**
   * The proxy client's state after the first `count` events (one reply takes every event of a proxy stream, so history
   * step k is event k). The assistant and agent forms carry their message in every event: nothing to keep.
   */
  stateAt(count: number): EvictionDerived {
    const out: EvictionDerived = { events: this.eventBase + count, carry: '', dialect: this.dialect, replies: [] };
    const h = this.proxyHistory;
    if (!h) return out;
    if (this.resumed) {
      out.pi = { derived: false, reason: 'this stream itself continued without the client state before it' };
      return out;
    }
    const steps = Math.min(count, h.length);
    const encoded = encodePiState(steps === 0 ? h.initial : h.at(steps - 1));
    out.pi = typeof encoded === 'string' ? { derived: false, reason: encoded } : { derived: true, state: encoded };
    return out;
  }

  /** Every event view keeps its reply's id and block id: one string per reply / content index, not one per event. */
  private replyId(ordinal: number): string {
    return (this.replyIds[ordinal] ??= `${this.conn.id}#${ordinal}`);
  }

  private blockIdOf(contentIndex: number): string {
    const small = Number.isInteger(contentIndex) && contentIndex >= 0 && contentIndex < 4096;
    return small ? (this.blockIds[contentIndex] ??= `#${contentIndex}`) : `#${contentIndex}`;
  }

  private replyFor(ordinal: number, orphan: boolean, t: number): PiReply {
    let r = this.list[ordinal];
    if (!r) {
      r = {
        ordinal, orphan, eventIndices: [], stepStatus: [], diagnostics: [], firstT: t, lastT: t,
        history: new CarriedMessageHistory(carriedMessage),
      };
      this.list[ordinal] = r;
    }
    return r;
  }
}

// Analysis: capture records in, the panel's/CLI's read model out. Incremental — live records are pushed as they
// arrive and only the connections they touch are recomputed — and deterministic: the same records always give the
// same views, so an exported capture log replays identically anywhere.
import { ERROR_BODY_RECORDED_BYTES, type Capture, type CaptureRecord, type ChunkRecord, type ConnectionRecord, type EndRecord, type EvictionDerived, type EvictionRecord, type NavigationRecord, type NoticeRecord } from '../capture/model.ts';
import { blindSpotNotice, EVENTSOURCE_PARTIAL_NOTICE, EVENTSOURCE_RECONNECT_NOTICE } from '../capture/notices.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { AgentScopeStream } from './agentscope-stream.ts';
import { BodyReader, bodyKindOf, header, type RawEvent } from './body-reader.ts';
import { clientDialect, DialectDetector, dialectOfEvent, isAgentScope, isPi } from './dialect.ts';
import { isPiProxyRequest } from '../capture/stream-request.ts';
import { analysedEvent, EventTimes } from './event-view.ts';
import { PiStream } from './pi-stream.ts';
import { previewOf, typeOf, viewType, type EventFacts, type StreamProcessor } from './stream-processor.ts';
import { clipped, headOf } from '../diagnostics/shown.ts';
import { HeldBackWatch } from './held-back.ts';
import { continuedElsewhere, findResume, resumeDiagnostics, resumeMessage, type EarlierStream, type ResumeLink } from './stream-resume.ts';
import type { ConnectionState, ConnectionView, Dialect, EventView, ResumedByView } from './types.ts';
import { partitionPoint } from '../partition-point.ts';

/** Notices kept per connection and per capture (the tap bounds its own; an imported file may hold any number). */
const MAX_CONNECTION_NOTICES = 20;
const MAX_PAGE_NOTICES = 100;

/** What a connection no later one resumed has continued elsewhere (shared: asked on every view build). */
const NOTHING_CONTINUED: ReadonlyMap<string, { conn: string; eventId: string }> = new Map();

const bySeverityThenIndex = (a: Diagnostic, b: Diagnostic) => a.index - b.index;

function undecidedFacts(ev: RawEvent): EventFacts {
  return {
    type: ev.parseError !== undefined ? '(not JSON)' : viewType(typeOf(ev.raw)),
    valid: false,
    issues: ev.parseError !== undefined ? [{ path: '', message: ev.parseError }] : [],
    extras: [],
    preview: ev.parseError !== undefined ? headOf(ev.rawText, 120) : previewOf(ev.raw, ['delta', 'data', 'text']),
    diagnostics: [],
  };
}

class ConnectionAnalysis implements EarlierStream {
  record: ConnectionRecord;
  /** Which page of the capture it was made on (the navigations before it): a stream resumes within one page. */
  readonly page: number;
  end?: EndRecord;
  readonly reader: BodyReader;
  readonly detector = new DialectDetector();
  processor?: StreamProcessor;
  readonly events: EventView[] = [];
  /** The events' times, unboxed (see EventTimes). */
  private readonly times = new EventTimes();
  /** Whether some events waited on their way far longer than others (see held-back.ts). */
  private readonly heldBack = new HeldBackWatch();
  /**
   * When the requests that brought its events began: the connection's, then an EventSource's reconnections (noted),
   * a WebSocket's messages the page sent (see held-back.ts).
   */
  private readonly requestStarts: number[];
  /** An EventSource reconnection was noted: the next event's arrival starts its request. */
  private reconnected = false;
  private pending: [RawEvent, number][] = [];
  private endDiagnostics: Diagnostic[] = [];
  evictedEvents = 0;
  /** The eviction had no digest (an older log, a panel compacted before it came): `evictedEvents` counts records. */
  evictedRecordsOnly = false;
  evictions = 0;
  /** The latest eviction record seen before any data: the head the remaining data continues from. */
  private headEviction?: EvictionRecord;
  private sawData = false;
  /** The dialect the evicted events spoke (from their digest), before any remaining event could tell. */
  private seededDialect?: Dialect;
  /** See clientDialect(). */
  private framesDialect?: Dialect;
  readonly notes: string[] = [];
  /**
   * What the answer says it is when that is a protocol of its own (the Vercel AI SDK's UI message stream, by the
   * header its servers send): its events are not read as AgentScope or pi. Its first event `{"type":"start"}` is
   * also pi's proxy start, and the stream was taken for a broken pi stream — every later event "unknown", its
   * closing `data: [DONE]` "malformed JSON" — though the AI SDK's client reads it as meant.
   */
  private readonly foreign?: string;
  /** The capture's notices on this connection (see capture/notices.ts), as diagnostics. */
  private notices: Diagnostic[] = [];
  private view?: ConnectionView;
  /**
   * The events' own diagnostics, in event order, collected up to event `eventDiagsUpTo`: a view of a live connection
   * is rebuilt on every refresh, and gathering them from every event again was O(events) each time. An event's
   * diagnostics never change once it is analysed; the events analysed before the dialect was known are analysed again
   * when it is, which starts the collection over.
   */
  private eventDiags: Diagnostic[] = [];
  private eventDiagsUpTo = 0;

  /** The earlier stream this request resumed (it sent a last event id: a header, or its query), and what it starts from (see stream-resume.ts). */
  private resume?: ResumeLink<ConnectionAnalysis>;
  /** Later connections that resumed this one (with the replies each continued). */
  private readonly resumers: ResumedByView[] = [];

  constructor(record: ConnectionRecord, page = 0) {
    this.record = record;
    this.page = page;
    this.requestStarts = [record.startTime];
    this.reader = new BodyReader(bodyKindOf(record), { transport: record.transport });
    if (header(record.responseHeaders, 'x-vercel-ai-ui-message-stream') !== undefined) {
      this.foreign = 'an AI SDK UI message stream (its x-vercel-ai-ui-message-stream header), a protocol Replyscope does not read';
    }
    if (record.transport === 'eventsource') {
      this.notes.push('EventSource: page script sees only dispatched events — comments/heartbeats, retry: fields and ' +
        'named events nobody listens for are invisible here.');
    }
  }

  get dialect(): Dialect {
    const spoken = this.seededDialect ?? this.detector.dialect;
    const stream = spoken === 'unknown' ? this.requestDialect ?? spoken : spoken;
    // clientDialect reads the request body only for a pi-assistant stream; its answer is the body's, which never
    // changes: read once (a live panel asked on every view build, parsing a body of up to 1 MiB each time).
    if (stream !== 'pi-assistant') return stream;
    return (this.proxyClient ??= clientDialect(stream, this.record.requestBody));
  }
  /** clientDialect of a pi-assistant stream with this connection's request body, once asked. */
  private proxyClient?: Dialect;

  /** Set when the body ended without any event telling its dialect, but the request told the client (see finish). */
  private requestDialect?: Dialect;
  /** The text of an HTTP error answer's body (its head): pi's client puts the JSON `error` in its failure message. */
  private errorBody?: string;

  noteBody(chunk: ChunkRecord): void {
    const status = this.record.status;
    if (status === undefined || (status >= 200 && status <= 299) || chunk.text === undefined) return;
    const head = this.errorBody ?? '';
    if (head.length < ERROR_BODY_RECORDED_BYTES) this.errorBody = head + chunk.text.slice(0, ERROR_BODY_RECORDED_BYTES - head.length);
  }

  /**
   * Called before the first data record. When the connection's head was evicted, continue from its digest: the
   * client's unfinished line, the dialect and (AgentScope) each reply's message at the eviction point. Without a
   * digest (older logs) the readers skip to the first frame boundary instead of reading half a line as garbage.
   */
  beforeData(): void {
    if (this.sawData) return;
    this.sawData = true;
    const ev = this.headEviction;
    if (!ev) {
      this.seedFromResume();
      return;
    }
    const d = ev.derived;
    if (!d) {
      this.reader.resync();
      return;
    }
    if (d.carryLost) this.reader.resyncLine();
    const dialect = d.dialect as Dialect | undefined;
    if (dialect !== undefined && (isAgentScope(dialect) || isPi(dialect))) {
      this.seededDialect = dialect;
      this.processor = this.createProcessor(this.dialect, d);
    }
    this.ingest(this.reader.seed(d.carry, ev.t));
  }

  /**
   * This request resumes an earlier stream (a Last-Event-ID, see stream-resume.ts): set before any data. A fetch that
   * @microsoft/fetch-event-source retries after a network error continues a reply begun on the earlier connection.
   */
  resumeFrom(link: ResumeLink<ConnectionAnalysis>): void {
    this.resume = link;
    // Not captured: its events name replies that never started here, and the note says why (linked, the connection
    // list and the details say which connection it continues, and the diagnostic says it too).
    if (link.view.conn === undefined) this.notes.push(`This request ${resumeMessage(link)}.`);
    this.invalidate();
  }

  /** A later connection resumed this one's stream. */
  resumedBy(view: ResumedByView): void {
    this.resumers.push(view);
    this.invalidate();
  }

  /**
   * The page's state where the request resumed the earlier stream, as an evicted head's digest would seed it: the replies
   * go on from their messages there, the lifecycle knows their blocks, a pi proxy client continues its state. (The
   * body is a new one: no unfinished line carries over.) A connection whose own head was evicted continues from its
   * digest instead (beforeData).
   */
  private seedFromResume(): void {
    const seed = this.resume?.seed;
    const dialect = seed?.dialect as Dialect | undefined;
    if (!seed || dialect === undefined || !(isAgentScope(dialect) || isPi(dialect))) return;
    this.seededDialect = dialect;
    this.processor = this.createProcessor(this.dialect, seed, this.resume?.from?.record.id);
  }

  // EarlierStream: what a later request that resumes this stream links to.
  get bodyKind() {
    return this.reader.kind;
  }
  get frames() {
    return this.reader.frames;
  }
  get pendingFrameId() {
    return this.reader.pendingFrameId;
  }
  get evicted(): boolean {
    return this.evictions > 0;
  }
  stateAt(count: number): EvictionDerived | undefined {
    try {
      return this.processor?.stateAt(count, this.events);
    } catch {
      return undefined; // a state that cannot be taken (see `process`): the resume carries nothing, it still links
    }
  }
  repliesBefore(count: number): string[] {
    return this.build().replies.filter((r) => r.eventIndices.length > 0 && r.eventIndices[0] < count).map((r) => r.id);
  }

  /** Evictions after data was read (live increments) change no reading: the analysis already has those events. */
  get hasData(): boolean {
    return this.sawData;
  }

  noteEviction(r: EvictionRecord): void {
    if (!this.sawData) this.headEviction = r;
  }

  ingest(events: RawEvent[]): void {
    for (const ev of events) {
      if (this.reconnected) this.requestSent(ev.t);
      const index = this.events.length;
      if (this.processor) {
        this.events.push(analysedEvent(ev, index, this.process(ev, index), this.times));
        continue;
      }
      this.events.push(analysedEvent(ev, index, undecidedFacts(ev), this.times));
      if (!this.foreign) this.detector.push(ev.raw, index);
      this.pending.push([ev, index]);
      if (this.detector.dialect === 'unknown') continue;
      this.processor = this.createProcessor(this.dialect);
      for (const [p, i] of this.pending) this.events[i] = analysedEvent(p, i, this.process(p, i), this.times);
      this.pending = [];
      this.eventDiags = [];
      this.eventDiagsUpTo = 0;
    }
    // Events whose spec frame completed only now (a chunk ended between their line and the frame's blank line).
    for (const ev of this.reader.takeResolved()) {
      const view = this.events[ev.seq];
      if (view) view.frameIndex = ev.frameIndex;
    }
    this.view = undefined;
  }

  /**
   * One event through the dialect processor. A processor that throws (e.g. a recursive walk over a value nested
   * 10,000 deep overflows the stack) fails that event only — as an error diagnostic — instead of the whole capture.
   * Processors change no state before they can throw, so later events are analysed as if this one were invalid.
   */
  private process(ev: RawEvent, index: number): EventFacts {
    try {
      return (this.processor as StreamProcessor).push(ev, index);
    } catch (err) {
      const message = `Replyscope could not analyse this event: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
      return { ...undecidedFacts(ev), issues: [{ path: '', message }], diagnostics: [{ code: 'analysis.event-failed', severity: 'error', index, message }] };
    }
  }

  finish(end: EndRecord | undefined): void {
    if (end) this.end = end;
    // Still open when the record was taken (an export or a snapshot of a live stream, `open`; `evicted-open`): the
    // stream has not ended, so nothing is flushed and no end-of-stream check runs — its last line may still be on its
    // way, its replies may still end. Read as ended, a mid-stream export re-imported said "never got a REPLY_END",
    // "the body ends in the middle of a line" and "block never ended (stream ended)", failing `validate --fail-on
    // warning` on a sound stream.
    if (!this.ended) {
      this.view = undefined;
      return;
    }
    this.ingest(this.reader.end());
    if (!this.processor && isPiProxyRequest(this.record.requestBody)) {
      // streamProxy's request answered with no pi event (a JSON body, an empty 200, events of no protocol): the
      // client read the body all the same, and what it made of it — an HTTP failure, or a result() that never
      // settles — is the finding. Its events are what the proxy client read.
      this.requestDialect = 'pi-proxy';
      this.processor = new PiStream(this.record, 'pi-proxy', undefined, this.errorBody);
      for (const [p, i] of this.pending) this.events[i] = analysedEvent(p, i, this.process(p, i), this.times);
      this.pending = [];
      this.eventDiags = [];
      this.eventDiagsUpTo = 0;
    }
    if (this.processor) this.endDiagnostics = this.processor.end(end);
    this.view = undefined;
  }

  /** The connection ended: an end record, and not one saying it was still open (see finish). */
  get ended(): boolean {
    const s = this.end?.state;
    return s !== undefined && s !== 'open' && s !== 'evicted-open';
  }

  build(): ConnectionView {
    if (this.view) return this.view;
    const ended = this.ended;
    // Both clients read SSE alike; name the one this stream is for (pi streams were told "the AgentScope client").
    const clientName = isPi(this.clientDialect()) ? "pi-agent-core's streamProxy" : undefined;
    // (They tell how the AgentScope or pi client reads each frame: no such client reads a foreign stream.)
    const frameDiags = this.foreign ? [] : this.reader.frameDiagnostics(ended, clientName).map((d) => ({ ...d, index: this.eventIndexOfFrame(d.index), frame: d.index }));
    const safe = this.safeReplies();
    const failure = safe.failure;
    // Replies a later connection continued: their "never finished here" is no finding of the page's (stream-resume.ts).
    const continued = this.continuedReplies();
    const replyOf = (i: number) => this.events[i]?.replyId;
    const replies = continued.size === 0 ? safe.replies : safe.replies.map((r) => (continued.has(r.id) ? { ...r, diagnostics: continuedElsewhere(r.diagnostics, continued, replyOf) } : r));
    const diagnostics = [...this.streamDiagnostics(), ...frameDiags];
    // A loop, not flatMap: nearly every event has none (flatMap built a result per event of a million). Indexed, not
    // for-of: this runs once per view, too few times to be optimised, and unoptimised for-of allocates an iterator
    // result per element (~40 bytes per event of a million, measured with the sampling heap profiler).
    const events = this.events;
    const collected = this.eventDiags;
    for (let i = this.eventDiagsUpTo; i < events.length; i++) {
      const d = events[i].diagnostics;
      if (d.length) for (const x of d) collected.push(x);
    }
    this.eventDiagsUpTo = events.length;
    for (const x of collected) diagnostics.push(x); // (a spread into push() would hit the argument limit)
    for (const x of continuedElsewhere(this.endDiagnostics, continued, replyOf)) diagnostics.push(x);
    for (const x of failure) diagnostics.push(x);
    diagnostics.sort(bySeverityThenIndex);
    this.view = {
      record: this.record,
      ...(this.end ? { end: this.end } : {}),
      state: this.state(),
      dialect: this.dialect,
      bytes: this.reader.bytes,
      frames: this.reader.frames,
      events: this.events,
      replies,
      diagnostics,
      evictedEvents: this.evictedEvents,
      ...(this.evictedRecordsOnly ? { evictedRecordsOnly: true } : {}),
      notes: this.notes,
      ...(this.resume ? { resumes: this.resume.view } : {}),
      ...(this.resumers.length ? { resumedBy: this.resumers.slice() } : {}),
    };
    return this.view;
  }

  /** Reply id → the later connection that continued it (the first that did). */
  private continuedReplies(): ReadonlyMap<string, { conn: string; eventId: string }> {
    if (this.resumers.length === 0) return NOTHING_CONTINUED;
    const out = new Map<string, { conn: string; eventId: string }>();
    for (const r of this.resumers) for (const id of r.continuing) if (!out.has(id)) out.set(id, { conn: r.conn, eventId: r.eventId });
    return out;
  }

  /** The processor's replies; when building them throws, the connection still shows its events and says why. */
  private safeReplies(): { replies: ConnectionView['replies']; failure: Diagnostic[] } {
    try {
      return { replies: this.processor?.replies() ?? [], failure: [] };
    } catch (err) {
      const message = `Replyscope could not reconstruct the replies: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
      return { replies: [], failure: [{ code: 'analysis.event-failed', severity: 'error', index: Math.max(0, this.events.length - 1), message }] };
    }
  }

  invalidate(): void {
    this.view = undefined;
  }

  /** A request for the events that follow began at `t` (page clock): see requestStarts. */
  requestSent(t: number): void {
    this.reconnected = false;
    const last = this.requestStarts[this.requestStarts.length - 1];
    if (Number.isFinite(t) && !(t < last)) this.requestStarts.push(t); // (after a start of no known time too)
  }

  /**
   * A notice the capture left on this connection: shown with the connection's notes and as a diagnostic at the event
   * it came after. The tap's EventSource note is what the transport already says (`notes`), so it is not repeated.
   */
  addNotice(r: NoticeRecord): void {
    if (r.text === EVENTSOURCE_PARTIAL_NOTICE && this.record.transport === 'eventsource') return;
    // The note comes when the response ended; the request that brings the next events began by the first of them.
    if (r.text.startsWith(EVENTSOURCE_RECONNECT_NOTICE) && this.record.transport === 'eventsource') this.reconnected = true;
    if (this.notices.length >= MAX_CONNECTION_NOTICES) return;
    this.notes.push(r.text);
    this.notices.push({ code: 'capture.notice', severity: r.level, index: Math.max(0, this.events.length - 1), message: r.text });
    this.invalidate();
  }

  private state(): ConnectionState {
    const s = this.end?.state;
    if (s === undefined) return 'live';
    return s === 'evicted-open' ? 'open' : s;
  }

  private streamDiagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    const last = Math.max(0, this.events.length - 1);
    const status = this.record.status;
    // A WebSocket (from a HAR) opens with 101 Switching Protocols: that is its success, not an HTTP error.
    const opened = this.record.transport === 'websocket' && status === 101;
    if (status !== undefined && !opened && (status < 200 || status > 299)) {
      // What the server said is what the user needs (an expired token, a quota): the status alone left a CI log with
      // "HTTP 401" and nothing to act on. One line, its head only (the panel shows the whole recorded body).
      const said = (this.errorBody ?? '').replace(/\s+/g, ' ').trim();
      const answer = said === '' ? '' : ` — the answer: ${clipped(said, 200)}`;
      out.push({ code: 'stream.http-error', severity: 'error', index: 0, message: `HTTP ${status} ${this.record.statusText ?? ''}`.trim() + answer });
    }
    if (this.end?.state === 'error') {
      out.push({ code: 'stream.network-error', severity: 'error', index: last, message: this.end.error ?? 'network error' });
    }
    if (this.end?.state === 'aborted' || this.end?.state === 'cancelled') {
      out.push({ code: 'stream.aborted', severity: 'info', index: last, message: `the page ${this.end.state === 'cancelled' ? 'cancelled its reader' : 'aborted the request'}${this.end.error ? ` (${this.end.error})` : ''}` });
    }
    if (this.evictions > 0) {
      const d = this.headEviction?.derived;
      const unread = d?.lost ?? 0;
      const lost = unread === 0 ? '' : `; ${unread === 1 ? 'one of them was' : `${unread} of them were`} on a line longer than the digest keeps (1 Mi characters), not read: the replies continue without ${unread === 1 ? 'it' : 'them'}`;
      // Base64 data the digest kept only the newest part of: the block shows, but does not decode to what was sent.
      const cuts = (d?.replies ?? []).flatMap((r) => (r.cutData ?? []).map((c) => `block ${c.block} of reply ${r.id} (${c.chars.toLocaleString('en-US')} characters)`));
      const cut = cuts.length === 0 ? '' : `; the data of ${cuts.slice(0, 3).join(', ')}${cuts.length > 3 ? ` and ${cuts.length - 3} more` : ''} lost its head to the cap: it no longer decodes to what was sent`;
      out.push({ code: 'stream.evicted', severity: unread || cuts.length ? 'warning' : 'info', index: 0, message: this.evictedRecordsOnly
        ? `evicted ${this.evictedEvents} chunks or messages before this point (memory cap), without a digest: how many events they held is not known`
        : `evicted ${this.evictedEvents} events before this point (memory cap)${lost}${cut}` });
    }
    const bad = this.reader.invalidUtf8;
    if (bad) {
      // At the first event from the bad chunk on that shows a U+FFFD (else the first read after it, or the last).
      let at = Math.min(bad.event, last);
      for (let i = at; i < Math.min(this.events.length, at + 10_000); i++) { // (bounded: views are rebuilt live)
        if (this.events[i].rawText.includes('\ufffd')) {
          at = i;
          break;
        }
      }
      out.push({ code: 'stream.invalid-utf8', severity: 'warning', index: at,
        message: `${bad.chunks === 1 ? 'a chunk' : `${bad.chunks} chunks`} of the body ${bad.chunks === 1 ? 'is' : 'are'} not valid UTF-8: the page's TextDecoder reads U+FFFD (�) there` });
    }
    if (this.record.transport === 'eventsource') {
      out.push({ code: 'stream.eventsource-partial-view', severity: 'info', index: 0, message: this.notes[0] });
    }
    if (this.resume) for (const d of resumeDiagnostics(this.resume, this.reader.frames)) out.push(d);
    // (Once a dialect is known: the events analysed before it have their created_at read only then.)
    if (this.processor) this.heldBack.update(this.times, this.events.length);
    const held = this.heldBack.diagnostic(this.times, this.requestStarts);
    if (held) out.push(held);
    for (const n of this.notices) out.push(n);
    if (this.ended && this.dialect === 'unknown' && this.events.length > 0) {
      out.push({ code: 'stream.unknown-dialect', severity: 'warning', index: 0, message: this.foreign ?? `none of the ${this.events.length} events looks like AgentScope or pi` });
    }
    if (this.dialect === 'unknown' && !this.foreign) for (const e of this.events) {
      if (e.type === '(not JSON)') {
        out.push({ code: 'stream.not-json', severity: 'error', index: e.index, message: e.issues[0]?.message ?? 'not JSON' });
      }
    }
    return out;
  }

  /**
   * The dialect whose client the frame diagnostics speak of: the stream's — or, when its client read no event at all
   * (every frame "data:" without a space, or multi-line data), what the spec reading's first data frames speak: a pi
   * stream was told about "the AgentScope client". Looked for in the first 20 data frames, once.
   */
  private clientDialect(): Dialect {
    if (this.dialect !== 'unknown' || this.foreign) return this.dialect;
    if (this.framesDialect !== undefined) return this.framesDialect;
    let seen = 0;
    for (const f of this.reader.frames) {
      if (f.kind !== 'data' || f.heartbeat || f.foreign || f.sent) continue;
      try {
        const d = dialectOfEvent(JSON.parse(f.data));
        if (d) return (this.framesDialect = d);
      } catch {
        // not JSON: says nothing
      }
      if (++seen >= 20) return (this.framesDialect = 'unknown');
    }
    return 'unknown'; // too few frames yet to give up
  }

  private eventIndexOfFrame(frameIndex: number): number {
    return eventIndexOfFrame(this.events, frameIndex);
  }

  /** `resumedFrom`: the seed is where the page stood on that earlier connection (not this one's evicted head). */
  private createProcessor(d: Dialect, evicted?: EvictionDerived, resumedFrom?: string): StreamProcessor {
    if (isAgentScope(d)) return new AgentScopeStream(this.record, d, evicted, resumedFrom);
    if (isPi(d)) return new PiStream(this.record, d, evicted, undefined, resumedFrom);
    throw new Error(`no processor for dialect ${d}`);
  }
}

/**
 * The first event read from frame `frameIndex` or a later one (the last event when none is): where a frame-level
 * diagnostic is shown. Events come in body order, so their frames ascend — an event whose frame is not complete yet
 * (-1) can only be among the last — and a binary search finds it: a scan per diagnostic was quadratic on streams
 * where every frame has one (a stream whose frames all carry `event:` names: 100,000 frames took 19 s).
 */
export function eventIndexOfFrame(events: readonly { frameIndex: number }[], frameIndex: number): number {
  const lo = partitionPoint(events.length, (i) => events[i].frameIndex !== -1 && events[i].frameIndex < frameIndex);
  // Past the mapped events (only incomplete frames' events, or none, follow): as before, the last event.
  return lo < events.length && events[lo].frameIndex !== -1 ? lo : Math.max(0, events.length - 1);
}

/** A page boundary in the connection list: the connections from index `before` on came after this navigation. */
export interface PageBoundary {
  t: number;
  url: string;
  before: number;
}

export class CaptureAnalyzer {
  private readonly conns = new Map<string, ConnectionAnalysis>();
  private readonly pageNotices: NoticeRecord[] = [];
  private readonly boundaries: PageBoundary[] = [];
  /** The tap's note on each socket it went on to record ("…is recorded once it carries…"): not shown, the connection is. */
  private readonly recordedSockets = new Set<string>();

  /** Apply records in arrival order; returns the ids of the connections they changed. */
  push(records: readonly CaptureRecord[]): string[] {
    const changed = new Set<string>();
    for (const r of records) {
      if (r.kind === 'navigation') {
        this.addBoundary(r);
        continue;
      }
      if (r.kind === 'notice') {
        const c = r.conn === undefined ? undefined : this.conns.get(r.conn);
        if (c) {
          c.addNotice(r);
          changed.add(r.conn as string);
        } else if (r.conn === undefined && this.pageNotices.length < MAX_PAGE_NOTICES) this.pageNotices.push(r);
        continue;
      }
      if (r.kind === 'connection') {
        const existing = this.conns.get(r.id);
        if (existing) {
          existing.record = r; // a later record of the same connection carries the response head
          existing.invalidate();
        } else {
          const c = new ConnectionAnalysis(r, this.boundaries.length);
          // A request that resumes an earlier stream links to it as it stood when the request was made: now.
          const link = findResume(r, c.page, this.latestFirst());
          if (link) {
            c.resumeFrom(link);
            const from = link.from;
            if (from) {
              from.resumedBy({ conn: r.id, eventId: link.view.eventId, events: link.view.events ?? 0, continuing: link.view.continuing ?? [] });
              changed.add(from.record.id);
            }
          }
          this.conns.set(r.id, c);
        }
        if (r.transport === 'websocket') this.recordedSockets.add(blindSpotNotice('WebSocket', r.url, r.isSubframe ? r.frameUrl : undefined));
        changed.add(r.id);
        continue;
      }
      const c = this.conns.get(r.conn);
      if (!c) continue; // data of a connection whose head was evicted or never seen
      changed.add(r.conn);
      switch (r.kind) {
        case 'chunk':
          c.beforeData();
          c.noteBody(r);
          c.ingest(c.reader.pushChunk(r));
          break;
        case 'message':
          c.beforeData();
          if (r.type === 'send') c.requestSent(r.t); // (a WebSocket's: what the page asked for comes after it)
          c.ingest(c.reader.pushMessage(r));
          break;
        case 'end':
          c.beforeData();
          c.finish(r);
          break;
        case 'evicted':
          // Evicted after this analyzer read it (a live panel): nothing is missing here, only in the page's store.
          if (c.hasData) break;
          c.evictions++;
          // A digest counts the client events exactly (cumulative); older logs only know records.
          c.evictedEvents = r.derived ? r.derived.events : c.evictedEvents + r.messages + r.chunks;
          c.evictedRecordsOnly = r.derived === undefined;
          c.noteEviction(r);
          c.invalidate();
          break;
      }
    }
    return [...changed];
  }

  /** The connections so far, the latest first (made only when a resuming request asks). */
  private *latestFirst(): Generator<ConnectionAnalysis> {
    const all = [...this.conns.values()];
    for (let i = all.length - 1; i >= 0; i--) yield all[i];
  }

  connections(): ConnectionView[] {
    return [...this.conns.values()].map((c) => c.build());
  }

  /**
   * Where the tab's top frame loaded a new page, by position among connections() (connections are listed in the order
   * they were declared, so a boundary falls between the last connection declared before it and the first after).
   */
  navigations(): readonly PageBoundary[] {
    return this.boundaries;
  }

  private addBoundary(r: NavigationRecord): void {
    this.boundaries.push({ t: r.t, url: r.url, before: this.conns.size });
  }

  /** The notices that belong to no connection (what the page did that the capture cannot see, import notes), in order. */
  notices(): readonly NoticeRecord[] {
    return this.recordedSockets.size === 0 ? this.pageNotices : this.pageNotices.filter((n) => !this.recordedSockets.has(n.text));
  }

  connection(id: string): ConnectionView | undefined {
    return this.conns.get(id)?.build();
  }

  /**
   * How many frames connection `id` has read so far, without building its view: the CLI pushes a capture log's records
   * one at a time and asks after each, to know the line of the record that completed each frame (annotations' line=).
   */
  frameCount(id: string): number {
    return this.conns.get(id)?.reader.frames.length ?? 0;
  }
}

/** Analyse a whole capture. Connections still open at the end of the capture are read as far as they got. */
export function analyzeCapture(capture: Capture): ConnectionView[] {
  const a = new CaptureAnalyzer();
  a.push(capture.records);
  return a.connections();
}

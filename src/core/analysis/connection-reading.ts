// The reading half of a connection's analysis (connection-analysis.ts): its records read into events as the page's
// client reads them — the body into raw events (BodyReader), each analysed by its dialect's processor once an event
// tells the dialect, or from the start when an evicted head's digest or a resumed stream says where the page stood —
// and its end. Linking it to the streams it resumes, its notices and its view are ConnectionAnalysis's.
import { ERROR_BODY_RECORDED_BYTES, type ChunkRecord, type ConnectionRecord, type EndRecord, type EvictionDerived, type EvictionRecord } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { AgentScopeStream } from './agentscope-stream.ts';
import { BodyReader, type RawEvent } from './body-reader.ts';
import { bodyKindOf, header } from './body-kind.ts';
import { clientDialect, DialectDetector, isAgentScope, isPi } from './dialect.ts';
import { isPiProxyRequest } from '../capture/stream-request.ts';
import { analysedEvent, EventTimes } from './event-view.ts';
import { PiStream } from './pi-stream.ts';
import { previewOf, typeOf, viewType, type EventFacts, type StreamProcessor } from './stream-processor.ts';
import { headOf } from '../diagnostics/shown.ts';
import type { ConnectionView, Dialect, EventView } from './types.ts';

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

export abstract class ConnectionReading {
  record: ConnectionRecord;
  /** Which page of the capture it was made on (the navigations before it): a stream resumes within one page. */
  readonly page: number;
  end?: EndRecord;
  readonly reader: BodyReader;
  readonly detector = new DialectDetector();
  processor?: StreamProcessor;
  readonly events: EventView[] = [];
  /** The events' times, unboxed (see EventTimes). */
  protected readonly times = new EventTimes();
  /**
   * When the requests that brought its events began: the connection's, then an EventSource's reconnections (noted),
   * a WebSocket's messages the page sent (see held-back.ts).
   */
  protected readonly requestStarts: number[];
  /** An EventSource reconnection was noted: the next event's arrival starts its request. */
  protected reconnected = false;
  private pending: [RawEvent, number][] = [];
  protected endDiagnostics: Diagnostic[] = [];
  evictedEvents = 0;
  /** The eviction had no digest (an older log, a panel compacted before it came): `evictedEvents` counts records. */
  evictedRecordsOnly = false;
  /** Bytes of head evictions that count no records (our HAR read without its own fields says only its bytes). */
  evictedBytes = 0;
  evictions = 0;
  /** The latest eviction record seen before any data: the head the remaining data continues from. */
  protected headEviction?: EvictionRecord;
  private sawData = false;
  /** The dialect the evicted events spoke (from their digest), before any remaining event could tell. */
  protected seededDialect?: Dialect;
  readonly notes: string[] = [];
  /**
   * What the answer says it is when that is a protocol of its own (the Vercel AI SDK's UI message stream, by the
   * header its servers send): its events are not read as AgentScope or pi. Its first event `{"type":"start"}` is
   * also pi's proxy start, and the stream was taken for a broken pi stream — every later event "unknown", its
   * closing `data: [DONE]` "malformed JSON" — though the AI SDK's client reads it as meant.
   */
  protected readonly foreign?: string;
  /** Its view as last built (ConnectionAnalysis.build): dropped when more is read. */
  protected view?: ConnectionView;
  /**
   * The events' own diagnostics, in event order, collected up to event `eventDiagsUpTo`: a view of a live connection
   * is rebuilt on every refresh, and gathering them from every event again was O(events) each time. An event's
   * diagnostics never change once it is analysed; the events analysed before the dialect was known are analysed again
   * when it is, which starts the collection over.
   */
  protected eventDiags: Diagnostic[] = [];
  protected eventDiagsUpTo = 0;

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
  protected errorBody?: string;

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
   * Where a resumed stream stood, when no evicted head's digest seeds the reading (ConnectionAnalysis.seedFromResume:
   * the link to the earlier stream is ConnectionAnalysis's).
   */
  protected abstract seedFromResume(): void;

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

  /** A request for the events that follow began at `t` (page clock): see requestStarts. */
  requestSent(t: number): void {
    this.reconnected = false;
    const last = this.requestStarts[this.requestStarts.length - 1];
    if (Number.isFinite(t) && !(t < last)) this.requestStarts.push(t); // (after a start of no known time too)
  }

  /** `resumedFrom`: the seed is where the page stood on that earlier connection (not this one's evicted head). */
  protected createProcessor(d: Dialect, evicted?: EvictionDerived, resumedFrom?: string): StreamProcessor {
    if (isAgentScope(d)) return new AgentScopeStream(d, evicted, resumedFrom);
    if (isPi(d)) return new PiStream(this.record, d, evicted, undefined, resumedFrom);
    throw new Error(`no processor for dialect ${d}`);
  }
}

// One connection's analysis as the capture's analyzer (analyze.ts) keeps it: its reading (connection-reading.ts),
// linked to the stream it resumes and to the later ones that resume it (stream-resume.ts), with the capture's notices
// on it, and built into the view the panel and the CLI show — the stream's own diagnostics with its frames', events'
// and end's.
import type { EvictionDerived, NoticeRecord } from '../capture/model.ts';
import { endedWithPage, EVENTSOURCE_PARTIAL_NOTICE, EVENTSOURCE_RECONNECT_NOTICE } from '../capture/notices.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { ConnectionReading } from './connection-reading.ts';
import { evictionCause, evictionCauseText } from '../capture/eviction-cause.ts';
import { dialectOfEvent, isAgentScope, isPi } from './dialect.ts';
import { clipped } from '../diagnostics/shown.ts';
import { HeldBackWatch } from './held-back.ts';
import { continuedElsewhere, resumeDiagnostics, resumeMessage, type EarlierStream, type ResumeLink } from './stream-resume.ts';
import type { ConnectionState, ConnectionView, Dialect, ResumedByView } from './types.ts';
import { partitionPoint } from '../partition-point.ts';

/** Notices kept per connection (the tap bounds its own; an imported file may hold any number). */
const MAX_CONNECTION_NOTICES = 20;

/** What a connection no later one resumed has continued elsewhere (shared: asked on every view build). */
const NOTHING_CONTINUED: ReadonlyMap<string, { conn: string; eventId: string }> = new Map();

const bySeverityThenIndex = (a: Diagnostic, b: Diagnostic) => a.index - b.index;

export class ConnectionAnalysis extends ConnectionReading implements EarlierStream {
  /** Whether some events waited on their way far longer than others (see held-back.ts). */
  private readonly heldBack = new HeldBackWatch();
  /** See clientDialect(). */
  private framesDialect?: Dialect;
  /** The capture's notices on this connection (see capture/notices.ts), as diagnostics. */
  private notices: Diagnostic[] = [];
  /** The earlier stream this request resumed (it sent a last event id: a header, or its query), and what it starts from (see stream-resume.ts). */
  private resume?: ResumeLink<ConnectionAnalysis>;
  /** Later connections that resumed this one (with the replies each continued). */
  private readonly resumers: ResumedByView[] = [];

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
  protected override seedFromResume(): void {
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
      ...((this.evictedEvents || this.evictedBytes) && this.headEviction ? { evictedBy: evictionCause(this.headEviction) } : {}),
      ...(this.evictedRecordsOnly ? { evictedRecordsOnly: true } : {}),
      ...(this.evictedBytes ? { evictedBytes: this.evictedBytes } : {}),
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

  /**
   * A notice the capture left on this connection: shown with the connection's notes and as a diagnostic at the event
   * it came after — or, before any event, of the connection as a whole (a HAR entry's notes come before its data: a
   * HAR keeps no time of arrival to place them by). The tap's EventSource note is what the transport already says
   * (`notes`), so it is not repeated.
   */
  addNotice(r: NoticeRecord): void {
    if (r.text === EVENTSOURCE_PARTIAL_NOTICE && this.record.transport === 'eventsource') return;
    // The note comes when the response ended; the request that brings the next events began by the first of them.
    if (r.text.startsWith(EVENTSOURCE_RECONNECT_NOTICE) && this.record.transport === 'eventsource') this.reconnected = true;
    if (this.notices.length >= MAX_CONNECTION_NOTICES) return;
    this.notes.push(r.text);
    const at = this.events.length === 0 ? { index: 0, ofConnection: true as const } : { index: this.events.length - 1 };
    this.notices.push({ code: 'capture.notice', severity: r.level, ...at, message: r.text });
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
      out.push({ code: 'stream.http-error', severity: 'error', index: 0, ofConnection: true, message: `HTTP ${status} ${this.record.statusText ?? ''}`.trim() + answer });
    }
    if (this.end?.state === 'error') {
      out.push({ code: 'stream.network-error', severity: 'error', index: last, message: this.end.error ?? 'network error' });
    }
    if (this.end?.state === 'aborted' || this.end?.state === 'cancelled') {
      // A stream that ended with its page was not aborted by it: "the page aborted the request (the page left …)".
      out.push({ code: 'stream.aborted', severity: 'info', index: last, message: endedWithPage(this.end.error)
        ? `the stream ended with its page: ${this.end.error}`
        : `the page ${this.end.state === 'cancelled' ? 'cancelled its reader' : 'aborted the request'}${this.end.error ? ` (${this.end.error})` : ''}` });
    }
    if (this.evictions > 0) {
      const d = this.headEviction?.derived;
      const unread = d?.lost ?? 0;
      const lost = unread === 0 ? '' : `; ${unread === 1 ? 'one of them was' : `${unread} of them were`} on a line longer than the digest keeps (1 Mi characters), not read: the replies continue without ${unread === 1 ? 'it' : 'them'}`;
      // Base64 data the digest kept only the newest part of: the block shows, but does not decode to what was sent.
      const cuts = (d?.replies ?? []).flatMap((r) => (r.cutData ?? []).map((c) => `block ${c.block} of reply ${r.id} (${c.chars.toLocaleString('en-US')} characters)`));
      const cut = cuts.length === 0 ? '' : `; the data of ${cuts.slice(0, 3).join(', ')}${cuts.length > 3 ? ` and ${cuts.length - 3} more` : ''} lost its head to the cap: it no longer decodes to what was sent`;
      const by = evictionCauseText(this.headEviction ? evictionCause(this.headEviction) : 'cap');
      // (Of a record of bytes alone, the HAR it was read from said how many bytes went, not in how many chunks.)
      const what = this.evictedEvents === 0 && this.evictedBytes > 0 ? `the body's first ${this.evictedBytes} bytes` : `${this.evictedEvents} chunks or messages`;
      out.push({ code: 'stream.evicted', severity: unread || cuts.length ? 'warning' : 'info', index: 0, message: this.evictedRecordsOnly
        ? `evicted ${what} before this point (${by}), without a digest: how many events they held is not known`
        : `evicted ${this.evictedEvents} events before this point (${by})${lost}${cut}` });
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
      out.push({ code: 'stream.eventsource-partial-view', severity: 'info', index: 0, ofConnection: true, message: this.notes[0] });
    }
    if (this.resume) for (const d of resumeDiagnostics(this.resume, this.reader.frames)) out.push(d);
    // (Once a dialect is known: the events analysed before it have their created_at read only then.)
    if (this.processor) this.heldBack.update(this.times, this.events.length);
    const held = this.heldBack.diagnostic(this.times, this.requestStarts);
    if (held) out.push(held);
    for (const n of this.notices) out.push(n);
    if (this.ended && this.dialect === 'unknown' && this.events.length > 0) {
      out.push({ code: 'stream.unknown-dialect', severity: 'warning', index: 0, ofConnection: true, message: this.foreign ?? `none of the ${this.events.length} events looks like AgentScope or pi` });
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

// A stream resumed on a new connection. A client that reads SSE over fetch and reconnects after a network error or a
// server close (@microsoft/fetch-event-source, hand-written readers) makes a NEW request with a Last-Event-ID header —
// the last SSE `id:` it saw — and the server continues the events after it. The capture records each request as a
// connection of its own, so read alone the second one continues replies it never saw start. This module finds the
// earlier connection a request resumes and where on it the page stood; the analysis (connection-analysis.ts) then
// starts the new connection from the state there — replies, lifecycle, client state — by the seeding an evicted head
// gets from its digest. The link is derived from the records each time they are read: nothing of it is stored.
//
// The link: the same document (a tap's connection ids share their frame token; no navigation between), the same
// endpoint (below), and the earlier connection's frames carried that id. The latest such connection wins.
//
// Clients that cannot send the header pass the id in the URL's query instead (`?lastEventId=42`: a page's own new
// EventSource, the event-source-polyfill package): read when the request sent no Last-Event-ID, and only as a link to
// an earlier connection of the document to the same origin and path — a query parameter alone is no evidence of a
// resumed stream, so one to another endpoint says nothing (a header with no stream to link says it was not captured).
import type { ConnectionRecord, EvictionDerived } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { clipped } from '../diagnostics/shown.ts';
import type { FrameList } from '../frames/frame-list.ts';
import type { BodyKind } from './body-kind.ts';
import { documentOf, endpointMatch, resumeCursorOf } from './resume-request.ts';
import { parseTime } from './stream-processor.ts';
import type { EventView, ResumeView } from './types.ts';
import { partitionPoint } from '../partition-point.ts';

/** Where on an earlier connection's frames a client that sent Last-Event-ID `id` stood. */
export interface ResumePoint {
  /**
   * The frame that carried the id (with `undispatched`: the frame being read when the body broke off = frame count;
   * with `idOnly`: the frame after the frame without data that carried it, = frame count when none came after).
   */
  frame: number;
  /** The last frame the client had dispatched: its events are what the client processed. */
  lastFrame: number;
  undispatched?: true;
  /** The id came with a frame without data (FrameList.idOnlyFrames): no event, but the client's last event ID. */
  idOnly?: true;
}

/**
 * A client's last event ID is the latest `id:` it read, and it stays that id over frames that carry none: the client
 * had processed the frame with the id and those after it up to the next frame with an id of its own (which it did
 * not get to, or it would have sent that one). A frame without data sets it too (no event, but the spec's dispatch
 * sets the last event ID first): the client had the events before it, and those after it up to the next id.
 * Only whole frames count — a client dispatches a frame at its blank
 * line, so the events of a frame the body broke off inside were never processed. When the id is that frame's own
 * (a client such as @microsoft/fetch-event-source takes the id as its line arrives), the client sent an id whose
 * event it never dispatched: `undispatched`. An EventSource's messages each carry the last event ID they were
 * dispatched with: the id came with the first of the run that has it.
 */
export function resumePoint(frames: FrameList, pendingId: string | undefined, id: string): ResumePoint | undefined {
  if (pendingId === id && frames.lastId() !== id) return { frame: frames.length, lastFrame: frames.length - 1, undispatched: true };
  const { last, next, idOnly } = frames.idSpan(id);
  if (last === -1) return undefined;
  const lastFrame = next === -1 ? frames.length - 1 : next - 1;
  if (idOnly) return { frame: last, lastFrame, idOnly: true };
  let frame = last;
  if (frames.kind(last) === 'message') while (frame > 0 && frames.id(frame - 1) === id) frame--;
  return { frame, lastFrame };
}

/** How many of the first events were read from frames up to `lastFrame` (events come in frame order; -1: not yet). */
export function eventsThrough(events: readonly { frameIndex: number }[], lastFrame: number): number {
  return partitionPoint(events.length, (i) => events[i].frameIndex !== -1 && events[i].frameIndex <= lastFrame);
}

/** How many of a reply's steps (ascending connection event indices) come before event `count`. */
export function stepsBefore(steps: readonly number[], count: number): number {
  return partitionPoint(steps.length, (i) => steps[i] < count);
}

/**
 * The latest created_at of the valid events among the first `count` (or the seed's, when later), as the event sent it:
 * the AgentScope lifecycle's clock check goes on from it on the resuming connection.
 */
export function latestCreatedAt(events: readonly EventView[], count: number, seeded: string | undefined): string | undefined {
  let best = seeded === undefined ? undefined : parseTime(seeded);
  let at = -1;
  for (let i = 0; i < Math.min(count, events.length); i++) {
    const e = events[i];
    const t = e.createdAt;
    if (t !== undefined && e.valid && (best === undefined || t >= best)) {
      best = t;
      at = i;
    }
  }
  if (at === -1) return seeded;
  const own = (events[at].raw as { created_at?: unknown } | undefined)?.created_at;
  return typeof own === 'string' ? own : seeded;
}

/** What the analyzer holds of an earlier connection, to find the one a request resumes. */
export interface EarlierStream {
  readonly record: ConnectionRecord;
  /** Which page of the capture (navigations divide it) the connection was made on. */
  readonly page: number;
  readonly bodyKind: BodyKind;
  readonly frames: FrameList;
  readonly pendingFrameId: string | undefined;
  readonly events: readonly EventView[];
  /** Whether the memory cap evicted its head (the frame with the id may have gone with it). */
  readonly evicted: boolean;
  /** Its state after its first `count` events (undefined: no protocol known yet, nothing to carry). */
  stateAt(count: number): EvictionDerived | undefined;
  /** Its replies that had events before event `count`, by id. */
  repliesBefore(count: number): string[];
}

export interface ResumeLink<T> {
  view: ResumeView;
  /** The earlier connection, when one carried the id. */
  from?: T;
  /** What the resuming connection starts from (undefined: nothing to carry). */
  seed?: EvictionDerived;
  /** Why no earlier connection is linked: the same-endpoint connections there were, and whether any was evicted. */
  missed?: { sameEndpoint: number; evicted: boolean };
}

/**
 * The link of a request that sent a Last-Event-ID, or one in its query (undefined: it sent none, or only in a query
 * and no earlier connection went to its endpoint). `earlier`: the connections declared before it, latest first;
 * `page`: the request's page of the capture.
 */
export function findResume<T extends EarlierStream>(rec: ConnectionRecord, page: number, earlier: Iterable<T>): ResumeLink<T> | undefined {
  const cursor = resumeCursorOf(rec);
  if (cursor === undefined) return undefined;
  const { eventId, query } = cursor;
  const doc = documentOf(rec.id);
  let found: { from: T; point: ResumePoint } | undefined;
  let sameEndpoint = 0;
  let evicted = false;
  for (const e of earlier) {
    // An SSE body, or an EventSource's messages (their last event IDs: a page that made a new one with the cursor).
    if (e.page !== page || documentOf(e.record.id) !== doc || !(e.bodyKind === 'sse' || e.record.transport === 'eventsource')) continue;
    const match = endpointMatch(e.record.url, rec.url);
    if (match === undefined) continue;
    sameEndpoint++;
    evicted ||= e.evicted;
    if (found && match !== 'exact') continue; // a later path-only match stands unless an exact one carried the id
    const point = resumePoint(e.frames, e.pendingFrameId, eventId);
    if (!point) continue;
    found = { from: e, point };
    if (match === 'exact') break;
  }
  const via = query === undefined ? {} : { query };
  if (!found) return query !== undefined && sameEndpoint === 0 ? undefined : { view: { eventId, ...via }, missed: { sameEndpoint, evicted } };
  const { from, point } = found;
  const events = eventsThrough(from.events, point.lastFrame);
  const seed = from.stateAt(events);
  const view: ResumeView = { eventId, ...via, conn: from.record.id, frame: point.frame, events, continuing: seed ? continuing(seed, from, events) : [] };
  if (point.undispatched) view.undispatched = true;
  if (point.idOnly) view.idOnly = true;
  return { view, from, ...(seed ? { seed } : {}) };
}

/** The replies under way at the resume point: they go on on the resuming connection. */
function continuing(seed: EvictionDerived, from: EarlierStream, events: number): string[] {
  if (seed.replies.length > 0) return seed.replies.filter((r) => !r.ended).map((r) => r.id); // AgentScope
  // A pi proxy stream is one message: under way until the client settled (done, error).
  const state = seed.pi?.derived ? (seed.pi.state as { settled?: unknown } | undefined) : undefined;
  return state && state.settled !== true ? from.repliesBefore(events).slice(-1) : [];
}

const quoted = (s: string) => JSON.stringify(clipped(s, 80));

function repliesPhrase(ids: readonly string[]): string {
  if (ids.length === 0) return 'no reply was under way there';
  const named = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ` and ${ids.length - 3} more` : '');
  return `${ids.length === 1 ? 'reply' : 'replies'} ${named} ${ids.length === 1 ? 'continues' : 'continue'} here from where the page had ${ids.length === 1 ? 'it' : 'them'}`;
}

/** What the resuming connection says of its link (a note and an info diagnostic say it alike). */
export function resumeMessage(link: ResumeLink<unknown>): string {
  const v = link.view;
  if (v.conn === undefined) {
    const m = link.missed;
    const why = !m || m.sameEndpoint === 0 ? 'no earlier connection to this URL was captured'
      : `${m.sameEndpoint === 1 ? 'the earlier connection to this URL did not carry' : `none of the ${m.sameEndpoint} earlier connections to this URL carried`} that id` +
        (m.evicted ? ', or not in what the memory cap left of it' : '');
    return `resumes a stream from ${idPhrase(v)} that was not captured: its replies start mid-way (${why})`;
  }
  const where = v.undispatched ? `the frame it broke off inside (frame ${v.frame})`
    : v.idOnly ? (v.frame === 0 ? 'a frame without data at its start' : `a frame without data after its frame ${(v.frame as number) - 1}`)
    : `its frame ${v.frame}`;
  return `resumes the stream of connection ${v.conn} from ${idPhrase(v)} (${where}, after ${v.events} events): ${repliesPhrase(v.continuing ?? [])}`;
}

/** `id "42"`, or where the request sent it when not in a Last-Event-ID header: `the query's lastEventId "42"`. */
function idPhrase(v: ResumeView): string {
  return v.query === undefined ? `id ${quoted(v.eventId)}` : `the query's ${clipped(v.query, 40)} ${quoted(v.eventId)}`;
}

/**
 * The resuming connection's diagnostics of its link: what it continues, or that what it continues was not captured;
 * and (a warning) an id whose frame the page never dispatched — unless the server sent that id's frame again.
 */
export function resumeDiagnostics(link: ResumeLink<unknown>, own: FrameList): Diagnostic[] {
  const v = link.view;
  const message = resumeMessage(link);
  if (v.conn === undefined) return [{ code: 'stream.resumed-uncaptured', severity: 'info', index: 0, message }];
  const out: Diagnostic[] = [{ code: 'stream.resumed', severity: 'info', index: 0, message }];
  if (v.undispatched && firstIdOf(own) !== v.eventId) {
    out.push({ code: 'stream.resume-lost-event', severity: 'warning', index: 0,
      message: `the id ${quoted(v.eventId)} came with a frame of connection ${v.conn} that broke off before its end: the client took the id as its line ` +
        'arrived but never dispatched that frame, and the server resumed after the id — the page never got that event' });
  }
  return out;
}

/** The id of the first frame with one of its own (undefined: none yet). */
function firstIdOf(frames: FrameList): string | undefined {
  for (let i = 0; i < frames.length; i++) {
    const id = frames.id(i);
    if (id !== undefined) return id;
  }
  return undefined;
}

/** End-of-stream diagnostics that say a reply did not finish — on a connection a later one resumed, it finished there. */
const UNFINISHED = new Set(['as.reply-not-ended', 'as.block-not-ended', 'as.tool-call-unanswered', 'pi.no-terminal']);

/**
 * The earlier connection's end-of-stream diagnostics for the replies a later connection continued: info, saying where
 * the page's stream went on (the reply did not finish on this connection; the page's reply did not stop there).
 * `continued`: reply id → the resume that continued it; `replyOf`: the reply of a diagnostic's event.
 */
export function continuedElsewhere(diags: readonly Diagnostic[], continued: ReadonlyMap<string, { conn: string; eventId: string }>, replyOf: (index: number) => string | undefined): Diagnostic[] {
  if (continued.size === 0) return diags as Diagnostic[];
  return diags.map((d) => {
    if (!UNFINISHED.has(d.code) || d.severity === 'info') return d;
    const reply = replyOf(d.index);
    const by = reply === undefined ? undefined : continued.get(reply);
    if (!by) return d;
    return { ...d, severity: 'info', message: `${d.message} The page's stream goes on: connection ${by.conn} resumed it from id ${quoted(by.eventId)}.` };
  });
}

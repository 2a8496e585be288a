// What analysis derives from raw capture records — the read model of the panel and the CLI.
// Everything here can be recomputed from the Capture (raw bytes are the source of truth).
import type { FrameList } from '../frames/frame-list.ts';
import type { ConnectionRecord, EndRecord } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import type { EvictionCause } from '../capture/eviction-cause.ts';

/** Which protocol a stream speaks. `agentscope-legacy` is the camelCase agentscope-typescript dialect. */
export type Dialect =
  | 'agentscope'
  | 'agentscope-legacy'
  | 'pi-proxy' // pi-agent-core streamProxy events (no `partial`)
  | 'pi-assistant' // pi-ai AssistantMessageEvent (with `partial`)
  | 'pi-agent' // pi-agent-core AgentEvent (agent_start, message_update, …)
  | 'unknown';

/** One frame of the spec reading of the body (or one EventSource message, or one NDJSON line). */
export interface FrameView {
  index: number;
  /** Arrival time (epoch ms) of the chunk that completed the frame; NaN when unknown (imports without times). */
  t: number;
  kind: 'data' | 'comment' | 'ndjson' | 'message';
  /** SSE `event:` name, when given. */
  event?: string;
  /** SSE `id:`, when given. */
  id?: string;
  /** The frame's data (for comments, the comment text). */
  data: string;
  /** True for `:` heartbeat/comment frames, empty keep-alives and a socket's foreign messages: shown dimmed, hideable. */
  heartbeat: boolean;
  /** A recorded socket's message that is no agent event (the app's own: presence, pings); not read as an event. */
  foreign?: boolean;
  /** A message the page sent on a recorded socket (the request, often); not read as an event. */
  sent?: boolean;
  /** Set when the dialect's real client reads this frame differently from the SSE spec (and how). */
  clientNote?: string;
}

export interface SchemaIssue {
  path: string;
  message: string;
}

/** One protocol event, in connection order. */
export interface EventView {
  index: number;
  frameIndex: number;
  /** Arrival time (epoch ms); NaN when unknown. */
  t: number;
  /** The event's `created_at` as epoch ms when it has one (the timeline's axis for imports without arrival times). */
  createdAt?: number;
  /** The `type` as sent (or '?' when there is none), cut to 200 characters (`rawText` has all of it). */
  type: string;
  /** Parsed JSON as received (never mutated). undefined when the frame is not JSON. */
  raw: unknown;
  rawText: string;
  valid: boolean;
  issues: SchemaIssue[];
  /** Fields the schema does not know (accepted, like the reference, but shown). */
  extras: string[];
  /** The reply this event belongs to (AgentScope reply_id; pi: the message/turn id analysis assigns). */
  replyId?: string;
  /** Block id / tool-call id / pi content index the event touches, for the list column and timeline lane. */
  blockId?: string;
  /** Short preview of what the event carries (delta text, args chunk…). */
  preview: string;
  diagnostics: Diagnostic[];
}

/** A seekable reconstruction: the message after each event of a reply, from checkpoints. */
export interface SeekableHistory<M = unknown> {
  /** Number of events (steps). */
  readonly length: number;
  /** The message before any event. */
  readonly initial: M;
  /** The message after step k (0-based), materialised from the nearest checkpoint. */
  at(k: number): M;
  /** Events before this many steps were evicted; `at(k)` for k < evictedBefore throws. */
  readonly evictedBefore: number;
}

export interface ReplyView {
  id: string;
  dialect: Dialect;
  name?: string;
  role?: string;
  /** Connection event indices of this reply, in order. Step k of `history` is event `eventIndices[k]`. */
  eventIndices: number[];
  history: SeekableHistory;
  /** Per step: what the event did to the message. */
  stepStatus: ('changed' | 'unchanged' | 'warned' | 'invalid' | 'error')[];
  finishedReason?: string;
  usage?: unknown;
  /** ms from the first event to the first content delta. */
  timeToFirstTokenMs?: number;
  /** The input had no arrival times: TTFT and duration are by the events' `created_at` (the server's clock). */
  timedBy?: 'created_at';
  durationMs?: number;
  /** Events that named a reply never started in the stream. */
  orphan?: boolean;
  /**
   * The reply began in the connection's evicted head (memory cap): `history.initial` is its message at the eviction
   * point, as the eviction digest derived it, and step 0 is its first kept event.
   */
  continuesEviction?: boolean;
  /**
   * The reply was under way on the earlier connection this one resumes (a Last-Event-ID request, see ResumeView):
   * the id of that connection. `history.initial` is its message as the page had it at the resume point, and step 0
   * is its first event here.
   */
  continuesConnection?: string;
  /**
   * The message the client holds once the connection ended, when the end changed it: pi's streamProxy fails its
   * message on an abort or a network error (stopReason "aborted"/"error", errorMessage) after the last event — a
   * change no event carries, so it is no step of `history`. `finishedReason` is this message's.
   */
  afterEnd?: { message: unknown; reason: string };
  diagnostics: Diagnostic[];
}

/**
 * A request that resumed an earlier stream: it sent a Last-Event-ID header (what @microsoft/fetch-event-source and
 * hand-written readers do when they reconnect), or the id in its URL's query (`?lastEventId=42`, to the same endpoint),
 * and the server continues the events after that id. Derived from the records (see stream-resume.ts), never stored.
 */
export interface ResumeView {
  /** The last event id the request sent (its Last-Event-ID header, or the query parameter `query` names). */
  eventId: string;
  /** The request sent the id in its URL's query, in the parameter of this name (absent: in a Last-Event-ID header). */
  query?: string;
  /** The earlier connection whose frames carried that id; absent when no captured connection did. */
  conn?: string;
  /**
   * That connection's frame that carried the id (with `undispatched`: the frame it broke off inside, = its frame count;
   * with `idOnly`: the frame after the frame without data that carried it, = its frame count when none came after).
   */
  frame?: number;
  /**
   * The id came with a frame without data (`id: 42` and a blank line): no event and no frame of the list
   * (FrameList.idOnlyFrames), but the client's last event ID from then on.
   */
  idOnly?: true;
  /** That connection's events the page had processed by then: this connection starts from its state after them. */
  events?: number;
  /** The replies under way there (started, not ended): they continue here. */
  continuing?: string[];
  /**
   * The id came with a frame the earlier connection broke off inside: the client took the id as its line arrived but
   * never dispatched the frame's event.
   */
  undispatched?: true;
}

/** A later connection that resumed this one's stream. */
export interface ResumedByView {
  conn: string;
  eventId: string;
  /** This connection's events the page had processed when it resumed. */
  events: number;
  /** This connection's replies it continued (under way there). */
  continuing: string[];
}

export type ConnectionState = 'live' | 'complete' | 'cancelled' | 'aborted' | 'error' | 'open';

export interface ConnectionView {
  record: ConnectionRecord;
  end?: EndRecord;
  state: ConnectionState;
  dialect: Dialect;
  bytes: number;
  /** Every frame, in columns (`at(i)` builds frame i's object: see frame-list.ts). */
  frames: FrameList;
  events: EventView[];
  replies: ReplyView[];
  /** All diagnostics of the connection (frames, events, replies), `index` = connection event index. */
  diagnostics: Diagnostic[];
  /** Number of events evicted from the head of this connection (memory cap, or Clear while it was open), if any. */
  evictedEvents: number;
  /** What evicted them, when some were: the memory cap, Clear (the stream open), or both. */
  evictedBy?: EvictionCause;
  /** The eviction came without a digest (an older log): `evictedEvents` then counts chunks and messages, not events. */
  evictedRecordsOnly?: boolean;
  /** Bytes evicted from the head in chunks not counted (our HAR read without its own fields): `evictedEvents` is 0. */
  evictedBytes?: number;
  /** Notes the user must see (e.g. EventSource: comments/retry/unlistened events are invisible to page script). */
  notes: string[];
  /** This request resumed an earlier stream (it sent a Last-Event-ID). */
  resumes?: ResumeView;
  /** Later connections that resumed this one's stream, in the order they were made. */
  resumedBy?: ResumedByView[];
}

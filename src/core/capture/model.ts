// The capture data model: what the page tap records, what the capture log stores, what analysis reads.
// Raw bytes are the source of truth; everything the panel shows is derived from these records.
// This file is the contract between src/extension (producer), src/core/capture (formats) and
// src/core/analysis (consumer). Keep it free of logic.

/**
 * How much of an HTTP error answer to a stream request the tap records whether or not the page reads it (the body
 * is the server's message, no stream): the tap's read-ahead, what analysis keeps for pi's failure message, what the
 * panel shows. One figure for the three.
 */
export const ERROR_BODY_RECORDED_BYTES = 64 * 1024;

/** How the page obtained the stream. 'websocket': a socket's received text messages (the tap, once it carries agent events; or a HAR's `_webSocketMessages`). */
export type Transport = 'fetch' | 'eventsource' | 'xhr' | 'websocket' | 'import';

/** Why a connection stopped producing data. `open` = still streaming when the record was taken. */
export type EndState =
  | 'complete' // the body ended normally
  | 'cancelled' // the page cancelled its reader / called abort()
  | 'aborted' // AbortSignal fired (page's "Stop generating")
  | 'error' // network error / server reset mid-stream
  | 'evicted-open' // still open, its head evicted: read (as open), no longer written (an eviction record says that)
  | 'open';

/** A request or response body kept next to the connection (request bodies carry prompts and pi's `model`). */
export interface BodyRecord {
  /** UTF-8 text when the body decodes as text. */
  text?: string;
  /** base64 when it does not (or when it is a Blob/ArrayBuffer that is not UTF-8). */
  base64?: string;
  /** Size in bytes of the whole body, even when truncated. */
  size: number;
  /** True when only the first `cap` bytes were kept. */
  truncated?: boolean;
  /**
   * Written only by the extension's capture store (src/extension/retirement.ts): the content was let go to keep the
   * capture within its memory cap. `text` is then no prefix of the body but what a client reads of it — for pi's
   * streamProxy, its model (api, provider, id) with an empty context — or absent.
   */
  abridged?: true;
}

export interface ConnectionRecord {
  kind: 'connection';
  /** Unique within one capture (the tap uses `<frame token>:<counter>`). */
  id: string;
  transport: Transport;
  /** URL of the document (frame) whose script made the request. */
  frameUrl: string;
  /** True when the frame is not the top-level frame of the tab. */
  isSubframe?: boolean;
  method: string;
  url: string;
  /** Request headers as sent by the page; cookie/authorization values are masked by the tap ("•••"). */
  requestHeaders: [string, string][];
  requestBody?: BodyRecord;
  /** Filled when the response head arrives. */
  status?: number;
  statusText?: string;
  responseHeaders?: [string, string][];
  /** Epoch milliseconds, fractional (performance.timeOrigin + performance.now()). */
  startTime: number;
  /** Epoch ms when the response head arrived. */
  responseTime?: number;
}

/**
 * A piece of response body exactly as it arrived. Stored as text when it decodes as UTF-8 *given the streaming
 * decoder's state* (i.e. the text is what a streaming TextDecoder produced for these bytes; bytes of a character
 * split across chunks belong to the chunk that completes it — see `bytes`), otherwise base64 of the raw bytes.
 */
export interface ChunkRecord {
  kind: 'chunk';
  conn: string;
  /** Arrival time, epoch ms, fractional. */
  t: number;
  /** Byte length of this chunk on the wire (after content decoding, i.e. what the page's reader got). */
  bytes: number;
  text?: string;
  base64?: string;
}

/**
 * One event an EventSource dispatched to the page. Page script never sees raw SSE bytes of an EventSource, only
 * dispatched events: `type` is the event name ('message' or a named event the page listens for).
 */
export interface MessageRecord {
  kind: 'message';
  conn: string;
  t: number;
  type: string;
  data: string;
  lastEventId: string;
}

export interface EndRecord {
  kind: 'end';
  conn: string;
  t: number;
  state: EndState;
  /** Error text for state 'error' / 'aborted' (e.g. the DOMException name and message). */
  error?: string;
}

/**
 * The oldest data of a connection was dropped to keep the per-tab memory cap — or by the panel's Clear, which keeps a
 * stream still open going from a digest of what it dropped (`cleared`). `bytes`/`chunks`/`messages` say how much;
 * what analysis derived from it up to that point is rebuilt from `derived` when present. A record of `bytes` alone
 * (no chunks or messages counted) is a head whose chunks are not known: our HAR read without its `_replyscope` fields
 * says only how many bytes went (har-import-answer.ts).
 */
export interface EvictionRecord {
  kind: 'evicted';
  conn: string;
  t: number;
  chunks: number;
  messages: number;
  bytes: number;
  /**
   * How many of the `chunks` and `messages` the panel's Clear dropped while the connection was open (the rest the
   * memory cap; of a record of bytes alone, of its bytes). Absent when the cap evicted them all, and in older logs.
   */
  cleared?: number;
  /**
   * What the evicted records amount to, so analysis continues from the eviction point instead of from nothing
   * (like redux-devtools merging old actions into a base state). Absent in older logs and when nothing was digested.
   */
  derived?: EvictionDerived;
}

/** The digest of a connection's evicted records (built by src/core/analysis/eviction-digest.ts). JSON only. */
export interface EvictionDerived {
  /** Client events read from the evicted records (data lines, NDJSON lines, EventSource messages with data). */
  events: number;
  /** The client's unfinished line at the eviction point (text after the last "\n" of the evicted body). */
  carry: string;
  /** The protocol the evicted events spoke (an analysis Dialect name), when one was recognised. */
  dialect?: string;
  /** AgentScope: every reply seen so far with its message after the last evicted event. */
  replies: EvictedReply[];
  /** pi proxy streams: the client state after the last evicted event, when it could be derived. */
  pi?: EvictedPiState;
  /** AgentScope: the latest `created_at` among the evicted events (the lifecycle's clock-order check continues from it). */
  lastCreatedAt?: string;
  /** Why the replies could not be derived (then only `events`/`carry` hold). */
  incomplete?: string;
  /**
   * Events among `events` whose line was longer than the digest keeps (1 Mi characters): counted, not applied — the
   * replies continue without them. Includes the event of a line still open at the eviction point (`carryLost`).
   */
  lost?: number;
  /** The eviction point is inside such a line: `carry` is empty and the rest of that line is not read either. */
  carryLost?: true;
  /**
   * An SSE body: the spec's reading at the start of `carry` (frames/sse-line-state.ts). `frameStart`: no `data` or
   * `event` field is pending there, as far as known — a frame read from there is a whole event; `lastEventId`: the
   * last event ID buffer ('' when no `id:` line set one; absent when not known: a line given up). Absent in older logs.
   */
  sse?: { frameStart: boolean; lastEventId?: string };
}

export interface EvictedReply {
  id: string;
  name: string;
  role: string;
  /** The AgentScope Msg (model_dump JSON) after the reply's last evicted event. */
  message: Record<string, unknown>;
  /** The reply was never started by a REPLY_START (its events named an unknown reply). */
  orphan?: boolean;
  /** Its latest REPLY_END came after its latest REPLY_START. */
  ended?: boolean;
  /**
   * Blocks whose base64 data was longer than the digest keeps: the characters cut from its head (whole 4-character
   * groups, so later chunks still append) — that data no longer decodes to what was sent.
   */
  cutData?: { block: string; chars: number }[];
}

export interface EvictedPiState {
  derived: boolean;
  /** JSON encoding of the pi proxy client state (owned by analysis) when `derived`. */
  state?: unknown;
  /** Why it is not derived. */
  reason?: string;
}

/** Free-form notes the tap wants the user to see (e.g. "Worker fetches are not visible"). */
export interface NoticeRecord {
  kind: 'notice';
  t: number;
  conn?: string;
  level: 'info' | 'warning';
  text: string;
}

/**
 * The tab's top frame loaded a new page while "Preserve log" kept connections of the page(s) before it: the
 * connections declared after this record belong to the new page. A record kind of its own, not a notice with an
 * extra field: a reader of an older version skips kinds it does not know (with a note) but rejects unknown fields.
 */
export interface NavigationRecord {
  kind: 'navigation';
  /** When the panel first saw the new page's document, epoch ms. */
  t: number;
  /** The new page's URL (the top frame's document URL). */
  url: string;
}

export type CaptureRecord =
  | ConnectionRecord
  | ChunkRecord
  | MessageRecord
  | EndRecord
  | EvictionRecord
  | NoticeRecord
  | NavigationRecord;

/** What a page's own capture holds (the tap, the relay): every kind but `navigation`, which only the panel writes. */
export type PageRecord = Exclude<CaptureRecord, NavigationRecord>;

export interface CaptureHeader {
  kind: 'header';
  format: 'replyscope-capture';
  version: 1;
  tool: string;
  created: string;
  pageUrl?: string;
  browser?: string;
}

/** A whole capture in memory: header + records in arrival order. */
export interface Capture {
  header: CaptureHeader;
  records: CaptureRecord[];
}

// HAR 1.2 export of a capture. Every connection becomes one entry whose response content is the exact body (text,
// or base64 when it is not UTF-8) and whose stream is also listed, like Chrome lists WebSocket frames under
// `_webSocketMessages`, as `_eventSourceMessages: [{time, eventName, eventId, data}]` (time = epoch seconds):
// EventSource connections from their dispatched messages, SSE bodies from the spec reading of the bytes (har-messages.ts).
// For a lossless round trip each entry also carries its raw records under `_replyscope` (with their position in
// the capture), and the log carries the header and the connection-less records; importHar (har-import.ts) prefers those.
// The tab's pages (Preserve log: `navigation` records) are HAR's own `log.pages` and each entry's `pageref` (harPages),
// so that a HAR reader without our fields still sees where each page began.
import type { Entry, Har, Header, Page } from 'har-format';
import type { BodyRecord, Capture, CaptureRecord, ChunkRecord, ConnectionRecord, EndRecord, EvictionRecord, MessageRecord, NavigationRecord } from './model.ts';
import { recordsToBytes, bytesToBase64, utf8Length } from '../frames/utf8-chunks.ts';
import { harPages, isoTime } from './har-pages.ts';
import { jsonParts, PAUSE, runSteps, type Pause } from './json-parts.ts';
import { esMessage, evictedMessagesComment, sseMessages, wsMessage, type EvictedSseHead } from './har-messages.ts';
import { evictedWhyText, evictionCause, joinedCause, type EvictionCause } from './eviction-cause.ts';

export { importHar, HarImportError } from './har-import.ts';
export type { EvictedSseHead, HarEventSourceMessage } from './har-messages.ts';

/** Our extension of an entry / the log: the raw records, each with its index in `Capture.records`. */
export interface HarReplyscopeEntry {
  records: [number, CaptureRecord][];
}
export interface HarReplyscopeLog {
  header: Capture['header'];
  /** Records of no connection, with their positions in the capture: of the kinds every version reads. */
  records: [number, CaptureRecord][];
  /**
   * Page boundaries (`navigation`), apart from `records`: a reader older than that kind checks each of `records` and
   * refused the whole HAR for one it did not know; it does not look here, and reads the rest.
   */
  navigations?: [number, CaptureRecord][];
}

export function headerValue(headers: readonly [string, string][] | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers?.find(([k]) => k.toLowerCase() === lower)?.[1];
}

/** The capture let the body's content go (a stub of an older version has no mark, only no content). */
function bodyLetGo(body: BodyRecord): boolean {
  return body.abridged === true || (body.text === undefined && body.base64 === undefined);
}

/**
 * The request's `bodySize`: the bytes the page sent, though a masked body's text ("•••" for its credentials) is
 * shorter — a reader takes a postData shorter than bodySize for a cut one; ours reads a whole JSON text as whole
 * (har-import-browser.ts). A body held cut (`truncated`) whose size says no more than its postData text — one read from
 * a HAR that wrote its bodySize as -1 or none, sized by its text; a stream body the tap did not read — is -1, HAR
 * 1.2's "not known": written as that size, a HAR reader without our `_replyscope` fields read the cut text as the
 * whole body (our import without them reads a -1 with a cut JSON text as cut, as it was).
 */
function requestBodySize(body: BodyRecord | undefined, postText: string | undefined): number {
  if (!body) return 0;
  return body.truncated && postText !== undefined && body.size <= utf8Length(postText) ? -1 : body.size;
}

/** A body's bytes let go at its head, and what let them go (the memory cap, or Clear with the stream still open). */
export interface EvictedHead {
  bytes: number;
  by: EvictionCause;
}

/**
 * A response's content whose first `evicted.bytes` the memory cap (or Clear) let go: its size the whole body's, its
 * text what was kept (the rest), and a comment that says so and by what. Sized by its text, a HAR reader without our
 * `_replyscope` fields read the kept rest as the whole body.
 */
export function withEvicted<T extends { size: number }>(content: T, evicted: EvictedHead): T {
  if (evicted.bytes <= 0) return content;
  return { ...content, size: content.size + evicted.bytes, comment: `body cut: its first ${evicted.bytes} bytes were ${evictedWhyText(evicted.by)}; text holds the rest` };
}

function harHeaders(headers: readonly [string, string][] | undefined): Header[] {
  return (headers ?? []).map(([name, value]) => ({ name, value }));
}

function finite(n: number | undefined, fallback: number): number {
  return n !== undefined && Number.isFinite(n) ? n : fallback;
}

function bodyContent(chunks: ChunkRecord[], mimeType: string): Entry['response']['content'] {
  const bytes = recordsToBytes(chunks);
  if (bytes.length === 0) return { size: 0, mimeType, text: '' };
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return { size: bytes.length, mimeType, text };
  } catch {
    return { size: bytes.length, mimeType, text: bytesToBase64(bytes), encoding: 'base64' };
  }
}

/**
 * How an entry's large parts are made: at once (exportHar, the HAR as an object) or as they are written (harParts,
 * har-parts.ts: a body may be more than a string holds, and making it at once held the page for seconds).
 */
export interface EntryBodies {
  /** The response content of a body's chunks, its first `evicted.bytes` let go (withEvicted). */
  content(chunks: ChunkRecord[], mimeType: string, evicted: EvictedHead): unknown;
  /** `_eventSourceMessages` read from an SSE body (`head`: its first bytes were evicted, see har-messages.ts). */
  sseMessages(chunks: ChunkRecord[], head: EvictedSseHead | undefined): unknown;
  /** A list of small values, one per message (EventSource / WebSocket messages). */
  list<T>(items: T[], each: (item: T) => unknown): unknown;
  /** The entry's raw records, `_replyscope.records`. */
  records(own: [number, CaptureRecord][]): unknown;
}

const atOnce: EntryBodies = {
  content: (chunks, mimeType, evicted) => withEvicted(bodyContent(chunks, mimeType), evicted),
  sseMessages,
  list: (items, each) => items.map(each),
  records: (own) => own,
};

/** Records handled between two PAUSEs of a loop over a connection's records. */
const PAUSE_EVERY = 4096;

/**
 * One connection's entry. A generator that pauses (yields PAUSE) in its loops over the records, which are as many as
 * a day-long stream has chunks; exportHar runs it through.
 */
export function* entrySteps({ conn, own, pageref }: HarGroups['connections'][number], created: string, bodies: EntryBodies): Generator<Pause, Entry> {
  const chunks: ChunkRecord[] = [];
  const messages: MessageRecord[] = [];
  let end: EndRecord | undefined;
  // The body's bytes the memory cap evicted: an eviction before any chunk kept (one after them, where a live panel's
  // log may hold it, evicted what is still here: the analysis reads it so too). Evicted messages are no body's bytes;
  // they are counted so, before any message kept.
  let evicted = 0;
  let evictedMessages = 0;
  // What let them go: a Clear with the stream open counts its part of a record (`cleared`), the cap the rest.
  let evictedBy: EvictionCause | undefined;
  // The last eviction before the first chunk kept: its digest says where the text kept stands (as the analysis reads it).
  let headRecord: EvictionRecord | undefined;
  // The first and last time known after the request: a loop, not Math.min(...times) — spread as arguments, the
  // times of a connection of ~120,000 chunks or messages (a day-long session) overflowed the stack, and the HAR
  // export failed with "Maximum call stack size exceeded".
  let first = finite(conn.responseTime, Infinity);
  let last = -Infinity;
  const see = (t: number | undefined) => {
    if (t === undefined || !Number.isFinite(t)) return;
    if (t < first) first = t;
    if (t > last) last = t;
  };
  for (let i = 0; i < own.length; i++) {
    const r = own[i][1];
    if (r.kind === 'chunk') {
      chunks.push(r);
      see(r.t);
    } else if (r.kind === 'message') {
      messages.push(r);
      see(r.t);
    } else if (r.kind === 'end') end ??= r;
    else if (r.kind === 'evicted') {
      const head = chunks.length === 0 && r.messages === 0;
      if (head) {
        evicted += r.bytes;
        headRecord = r;
      }
      if (messages.length === 0) evictedMessages += r.messages;
      if (head || (messages.length === 0 && r.messages > 0)) evictedBy = joinedCause(evictedBy, evictionCause(r));
    }
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield PAUSE;
  }
  see(end?.t);
  const mimeType = headerValue(conn.responseHeaders, 'content-type') ?? (conn.transport === 'eventsource' ? 'text/event-stream' : 'application/octet-stream');
  // An unknown start is the earliest time known of the entry (it was 0: a "wait" of 56 years before a known response).
  const start = finite(conn.startTime, Number.isFinite(first) ? first : 0);
  const response = finite(conn.responseTime, start);
  const finish = Math.max(response, last);
  const wait = Math.max(0, response - start);
  const receive = Math.max(0, finish - response);
  const isSse = mimeType.toLowerCase().startsWith('text/event-stream');
  const sseHead: EvictedSseHead | undefined = evicted > 0 ? { ...(headRecord?.derived ? { derived: headRecord.derived } : {}) } : undefined;
  const eventSourceMessages = conn.transport === 'eventsource'
    ? bodies.list(messages, esMessage)
    : conn.transport !== 'websocket' && isSse ? bodies.sseMessages(chunks, sseHead) : undefined;
  // Chrome's form: what a WebSocket received and sent, as text frames.
  const webSocketMessages = conn.transport === 'websocket' ? bodies.list(messages, wsMessage) : undefined;
  const by = evictedBy ?? 'cap';
  const comment = evictedMessagesComment(conn.transport, isSse, { bytes: evicted, messages: evictedMessages, by, ...(sseHead ? { head: sseHead } : {}) });
  let url = conn.url;
  let queryString: Entry['request']['queryString'] = [];
  try {
    queryString = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // HAR 1.2 wants an absolute URL; an imported body's connection is named by its file ("reply.sse"), which made the
    // whole file fail a HAR validator. A URN keeps the name without claiming a place it was fetched from; a re-import
    // of ours reads the name back from `_replyscope`.
    url = `urn:replyscope:import:${encodeURIComponent(url)}`;
  }
  const postText = conn.requestBody && !bodyLetGo(conn.requestBody) ? conn.requestBody.text ?? conn.requestBody.base64 ?? '' : undefined;
  // (Typed as the HAR's entry although its large parts may be LazyJson values: they are written the same.)
  const entry = {
    ...(pageref !== undefined ? { pageref } : {}),
    startedDateTime: isoTime(conn.startTime, created),
    time: wait + receive,
    request: {
      method: conn.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(conn.requestHeaders),
      queryString,
      headersSize: -1,
      bodySize: requestBodySize(conn.requestBody, postText),
      // A body the capture let go (BodyRecord.abridged) has no postData: its text was '' — a HAR reader, ours
      // included, read back an empty body posted — or a pi stub that is no body at all. Its size stays, and why.
      ...(postText !== undefined ? { postData: { mimeType: headerValue(conn.requestHeaders, 'content-type') ?? '', text: postText } } : {}),
      ...(conn.requestBody && bodyLetGo(conn.requestBody) ? { comment: 'request body not kept: let go to keep the capture within its memory cap' } : {}),
    },
    response: {
      status: conn.status ?? 0,
      statusText: conn.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(conn.responseHeaders),
      content: ((conn.transport === 'eventsource' || conn.transport === 'websocket') && chunks.length === 0
        ? { size: 0, mimeType }
        : bodies.content(chunks, mimeType, { bytes: evicted, by })) as Entry['response']['content'],
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      ...(end?.state === 'error' || end?.state === 'aborted' ? { _error: end.error ?? end.state } : {}),
    },
    cache: {},
    timings: { send: 0, wait, receive },
    _resourceType: conn.transport === 'import' ? 'other' : conn.transport,
    ...(eventSourceMessages ? { _eventSourceMessages: eventSourceMessages } : {}),
    ...(webSocketMessages ? { _webSocketMessages: webSocketMessages } : {}),
    ...(comment !== undefined ? { comment } : {}),
    _replyscope: { records: bodies.records(own) },
  };
  return entry as Entry;
}

/** A capture's records by connection, in the order connections first appear, and those of no connection. */
export interface HarGroups {
  /** `pageref`: the id of the page the connection was declared on (none when the HAR has no pages). */
  connections: { conn: ConnectionRecord; own: [number, CaptureRecord][]; pageref?: string }[];
  loose: [number, CaptureRecord][];
  /** `log.pages`: see harPages. */
  pages: Page[];
}

/** The records grouped for the entries (pausing, see entrySteps); a connection never declared is an error. */
export function* groupSteps(capture: Capture): Generator<Pause, HarGroups> {
  const byConn = new Map<string, [number, CaptureRecord][]>();
  const loose: [number, CaptureRecord][] = [];
  // The page visit each connection was declared in: 0 the first page, k the page the k-th navigation record began
  // (a navigation's connections are those declared after it, model.ts).
  const navigations: NavigationRecord[] = [];
  const visitOf = new Map<string, number>();
  const records = capture.records;
  for (let i = 0; i < records.length; i++) {
    const rec = records[i];
    const conn = rec.kind === 'connection' ? rec.id : rec.kind === 'navigation' ? undefined : rec.conn;
    if (rec.kind === 'navigation') navigations.push(rec);
    else if (rec.kind === 'connection' && !visitOf.has(rec.id)) visitOf.set(rec.id, navigations.length);
    if (conn === undefined) loose.push([i, rec]);
    else {
      const list = byConn.get(conn);
      if (list) list.push([i, rec]);
      else byConn.set(conn, [[i, rec]]);
    }
    if (i % PAUSE_EVERY === PAUSE_EVERY - 1) yield PAUSE;
  }
  const connections: { conn: ConnectionRecord; own: [number, CaptureRecord][]; visit: number }[] = [];
  for (const [id, own] of byConn) {
    const conn = own.find(([, r]) => r.kind === 'connection')?.[1] as ConnectionRecord | undefined;
    if (!conn) throw new Error(`records refer to connection ${JSON.stringify(id)}, which the capture never declares`);
    connections.push({ conn, own, visit: visitOf.get(id) ?? 0 });
  }
  const { pages, idOf } = harPages(capture, navigations, connections);
  return { connections: connections.map(({ conn, own, visit }) => ({ conn, own, ...(idOf[visit] !== undefined ? { pageref: idOf[visit] } : {}) })), loose, pages };
}

/** The HAR around its entries (an array, or a LazyArray for harParts). */
export function harDocument(capture: Capture, entries: unknown, { loose, pages }: Pick<HarGroups, 'loose' | 'pages'>): Har {
  const browser = capture.header.browser;
  return {
    log: {
      version: '1.2',
      creator: { name: 'Replyscope', version: capture.header.tool },
      ...(browser ? { browser: { name: browser, version: '' } } : {}),
      ...(pages.length > 0 ? { pages } : {}),
      entries,
      _replyscope: {
        header: capture.header,
        records: loose.filter(([, r]) => r.kind !== 'navigation'),
        ...(loose.some(([, r]) => r.kind === 'navigation') ? { navigations: loose.filter(([, r]) => r.kind === 'navigation') } : {}),
      } satisfies HarReplyscopeLog,
    } as Har['log'],
  };
}

/** The HAR as an object, made at once (its body texts whole: see harParts for a file of any size). */
export function exportHar(capture: Capture): Har {
  const groups = runSteps(groupSteps(capture));
  const entries = groups.connections.map((c) => runSteps(entrySteps(c, capture.header.created, atOnce)));
  return harDocument(capture, entries, groups);
}

/** The HAR's text made from exportHar's object: as long as one string can be (tests, and the reference harParts is held to). */
export function writeHar(capture: Capture): string {
  return [...jsonParts(exportHar(capture), 2)].join('');
}

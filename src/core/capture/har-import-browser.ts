// A browser's HAR entries read into capture records (Chrome's "Save all as HAR with content", Firefox's, Playwright's
// recordHar; or entries without our records in our own HAR): which are streams, each one's connection (its
// credentials masked: har-import-mask.ts) and answer (har-import-answer.ts), and the boundaries between pages.
import type { BodyRecord, CaptureRecord, ConnectionRecord, EndRecord, Transport } from './model.ts';
import { acceptsStreamType, isPiProxyRequest } from './stream-request.ts';
import { isNdjsonContentType } from '../frames/ndjson.ts';
import { SseSpecDecoder } from '../frames/sse-spec.ts';
import { DECODED_AS_1252_NOTE, utf8BytesDecodedAs1252 } from './har-charset.ts';
import type { ImportMasking } from './har-import-mask.ts';
import { byteCount, HarImportError, isObj, num, pairs, pushAll, str, type Obj } from './har-import-fields.ts';
import { bodyChunks, contentBytes, evictedHead, messageTimeMs, missingBodyNote, missingMessagesNote, webSocketRecords } from './har-import-answer.ts';

/**
 * How the entries are read: `pageUrls` page id → URL; `taken` connection ids already used; `exactText` when the
 * writer stored text bodies as their UTF-8 decoding (ours), so no browser's charset decoding is undone.
 */
export interface ReadOptions {
  pageUrls: Map<string, string>;
  /** The log's pages by id: where a stream entry's page differs from the one before, a page boundary goes between. */
  pages?: Map<string, Obj>;
  taken?: ReadonlySet<string>;
  exactText: boolean;
  /** Masks the credentials of what is read, and counts them for the note. */
  masking: ImportMasking;
}

/**
 * The records of the entries at `indices`, read as a browser saved them, and a notice of those that are no stream;
 * `firstPage`: the page of the first stream on one of `opts.pages`.
 */
export function browserEntries(entries: unknown[], indices: number[], opts: ReadOptions): { records: CaptureRecord[]; firstPage?: Obj } {
  const records: CaptureRecord[] = [];
  const skipped: string[] = [];
  // A browser HAR saved with "Preserve log" holds several pages: their streams are told apart as the panel tells them
  // apart live, by a `navigation` record where the page changes (only between streams of two pages: a page whose
  // requests were all skipped draws no boundary).
  let lastPage: string | undefined;
  let firstPage: string | undefined;
  for (const i of indices) {
    const e = entries[i];
    if (!isObj(e)) throw new HarImportError(`HAR entry ${i} is not an object`);
    const at = records.length;
    if (!browserEntry(e, i, opts, records)) {
      skipped.push(skippedName(e, opts.masking));
      continue;
    }
    const page = str(e.pageref);
    if (page === undefined || !opts.pages?.has(page)) continue;
    if (lastPage !== undefined && page !== lastPage) records.splice(at, 0, pageBoundary(opts.pages.get(page) as Obj, records[at], opts.masking));
    lastPage = page;
    firstPage ??= page;
  }
  if (skipped.length > 0) {
    const named = skipped.slice(0, MAX_NAMED).join('; ') + (skipped.length > MAX_NAMED ? `; and ${skipped.length - MAX_NAMED} more` : '');
    records.push({ kind: 'notice', t: Number.NaN, level: 'info', text: `${skipped.length} of ${entries.length} HAR entries are not streams (no text/event-stream, NDJSON, EventSource or WebSocket) and were skipped: ${named}.` });
  }
  return { records, firstPage: firstPage === undefined ? undefined : opts.pages?.get(firstPage) };
}

/** Skipped entries named in the note, at most. */
const MAX_NAMED = 5;

/** "GET https://host/path (application/json)", the URL clipped (its userinfo masked: the note is in the capture). */
function skippedName(entry: Obj, masking: ImportMasking): string {
  const request = isObj(entry.request) ? entry.request : {};
  const response = isObj(entry.response) ? entry.response : {};
  const url = masking.url(str(request.url) ?? '(no URL)');
  const mime = mimeOf(response, isObj(response.content) ? response.content : {}).split(';')[0] || 'no type';
  return `${str(request.method) ?? 'GET'} ${url.length > 100 ? `${url.slice(0, 100)}…` : url} (${mime})`;
}

/**
 * The boundary before a page's first stream: when the page started (its `startedDateTime`; the stream's start when
 * that is missing), and its URL — Chrome writes the URL as the page's title; a title that is none (Playwright writes
 * the document's) is given as it is, the page's id when there is none.
 */
function pageBoundary(page: Obj, first: CaptureRecord, masking: ImportMasking): CaptureRecord {
  const started = Date.parse(str(page.startedDateTime) ?? '');
  const t = Number.isFinite(started) ? started : first.kind === 'connection' ? first.startTime : Number.NaN;
  return { kind: 'navigation', t, url: masking.url(str(page.title) || str(page.id) || '') };
}

/** An EventSource entry with its dispatched messages and its body: the messages are what the page got. */
export const ES_BODY_LEFT_NOTE = 'The raw body of this EventSource entry was not imported: its dispatched messages were.';

function transportOf(entry: Obj): Transport {
  const rt = str(entry._resourceType)?.toLowerCase();
  if (rt === 'eventsource' || rt === 'fetch' || rt === 'xhr' || rt === 'websocket') return rt;
  if (Array.isArray(entry._webSocketMessages)) return 'websocket';
  // Firefox writes a socket as a plain entry (no _resourceType, no messages, "text/plain"): it was skipped as "not a
  // stream (no … WebSocket)". Its ws:/wss: URL says what it is, and the note then says its messages are not there.
  const request = isObj(entry.request) ? entry.request : {};
  return /^wss?:/i.test(str(request.url) ?? '') ? 'websocket' : 'import';
}

/** The response's media type: the content's, else its Content-Type header (some writers leave `mimeType` empty). */
function mimeOf(response: Obj, content: Obj): string {
  const own = (str(content.mimeType) ?? '').trim().toLowerCase();
  if (own !== '') return own;
  return (pairs(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '').trim().toLowerCase();
}

/**
 * How the entry ended. Chrome marks a request the page cancelled "net::ERR_ABORTED" (the page's Stop: an abort, not a
 * network failure; Firefox says NS_BINDING_ABORTED); Playwright writes the failure as `response._failureText`. A
 * stream saved before it finished has no body and a receive time of -1: still open.
 */
function endOf(response: Obj, content: Obj, timings: Obj): { state: EndRecord['state']; error?: string } {
  const error = str(response._error) || str(response._failureText);
  if (error) return { state: /ERR_ABORTED|NS_BINDING_ABORTED|\baborted\b/i.test(error) ? 'aborted' : 'error', error };
  if (str(content.text) === undefined && (num(content.size) === -1 || num(timings.receive) === -1)) return { state: 'open' };
  return { state: 'complete' };
}

/**
 * The response's HTTP status: an integer from 100 to 599. Chrome writes 0 and Playwright -1 for no response: neither
 * is a status the server sent, and nothing is said of them. Any other number is no status either (a writer's 200.5,
 * or 1e20): kept as the connection's status, the capture log written from the import was refused on re-import
 * ("expected int") — it is `unreal`, for the entry's notice, and the response is read without a status.
 */
function statusOf(response: Obj): { status?: number; unreal?: number } {
  const n = num(response.status);
  if (n === undefined || n <= 0) return {};
  return Number.isInteger(n) && n >= 100 && n <= 599 ? { status: n } : { unreal: n };
}

/**
 * The request's postData text as a body record. Its size is the entry's `bodySize` when that says more than the text
 * holds: the text was cut (a HAR written from a capture whose request body passed the tap's 1 MiB cap, or by a tool
 * that cuts long bodies) — `truncated`, so that a pi proxy request is still told by its head (stream-request.ts) —
 * unless it is a whole JSON object or array (jsonShape): then it is shorter for its masked credentials ("sk-…" →
 * "•••": our export writes the size the page sent as bodySize, and the masked text), and is read whole.
 *
 * A `bodySize` of -1 or none (HAR 1.2: not known) says nothing either way: a text that starts as a JSON object or
 * array and does not parse is then read as cut too, sized by what it holds — the masking already read it so (by its
 * head, credential-mask.ts), but it was not `truncated`: a pi proxy request cut so was not told (its error answer
 * skipped as "not a stream", its stream read without the model its client starts from). A body that is not quite
 * JSON (a trailing comma) reads so as well: with no size, nothing tells it from a cut one.
 */
function requestBodyOf(request: Obj): BodyRecord | undefined {
  const postData = isObj(request.postData) ? request.postData : undefined;
  const text = str(postData?.text);
  if (text === undefined) return undefined;
  const size = new TextEncoder().encode(text).length;
  const bodySize = byteCount(request.bodySize) ?? -1;
  if (bodySize > size) return jsonShape(text, str(postData?.mimeType)) === 'whole' ? { text, size: bodySize } : { text, size: bodySize, truncated: true };
  if (bodySize < 0 && jsonShape(text, str(postData?.mimeType)) === 'cut') return { text, size, truncated: true };
  return { text, size };
}

/**
 * A text as the head of a JSON body: `whole`, a whole JSON object or array — one cut inside it never parses, so it is
 * no cut head; `cut`, one that starts so and does not parse; `other` for the rest. A bare number or string is other
 * (a cut `12345` is `12`, which parses), and so is an NDJSON body (its first lines parse; the whole does not).
 */
function jsonShape(text: string, mimeType: string | undefined): 'whole' | 'cut' | 'other' {
  const head = text.trimStart()[0];
  if ((head !== '{' && head !== '[') || isNdjsonContentType(mimeType)) return 'other';
  try {
    JSON.parse(text);
    return 'whole';
  } catch {
    return 'cut';
  }
}

function browserEntry(entry: Obj, index: number, opts: ReadOptions, records: CaptureRecord[]): boolean {
  const { pageUrls, taken, masking } = opts;
  const request = isObj(entry.request) ? entry.request : {};
  const response = isObj(entry.response) ? entry.response : {};
  const content = isObj(response.content) ? response.content : {};
  const mime = mimeOf(response, content);
  const messages = Array.isArray(entry._eventSourceMessages) ? entry._eventSourceMessages.filter(isObj) : [];
  const transport = transportOf(entry);
  const isSse = mime.startsWith('text/event-stream');
  // A request that asked for a stream and got something else (a 401 JSON answer) is kept: its failure is the finding.
  // So is one that got no answer at all (refused, reset, CORS: Chrome's `_error` with status 0, Playwright's
  // `_failureText` with -1) — it was skipped as "not a stream", and the file held "no stream", 0 errors.
  const requestBody = requestBodyOf(request);
  const askedForStream = acceptsStreamType(pairs(request.headers).find(([k]) => k.toLowerCase() === 'accept')?.[1]) || isPiProxyRequest(requestBody);
  const streamAnswer = isSse || isNdjsonContentType(mime) || transport === 'eventsource' || transport === 'websocket' || messages.length > 0;
  const { status, unreal: unrealStatus } = statusOf(response);
  const failed = (status ?? 0) >= 400 || Boolean(str(response._error) || str(response._failureText));
  if (!streamAnswer && !(askedForStream && failed)) return false;

  let id = `har:${index}`;
  for (let n = 2; taken?.has(id); n++) id = `har:${index}~${n}`; // next to Replyscope's own records (see importHar, har-import.ts)
  const start = Date.parse(str(entry.startedDateTime) ?? '');
  const timings = isObj(entry.timings) ? entry.timings : {};
  const before = ['blocked', 'dns', 'connect', 'send', 'wait'].reduce((s, k) => s + Math.max(0, num(timings[k]) ?? 0), 0);
  const endT = start + (num(entry.time) ?? before + Math.max(0, num(timings.receive) ?? 0));
  const end = endOf(response, content, timings);
  const conn: ConnectionRecord = {
    kind: 'connection',
    id,
    transport,
    frameUrl: masking.url(pageUrls.get(str(entry.pageref) ?? '') ?? ''),
    method: str(request.method) ?? 'GET',
    url: masking.url(str(request.url) ?? ''),
    requestHeaders: masking.headers(index, pairs(request.headers)),
    ...(requestBody ? { requestBody: masking.requestBody(requestBody) } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(str(response.statusText) !== undefined ? { statusText: str(response.statusText) } : {}),
    responseHeaders: masking.headers(index, pairs(response.headers)),
    startTime: start,
    responseTime: start + before,
  };
  const connAt = records.length;
  records.push(conn);
  if (unrealStatus !== undefined) {
    records.push({ kind: 'notice', t: conn.responseTime ?? start, conn: id, level: 'warning', text: `This HAR entry's response status ${unrealStatus} is no HTTP status (an integer from 100 to 599): the response was imported without one.` });
  }
  // Our HAR without its records: where its comments say the head was evicted, so does the capture (before the rest).
  const evicted = evictedHead(id, entry, content, transport === 'eventsource' || transport === 'websocket');
  if (evicted) records.push(evicted);
  const first = num(messages[0]?.time) ?? 0;
  const msgTimes = messages.map((m) => messageTimeMs(m.time, start, first));
  const text = str(content.text);
  // A text body as the page's UTF-8 decoder read it, when the browser stored it decoded as Windows-1252 (har-charset.ts).
  const contentType = pairs(response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? str(content.mimeType) ?? '';
  const mended = text !== undefined && content.encoding !== 'base64' && !opts.exactText ? utf8BytesDecodedAs1252(text, contentType) : undefined;
  if (transport === 'websocket' && !Array.isArray(entry._webSocketMessages)) {
    // Playwright's recordHar with content "attach" (or a .zip HAR) writes a socket's messages to a file of their own,
    // named by content._file; the connection showed 0 events without a word.
    records.push({ kind: 'notice', t: endT, conn: id, level: 'warning', text: missingMessagesNote(content) });
  } else if (transport === 'websocket') {
    pushAll(records, webSocketRecords(id, (entry._webSocketMessages as unknown[]).filter(isObj), start, endT, masking));
  } else if (transport === 'eventsource' && messages.length > 0) {
    messages.forEach((m, k) =>
      records.push({ kind: 'message', conn: id, t: msgTimes[k], type: str(m.eventName) ?? 'message', data: str(m.data) ?? '', lastEventId: str(m.eventId) ?? '' }),
    );
    if (text) records.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: ES_BODY_LEFT_NOTE });
  } else if (transport === 'eventsource' && text) {
    // An EventSource entry saved with its body but not its dispatched messages: what the browser dispatched is that
    // body read by the SSE spec — messages, as an EventSource connection holds (its chunks were written to a log
    // the reader then refused: "a chunk record on an eventsource connection").
    const body = content.encoding === 'base64' ? new TextDecoder().decode(contentBytes(text, index, conn.url)) : mended ? new TextDecoder().decode(mended) : text;
    const spec = new SseSpecDecoder();
    spec.push(body, endT);
    spec.finish();
    let lastEventId = '';
    for (const f of spec.frames) {
      if (f.kind !== 'data') continue;
      if (f.id !== undefined) lastEventId = f.id;
      // When each came is not known (NaN), as for a body's chunks (bodyChunks, har-import-answer.ts): the entry's end
      // read as if every event had waited for it — a stream held back (stream.held-back), a reply that took no time.
      records.push({ kind: 'message', conn: id, t: Number.NaN, type: f.event ?? 'message', data: f.data, lastEventId });
    }
    records.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: 'This EventSource entry was saved without its dispatched messages: they are read from its body, when each came not known.' });
  } else if (text === '') {
    if (!evicted) records.push({ kind: 'notice', t: endT, conn: id, level: 'warning', text: 'This HAR entry\'s response body is empty: nothing to read.' });
  } else if (text !== undefined) {
    const body = content.encoding === 'base64' ? contentBytes(text, index, conn.url) : mended ?? new TextEncoder().encode(text);
    pushAll(records, bodyChunks(id, body, endT, msgTimes, isSse, (byteCount(content.size) ?? 0) > body.length));
  } else if (!evicted && (status !== undefined || end.state === 'complete' || end.state === 'open')) {
    // (A request that failed before any answer has no body to miss: its error is what the connection shows; one whose
    // head the HAR says was evicted, the eviction.)
    records.push({ kind: 'notice', t: endT, conn: id, level: 'warning', text: missingBodyNote(content, end.state, transport) });
  }
  if (mended && transport !== 'websocket') records.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: DECODED_AS_1252_NOTE });
  noticesFirst(records, connAt + 1);
  records.push({ kind: 'end', conn: id, t: endT, ...end });
  return true;
}

/**
 * The notices among `records[from…]` moved before the rest, each group in its order. A HAR keeps no time of arrival
 * to place an entry's note by: each is about the entry as a whole (its body's charset, messages not saved), and
 * before its data the analysis tells it as the connection's — after it, it was told at the last event, as if that
 * event were at fault.
 */
function noticesFirst(records: CaptureRecord[], from: number): void {
  const rest = records.splice(from);
  for (const r of rest) if (r.kind === 'notice') records.push(r);
  for (const r of rest) if (r.kind !== 'notice') records.push(r);
}

// HAR import: our own exports (exact, from `_replyscope`) and browser HARs such as Chrome's "Save all as HAR with
// content". Only stream entries are imported (text/event-stream, NDJSON types, EventSource and WebSocket entries); a
// notice says how many others were skipped. Browser HARs carry no chunk times: the body becomes chunks at the message
// times when `_eventSourceMessages` line up with the body's frames, else one chunk at the end of the entry. A browser's
// entries have their credentials masked as the tap masks them (har-import-mask.ts); our own records are exact.
import type { BodyRecord, Capture, CaptureHeader, CaptureRecord, ConnectionRecord, EndRecord, Transport } from './model.ts';
import { parseHeader, parseRecord } from './schemas.ts';
import { describeZodError } from './capture-log.ts';
import { acceptsStreamType, isPiProxyRequest } from './stream-request.ts';
import { isNdjsonContentType } from '../frames/ndjson.ts';
import { SseSpecDecoder } from '../frames/sse-spec.ts';
import { Utf8ChunkEncoder, base64ToBytes } from '../frames/utf8-chunks.ts';
import { DECODED_AS_1252_NOTE, utf8BytesDecodedAs1252 } from './har-charset.ts';
import { ImportMasking } from './har-import-mask.ts';

export class HarImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarImportError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function pairs(v: unknown): [string, string][] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((h) => [String(h.name ?? ''), String(h.value ?? '')]);
}

/**
 * A message time from a HAR: epoch seconds (Chrome's pseudo wall time), epoch milliseconds (Playwright writes those:
 * above 1e11, which as seconds would be the year 5138), anything else taken as seconds relative to the first.
 */
function messageTimeMs(time: unknown, entryStart: number, firstTime: number): number {
  const t = num(time);
  if (t === undefined) return Number.NaN;
  if (t > 1e11) return t;
  if (t > 1e9) return t * 1000;
  return entryStart + (t - firstTime) * 1000;
}

function ownRecords(value: unknown, where: string, field = 'records'): [number, CaptureRecord][] {
  if (!Array.isArray(value)) throw new HarImportError(`${where}: _replyscope.${field} is not an array`);
  return value.map((pair, k) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'number') {
      throw new HarImportError(`${where}: _replyscope.${field}[${k}] is not a [position, record] pair`);
    }
    try {
      return [pair[0], parseRecord(pair[1])] as [number, CaptureRecord];
    } catch (e) {
      throw new HarImportError(`${where}: _replyscope.${field}[${k}]: ${describeZodError(e, String(pair[1]?.kind))}`);
    }
  });
}

function transportOf(entry: Obj): Transport {
  const rt = str(entry._resourceType)?.toLowerCase();
  if (rt === 'eventsource' || rt === 'fetch' || rt === 'xhr' || rt === 'websocket') return rt;
  if (Array.isArray(entry._webSocketMessages)) return 'websocket';
  // Firefox writes a socket as a plain entry (no _resourceType, no messages, "text/plain"): it was skipped as "not a
  // stream (no … WebSocket)". Its ws:/wss: URL says what it is, and the note then says its messages are not there.
  const request = isObj(entry.request) ? entry.request : {};
  return /^wss?:/i.test(str(request.url) ?? '') ? 'websocket' : 'import';
}

/**
 * A WebSocket entry's frames (Chrome's `_webSocketMessages`: type send/receive, opcode 1 text / 2 binary, time in
 * epoch seconds, data): the text messages become message records — received ones `message` (each one event's data,
 * as an EventSource message is), sent ones `send`, masked as the tap records them; a notice counts the binary frames
 * left out.
 */
function webSocketRecords(id: string, frames: Obj[], start: number, endT: number, masking: ImportMasking): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  const first = num(frames[0]?.time) ?? 0;
  let binary = 0;
  for (const f of frames) {
    if (f.type !== 'send' && f.type !== 'receive') continue;
    if (f.opcode !== undefined && f.opcode !== 1) binary++;
    else {
      const sent = f.type === 'send';
      const data = sent ? masking.sentMessage(str(f.data) ?? '') : str(f.data) ?? '';
      out.push({ kind: 'message', conn: id, t: messageTimeMs(f.time, start, first), type: sent ? 'send' : 'message', data, lastEventId: '' });
    }
  }
  if (binary) {
    out.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: `WebSocket: the text messages were imported (each received one read as one event, the app's own shown as other messages, the sent ones as sent); not shown: ${binary} binary message${binary === 1 ? '' : 's'}.` });
  }
  return out;
}

/**
 * Body bytes as chunks; split at frame ends with the message times when they line up one to one. Otherwise the body
 * is one chunk of unknown time (NaN): a browser keeps no arrival times, and the entry's end time would read as if
 * every event had arrived at once (a time to first token of 0 ms).
 */
function bodyChunks(conn: string, body: Uint8Array, endT: number, msgTimes: number[], isSse: boolean): CaptureRecord[] {
  const enc = new Utf8ChunkEncoder();
  const pieces: { bytes: Uint8Array; t: number }[] = [];
  // The pieces are cut from the decoded text and encoded again: only where that gives the body's bytes back, i.e. the
  // body is UTF-8. (Comparing lengths was not enough: an unfinished 3-byte sequence decodes to U+FFFD, 3 bytes too.)
  const text = isSse && msgTimes.length > 0 ? utf8TextOf(body) : undefined;
  if (text !== undefined) {
    const dec = new SseSpecDecoder();
    const data = dec.push(text, Number.NaN).filter((f) => f.kind === 'data');
    if (data.length === msgTimes.length) {
      let from = 0;
      data.forEach((f, k) => {
        pieces.push({ bytes: new TextEncoder().encode(text.slice(from, f.end)), t: msgTimes[k] });
        from = f.end;
      });
      if (from < text.length) pieces.push({ bytes: new TextEncoder().encode(text.slice(from)), t: endT });
    }
  }
  if (pieces.length === 0 && body.length > 0) pieces.push({ bytes: body, t: Number.NaN });
  const out: CaptureRecord[] = [];
  for (const p of pieces) {
    if (p.bytes.length === 0) continue;
    out.push({ kind: 'chunk', conn, t: p.t, ...enc.push(p.bytes) });
  }
  const flush = enc.flush();
  if (flush) out.push({ kind: 'chunk', conn, t: pieces.at(-1)?.t ?? Number.NaN, ...flush });
  return out;
}

/** The body as text when it is UTF-8 (a BOM kept, as the readers expect), else undefined. */
function utf8TextOf(body: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { ignoreBOM: true, fatal: true }).decode(body);
  } catch {
    return undefined;
  }
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
 * How the entries are read: `pageUrls` page id → URL; `taken` connection ids already used; `exactText` when the
 * writer stored text bodies as their UTF-8 decoding (ours), so no browser's charset decoding is undone.
 */
interface ReadOptions {
  pageUrls: Map<string, string>;
  /** The log's pages by id: where a stream entry's page differs from the one before, a page boundary goes between. */
  pages?: Map<string, Obj>;
  taken?: ReadonlySet<string>;
  exactText: boolean;
  /** Masks the credentials of what is read, and counts them for the note. */
  masking: ImportMasking;
}

/**
 * The request's postData text as a body record. Its size is the entry's `bodySize` when that says more than the text
 * holds: the text was cut (a HAR written from a capture whose request body passed the tap's 1 MiB cap, or by a tool
 * that cuts long bodies) — `truncated`, so that a pi proxy request is still told by its head (stream-request.ts) —
 * unless it is a whole JSON object or array (wholeJson): then it is shorter for its masked credentials ("sk-…" →
 * "•••": our export writes the size the page sent as bodySize, and the masked text), and is read whole.
 */
function requestBodyOf(request: Obj): BodyRecord | undefined {
  const postData = isObj(request.postData) ? request.postData : undefined;
  const text = str(postData?.text);
  if (text === undefined) return undefined;
  const size = new TextEncoder().encode(text).length;
  const bodySize = num(request.bodySize) ?? -1;
  if (bodySize <= size) return { text, size };
  return wholeJson(text, str(postData?.mimeType)) ? { text, size: bodySize } : { text, size: bodySize, truncated: true };
}

/**
 * Whether a text is a whole JSON object or array: one cut inside it never parses, so it is no cut head. A bare
 * number or string is not taken (a cut `12345` is `12`, which parses), nor an NDJSON body (its first lines parse).
 */
function wholeJson(text: string, mimeType: string | undefined): boolean {
  const head = text.trimStart()[0];
  if ((head !== '{' && head !== '[') || isNdjsonContentType(mimeType)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
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
  const failed = (num(response.status) ?? 0) >= 400 || Boolean(str(response._error) || str(response._failureText));
  if (!streamAnswer && !(askedForStream && failed)) return false;

  let id = `har:${index}`;
  for (let n = 2; taken?.has(id); n++) id = `har:${index}~${n}`; // next to Replyscope's own records (see importHar)
  const start = Date.parse(str(entry.startedDateTime) ?? '');
  const timings = isObj(entry.timings) ? entry.timings : {};
  const before = ['blocked', 'dns', 'connect', 'send', 'wait'].reduce((s, k) => s + Math.max(0, num(timings[k]) ?? 0), 0);
  const endT = start + (num(entry.time) ?? before + Math.max(0, num(timings.receive) ?? 0));
  const end = endOf(response, content, timings);
  // No response: Chrome writes status 0, Playwright -1; neither is a status the server sent.
  const status = (num(response.status) ?? 0) > 0 ? num(response.status) : undefined;
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
  records.push(conn);
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
    if (text) records.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: 'The raw body of this EventSource entry was not imported: its dispatched messages were.' });
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
      // When each came is not known (NaN), as for a body's chunks (bodyChunks): the entry's end read as if every
      // event had waited for it — a stream held back (stream.held-back), a reply that took no time.
      records.push({ kind: 'message', conn: id, t: Number.NaN, type: f.event ?? 'message', data: f.data, lastEventId });
    }
    records.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: 'This EventSource entry was saved without its dispatched messages: they are read from its body, when each came not known.' });
  } else if (text === '') {
    records.push({ kind: 'notice', t: endT, conn: id, level: 'warning', text: 'This HAR entry\'s response body is empty: nothing to read.' });
  } else if (text !== undefined) {
    const body = content.encoding === 'base64' ? contentBytes(text, index, conn.url) : mended ?? new TextEncoder().encode(text);
    pushAll(records, bodyChunks(id, body, endT, msgTimes, isSse));
  } else if (status !== undefined || end.state === 'complete' || end.state === 'open') {
    // (A request that failed before any answer has no body to miss: its error is what the connection shows.)
    records.push({ kind: 'notice', t: endT, conn: id, level: 'warning', text: missingBodyNote(content, end.state, transport) });
  }
  if (mended && transport !== 'websocket') records.push({ kind: 'notice', t: endT, conn: id, level: 'info', text: DECODED_AS_1252_NOTE });
  records.push({ kind: 'end', conn: id, t: endT, ...end });
  return true;
}

/** The bytes of a base64 `content.text` (whitespace allowed); a HarImportError naming the entry when it is not base64. */
function contentBytes(text: string, index: number, url: string): Uint8Array {
  try {
    return base64ToBytes(text.replace(/\s+/g, ''));
  } catch (e) {
    throw new HarImportError(`HAR entry ${index} (${url}): response.content.text is not valid base64 (${(e as Error).message})`);
  }
}

/** Why a WebSocket entry has no messages, and what to do about it. */
function missingMessagesNote(content: Obj): string {
  const file = str(content._file);
  if (file !== undefined) {
    return `This WebSocket entry's messages are stored in a separate file (content._file "${file}", next to the HAR), ` +
      'which is not read: save the HAR with the content embedded (Playwright: recordHar content "embed").';
  }
  return 'This WebSocket entry has no messages (_webSocketMessages; Firefox\'s HAR keeps none): nothing to read.';
}

/** Why an entry has no body, and what to do about it. */
function missingBodyNote(content: Obj, state: EndRecord['state'], transport: Transport): string {
  const file = str(content._file);
  if (file !== undefined) {
    return `This HAR entry's body is stored in a separate file (content._file "${file}", next to the HAR): save the HAR with the content embedded (Playwright: recordHar content "embed"), or import that file on its own.`;
  }
  // Chromium keeps no body for an EventSource (Network.getResponseBody: "No data found"), open or closed, and neither
  // Chrome nor Playwright writes its events; the notes below ("saved without content?", "save it after the stream
  // ends" — an EventSource reconnects rather than ends) sent the user after a HAR that cannot exist.
  if (transport === 'eventsource') {
    return 'Chrome\'s and Playwright\'s HARs keep neither the body nor the events of an EventSource (Chrome shows them in its ' +
      'EventStream tab but does not save them; Firefox\'s HAR keeps the body): nothing to read. Capture it with the extension, ' +
      'which records every event the page is dispatched.';
  }
  // Chromium keeps no body for a request cancelled or broken off mid-response (Playwright writes size -1): the note
  // asked whether the HAR was saved without content, of a HAR saved with it.
  if (state === 'aborted' || state === 'error') {
    return `This HAR entry's response was ${state === 'aborted' ? 'cancelled by the page' : 'broken off'} before it ended, and was ` +
      'saved without its body (Chrome and Playwright keep none for such a request): nothing to read. Capture it with the extension, which records what arrived.';
  }
  if (state === 'open') {
    return 'This HAR entry\'s response had not finished when the HAR was saved: a browser keeps no body for a stream still ' +
      'streaming, so there is nothing to read. Save the HAR after the stream ends — or capture it with the extension, which records it as it arrives.';
  }
  return 'This HAR entry has no response content (saved without content?): nothing to read.';
}

/**
 * An entry's own records with its connection id made unique. Two of our HARs merged into one (a HAR tool, a hand
 * edit) can both hold "tab1:1": their records were read as one connection — both bodies interleaved, a reply started
 * twice, every block duplicated — where a capture log with that id twice is refused. The later one becomes "tab1:1~2".
 */
function distinctIds(own: [number, CaptureRecord][], declared: Set<string>): [number, CaptureRecord][] {
  const ids = new Map<string, string>();
  for (const [, r] of own) {
    if (r.kind !== 'connection') continue;
    let id = r.id;
    for (let n = 2; declared.has(id); n++) id = `${r.id}~${n}`;
    declared.add(id);
    if (id !== r.id) ids.set(r.id, id);
  }
  if (ids.size === 0) return own;
  return own.map(([k, r]): [number, CaptureRecord] => {
    if (r.kind === 'connection') return [k, { ...r, id: ids.get(r.id) ?? r.id }];
    if ('conn' in r && r.conn !== undefined && ids.has(r.conn)) return [k, { ...r, conn: ids.get(r.conn)! } as CaptureRecord];
    return [k, r];
  });
}

/** Imports a parsed HAR object (see module comment). Throws HarImportError on a malformed HAR. */
export function importHar(har: unknown): Capture {
  if (!isObj(har) || !isObj(har.log) || !Array.isArray(har.log.entries)) {
    throw new HarImportError('not a HAR file: expected {"log": {"entries": [...]}}');
  }
  const log = har.log;
  const entries = log.entries as unknown[];
  const own = isObj(log._replyscope) ? log._replyscope : undefined;
  if (own) {
    let header: CaptureHeader;
    try {
      header = parseHeader(own.header);
    } catch (e) {
      throw new HarImportError(`HAR log._replyscope.header: ${describeZodError(e, 'header')}`);
    }
    const all = ownRecords(own.records, 'HAR log');
    if (own.navigations !== undefined) {
      for (const [i, [at, r]] of ownRecords(own.navigations, 'HAR log', 'navigations').entries()) {
        if (r.kind !== 'navigation') throw new HarImportError(`HAR log: _replyscope.navigations[${i}] is a ${JSON.stringify(r.kind)} record, not a navigation`);
        all.push([at, r]);
      }
    }
    const others: number[] = [];
    const declared = new Set<string>();
    entries.forEach((e, i) => {
      if (isObj(e) && isObj(e._replyscope)) pushAll(all, distinctIds(ownRecords(e._replyscope.records, `HAR entry ${i}`), declared));
      else others.push(i);
    });
    all.sort((a, b) => a[0] - b[0]);
    const records = all.map(([, r]) => r);
    // Entries without our records (a HAR merged with a browser's, or edited by hand) are read as a browser's, after
    // ours: ignoring them lost them without a word.
    if (others.length) {
      const taken = new Set(records.flatMap((r) => (r.kind === 'connection' ? [r.id] : [])));
      const masking = new ImportMasking();
      pushAll(records, browserEntries(entries, others, { pageUrls: pageUrlsOf(pagesOf(log)), taken, exactText: false, masking }).records);
      pushMaskingNote(records, masking);
    }
    return { header, records };
  }
  const pages = pagesOf(log);
  const pageUrls = pageUrlsOf(pages);
  const masking = new ImportMasking();
  const creator = isObj(log.creator) ? log.creator : {};
  const browser = isObj(log.browser) ? log.browser : undefined;
  const firstStart = entries.map((e) => (isObj(e) ? str(e.startedDateTime) : undefined)).find((s) => s !== undefined);
  // Our own export without its `_replyscope` fields (stripped, or written by an older version) has exact text.
  const exactText = str(creator.name) === 'Replyscope';
  const byId = new Map(pages.flatMap((p) => (str(p.id) !== undefined ? [[str(p.id) as string, p] as [string, Obj]] : [])));
  const { records, firstPage } = browserEntries(entries, entries.map((_, i) => i), { pageUrls, pages: byId, exactText, masking });
  // The capture's page is its first stream's: no boundary is drawn before that one, and a first page without any (a
  // login page before the chat) named the streams of the next.
  const page = firstPage ?? pages[0];
  const header: CaptureHeader = {
    kind: 'header',
    format: 'replyscope-capture',
    version: 1,
    tool: `HAR import (${[str(creator.name), str(creator.version)].filter(Boolean).join(' ') || 'unknown creator'})`,
    created: str(pages[0]?.startedDateTime) ?? firstStart ?? new Date(0).toISOString(),
    ...(page && urlLike(page.title) ? { pageUrl: masking.url(str(page.title) as string) } : {}),
    ...(browser ? { browser: [str(browser.name), str(browser.version)].filter(Boolean).join(' ') } : {}),
  };
  pushMaskingNote(records, masking);
  return { header, records };
}

/** The note of the credentials the import masked, if it masked any (har-import-mask.ts). */
function pushMaskingNote(records: CaptureRecord[], masking: ImportMasking): void {
  const text = masking.note();
  if (text !== undefined) records.push({ kind: 'notice', t: Number.NaN, level: 'info', text });
}

/**
 * `target.push(...items)` for lists as long as a capture's: spread as arguments, the records of an entry of ~120,000
 * chunks or socket messages (a day-long session: our own HAR of a 150 MB capture) overflowed the stack, and the HAR
 * was refused as "Maximum call stack size exceeded".
 */
function pushAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
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

function pagesOf(log: Obj): Obj[] {
  return Array.isArray(log.pages) ? log.pages.filter(isObj) : [];
}

/** Page id → the page's URL (Chrome writes it as the title; Playwright the document's title: not a URL, not used). */
function pageUrlsOf(pages: Obj[]): Map<string, string> {
  return new Map(pages.map((p) => [str(p.id) ?? '', urlLike(p.title) ? (p.title as string) : '']));
}

const urlLike = (v: unknown): boolean => typeof v === 'string' && /^[a-z][a-z0-9+.-]*:/i.test(v);

/**
 * The records of the entries at `indices`, read as a browser saved them, and a notice of those that are no stream;
 * `firstPage`: the page of the first stream on one of `opts.pages`.
 */
function browserEntries(entries: unknown[], indices: number[], opts: ReadOptions): { records: CaptureRecord[]; firstPage?: Obj } {
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

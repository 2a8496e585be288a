// Redaction of a capture before it is shared. The result stays a valid capture whose streams still parse:
// - `headers`: header values become "•••" (except a few that say how to read the body, e.g. content-type), and so do
//   URL query values (except a last-event-id parameter's, like the Last-Event-ID header: an event id, which the
//   stream's `id:` lines keep too, links a resumed request to the stream it continues);
// - `requestBodies`: string values inside JSON request bodies are masked (structural keys such as `model`, `api`,
//   `provider`, `type`, `role`, ids are kept: analysis needs them, see redact-values.ts); non-JSON text is masked;
//   binary bodies are dropped;
// - `textContent`: every `data:` line (SSE), every other body line (NDJSON) and every EventSource message has its
//   JSON string values masked, not its bytes: JSON stays JSON, SSE framing and line structure stay intact. Masking
//   turns letters and digits into "x" and keeps punctuation and length. Streamed tool arguments (JSON in pieces) are
//   masked as the one JSON document they build (redact-json-text.ts): their numbers, literals and keys stay, so the
//   arguments are still the JSON they were. Chunk times are kept at line granularity (a line goes to the chunk that
//   completed it).
// A notice record at the head of the capture says what was redacted.
import type { BodyRecord, Capture, CaptureRecord, ChunkRecord, ConnectionRecord, EvictionDerived } from './model.ts';
import { bytesToBase64, PageTextDecoder, utf8Length } from '../frames/utf8-chunks.ts';
import { maskText, ToolArgsMaskers } from './redact-json-text.ts';
import { isStructuralKey, redactJson, redactMessage, redactPiState, redactValueText } from './redact-values.ts';
import { PAUSE, runSteps, type Pause, type WorkProgress } from './json-parts.ts';
import { isLastEventIdParam } from './stream-request.ts';
import { MASK } from './credential-mask.ts';

export { maskText };
export { redactJson, redactValueText } from './redact-values.ts';

export interface RedactOptions {
  headers?: boolean;
  requestBodies?: boolean;
  textContent?: boolean;
}

const KEEP_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'accept',
  'cache-control', 'connection', 'x-accel-buffering', 'last-event-id']);

function redactLine(line: string, args: ToolArgsMaskers): string {
  if (line === '') return line;
  if (line.startsWith('data:')) {
    const sep = line.startsWith('data: ') ? 6 : 5;
    return line.slice(0, sep) + redactValueText(line.slice(sep), args);
  }
  if (line.startsWith(':')) return ':' + maskText(line.slice(1));
  if (/^(event|id|retry):/.test(line)) return line;
  return redactValueText(line, args);
}

/**
 * Redacts one connection's chunks line by line; each output line goes to the chunk that completed the line. Pauses
 * after each chunk (see redactSteps).
 */
function* redactChunks(chunks: ChunkRecord[], ended: boolean, args: ToolArgsMaskers, progress: WorkProgress): Generator<Pause, ChunkRecord[]> {
  const line = (text: string) => redactLine(text, args);
  const out: ChunkRecord[] = [];
  let carry = '';
  // Bytes that were not UTF-8 (stored as base64; the page read U+FFFD) stay bytes that are not: written as one 0xFF
  // byte each, the page reads the same text and the analysis tells stream.invalid-utf8 as for the original (as text
  // the U+FFFD became a valid character, and the diagnostic went).
  let invalid = false;
  const record = (src: ChunkRecord, text: string): ChunkRecord => {
    if (!invalid || !text.includes('\ufffd')) return { kind: 'chunk', conn: src.conn, t: src.t, bytes: utf8Length(text), text };
    invalid = false;
    const parts = text.split('\ufffd').map((p) => new TextEncoder().encode(p));
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0) + parts.length - 1);
    let at = 0;
    parts.forEach((p, i) => {
      if (i > 0) bytes[at++] = 0xff;
      bytes.set(p, at);
      at += p.length;
    });
    return { kind: 'chunk', conn: src.conn, t: src.t, bytes: bytes.length, base64: bytesToBase64(bytes) };
  };
  // The page's text of each chunk, as chunkTexts reads it — chunk by chunk, not all before the first is redacted.
  const page = new PageTextDecoder();
  for (let k = 0; k < chunks.length; k++) {
    let text = page.push(chunks[k]);
    if (k === chunks.length - 1) text += page.end(); // a character another writer's base64 left unfinished
    if (chunks[k].base64 !== undefined && text.includes('\ufffd')) invalid = true;
    let buf = carry + text;
    let produced = '';
    // A trailing CR may be the first half of a CRLF: keep it with its line until the next chunk decides.
    const re = /\r\n|\r(?!$)|\n/g;
    let from = 0;
    for (let m = re.exec(buf); m; m = re.exec(buf)) {
      produced += line(buf.slice(from, m.index)) + m[0];
      from = m.index + m[0].length;
    }
    buf = buf.slice(from);
    if (k === chunks.length - 1 && ended) {
      produced += buf.endsWith('\r') ? line(buf.slice(0, -1)) + '\r' : line(buf);
      buf = '';
    }
    carry = buf;
    if (produced !== '') out.push(record(chunks[k], produced));
    progress.done++;
    yield PAUSE;
  }
  if (carry !== '') out.push(record(chunks[chunks.length - 1], line(carry))); // (bytes: the masked text's, not the original's)
  return out;
}

/**
 * What an eviction kept derived holds the same text as the stream: mask the messages like JSON events and the pi
 * client state like the events it was built from. The unfinished line: `inStream` — it was moved into the stream, in
 * front of the first kept chunk, and is redacted there as the whole line it is (see redactCapture); otherwise (no
 * kept data continues it) masked here, its "data: " prefix kept.
 */
function redactDerived(d: EvictionDerived, inStream: boolean): EvictionDerived {
  const carry = inStream ? '' : d.carry.startsWith('data: ') ? 'data: ' + maskText(d.carry.slice(6)) : maskText(d.carry);
  return {
    ...d,
    carry,
    replies: d.replies.map((r) => ({ ...r, message: redactMessage(r.message) })),
    ...(d.pi?.derived && d.pi.state !== undefined ? { pi: { ...d.pi, state: redactPiState(d.pi.state) } } : {}),
  };
}

function redactBody(body: BodyRecord): BodyRecord {
  const flags = { ...(body.truncated ? { truncated: true } : {}), ...(body.abridged ? { abridged: true as const } : {}) };
  // An abridged body's text is not the body (retirement.ts), nor a truncated one's (its head): its size stays the
  // body's — a HAR reads a postData shorter than its bodySize as cut (har-import-browser.ts), and only so tells a cut
  // pi proxy request by its head.
  if (body.text !== undefined) {
    const text = redactValueText(body.text);
    return { text, size: body.abridged || body.truncated ? body.size : utf8Length(text), ...flags };
  }
  return { size: body.size, ...flags };
}

/**
 * A URL with its query values, userinfo and fragment masked (an OAuth redirect carries a token in `#access_token=`);
 * a last-event-id parameter keeps its value (an event id, as the Last-Event-ID header keeps its own).
 */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.search && !u.hash && !u.username && !u.password) return url;
    for (const k of [...u.searchParams.keys()]) if (!isLastEventIdParam(k)) u.searchParams.set(k, MASK);
    if (u.username || u.password) {
      u.username = MASK;
      u.password = '';
    }
    if (u.hash) u.hash = MASK;
    return u.toString();
  } catch {
    return url;
  }
}

/** Query values of every URL in a text (a notice naming skipped HAR entries quotes their URLs). */
function redactUrlsIn(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s)"'<>]+/g, (url) => redactUrl(url));
}

function redactConnection(c: ConnectionRecord, o: RedactOptions): ConnectionRecord {
  const maskHeaders = (h: [string, string][]): [string, string][] =>
    h.map(([k, v]) => [k, KEEP_HEADERS.has(k.toLowerCase()) ? v : MASK]);
  return {
    ...c,
    ...(o.headers
      ? { url: redactUrl(c.url), frameUrl: redactUrl(c.frameUrl), requestHeaders: maskHeaders(c.requestHeaders), ...(c.responseHeaders ? { responseHeaders: maskHeaders(c.responseHeaders) } : {}) }
      : {}),
    ...(o.requestBodies && c.requestBody ? { requestBody: redactBody(c.requestBody) } : {}),
  };
}

export function redactCapture(capture: Capture, options: RedactOptions, now: number = Date.now()): Capture {
  return runSteps(redactSteps(capture, options, now));
}

/**
 * redactCapture as a computation that pauses (yields PAUSE) in every loop over the records: redacting the text of a
 * 300 MB capture takes ~6 s, which an export made in slices must be able to interrupt. `progress` counts records:
 * each is visited twice (its connection's chunks redacted, then the record emitted).
 */
export function* redactSteps(capture: Capture, options: RedactOptions, now: number = Date.now(), progress: WorkProgress = { done: 0, total: 0 }): Generator<Pause, Capture> {
  const what = [options.headers && 'header values and URL query values', options.requestBodies && 'request bodies',
    options.textContent && 'text content of streams'].filter(Boolean);
  if (what.length === 0) return capture;
  const records: CaptureRecord[] = [{ kind: 'notice', t: now, level: 'info',
    text: `Redacted for export: ${what.join(', ')}. Strings inside JSON values are masked (letters and digits → "x"); structure, event types and ids are kept.` }];
  progress.total = 2 * capture.records.length;
  const chunksByConn = new Map<string, ChunkRecord[]>();
  const endedConns = new Set<string>();
  let seen = 0;
  for (const r of capture.records) {
    if (r.kind === 'chunk') {
      const list = chunksByConn.get(r.conn);
      if (list) list.push(r);
      else chunksByConn.set(r.conn, [r]);
    }
    if (r.kind === 'end' && r.state !== 'open' && r.state !== 'evicted-open') endedConns.add(r.conn);
    if (++seen % 4096 === 0) yield PAUSE;
  }
  // A connection whose head was evicted mid-line continues that line in its first kept chunk: the line is redacted
  // whole (masking the two halves apart masked its keys, and the client then read no event there). So its start, the
  // digest's carry, goes in front of the kept chunks — the reading is the same — and the digest's carry is emptied.
  const carried = new Set<string>();
  // Streamed tool-call arguments are masked as one JSON document per call (redact-json-text.ts), per connection; a
  // call that began before an eviction continues from the input its digest kept.
  const args = new Map<string, ToolArgsMaskers>();
  const argsOf = (conn: string) => {
    let a = args.get(conn);
    if (!a) args.set(conn, (a = new ToolArgsMaskers(isStructuralKey)));
    return a;
  };
  if (options.textContent) {
    for (const r of capture.records) {
      if (++seen % 4096 === 0) yield PAUSE;
      if (r.kind !== 'evicted' || !r.derived) continue;
      // pi: the client state's blocks by content index (encodePiState: message.content.items = [[index, block], …]).
      const items = ((r.derived.pi?.state as { message?: { content?: { items?: unknown } } } | undefined)?.message?.content?.items);
      if (Array.isArray(items)) {
        for (const item of items) {
          const [index, block] = Array.isArray(item) ? item : [];
          const partial = (block as { partialJson?: unknown } | undefined)?.partialJson;
          if (typeof partial === 'string') argsOf(r.conn).seed(`pi:${String(index)}`, partial);
        }
      }
      for (const reply of r.derived.replies) {
        for (const b of (reply.message.content ?? []) as Record<string, unknown>[]) {
          // (An input the digest capped starts mid-document: its call's pieces are then masked whole, see seed.)
          if (b.type === 'tool_call' && typeof b.id === 'string' && typeof b.input === 'string') argsOf(r.conn).seed(`as:${reply.id}:${b.id}`, b.input);
        }
      }
    }
  }
  if (options.textContent) {
    const chunked = new Set<string>();
    const head = new Map<string, string>(); // the carry of the last eviction before a connection's first chunk
    for (const r of capture.records) {
      if (r.kind === 'chunk') chunked.add(r.conn);
      else if (r.kind === 'evicted' && !chunked.has(r.conn) && r.derived) head.set(r.conn, r.derived.carry);
      if (++seen % 4096 === 0) yield PAUSE;
    }
    for (const [conn, text] of head) {
      const chunks = chunksByConn.get(conn);
      if (text === '' || !chunks) continue;
      chunks.unshift({ kind: 'chunk', conn, t: chunks[0].t, bytes: utf8Length(text), text });
      carried.add(conn);
    }
  }
  // Redacted chunks keep their connection's position in the stream of records: emitted where its first chunk was.
  const redacted = new Map<string, ChunkRecord[]>();
  if (options.textContent) {
    for (const [conn, chunks] of chunksByConn) redacted.set(conn, yield* redactChunks(chunks, endedConns.has(conn), argsOf(conn), progress));
  }
  progress.done = Math.max(progress.done, capture.records.length); // (records that are no chunks: nothing done before they are emitted)
  // Each connection's redacted chunks are emitted in order from a cursor. (They were taken with shift(): a list of
  // more than ~16,000 chunks lives in V8's large-object space, where shift() moves every element — quadratic: the
  // redacted export of a 300 MB capture, 327,000 chunks on one connection, held the page for ~45 s, 1.7 s at 50 MB.)
  const next = new Map<string, number>();
  const emitWhile = (conn: string, due: (c: ChunkRecord) => boolean) => {
    const list = redacted.get(conn);
    if (!list) return;
    let i = next.get(conn) ?? 0;
    while (i < list.length && due(list[i])) records.push(list[i++]);
    next.set(conn, i);
  };
  for (const r of capture.records) {
    progress.done++;
    yield PAUSE;
    if (r.kind === 'connection') records.push(redactConnection(r, options));
    else if (r.kind === 'chunk' && options.textContent) {
      // emit the redacted chunks whose time has come (same t as or earlier than this original chunk)
      emitWhile(r.conn, Number.isNaN(r.t) ? () => true : (c) => c.t <= r.t);
    } else if (r.kind === 'message' && options.textContent) {
      records.push({ ...r, data: redactValueText(r.data, argsOf(r.conn)) });
    }
    else if (r.kind === 'evicted' && r.derived && options.textContent) records.push({ ...r, derived: redactDerived(r.derived, carried.has(r.conn)) });
    else if (r.kind === 'notice' && options.headers) records.push({ ...r, text: redactUrlsIn(r.text) });
    else if (r.kind === 'navigation' && options.headers) records.push({ ...r, url: redactUrl(r.url) });
    else records.push(r);
  }
  for (const conn of redacted.keys()) emitWhile(conn, () => true);
  // The page's URL carries query values like any other (an imported HAR's page title can be one).
  const header = options.headers && capture.header.pageUrl !== undefined ? { ...capture.header, pageUrl: redactUrl(capture.header.pageUrl) } : capture.header;
  return { header, records };
}

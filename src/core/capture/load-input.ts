// One entry point for everything a user can drop on the panel or pass to the CLI. Sniffed in this order:
//   Replyscope capture log (first line is its header) · HAR ({"log": {"entries"}}) · JSON array of events ·
//   {"events": [...]} (also the conformance case shape; `client` becomes the request body, `raw` the body chunks) ·
//   NDJSON of events · raw SSE text. Replyscope's own diagnostics report and reconstructed messages are refused, as
//   what they are — the panel's exports and the CLI's outputs alike (derived-export.ts).
// Bare events and SSE get a synthesised connection (transport 'import'); times come from the events' `created_at`
// when they have one, else are NaN (unknown). Bad input -> InputError with one line saying what was expected, what
// was found and where.
import type { Capture, CaptureRecord, ConnectionRecord } from './model.ts';
import { CaptureLogError, looksLikeCaptureLog, makeHeader, readCaptureLog, readCaptureLogBytes } from './capture-log.ts';
import { HarImportError, importHar } from './har-import.ts';
import { derivedExportKind, derivedExportMessage } from './derived-export.ts';
import { Utf8ChunkEncoder } from '../frames/utf8-chunks.ts';
import { epochMsOfNumber } from '../time/epoch-number.ts';
import { binaryHead, container, utf16Text } from './input-bytes.ts';
import { notUtf8FileText } from './utf8-lines.ts';

export class InputError extends Error {
  /** `line`: the file's line at fault, when one is (a capture log's). */
  constructor(message: string, readonly line?: number) {
    super(message);
    this.name = 'InputError';
  }
}

const TOOL = 'replyscope-import';
const CONN = 'import:1';

function where(fileName: string | undefined): string {
  return fileName ? `${fileName}: ` : '';
}

function preview(text: string): string {
  const s = text.trim().slice(0, 40).replace(/\s+/g, ' ');
  return JSON.stringify(s + (text.trim().length > 40 ? '…' : ''));
}

/** Epoch ms of an event's `created_at` (ISO string or epoch seconds/ms), NaN when absent or unreadable. */
export function createdAtMs(event: unknown): number {
  const v = (event as { created_at?: unknown } | null)?.created_at;
  if (typeof v === 'string') {
    // AgentScope writes naive ISO times (no zone); read them as UTC so imports are machine-independent
    const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : v + 'Z';
    return Date.parse(iso);
  }
  if (typeof v === 'number' && Number.isFinite(v)) return epochMsOfNumber(v);
  return Number.NaN;
}

function synthConnection(fileName: string | undefined, startTime: number, contentType: string, client?: unknown): ConnectionRecord {
  const body = client === undefined ? undefined : JSON.stringify(client);
  return {
    kind: 'connection',
    id: CONN,
    transport: 'import',
    frameUrl: '',
    // A bare body says nothing of its request or response head: no method (unless the case's client request is
    // given, which pi's streamProxy POSTs) and no status — the panel showed GET and 200 the file did not contain.
    method: body === undefined ? '' : 'POST',
    url: fileName ?? 'import',
    requestHeaders: body === undefined ? [] : [['content-type', 'application/json']],
    ...(body !== undefined ? { requestBody: { text: body, size: new TextEncoder().encode(body).length } } : {}),
    responseHeaders: [['content-type', contentType]],
    startTime,
    responseTime: startTime,
  };
}

/**
 * Body pieces (bytes with their time) -> a capture with one synthesised connection. `open`: the body had not ended
 * when it was read (see LoadOptions.unended) — its end record says so, and no end-of-stream check runs on it.
 */
function bodyCapture(pieces: { bytes: Uint8Array; t: number }[], fileName: string | undefined, contentType: string, client?: unknown, open = false): Capture {
  // A loop, not Math.min(...times): spread as arguments, an array of ~120,000 times (one per event of a large
  // NDJSON or JSON events file) overflowed the stack, and such a file was refused as "Maximum call stack size exceeded".
  let start = Number.NaN;
  let end = Number.NaN;
  for (const { t } of pieces) {
    if (!Number.isFinite(t)) continue;
    if (!(t >= start)) start = t;
    if (!(t <= end)) end = t;
  }
  const records: CaptureRecord[] = [synthConnection(fileName, start, contentType, client)];
  const enc = new Utf8ChunkEncoder();
  for (const p of pieces) if (p.bytes.length > 0) records.push({ kind: 'chunk', conn: CONN, t: p.t, ...enc.push(p.bytes) });
  const flush = enc.flush();
  if (flush) records.push({ kind: 'chunk', conn: CONN, t: end, ...flush });
  records.push({ kind: 'end', conn: CONN, t: end, state: open ? 'open' : 'complete' });
  const created = Number.isFinite(start) ? new Date(start).toISOString() : new Date(0).toISOString();
  return { header: makeHeader(TOOL, { created }), records };
}

/**
 * Events -> an SSE body, one `data: <compact JSON>\n\n` frame (one chunk) per event, at the event's created_at. An
 * element that is no object among events is an event too — an invalid one, as the same value on an NDJSON line is
 * (it was bad input, exit 2, in an array and an invalid event, exit 1, in NDJSON). An array of no objects is no events.
 */
function eventsCapture(events: unknown[], fileName: string | undefined, client?: unknown): Capture {
  const isObject = (e: unknown) => e !== null && typeof e === 'object' && !Array.isArray(e);
  if (events.length > 0 && !events.some(isObject)) { // not events at all: say so
    const e = events[0];
    throw new InputError(`${where(fileName)}event 0 is ${Array.isArray(e) ? 'an array' : JSON.stringify(e)?.slice(0, 40)}, and no element is a JSON object: expected events`);
  }
  const enc = new TextEncoder();
  const pieces = events.map((e) => ({ bytes: enc.encode(`data: ${JSON.stringify(e)}\n\n`), t: createdAtMs(e) }));
  return bodyCapture(pieces, fileName, 'text/event-stream', client);
}

function fromJson(value: unknown, fileName: string | undefined): LoadedInput {
  const events = (capture: Capture): LoadedInput => ({ capture, format: 'json-events' });
  const derived = derivedExportKind(value); // our own report or messages: no events (see derived-export.ts)
  if (derived) throw new InputError(`${where(fileName)}${derivedExportMessage(derived)}`);
  if (Array.isArray(value)) return events(eventsCapture(value, fileName));
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if ('log' in obj && typeof obj.log === 'object') return { capture: importHar(value), format: 'har' }; // {"log": null} too: importHar says what a HAR needs
    if (Array.isArray(obj.raw) && obj.raw.every((r) => typeof r === 'string')) {
      const enc = new TextEncoder();
      return events(bodyCapture((obj.raw as string[]).map((r) => ({ bytes: enc.encode(r), t: Number.NaN })), fileName, 'text/event-stream', obj.client));
    }
    if (Array.isArray(obj.events)) return events(eventsCapture(obj.events, fileName, obj.client));
    if (typeof obj.type === 'string') return events(eventsCapture([obj], fileName));
    const keys = Object.keys(obj).slice(0, 5).join(', ');
    // A server's error answer piped in (curl … | replyscope validate -, a request without its token): say so, and
    // what it said — "found an object with keys error" did not tell the answer from a file of the wrong shape.
    const json = JSON.stringify(obj); // one line, control characters escaped
    const answer = ['error', 'detail', 'message', 'errors'].some((k) => k in obj) ? ` — an error answer? ${json.length > 160 ? `${json.slice(0, 160)}…` : json}` : '';
    throw new InputError(`${where(fileName)}expected a JSON array of events, {"events": [...]} or a HAR {"log": ...}; found an object with keys ${keys || '(none)'}${answer}`);
  }
  throw new InputError(`${where(fileName)}expected events, a capture log, a HAR file or SSE text; found the JSON value ${preview(String(value))}`);
}

/** A JSON.parse message "… at position N" with the line and column of N added (a pretty-printed file has lines). */
function withLine(raw: string, text: string): string {
  const message = raw.replace(/\s+/g, ' '); // V8 quotes the text around the error, newlines and all: one line
  const at = positionOf(message, text);
  // At the end (V8 says so, or names the position past the last character): the file stops mid-value.
  if (at && (END_OF_INPUT.test(message) || at.pos >= text.trimEnd().length)) return `${message}: the file ends at line ${at.line} before its JSON does (cut short?)`;
  return at ? `${message} (line ${at.line}, column ${at.column})` : message;
}

/** V8's message for JSON that stops before its value ends: no position, so the file's end is the place. */
const END_OF_INPUT = /^Unexpected end of JSON input/;

/** The line of a JSON.parse error's position ("… at position N"), for an annotation on it. */
function lineOf(message: string, text: string): number | undefined {
  return positionOf(message, text)?.line;
}

/** Line and column (1-based) of the position a JSON.parse message names, if it names one. */
function positionOf(message: string, text: string): { pos: number; line: number; column: number } | undefined {
  const m = /at position (\d+)/.exec(message);
  const pos = m ? Number(m[1]) : END_OF_INPUT.test(message) ? text.trimEnd().length : undefined;
  if (pos === undefined) return undefined;
  const before = text.slice(0, Math.min(pos, text.trimEnd().length)); // past the end: the last line, not the blank after it
  return { pos, line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

/**
 * A JSON.parse message about one line of the file, told by column: the parse was of that line alone, so Chromium's
 * "(line 1 column 29)" read as a contradiction of the file's line named before it, and a position is a column there.
 */
function inLine(message: string): string {
  return message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/at position (\d+)/, (_, pos: string) => `at column ${Number(pos) + 1}`);
}

const SSE_LINE = /^(data|event|id|retry)(:|$)|^:/;

/** The largest input read: its text must fit in one JavaScript string (V8: 2^29 − 24 UTF-16 units). */
export const MAX_INPUT_BYTES = 512 * 2 ** 20 - 24;

/**
 * A file too large to read whole, said before it is read. Past the limit Chromium's TextDecoder returns an empty
 * string rather than throwing: a 1 GB HAR was refused as "the input is empty". (A capture log is not read whole in
 * the panel: capture-log-stream.ts reads it at any size.)
 */
export function inputTooLarge(size: number, fileName?: string): InputError {
  return new InputError(`${where(fileName)}the file is ${(size / 2 ** 20).toFixed(0)} MiB: more than an import can read ` +
    `(${Math.round(MAX_INPUT_BYTES / 2 ** 20)} MiB, the longest string JavaScript makes) of anything but a capture log, which is read ` +
    'at any size — a HAR is ~3.5× the capture log of the same capture: export that instead; split an SSE body at a blank line');
}

/**
 * Which format the input was read as. 'json-events': one JSON document of events — an array, {"events": [...]}, a
 * conformance case (its `raw` body chunks too); 'ndjson' and 'sse': the body itself, line for line.
 */
export type InputFormat = 'capture-log' | 'har' | 'json-events' | 'ndjson' | 'sse';

export interface LoadOptions {
  /**
   * The input had not ended when it was read (the CLI's --timeout cut it). A last line without its line end may be
   * unfinished: a capture log's or an NDJSON file's is left unread (not "the file was cut short", not bad input), as a
   * client leaves an unfinished line; and the connection of an SSE or NDJSON body is still open, so no end-of-stream
   * check runs on it (read as ended, it was told "never got a REPLY_END" or "ended without done" by a server that
   * had not ended it).
   */
  unended?: boolean;
}

/** What loadInputDetailed read: the capture, the format it was, and for a capture log where each record lies. */
export interface LoadedInput {
  capture: Capture;
  format: InputFormat;
  /** A capture log's: the file line (1-based) of each of `capture.records`; 0 for the notes the reader adds. */
  recordLines?: number[];
}

/**
 * NDJSON of events: the first line an object — or any JSON value, when a later line is an object (a keep-alive `1`
 * first is an invalid event there, as it is on any other line; a file of numbers alone is no events).
 */
function looksLikeNdjson(firstLine: string, lines: readonly string[]): boolean {
  if (firstLine.trimStart().startsWith('{')) return true;
  if (!lines.some((l) => l.trimStart().startsWith('{'))) return false;
  try {
    JSON.parse(firstLine);
    return true;
  } catch {
    return false;
  }
}

/**
 * `bytes` cut after each line feed into `count` pieces, the text's lines (a line feed is the same byte in UTF-8
 * whatever the bytes around it, so the pieces are the lines' own bytes); a leading BOM is not the first line's.
 * The last piece may be cut short where the text was (an unended input's unfinished line is not read).
 */
function bytesByLine(bytes: Uint8Array, count: number): Uint8Array[] {
  let from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const out: Uint8Array[] = [];
  while (out.length < count) {
    const lf = bytes.indexOf(0x0a, from);
    const end = lf === -1 ? bytes.length : lf + 1;
    out.push(bytes.subarray(from, end));
    from = end;
  }
  return out;
}

/** UTF-8 bytes as text (a leading BOM dropped); `notUtf8` is called when some are not UTF-8 (mended into U+FFFD). */
function decodeUtf8(bytes: Uint8Array, notUtf8: () => void): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    notUtf8();
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export function loadInput(data: string | Uint8Array, fileName?: string): Capture {
  return loadInputDetailed(data, fileName).capture;
}

/** loadInput, and what the CLI asks besides: the format, record lines, an input that had not ended. */
export function loadInputDetailed(data: string | Uint8Array, fileName?: string, options: LoadOptions = {}): LoadedInput {
  const unended = options.unended === true;
  const raw = typeof data === 'string' ? undefined : data;
  if (raw && raw.length > MAX_INPUT_BYTES) throw inputTooLarge(raw.length, fileName);
  const packed = raw && container(raw);
  if (packed) throw new InputError(`${where(fileName)}the file is ${packed}`);
  const wide = raw && utf16Text(raw);
  // Bodies keep the exact bytes when the file is UTF-8; a UTF-16 file's text is taken as the body (re-encoded).
  const bytes = wide === undefined ? raw : undefined;
  // Whether the bytes are all UTF-8: a capture log's lines that are not are said (readCaptureLogBytes), not mended.
  let utf8 = true;
  let text = wide ?? (typeof data === 'string' ? data : decodeUtf8(data, () => (utf8 = false)));
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new InputError(`${where(fileName)}the input is empty (expected events, a capture log, a HAR file or SSE text)`);
  try {
    if (looksLikeCaptureLog(text)) {
      const recordLines: number[] = [];
      const options = { unended, lines: recordLines };
      const capture = bytes && !utf8 ? readCaptureLogBytes(bytes, options) : readCaptureLog(text, options);
      return { capture, format: 'capture-log', recordLines };
    }
    const head = text.trimStart();
    if (head.startsWith('{') || head.startsWith('[')) {
      let whole: unknown;
      let parsed = false;
      try {
        whole = JSON.parse(text);
        parsed = true;
      } catch (e) {
        // Not one JSON value: maybe NDJSON (checked below) — unless it cannot be: NDJSON of events is no array, and a
        // first line that is a lone "{" is a pretty-printed document (a HAR cut short, a typo in an events file).
        const firstLine = head.slice(0, head.indexOf('\n') === -1 ? undefined : head.indexOf('\n')).trim();
        const oneLine = !head.trimEnd().includes('\n'); // one line that is no JSON is no NDJSON either
        if (head.startsWith('[') || firstLine === '{' || oneLine) throw new InputError(`${where(fileName)}not valid JSON: ${withLine((e as Error).message, text)}`, lineOf((e as Error).message, text));
      }
      if (parsed) {
        const loaded = fromJson(whole, fileName);
        // Mended into U+FFFD as the document was decoded: said, above the connections (an SSE or NDJSON body keeps
        // its bytes instead, and the analysis tells stream.invalid-utf8 where they are).
        if (!utf8 && bytes) loaded.capture.records.push({ kind: 'notice', t: Number.NaN, level: 'warning', text: notUtf8FileText(bytes, loaded.format === 'har' ? 'HAR file' : 'JSON file') });
        return loaded;
      }
    }
    const lines = text.split(/\r\n|\r|\n/);
    const firstLine = lines.find((l) => l.trim() !== '') ?? '';
    if (SSE_LINE.test(firstLine)) {
      const body = bytes ?? new TextEncoder().encode(text);
      return { capture: bodyCapture([{ bytes: body, t: Number.NaN }], fileName, 'text/event-stream', undefined, unended), format: 'sse' };
    }
    if (looksLikeNdjson(firstLine, lines)) {
      // An input that had not ended: its last line, without its line end, may be cut mid-event — not read, as the
      // client does not read a line until its end.
      if (unended && !text.endsWith('\n')) text = text.slice(0, text.lastIndexOf('\n') + 1);
      const events: unknown[] = [];
      const times: number[] = [];
      text.split('\n').forEach((line, i) => {
        if (line.trim() === '') return;
        try {
          events.push(JSON.parse(line));
        } catch (e) {
          throw new InputError(`${where(fileName)}line ${i + 1}: expected one JSON event per line (NDJSON), found ${preview(line)} (${inLine((e as Error).message)})`, i + 1);
        }
        times.push(createdAtMs(events[events.length - 1]));
      });
      const derived = derivedExportKind(events); // `replay --steps` of the CLI: messages, no events
      if (derived) throw new InputError(`${where(fileName)}${derivedExportMessage(derived)}`);
      // Keep the lines exactly as given (NDJSON body), one chunk per line at the event's time: the file's own bytes
      // where it is UTF-8 (bytes that are not UTF-8 are then told, as in an SSE file, not mended into U+FFFD).
      const segments = text.split(/(?<=\n)/);
      const lineBytes = bytes && bytesByLine(bytes, segments.length);
      const enc = new TextEncoder();
      let k = 0;
      let last = Number.NaN;
      const pieces = segments.map((seg, i) => {
        if (seg.trim() !== '') last = times[k++]; // blank lines share the time of the event before them
        return { bytes: lineBytes ? lineBytes[i] : enc.encode(seg), t: last };
      });
      return { capture: bodyCapture(pieces, fileName, 'application/x-ndjson', undefined, unended), format: 'ndjson' };
    }
    const found = raw && binaryHead(raw);
    throw new InputError(`${where(fileName)}expected a capture log, a HAR file, JSON events, NDJSON or SSE text; found ${found ?? `text starting ${preview(text)}`}`);
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (e instanceof CaptureLogError) throw new InputError(`${where(fileName)}${e.message}`, e.line);
    if (e instanceof HarImportError) throw new InputError(`${where(fileName)}${e.message}`);
    throw new InputError(`${where(fileName)}could not read the input: ${e instanceof Error ? e.message : String(e)}`);
  }
}

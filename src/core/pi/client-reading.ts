// How pi-agent-core 0.73.1 `streamProxy` reads the HTTP answer — NOT the SSE spec:
// - a non-2xx status is a failure ("Proxy error: <status> <statusText>", or "Proxy error: <body.error>" when the
//   body is JSON with a truthy `error`), no frame is read;
// - the body is decoded with a streaming TextDecoder, appended to a buffer and split on "\n"; the last piece
//   (possibly partial) stays buffered; a final line without "\n" is therefore never processed;
// - only lines beginning exactly "data: " count (no `data:` without space, no `event:`/`id:`, no multi-line data);
//   the payload is `line.slice(6).trim()` (so "\r" and extra spaces go), empty payloads are skipped;
// - each payload is JSON.parse'd — a parse error fails the client (see proxy-reducer `applyPiDataLine`).
// Everything here is incremental: feed text (or bytes) as it arrives.

export interface PiLineReaderState {
  /** Text after the last "\n" seen so far (never processed if the body ends here). */
  readonly buffer: string;
  /** Complete lines seen so far. */
  readonly lines: number;
}

/** Why a complete line is not handed to the client's JSON parser. */
export type PiLineIgnored =
  | 'not-data' // does not start with exactly "data: " (comments, event:/id:/retry:, blank lines, "data:" w/o space)
  | 'empty-data'; // "data: " followed only by whitespace

export interface PiLine {
  /** 0-based index of the line within the body. */
  index: number;
  /** The line as split (without "\n", with any "\r"). */
  text: string;
  /** The payload the client parses, when it parses one. */
  data?: string;
  ignored?: PiLineIgnored;
  /** A "data:" line the SSE spec would deliver but the client ignores (no space after the colon). */
  specDataWithoutSpace?: boolean;
}

export const initialPiReader: PiLineReaderState = Object.freeze({ buffer: '', lines: 0 });

export function classifyPiLine(text: string, index: number): PiLine {
  if (text.startsWith('data: ')) {
    const data = text.slice(6).trim();
    return data ? { index, text, data } : { index, text, ignored: 'empty-data' };
  }
  const line: PiLine = { index, text, ignored: 'not-data' };
  if (text.startsWith('data:') && text.slice(5).trim() !== '') line.specDataWithoutSpace = true;
  return line;
}

/** Appends decoded text; returns the complete lines it finished (in order) and the new reader state. */
export function readPiText(state: PiLineReaderState, text: string): { state: PiLineReaderState; lines: PiLine[] } {
  const pieces = (state.buffer + text).split('\n');
  const buffer = pieces.pop() ?? '';
  const lines = pieces.map((piece, i) => classifyPiLine(piece, state.lines + i));
  return { state: { buffer, lines: state.lines + pieces.length }, lines };
}

/**
 * Byte-level reader with the reference's decoder (UTF-8, replacement characters, leading BOM dropped, multi-byte
 * characters carried across chunks). Stateful because TextDecoder is; the line state it wraps is not.
 */
export class PiByteReader {
  private readonly decoder = new TextDecoder();
  state: PiLineReaderState = initialPiReader;

  push(bytes: Uint8Array): PiLine[] {
    const { state, lines } = readPiText(this.state, this.decoder.decode(bytes, { stream: true }));
    this.state = state;
    return lines;
  }

  /** Text left in the buffer at the end of the body: the client never processes it. */
  get pending(): string {
    return this.state.buffer;
  }
}

export interface PiHttpAnswer {
  status: number;
  statusText?: string;
  /** Response body text (needed only for non-2xx answers). */
  bodyText?: string;
}

/**
 * The failure message the client throws for this response head, or undefined when it goes on to read the body.
 * 204/205 answers have no body stream: the client crashes on `response.body.getReader()`.
 */
export function piHttpFailure(answer: PiHttpAnswer): string | undefined {
  const { status } = answer;
  if (status >= 200 && status <= 299) {
    if (status === 204 || status === 205) return "Cannot read properties of null (reading 'getReader')";
    return undefined;
  }
  let message = `Proxy error: ${status} ${answer.statusText ?? ''}`;
  try {
    // response.json(): a BOM is stripped before parsing (UTF-8 decode), as fetch does.
    const text = (answer.bodyText ?? '').replace(/^\uFEFF/, '');
    const errorData = JSON.parse(text) as { error?: unknown };
    if (errorData.error) message = `Proxy error: ${errorData.error}`;
  } catch {
    // The client keeps the status line message when the body is not JSON (or is JSON null).
  }
  return message;
}

/** What the client says when the user aborts after the response head (mid-body). */
export const PI_ABORT_MESSAGE = 'Request aborted by user';

/**
 * The `errorMessage` the client sets when its body read fails, from the failure a capture recorded. The client
 * keeps `error.message` alone; the tap records `name: message` (`TypeError: network error`), so the name goes.
 * A Chromium HAR records the net error code (`net::ERR_INCOMPLETE_CHUNKED_ENCODING`), which the page's fetch
 * never sees: Chromium rejects every such body read with `TypeError: network error`.
 */
export function piNetworkErrorMessage(recorded: string | undefined): string {
  if (recorded === undefined || /^net::ERR_/.test(recorded)) return 'network error';
  const named = /^(?:[A-Z][A-Za-z]*Error|DOMException): ([\s\S]*)$/.exec(recorded);
  return named ? named[1] : recorded;
}

// How the AgentScope web UI reads a session stream, and where that reading disagrees with the SSE spec.
//
// The AgentScope frontend (examples/web_ui/frontend/src/api/session.ts, `streamEvents`) reads the fetch body with
// a default TextDecoder (BOM stripped, U+FFFD for bad bytes), appends to a buffer, splits the buffer on "\n" only,
// keeps the last piece for later, and for every complete line that starts exactly with "data: " trims the rest and,
// when it is not empty, yields `JSON.parse` of it as one event. Every other line (comments, `event:`, `id:`,
// `retry:`, `data:` without a space) is ignored. A JSON.parse failure throws out of the async generator, so nothing
// after it reaches the app. At end of body the leftover piece (a last line without "\n") is dropped unread.
// pi-agent-core's streamProxy (0.73.1, dist/proxy.js) reads its SSE body the same way, line for line, so the same
// reader and comparison serve it (pass its name for the messages).
// This module re-implements that behaviour (described, not copied); client-comparison.ts compares it with the spec
// reading.

export type ClientLineKind = 'event' | 'empty-data' | 'data-no-space' | 'ignored';

export interface ClientLine {
  kind: ClientLineKind;
  /** Offset of the line in the decoded body and just after its "\n" (same offsets as SpecFrame). */
  start: number;
  end: number;
  t: number;
  /** For 'event' lines: the trimmed text after "data: " the client parses. */
  json?: string;
  /** For 'event' lines: the JSON.parse error text (the client stops reading here). */
  error?: string;
  /** True when the line holds a CR before its end (the client does not split there). */
  innerCR?: boolean;
}

const KIND_CODE: Record<ClientLineKind, number> = { event: 1, 'empty-data': 2, 'data-no-space': 3, ignored: 4 };
const CODE_KIND: ClientLineKind[] = ['event', 'event', 'empty-data', 'data-no-space', 'ignored'];
const INNER_CR = 8;

/** A growable column of doubles (offsets, times): 8 bytes a line instead of a field in an object per line. */
class Column {
  data = new Float64Array(256);
  push(at: number, v: number): void {
    if (at >= this.data.length) {
      const grown = new Float64Array(Math.ceil(this.data.length * 1.5));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[at] = v;
  }
}

export class AgentScopeClientReader {
  /** Index in `lines` of the line whose JSON.parse threw; the client read nothing after it. */
  stoppedAt: number | undefined;
  private buffer = '';
  /** The unfinished line (`buffer`) holds a CR. */
  private bufferCR = false;
  private bufferStart = 0;
  private offset = 0;
  private first = true;
  // The kept lines, in columns (one per event of a real stream: an object each was ~90 bytes of a ~200-byte event).
  private count = 0;
  private kinds = new Uint8Array(256);
  private readonly starts = new Column();
  private readonly ends = new Column();
  private readonly times = new Column();
  private readonly jsons: (string | undefined)[] = [];
  private readonly errors = new Map<number, string>();

  /**
   * `parseLater`: do not JSON.parse event lines here; the caller parses each yielded event line (in order) and calls
   * `parseFailed` for the ones that throw. A reader that parses anyway (the analysis does, to use the value) then
   * pays for one parse per event instead of two.
   */
  constructor(private readonly options: { parseLater?: boolean } = {}) {}

  /** The lines kept so far (built on each read from the columns: read it once, not per line). */
  get lines(): ClientLine[] {
    const out: ClientLine[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.line(i);
    return out;
  }

  /** Number of kept lines, and column reads of line i (the comparison reads these without building line objects). */
  get lineCount(): number {
    return this.count;
  }
  startOf(i: number): number {
    return this.starts.data[i];
  }
  endOf(i: number): number {
    return this.ends.data[i];
  }
  /** An 'event' line with no inner CR and no parse error. */
  isCleanEvent(i: number): boolean {
    return this.kinds[i] === KIND_CODE.event && !this.errors.has(i);
  }
  /** The JSON text of line i when it is an 'event' line (undefined for every other kind). */
  jsonOf(i: number): string | undefined {
    return this.jsons[i];
  }
  lineAt(i: number): ClientLine {
    return this.line(i);
  }

  /**
   * Replace line i's JSON text by an equal string (the caller compared them) that the caller holds anyway: memory
   * for one string instead of two.
   */
  shareJson(i: number, same: string): string {
    this.jsons[i] = same;
    return same;
  }

  /** With `parseLater`: the caller's JSON.parse of line i's JSON threw `message` (the client stops reading there). */
  parseFailedAt(i: number, message: string): void {
    if (this.stoppedAt !== undefined) return;
    if (i >= this.count || this.kinds[i] % INNER_CR !== KIND_CODE.event) throw new Error('parseFailedAt: the line was not read by this reader');
    this.errors.set(i, message);
    this.stoppedAt = i;
  }

  /** With `parseLater`: the caller's JSON.parse of `line.json` threw `message` (the client stops reading there). */
  parseFailed(line: ClientLine, message: string): void {
    if (this.stoppedAt !== undefined) return;
    let at = this.count - 1;
    while (at >= 0 && this.starts.data[at] !== line.start) at--;
    if (at === -1 || this.kinds[at] % INNER_CR !== KIND_CODE.event) throw new Error('parseFailed: the line was not read by this reader');
    line.error = message;
    this.errors.set(at, message);
    this.stoppedAt = at;
  }

  push(text: string, t: number): ClientLine[] {
    const before = this.count;
    this.read(text, t);
    const out: ClientLine[] = [];
    for (let i = before; i < this.count; i++) out.push(this.line(i));
    return out;
  }

  /**
   * `push` without building line objects: the new lines are `lineCount` before the call up to `lineCount` after it
   * (read them with the column accessors). The analysis reads every chunk this way (a line object per event, built
   * and dropped at once, was a measurable share of ingest).
   */
  read(text: string, t: number): void {
    let from = 0;
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) {
        from = 1; // TextDecoder's default strips the BOM
        this.bufferStart = 1;
      }
    }
    // Without a CR in the chunk (or the unfinished line before it) no line of it can hold one: one native scan per
    // chunk instead of one per line (the unfinished line is not rescanned: a long line arriving in many small chunks
    // would make that quadratic).
    const chunkCR = text.indexOf('\r') !== -1;
    let crFree = !chunkCR && !this.bufferCR;
    let segStart = from;
    for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', segStart)) {
      const line = this.buffer + text.slice(segStart, nl);
      this.classify(line, this.bufferStart, this.offset + nl + 1, t, crFree);
      this.buffer = '';
      this.bufferCR = false;
      crFree = !chunkCR;
      this.bufferStart = this.offset + nl + 1;
      segStart = nl + 1;
    }
    const rest = text.slice(segStart);
    if (chunkCR && rest.indexOf('\r') !== -1) this.bufferCR = true;
    this.buffer += rest;
    this.offset += text.length;
  }

  /**
   * Line by line instead of `read`, for a caller that splits a chunk once for this reader and the spec reader
   * (see body-reader.ts): possible while `lineReady`, for text without any CR. Each line ends with the "\n" just
   * before body offset `end` and includes `pendingLine` (the caller joins them); `takeRest` ends the chunk.
   */
  get lineReady(): boolean {
    return !this.first && !this.bufferCR;
  }
  get pendingLine(): string {
    return this.buffer;
  }
  /** Body offset where `pendingLine` starts: every line that starts before it is complete. */
  get pendingStart(): number {
    return this.bufferStart;
  }
  takeLine(line: string, end: number, t: number): void {
    this.classify(line, this.bufferStart, end, t, true);
    this.buffer = '';
    this.bufferStart = end;
  }
  /** A line "data: " + `value` (the caller cut the value once for both readers). */
  takeDataLine(value: string, end: number, t: number): void {
    this.keep(value, this.bufferStart, end, t);
    this.buffer = '';
    this.bufferStart = end;
  }
  /** The chunk `text` given line by line is done: the text from index `from` on is the unfinished line. */
  takeRest(text: string, from: number): void {
    this.buffer += text.slice(from);
    this.offset += text.length;
  }

  /** End of body: the text the client never looked at (a last line without "\n"). */
  finish(): { unread: string; start: number } {
    return { unread: this.buffer, start: this.bufferStart };
  }

  private line(i: number): ClientLine {
    const code = this.kinds[i];
    const kind = CODE_KIND[code % INNER_CR];
    const rec: ClientLine = { kind, start: this.starts.data[i], end: this.ends.data[i], t: this.times.data[i] };
    if (kind === 'event') rec.json = this.jsons[i];
    const error = this.errors.get(i);
    if (error !== undefined) rec.error = error;
    if (code >= INNER_CR) rec.innerCR = true;
    return rec;
  }

  private classify(line: string, start: number, end: number, t: number, crFree: boolean): void {
    // A CR anywhere but at the very end of the line.
    const cr = crFree ? -1 : line.indexOf('\r');
    const innerCR = cr !== -1 && cr < line.length - 1;
    const data = startsWithDataColon(line);
    if (data && line.charCodeAt(5) === 32) this.keep(line.slice(6), start, end, t, innerCR);
    else if (data) this.add('data-no-space', innerCR, start, end, t, undefined);
    else if (innerCR) this.add('ignored', true, start, end, t, undefined);
    // Other ignored lines (comments, event:, id:, blank) are not kept: they cannot explain a disagreement.
  }

  /** A "data: " line: `value` is the text after "data: ". */
  private keep(value: string, start: number, end: number, t: number, innerCR = false): void {
    const json = trimmed(value);
    this.add(json === '' ? 'empty-data' : 'event', innerCR, start, end, t, json === '' ? undefined : json);
  }

  private add(kind: ClientLineKind, innerCR: boolean, start: number, end: number, t: number, json: string | undefined): void {
    const i = this.count++;
    if (i >= this.kinds.length) {
      const grown = new Uint8Array(Math.ceil(this.kinds.length * 1.5));
      grown.set(this.kinds);
      this.kinds = grown;
    }
    this.kinds[i] = KIND_CODE[kind] + (innerCR ? INNER_CR : 0);
    this.starts.push(i, start);
    this.ends.push(i, end);
    this.times.push(i, t);
    this.jsons.push(json);
    if (kind === 'event' && this.stoppedAt === undefined && !this.options.parseLater) {
      try {
        JSON.parse(json as string);
      } catch (e) {
        this.errors.set(i, e instanceof Error ? e.message : String(e));
        this.stoppedAt = i;
      }
    }
  }
}

/**
 * `s.trim()`, without the call when nothing is to trim: JSON text usually starts and ends with a printable ASCII
 * character, and trim removes only characters at or below U+0020 or from U+00A0 up.
 */
function trimmed(s: string): string {
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f ? s : s.trim();
}

/**
 * `line.startsWith('data:')`, as character reads the compiler inlines: the test runs on every line of a body, and the
 * builtin call cost more than the comparison (measured).
 */
export function startsWithDataColon(line: string): boolean {
  return line.length >= 5 && line.charCodeAt(0) === 100 && line.charCodeAt(1) === 97 && line.charCodeAt(2) === 116 &&
    line.charCodeAt(3) === 97 && line.charCodeAt(4) === 58;
}

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
// This module re-implements that behaviour (described, not copied) and compares it with the spec reading.
import type { Diagnostic } from '../diagnostics/types.ts';
import type { SpecFrame, SpecTail } from './sse-spec.ts';

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
    let kind: ClientLineKind;
    let json: string | undefined;
    const data = startsWithDataColon(line);
    if (data && line.charCodeAt(5) === 32) {
      json = line.slice(6).trim();
      kind = json === '' ? 'empty-data' : 'event';
      if (json === '') json = undefined;
    } else if (data) kind = 'data-no-space';
    else if (innerCR) kind = 'ignored';
    else return; // other ignored lines (comments, event:, id:, blank) are not kept: they cannot explain a disagreement
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
 * `line.startsWith('data:')`, as character reads the compiler inlines: the test runs on every line of a body, and the
 * builtin call cost more than the comparison (measured).
 */
export function startsWithDataColon(line: string): boolean {
  return line.length >= 5 && line.charCodeAt(0) === 100 && line.charCodeAt(1) === 97 && line.charCodeAt(2) === 116 &&
    line.charCodeAt(3) === 97 && line.charCodeAt(4) === 58;
}

export interface ClientComparison {
  diagnostics: Diagnostic[];
  /** frame index -> how the client reads that frame differently (for FrameView.clientNote). */
  notes: Map<number, string>;
}

/**
 * Compares the spec frames with what the line-reading client (AgentScope web UI, pi streamProxy) yields. Diagnostic `index` is the frame index;
 * diagnostics about text after the last frame use `frames.length`.
 */
export function compareWithAgentScopeClient(
  frames: readonly SpecFrame[],
  specTail: SpecTail | undefined,
  client: AgentScopeClientReader,
  clientTail: { unread: string; start: number } | undefined,
  /** How messages name the client; pi-agent-core's streamProxy reads SSE exactly the same way. */
  clientName = 'the AgentScope client',
): ClientComparison {
  const Name = clientName.charAt(0).toUpperCase() + clientName.slice(1);
  const diagnostics: Diagnostic[] = [];
  const notes = new Map<number, string>();
  // Lines are read from the reader's columns; line objects are built only for frames that need a closer look
  // (building all of them on every comparison made the panel's live updates several times slower).
  const n = client.lineCount;
  const stopAt = client.stoppedAt;
  const stopLine = stopAt === undefined ? undefined : client.lineAt(stopAt);
  const unreadCRStart = clientTail && clientTail.unread !== '' && clientTail.unread.includes('\r') ? clientTail.start : Infinity;
  let li = 0;
  let stopFrame: number | undefined;
  const add = (code: string, severity: Diagnostic['severity'], index: number, message: string, note?: string) => {
    diagnostics.push({ code, severity, index, message });
    if (note && index < frames.length && !notes.has(index)) notes.set(index, note);
  };

  for (const f of frames) {
    while (li < n && client.endOf(li) <= f.start) li++;
    let end = li;
    while (end < n && client.startOf(end) < f.end) end++;
    if (stopLine && stopFrame !== undefined && f.start >= stopLine.end) {
      notes.set(f.index, `never read: the client stopped at frame ${stopFrame} (JSON.parse threw)`);
      continue;
    }
    if (f.kind !== 'data') continue;
    // The ordinary frame — one clean "data: " line holding exactly the frame's data — gets no diagnostic below.
    // (The analysis hands the client the frame's own data string when they are equal: then no trim is needed, the
    // client's text being trimmed already.)
    if (end === li + 1 && client.isCleanEvent(li) && client.startOf(li) >= f.start && f.start < unreadCRStart &&
      (f.event === undefined || f.event === 'message') && (client.jsonOf(li) === f.data || client.jsonOf(li) === f.data.trim())) continue;
    const inside: ClientLine[] = [];
    for (let k = li; k < end; k++) inside.push(client.lineAt(k));
    const events = inside.filter((l) => l.kind === 'event' && l.start >= f.start);
    const broken = events.find((l) => l.error !== undefined && l.start === stopLine?.start); // line objects are built per read: compare positions
    if (broken) {
      stopFrame = f.index;
      add('sse.client-json-error', 'error', f.index,
        `${Name}'s JSON.parse throws on this frame (${broken.error})` +
          (events.length > 1 ? ` — it has ${events.length} "data: " lines and the client parses each alone` : '') +
          '; its stream generator throws and no later frame reaches the app.',
        'client: JSON.parse throws here, reading stops');
      continue;
    }
    const data = f.data.trim();
    if (data === '') continue; // empty keep-alive: the spec dispatches an empty event, the client skips it; no harm
    const unreadStart = clientTail && clientTail.unread !== '' ? clientTail.start : Infinity;
    const crMerged = inside.some((l) => l.innerCR || l.start < f.start) ||
      (f.start >= unreadStart && (clientTail?.unread ?? '').includes('\r'));
    if (crMerged) {
      add('sse.client-cr-line-endings', 'error', f.index,
        `This frame's lines end with a bare CR. ${Name} splits on "\\n" only, so it reads several lines as one and drops or misreads this frame.`,
        'client: CR line ends are not line ends for it; frame dropped/merged');
      continue;
    }
    if (events.length === 0) {
      if (f.start >= unreadStart) {
        add('sse.client-drops-frame', 'error', f.index,
          `No "\\n" follows this frame, so ${clientName} never processes it (it drops its unfinished buffer at end of body).`,
          'client: dropped (no newline after it)');
      } else if (inside.some((l) => l.kind === 'data-no-space')) {
        add('sse.client-drops-frame', 'error', f.index,
          `The frame's data lines start "data:" without a space. The spec accepts them; ${clientName} only reads lines starting exactly "data: " and drops this frame.`,
          'client: dropped ("data:" without a space)');
      } else {
        add('sse.client-drops-frame', 'error', f.index,
          `${Name} yields no event for this frame.`, 'client: dropped');
      }
      continue;
    }
    if (events.length > 1) {
      add('sse.client-splits-multiline-data', 'error', f.index,
        `The frame has ${events.length} "data: " lines. The spec joins them with "\\n" into one event; ${clientName} parses each line as a separate JSON event.`,
        `client: read as ${events.length} separate events`);
      continue;
    }
    if (events[0].json !== data) {
      add('sse.client-misreads-frame', 'error', f.index,
        `${Name} reads only part of this frame's data (other data lines lack "data: " exactly), so it parses different text than the spec delivers.`,
        'client: reads different text');
      continue;
    }
    if (f.event !== undefined && f.event !== 'message') {
      add('sse.client-ignores-event-name', 'info', f.index,
        `The frame is named "${f.event}". ${Name} ignores event: lines and handles it as an ordinary agent event.`,
        `client: ignores event name "${f.event}"`);
    }
  }

  // Lines the client yields after the last spec frame: no blank line closed them, so the spec discards them.
  const lastEnd = frames.length ? frames[frames.length - 1].end : 0;
  let stray = 0;
  for (let i = n - 1; i >= 0 && client.startOf(i) >= lastEnd; i--) {
    const l = client.lineAt(i);
    if (l.kind === 'event' && (!stopLine || l.start <= stopLine.start)) stray++;
  }
  if (stray > 0) {
    add('sse.client-reads-unterminated-frame', 'warning', frames.length,
      `The body ends with ${stray} data line(s) not followed by a blank line: the spec (and EventSource) discards them, ${clientName} yields them.`);
  }
  const unread = clientTail?.unread ?? '';
  const pending = specTail?.pendingText ?? '';
  if (specTail?.pendingData && unread !== '' && pending !== '' && !/[\r\n]$/.test(pending)) {
    add('sse.unterminated-final-line', 'warning', frames.length,
      `The body ends in the middle of a line (no newline after the last data line): neither the spec nor ${clientName} delivers it.`);
  }
  return { diagnostics, notes };
}

/** Copies comparison notes onto frames (returns new frame objects). */
export function withClientNotes<F extends SpecFrame>(frames: readonly F[], notes: Map<number, string>): F[] {
  return frames.map((f) => (notes.has(f.index) ? { ...f, clientNote: notes.get(f.index) } : f));
}

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

export class AgentScopeClientReader {
  readonly lines: ClientLine[] = [];
  /** Index in `lines` of the line whose JSON.parse threw; the client read nothing after it. */
  stoppedAt: number | undefined;
  private buffer = '';
  private bufferStart = 0;
  private offset = 0;
  private first = true;

  /**
   * `parseLater`: do not JSON.parse event lines here; the caller parses each yielded event line (in order) and calls
   * `parseFailed` for the ones that throw. A reader that parses anyway (the analysis does, to use the value) then
   * pays for one parse per event instead of two.
   */
  constructor(private readonly options: { parseLater?: boolean } = {}) {}

  /** With `parseLater`: the caller's JSON.parse of `line.json` threw `message` (the client stops reading there). */
  parseFailed(line: ClientLine, message: string): void {
    if (this.stoppedAt !== undefined) return;
    const at = this.lines.lastIndexOf(line);
    if (at === -1) throw new Error('parseFailed: the line was not read by this reader');
    line.error = message;
    this.stoppedAt = at;
  }

  push(text: string, t: number): ClientLine[] {
    const before = this.lines.length;
    let from = 0;
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) {
        from = 1; // TextDecoder's default strips the BOM
        this.bufferStart = 1;
      }
    }
    let segStart = from;
    for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', segStart)) {
      const line = this.buffer + text.slice(segStart, nl);
      this.classify(line, this.bufferStart, this.offset + nl + 1, t);
      this.buffer = '';
      this.bufferStart = this.offset + nl + 1;
      segStart = nl + 1;
    }
    this.buffer += text.slice(segStart);
    this.offset += text.length;
    return this.lines.slice(before);
  }

  /** End of body: the text the client never looked at (a last line without "\n"). */
  finish(): { unread: string; start: number } {
    return { unread: this.buffer, start: this.bufferStart };
  }

  private classify(line: string, start: number, end: number, t: number): void {
    // A CR anywhere but at the very end of the line (one class of line object per kind keeps this hot path lean).
    const cr = line.indexOf('\r');
    const innerCR = cr !== -1 && cr < line.length - 1;
    let rec: ClientLine;
    if (line.startsWith('data: ')) {
      const json = line.slice(6).trim();
      if (json === '') rec = { kind: 'empty-data', start, end, t };
      else {
        rec = { kind: 'event', start, end, t, json };
        if (this.stoppedAt === undefined && !this.options.parseLater) {
          try {
            JSON.parse(json);
          } catch (e) {
            rec.error = e instanceof Error ? e.message : String(e);
            this.stoppedAt = this.lines.length;
          }
        }
      }
    } else if (line.startsWith('data:')) rec = { kind: 'data-no-space', start, end, t };
    else if (innerCR) rec = { kind: 'ignored', start, end, t };
    else return; // other ignored lines (comments, event:, id:, blank) are not kept: they cannot explain a disagreement
    if (innerCR) rec.innerCR = true;
    this.lines.push(rec);
  }
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
  const lines = client.lines;
  const stopLine = client.stoppedAt === undefined ? undefined : lines[client.stoppedAt];
  let li = 0;
  let stopFrame: number | undefined;
  const add = (code: string, severity: Diagnostic['severity'], index: number, message: string, note?: string) => {
    diagnostics.push({ code, severity, index, message });
    if (note && index < frames.length && !notes.has(index)) notes.set(index, note);
  };

  for (const f of frames) {
    while (li < lines.length && lines[li].end <= f.start) li++;
    const inside: ClientLine[] = [];
    for (let k = li; k < lines.length && lines[k].start < f.end; k++) inside.push(lines[k]);
    if (stopLine && stopFrame !== undefined && f.start >= stopLine.end) {
      notes.set(f.index, `never read: the client stopped at frame ${stopFrame} (JSON.parse threw)`);
      continue;
    }
    if (f.kind !== 'data') continue;
    const events = inside.filter((l) => l.kind === 'event' && l.start >= f.start);
    const broken = events.find((l) => l.error !== undefined && l === stopLine);
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
  const stray = lines.filter((l) => l.kind === 'event' && l.start >= lastEnd && (!stopLine || l.start <= stopLine.start));
  if (stray.length > 0) {
    add('sse.client-reads-unterminated-frame', 'warning', frames.length,
      `The body ends with ${stray.length} data line(s) not followed by a blank line: the spec (and EventSource) discards them, ${clientName} yields them.`);
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

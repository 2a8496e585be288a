// The SSE specification's reading of a body (what EventSource and spec-following fetch readers see), incremental.
// Field interpretation follows eventsource-parser 3.x exactly (the unit tests use it as the oracle, messages included);
// it is done here rather than by feeding that parser, for three reasons:
// - a CR at the end of a chunk already ends the line (CR, LF and CRLF are all line ends); eventsource-parser holds a
//   trailing CR back until more text comes, which would credit the frame to a later chunk (or, at the end of the
//   body, misread the lone CR as a field). Here a CR ends its line at once and a following LF is swallowed, even
//   when it arrives in the next chunk;
// - knowing which text each frame came from (offsets) lets the client readings be compared frame by frame;
// - a frame's `data` is a slice of the chunk text, not a copy: feeding `line + "\n"` to the parser made every frame
//   hold its own copy of the body (measured: the biggest single share of the analysis heap).
import type { FrameView } from '../analysis/types.ts';
import { startsWithDataColon } from './client-reading.ts';
import { FrameList } from './frame-list.ts';

/** A frame of the spec reading, with where its text lies in the decoded body (offsets in UTF-16 code units). */
export interface SpecFrame extends FrameView {
  kind: 'data' | 'comment';
  /** Offset of the frame's first line (after the previous frame). */
  start: number;
  /** Offset just after the line end that completed the frame. */
  end: number;
}

/** A line the parser rejected (unknown field, bad `retry:`): the spec ignores it, the user should know. */
export interface SseProblem {
  t: number;
  start: number;
  line: string;
  message: string;
}

export interface SpecTail {
  /** Lines after the last dispatched frame that no blank line ended: the spec discards them at end of body. */
  pendingText: string;
  /** True when the pending lines hold a `data` field, i.e. an event the spec drops. */
  pendingData: boolean;
  /** Offset where the pending text starts. */
  start: number;
}

export class SseSpecDecoder {
  /** Every frame read so far, in columns (see frame-list.ts); `push` returns the new ones as objects. */
  readonly frames = new FrameList();
  readonly problems: SseProblem[] = [];
  /** `retry:` values, in order, with the time of their line. */
  readonly retries: { t: number; ms: number }[] = [];

  private offset = 0; // offset in the body text of the next character pushed
  private line = ''; // text of the current, unfinished line
  private lineStart = 0;
  private lastWasCR = false;
  private first = true;
  private frameStart = 0;
  private pendingHasData = false;
  private now = NaN;
  private curLineStart = 0;
  private curLineEnd = 0;
  private tail = ''; // body text from frameStart on
  private tailOffset = 0;

  // Field state of the event being assembled (the spec's "data buffer", "event type buffer", "last event ID").
  private data = '';
  private dataLines = 0;
  private eventType: string | undefined;
  private id: string | undefined;
  /** eventsource-parser strips a mis-decoded UTF-8 BOM ("\u00ef\u00bb\u00bf") from the first line it is fed. */
  private firstLine = true;

  /** Feeds the page's text for one chunk; returns the frames that chunk completed. */
  push(text: string, t: number): SpecFrame[] {
    const before = this.frames.length;
    this.read(text, t);
    return this.frames.slice(before) as SpecFrame[];
  }

  /** `push` without the array of new frames (they are `frames` from its length before the call). */
  read(text: string, t: number): void {
    this.now = t;
    let i = 0;
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) {
        i = 1; // the spec strips one leading BOM
        this.lineStart = this.frameStart = 1; // offsets keep counting the BOM
      }
    }
    let segStart = i;
    // Jump from line end to line end (indexOf is native and fast; a per-character loop was most of this reader).
    let nextLF = text.indexOf('\n', i);
    let nextCR = text.indexOf('\r', i);
    for (;;) {
      if (nextLF !== -1 && nextLF < i) nextLF = text.indexOf('\n', i);
      if (nextCR !== -1 && nextCR < i) nextCR = text.indexOf('\r', i);
      const e = nextLF === -1 ? nextCR : nextCR === -1 ? nextLF : Math.min(nextLF, nextCR);
      if (e === -1) {
        if (i < text.length) this.lastWasCR = false; // other characters follow the last line end
        break;
      }
      if (e > i) this.lastWasCR = false;
      i = e;
      const c = text.charCodeAt(i);
      if (c === 10 && this.lastWasCR) {
        // second half of a CRLF whose CR already ended the line
        this.lastWasCR = false;
        segStart = i + 1;
        this.lineStart = this.offset + i + 1;
        if (this.frameStart === this.offset + i) this.frameStart = this.lineStart;
        i++;
        continue;
      }
      this.line += text.slice(segStart, i);
      this.lastWasCR = c === 13;
      const end = this.offset + i + 1; // the LF of a CRLF is not counted, so offsets never depend on chunking
      this.endLine(end);
      this.lineStart = this.offset + i + 1;
      segStart = i + 1;
      i++;
    }
    this.takeRest(text, segStart);
  }

  /**
   * Line by line instead of `read`, for a caller that splits a chunk once for this reader and the client reader
   * (see body-reader.ts): possible while `lineReady`, for text without any CR. Each line ends with the "\n" just
   * before body offset `end` and includes `pendingLine` (the caller joins them); `takeRest` ends the chunk.
   */
  get lineReady(): boolean {
    return !this.first && !this.lastWasCR;
  }
  get pendingLine(): string {
    return this.line;
  }
  /**
   * The `id:` field of the frame being read, which no blank line has dispatched yet. A client that takes the id as its
   * line arrives (@microsoft/fetch-event-source does) sends it as Last-Event-ID when the body breaks off here, though
   * it never dispatched that frame's data.
   */
  get pendingId(): string | undefined {
    return this.id;
  }
  /** Body offset of the next character (UTF-16 code units of the text pushed, a stripped BOM included). */
  get nextOffset(): number {
    return this.offset;
  }
  takeLine(line: string, end: number, t: number): void {
    this.now = t;
    this.line = line;
    this.endLine(end);
    this.lineStart = end;
  }
  /** A line "data: " + `value` (the caller cut the value once for both readers). */
  takeDataLine(value: string, end: number, t: number): void {
    this.now = t;
    this.firstLine = false; // the line starts "data: ", not with a mis-decoded BOM
    this.line = '';
    this.curLineStart = this.lineStart;
    this.curLineEnd = end;
    this.field('data', value);
    this.pendingHasData = true;
    this.lineStart = end;
  }
  /** The chunk `text` is done: the text from index `from` on is the unfinished line. */
  takeRest(text: string, from: number): void {
    this.line += text.slice(from);
    // The text of the unfinished frame (for `finish`). Usually a chunk ends on a frame boundary or the frame began
    // in it: a slice of the chunk, or nothing — joining the previous tail and the chunk first copied every chunk.
    const end = this.offset + text.length;
    if (this.frameStart >= end) this.tail = '';
    else if (this.frameStart >= this.offset) this.tail = text.slice(this.frameStart - this.offset);
    else this.tail = (this.tail + text).slice(this.frameStart - this.tailOffset);
    this.tailOffset = this.frameStart;
    this.offset = end;
  }

  private endLine(end: number): void {
    let line = this.line;
    if (this.firstLine) {
      this.firstLine = false;
      if (line.startsWith('\u00ef\u00bb\u00bf')) line = line.slice(3);
    }
    this.curLineStart = this.lineStart;
    this.curLineEnd = end;
    this.line = '';
    if (line === '') {
      this.dispatch();
      this.frameStart = end;
      this.pendingHasData = false;
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) {
      this.comment(line.slice(line.charCodeAt(1) === 32 ? 2 : 1));
      // A comment line on its own (no field pending) starts nothing: the next frame begins after it.
      if (!this.pendingHasData && this.frameStart === this.curLineStart) this.frameStart = end;
      return;
    }
    if (startsWithDataColon(line)) {
      // The line of nearly every frame: no field name to cut out and compare.
      this.field('data', line.slice(line.charCodeAt(5) === 32 ? 6 : 5), line);
      this.pendingHasData = true;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + (line.charCodeAt(colon + 1) === 32 ? 2 : 1));
    this.field(field, value, line);
    if (field === 'data') this.pendingHasData = true;
  }

  private field(field: string, value: string, line = ''): void { // `line`: for problem reports (a data field has none)
    switch (field) {
      case 'data':
        this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
        this.dataLines++;
        return;
      case 'event':
        this.eventType = value || undefined;
        return;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        return;
      case 'retry':
        if (/^\d+$/.test(value)) this.retries.push({ t: this.now, ms: parseInt(value, 10) });
        else this.problem(`Invalid \`retry\` value: "${value}"`, line);
        return;
      default:
        this.problem(`Unknown field "${field.length > 20 ? `${field.slice(0, 20)}\u2026` : field}"`, line);
    }
  }

  private problem(message: string, line: string): void {
    this.problems.push({ t: this.now, start: this.curLineStart, line, message });
  }

  private comment(text: string): void {
    this.frames.pushSpec(this.now, 'comment', text, true, this.curLineStart, this.curLineEnd);
  }

  /**
   * Blank line: dispatch the pending event (if it has data lines) and reset the field state. A frame without data
   * dispatches no event, but its `id:` still sets the client's last event ID (the spec's "dispatch the event", step 1):
   * kept beside the frames (FrameList.addIdOnly), never as one. Rare: the branch costs the data path nothing.
   */
  private dispatch(): void {
    if (this.dataLines > 0) {
      this.frames.pushSpec(this.now, 'data', this.data, this.data === '', this.frameStart, this.curLineEnd, this.eventType, this.id);
    } else if (this.id !== undefined) {
      this.frames.addIdOnly(this.id, this.frameStart, this.curLineEnd, this.now);
    }
    this.data = '';
    this.dataLines = 0;
    this.eventType = undefined;
    this.id = undefined;
  }

  /** End of body: what the spec discards (text after the last frame without a closing blank line). */
  finish(): SpecTail {
    return {
      pendingText: this.tail,
      pendingData: this.pendingHasData || this.line.startsWith('data:') || this.line === 'data',
      start: this.frameStart,
    };
  }
}

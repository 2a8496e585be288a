// The SSE specification's reading of a body (what EventSource and spec-following fetch readers see), incremental.
// Field interpretation is eventsource-parser 3.x's. Line splitting is done here, before it, for two reasons:
// - a CR at the end of a chunk already ends the line (CR, LF and CRLF are all line ends); eventsource-parser holds a
//   trailing CR back until more text comes, which would credit the frame to a later chunk (or, at the end of the
//   body, misread the lone CR as a field). Here a CR ends its line at once and a following LF is swallowed, even
//   when it arrives in the next chunk;
// - knowing which text each frame came from (offsets) lets the client readings be compared frame by frame.
// Each complete line is fed to the parser as `line + "\n"`, so every frame it dispatches belongs to that line.
import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { FrameView } from '../analysis/types.ts';

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
  readonly frames: SpecFrame[] = [];
  readonly problems: SseProblem[] = [];
  /** `retry:` values, in order, with the time of their line. */
  readonly retries: { t: number; ms: number }[] = [];

  private parser: EventSourceParser;
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
  private curLine = '';
  private tail = ''; // body text from frameStart on
  private tailOffset = 0;

  constructor() {
    this.parser = createParser({
      onEvent: (ev) => {
        this.frames.push({
          index: this.frames.length,
          t: this.now,
          kind: 'data',
          ...(ev.event !== undefined ? { event: ev.event } : {}),
          ...(ev.id !== undefined ? { id: ev.id } : {}),
          data: ev.data,
          heartbeat: ev.data === '',
          start: this.frameStart,
          end: this.curLineEnd,
        });
      },
      onComment: (comment) => {
        this.frames.push({
          index: this.frames.length,
          t: this.now,
          kind: 'comment',
          data: comment,
          heartbeat: true,
          start: this.curLineStart,
          end: this.curLineEnd,
        });
      },
      onRetry: (ms) => this.retries.push({ t: this.now, ms }),
      onError: (err) =>
        this.problems.push({ t: this.now, start: this.curLineStart, line: this.curLine, message: err.message }),
    });
  }

  /** Feeds the page's text for one chunk; returns the frames that chunk completed. */
  push(text: string, t: number): SpecFrame[] {
    const before = this.frames.length;
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
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 10 && c !== 13) {
        this.lastWasCR = false;
        continue;
      }
      if (c === 10 && this.lastWasCR) {
        // second half of a CRLF whose CR already ended the line
        this.lastWasCR = false;
        segStart = i + 1;
        this.lineStart = this.offset + i + 1;
        if (this.frameStart === this.offset + i) this.frameStart = this.lineStart;
        continue;
      }
      this.line += text.slice(segStart, i);
      this.lastWasCR = c === 13;
      const end = this.offset + i + 1; // the LF of a CRLF is not counted, so offsets never depend on chunking
      this.endLine(end);
      this.lineStart = this.offset + i + 1;
      segStart = i + 1;
    }
    this.line += text.slice(segStart);
    this.tail = (this.tail + text).slice(this.frameStart - this.tailOffset);
    this.tailOffset = this.frameStart;
    this.offset += text.length;
    return this.frames.slice(before);
  }

  private endLine(end: number): void {
    const line = this.line;
    this.curLine = line;
    this.curLineStart = this.lineStart;
    this.curLineEnd = end;
    this.line = '';
    if (line === '') {
      this.parser.feed('\n');
      this.frameStart = end;
      this.pendingHasData = false;
      return;
    }
    const framesBefore = this.frames.length;
    this.parser.feed(line + '\n');
    if (line.startsWith('data:') || line === 'data') this.pendingHasData = true;
    // A comment line on its own (no field pending) starts nothing: the next frame begins after it.
    if (this.frames.length > framesBefore && line.startsWith(':') && !this.pendingHasData && this.frameStart === this.curLineStart) {
      this.frameStart = end;
    }
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

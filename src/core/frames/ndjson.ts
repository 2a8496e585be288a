// NDJSON / JSON lines (application/x-ndjson, application/jsonl, application/stream+json), read incrementally.
// One frame per non-blank line; LF ends a line and a CR right before it is dropped (CRLF files). A final line
// without a newline is still a record in these formats, so `finish()` yields it (marked, so the UI can say so).
import type { FrameView } from '../analysis/types.ts';

export interface NdjsonFrame extends FrameView {
  kind: 'ndjson';
  /** Offset of the line in the decoded body. */
  start: number;
  end: number;
  /** True for a last line that had no newline (emitted by finish()). */
  unterminated?: boolean;
}

const NDJSON_TYPES = ['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines',
  'application/jsonlines', 'application/stream+json', 'application/json-lines'];

/** True when a Content-Type names a JSON-lines format (parameters such as charset are ignored). */
export function isNdjsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(';')[0].trim().toLowerCase();
  return NDJSON_TYPES.includes(mime);
}

export class NdjsonDecoder {
  readonly frames: NdjsonFrame[] = [];
  private line = '';
  private lineStart = 0;
  private offset = 0;
  private first = true;
  private lastT = NaN;

  /** Feeds the page's text for one chunk; returns the frames (lines) it completed. */
  push(text: string, t: number): NdjsonFrame[] {
    const before = this.frames.length;
    this.lastT = t;
    let i = 0;
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) {
        i = 1;
        this.lineStart = 1;
      }
    }
    let segStart = i;
    for (let nl = text.indexOf('\n', i); nl !== -1; nl = text.indexOf('\n', segStart)) {
      this.line += text.slice(segStart, nl);
      this.emit(this.line, this.lineStart, this.offset + nl + 1, t, false);
      this.line = '';
      this.lineStart = this.offset + nl + 1;
      segStart = nl + 1;
    }
    this.line += text.slice(segStart);
    this.offset += text.length;
    return this.frames.slice(before);
  }

  /** End of body: a last line without newline becomes a frame too. */
  finish(): NdjsonFrame[] {
    const before = this.frames.length;
    if (this.line !== '') this.emit(this.line, this.lineStart, this.offset, this.lastT, true);
    this.line = '';
    return this.frames.slice(before);
  }

  private emit(raw: string, start: number, end: number, t: number, unterminated: boolean): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return; // blank lines separate nothing in NDJSON; they are not records
    this.frames.push({
      index: this.frames.length,
      t,
      kind: 'ndjson',
      data: line,
      heartbeat: false,
      start,
      end,
      ...(unterminated ? { unterminated: true } : {}),
    });
  }
}

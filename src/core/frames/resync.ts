// Reading a body from a point that may be inside a frame — its head evicted by the memory cap with nothing to continue
// that frame from: the text up to the first frame boundary is dropped, so that the rest of a frame the eviction cut
// through is not read as a frame of its own. The analysis (BodyReader) and the HAR export's messages (har-messages.ts)
// drop the same text, so that both begin at the same frame.

/** Where the reading resumes: after the first blank line (an SSE frame's end), or after the first "\n" (a line's). */
export type ResyncTo = 'frame' | 'line';

export class Resync {
  /** The last characters of the text dropped so far: a boundary split across two texts is still found. */
  private tail = '';
  /** The boundary was passed: every later text is read as it is. */
  found = false;

  constructor(private readonly to: ResyncTo) {}

  /** The part of `text` after the first boundary ('' while none was seen yet); once past it, `text` itself. */
  skip(text: string): string {
    if (this.found) return text;
    const s = this.tail + text;
    // Any of the spec's line ends, twice: a line end then an empty line ("\r" before "\n" is one "\r\n").
    const m = this.to === 'line' ? /\n/.exec(s) : /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r|\n)/.exec(s);
    if (!m) {
      this.tail = s.slice(-3);
      return '';
    }
    this.found = true;
    this.tail = '';
    return s.slice(m.index + m[0].length);
  }
}

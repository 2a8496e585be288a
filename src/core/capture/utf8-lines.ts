// A capture log's bytes cut into lines and decoded as UTF-8, saying where a line holds bytes that are not UTF-8. The
// format is UTF-8 text (a record's bytes are text or base64), so such bytes are damage — a file re-encoded (saved as
// Latin-1 by an editor) or corrupted after it was written. A decoder that mends them into U+FFFD in silence loses what
// they were without a word; the reader says where they are instead (see CaptureLogReader). A line feed is the same
// byte in UTF-8 whatever surrounds it, so the lines are cut in the bytes, and a block of whole lines is decoded at
// once: only a block that is not UTF-8 is gone through line by line.
import { utf8SecondHigh, utf8SecondLow, utf8SequenceBytes } from '../frames/utf8-chunks.ts';

/** Where a line's first byte that is not UTF-8 lies. */
export interface NotUtf8 {
  /** Its place in the line, 1-based (a column, in bytes). */
  byte: number;
  /** Its offset in the file, 0-based (as `xxd`, `od -A d` or a hex editor count). */
  offset: number;
  /** Its value. */
  value: number;
}

/** The index of the first byte of `b[from, to)` that is not part of a well-formed UTF-8 sequence, or -1. */
export function firstNotUtf8(b: Uint8Array, from = 0, to = b.length): number {
  let i = from;
  while (i < to) {
    const x = b[i];
    if (x < 0x80) {
      i++;
      continue;
    }
    // The lead byte says how many continuation bytes follow, and the range of the first (no overlong form, no
    // surrogate, nothing past U+10FFFF: what TextDecoder replaces).
    const n = utf8SequenceBytes(x) - 1;
    if (n < 1) return i;
    if (i + n >= to) return i; // the sequence runs past the line (a file cut in a character)
    const first = b[i + 1];
    if (first < utf8SecondLow(x) || first > utf8SecondHigh(x)) return i;
    for (let k = 2; k <= n; k++) if ((b[i + k] & 0xc0) !== 0x80) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * Feed it a file's bytes in order (`push`), then `end`: each line (without its "\n") goes to `onLine` with where its
 * first byte that is not UTF-8 lies, if it holds one (decoded with U+FFFD there, as TextDecoder decodes it). Up to two
 * byte order marks at the start are dropped, as loadInput drops them.
 */
export class Utf8Lines {
  private readonly fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The bytes of the line not yet ended. */
  private pending: Uint8Array[] = [];
  /** The file offset of the next block's first byte. */
  private offset = 0;
  private started = false;
  /** The text's last characters: whether the file ends in a line end says whether its last line was cut short. */
  private tail = '';

  constructor(private readonly onLine: (text: string, notUtf8: NotUtf8 | undefined) => void) {}

  push(bytes: Uint8Array): void {
    const lf = bytes.lastIndexOf(0x0a);
    if (lf === -1) {
      if (bytes.length > 0) this.pending.push(bytes);
      return;
    }
    const block = this.take(bytes.subarray(0, lf + 1));
    if (lf + 1 < bytes.length) this.pending.push(bytes.subarray(lf + 1));
    this.block(block, true);
  }

  /** The last line (after the last line feed; "" when the file ends in one); returns the text's last characters. */
  end(): string {
    this.block(this.take(new Uint8Array(0)), false);
    return this.tail;
  }

  /** The pending bytes followed by `rest`, as one array. */
  private take(rest: Uint8Array): Uint8Array {
    if (this.pending.length === 0) return rest;
    const size = this.pending.reduce((n, p) => n + p.length, rest.length);
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of this.pending) {
      out.set(p, at);
      at += p.length;
    }
    out.set(rest, at);
    this.pending = [];
    return out;
  }

  /** Whole lines (`ended`: the block ends in a line feed), or the file's last line. */
  private block(b: Uint8Array, ended: boolean): void {
    let from = 0;
    if (!this.started) {
      this.started = true;
      for (let k = 0; k < 2 && b[from] === 0xef && b[from + 1] === 0xbb && b[from + 2] === 0xbf; k++) from += 3;
    }
    const base = this.offset;
    this.offset += b.length;
    let text: string | undefined;
    try {
      text = this.fatal.decode(b.subarray(from));
    } catch {
      text = undefined; // some line holds bytes that are not UTF-8: line by line
    }
    if (text !== undefined) {
      this.tail = (this.tail + text.slice(-16)).slice(-16);
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        this.onLine(text.slice(start, nl), undefined);
        start = nl + 1;
      }
      if (!ended) this.onLine(text.slice(start), undefined);
      return;
    }
    while (from < b.length || !ended) {
      const lf = b.indexOf(0x0a, from);
      const to = lf === -1 ? b.length : lf;
      const bad = firstNotUtf8(b, from, to);
      const line = this.lenient.decode(b.subarray(from, to));
      this.tail = (this.tail + line + (lf === -1 ? '' : '\n')).slice(-16);
      this.onLine(line, bad === -1 ? undefined : { byte: bad - from + 1, offset: base + bad, value: b[bad] });
      if (lf === -1) return;
      from = lf + 1;
    }
  }
}

/** "0xE9, byte 57 of the line, file offset 1234". */
export function notUtf8Place(where: NotUtf8): string {
  return `0x${where.value.toString(16).toUpperCase().padStart(2, '0')}, byte ${where.byte} of the line, file offset ${where.offset}`;
}

/** The note on the lines whose bytes are not UTF-8: the first (`line`, `where`), and how many more. */
export function notUtf8Text(line: number, where: NotUtf8, more: number, ofConnection: boolean): string {
  const others = more === 0 ? '' : ` ${more} more line${more === 1 ? '' : 's'}${ofConnection ? ' of this connection' : ''} hold${more === 1 ? 's' : ''} such bytes too.`;
  return `Capture log line ${line} holds bytes that are not UTF-8 (the first: ${notUtf8Place(where)}): they were read as U+FFFD (\ufffd), ` +
    `and what they were is lost.${others} A capture log is UTF-8 text: the file was damaged, or saved in another encoding, after it was written.`;
}

/**
 * The note of a file read whole, one JSON document (a HAR, events), whose bytes are not all UTF-8 — JSON is UTF-8
 * text (RFC 8259): they were read as U+FFFD. Above the connections: which string they were in is not known here.
 */
export function notUtf8FileText(bytes: Uint8Array, what: string): string {
  const at = Math.max(0, firstNotUtf8(bytes));
  const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
  let line = 1;
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < at; i = bytes.indexOf(0x0a, i + 1)) line++;
  const where = { byte: at - lineStart + 1, offset: at, value: bytes[at] };
  return `This ${what} holds bytes that are not UTF-8 (the first, on line ${line}: ${notUtf8Place(where)}): they were read as U+FFFD (\ufffd), ` +
    `and what they were is lost. JSON is UTF-8 text: the file was damaged, or saved in another encoding, after it was written.`;
}

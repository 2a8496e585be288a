// What a capture log's lines must say together, beyond each line's schema: checked while reading, line by line.
// A contradiction that leaves a record meaningless (a message on a byte stream, a byte count its payload cannot
// have, text no UTF-8 decoder returns) is an error naming the line. Records that are only out of place (data after
// the connection's end) are kept as they stand, and a note on the connection says what is odd — the user sees
// everything the file holds.
import type { CaptureRecord, ChunkRecord, NoticeRecord } from './model.ts';

/** A record that contradicts the log (the reader turns it into a CaptureLogError for its line: `line`, else its own). */
export class LogContradiction extends Error {
  constructor(message: string, readonly line?: number) {
    super(message);
  }
}

interface ConnState {
  /** Records of messages (eventsource, websocket), else of chunks. */
  messages: boolean;
  /** Line of the connection's (last) end record. */
  endLine?: number;
  endState?: string;
  /** Said already: a record after the end. */
  toldLate: boolean;
  /** Σ wire bytes − Σ payload bytes so far: what the byte rule carries into the next record (see utf8-chunks.ts). */
  inFlight: number;
  /** The connection has an eviction record (anywhere: a live panel's log holds it where it arrived). */
  evicted: boolean;
  /**
   * The first record whose payload held more than the counts promise — what the first record kept after an eviction
   * does (an evicted record carried bytes into it) — an error only if the log holds no eviction of this connection.
   */
  unpromised?: { line: number; message: string };
}

/** Bytes the UTF-8 byte rule may carry between records: the rest of one character. */
const MAX_CARRY = 3;

export class LogConsistency {
  private readonly conns = new Map<string, ConnState>();
  private readonly notices: NoticeRecord[] = [];
  private readonly encoder = new TextEncoder();
  private scratch = new Uint8Array(1 << 16);

  /**
   * After the line's schema check and the connection-id check. Throws LogContradiction. `mended`: the line held bytes
   * that are not UTF-8, read as U+FFFD (the reader says so): a chunk's text is then not what its byte count counted.
   */
  check(rec: CaptureRecord, line: number, mended = false): void {
    if (rec.kind === 'connection') {
      this.conns.set(rec.id, {
        messages: rec.transport === 'eventsource' || rec.transport === 'websocket',
        toldLate: false,
        inFlight: 0,
        evicted: false,
      });
      return;
    }
    if (rec.kind === 'notice' || rec.kind === 'navigation' || rec.conn === undefined) return;
    const c = this.conns.get(rec.conn);
    if (!c) return;
    // (An eviction record may follow the end: a live panel's log holds it where it arrived.)
    if (c.endLine !== undefined && !c.toldLate && rec.kind !== 'evicted') {
      c.toldLate = true;
      const what = rec.kind === 'end' ? `a second end record (${rec.state})` : `a ${rec.kind} record`;
      this.note(rec.conn, `Capture log line ${line}: ${what} after this connection's end record (line ${c.endLine}, ${c.endState}) — the log's records are out of order; they are read as they stand${rec.kind === 'end' ? ' (the last end counts)' : ''}.`);
    }
    if (rec.kind === 'end') {
      c.endLine = line;
      c.endState = rec.state;
    } else if (rec.kind === 'evicted') c.evicted = true;
    else if (rec.kind === 'message' && !c.messages) {
      throw new LogContradiction('a message record on a connection whose body is a byte stream (fetch, xhr, import): message records belong to eventsource and websocket connections');
    } else if (rec.kind === 'chunk') {
      if (c.messages) throw new LogContradiction('a chunk record on an eventsource or websocket connection, whose data are message records');
      if (mended) c.inFlight = 0; // (its count cannot be checked; the next record's is, from here)
      else this.chunk(c, rec, line);
    }
  }

  /** Connections without an end record so far (a cut file may have lost the rest of their data). */
  unended(): string[] {
    return [...this.conns].filter(([, c]) => c.endLine === undefined).map(([id]) => id);
  }

  /**
   * The notes to add to the capture (a connection without an end is not one: a log exported while it streamed).
   * Throws LogContradiction (with its line) for a payload longer than its counts on a connection never evicted.
   */
  finish(): NoticeRecord[] {
    for (const c of this.conns.values()) {
      if (c.unpromised && !c.evicted) throw new LogContradiction(c.unpromised.message, c.unpromised.line);
    }
    return this.notices;
  }

  private chunk(c: ConnState, rec: ChunkRecord, line: number): void {
    let own: number;
    if (rec.text !== undefined) {
      const at = wellFormed(rec.text) ? -1 : firstLoneSurrogate(rec.text);
      if (at !== -1) {
        throw new LogContradiction(`chunk.text holds a lone surrogate (U+${rec.text.charCodeAt(at).toString(16).toUpperCase()} at character ${at}): a text chunk is what a UTF-8 decoder returned, which never holds one`);
      }
      own = this.utf8Length(rec.text);
    } else own = base64Length(rec.base64 as string);
    const inFlight = c.inFlight + rec.bytes - own;
    // The byte rule moves at most one character's rest between records; after an eviction the first record kept may
    // hold bytes an evicted one carried (a payload longer than its count, by at most that rest).
    const message = (total: string) =>
      `chunk.bytes: ${rec.bytes}, but its ${rec.text !== undefined ? 'text' : 'base64'} holds ${own} bytes — the counts so far promise ${total} (a record may differ from its payload only by the rest of one character split across chunks)`;
    if (inFlight > MAX_CARRY || inFlight < -MAX_CARRY) {
      throw new LogContradiction(message(inFlight > MAX_CARRY ? 'more bytes than its payload and the records before it hold' : 'fewer bytes than its payload holds'));
    }
    if (inFlight < 0) c.unpromised ??= { line, message: message('fewer bytes than its payload holds') };
    c.inFlight = inFlight;
  }

  /** UTF-8 length by the native encoder into a reused buffer (~4× the JS count; a 77 MB log: 25 ms instead of 90). */
  private utf8Length(text: string): number {
    if (this.scratch.length < text.length * 3) this.scratch = new Uint8Array(text.length * 3);
    return this.encoder.encodeInto(text, this.scratch).written;
  }

  private note(conn: string | undefined, text: string): void {
    this.notices.push({ kind: 'notice', t: Number.NaN, ...(conn === undefined ? {} : { conn }), level: 'warning', text });
  }
}

/** Bytes a (padded or unpadded) base64 string decodes to; its form was checked by the schema. */
function base64Length(b64: string): number {
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  const chars = b64.length - pad;
  return Math.floor((chars * 3) / 4);
}

/** String.prototype.isWellFormed (ES2024; native, so the usual whole-text check costs no JS loop) where it exists. */
function wellFormed(s: string): boolean {
  const native = (s as string & { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(s) : firstLoneSurrogate(s) === -1;
}

function firstLoneSurrogate(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    else if (c >= 0xd800 && c <= 0xdfff) return i;
  }
  return -1;
}

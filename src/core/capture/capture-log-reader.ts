// Reading a capture log a line at a time (see capture-log.ts for the format and the whole-text and whole-bytes
// readers): every line validated strictly, an error naming the line number, the field and what was wrong — except
// damage that leaves the rest sound, which is read with a note.
import { z } from 'zod';
import type { CaptureHeader, CaptureRecord, Capture, NoticeRecord } from './model.ts';
import { LogConsistency, LogContradiction } from './log-consistency.ts';
import { parseHeader, parseRecord, recordSchemas } from './schemas.ts';
import { notUtf8Place, notUtf8Text, type NotUtf8 } from './utf8-lines.ts';

export const CAPTURE_FORMAT = 'replyscope-capture';

/** Bad capture log; `line` is 1-based. */
export class CaptureLogError extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`capture log line ${line}: ${detail}`);
    this.name = 'CaptureLogError';
  }
}

/** One-line description of the first zod issue: `chunk.bytes: Too small: expected number to be >=0`. */
export function describeZodError(err: unknown, kind: string): string {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0];
    const path = issue.path.length ? `${kind}.${issue.path.join('.')}` : kind;
    const more = err.issues.length > 1 ? ` (and ${err.issues.length - 1} more problem(s))` : '';
    return `${path}: ${issue.message}${more}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Record kinds a line of this version may hold (schemas.ts; its JSON Schema takes any other as a later version's). */
const KNOWN_KINDS: readonly string[] = Object.keys(recordSchemas);

export interface ReadCaptureLogOptions {
  /**
   * The log had not ended when it was read (a live log cut by the CLI's --timeout): a last line cut off mid-way is
   * unfinished, not damage — dropped without the "cut short" note (whoever cut it says so).
   */
  unended?: boolean;
  /** Filled with the file line (1-based) of each record read, in step with the records; 0 for the notes added. */
  lines?: number[];
}

/**
 * readCaptureLog a line at a time, for a file read in slices (capture-log-stream.ts): a log larger than one string
 * holds is never one string. `line` takes each line without its "\n", in order; `finish` the end of the text.
 */
export class CaptureLogReader {
  private lineNo = 0;
  /** The number of the last line that is not blank (the file's length, trailing blank lines left out). */
  private lastLine = 0;
  private firstLine: string | undefined;
  private header: CaptureHeader | undefined;
  private readonly records: CaptureRecord[] = [];
  private readonly connections = new Set<string>();
  private readonly consistency = new LogConsistency();
  private readonly unknownKinds = new Map<string, number>();
  private readonly pageNotes: NoticeRecord[] = [];
  /** A line that is not JSON: an error, unless no other line follows it — then the file was cut short there. */
  private notJson: { lineNo: number; raw: string; error: unknown; notUtf8?: NotUtf8 } | undefined;
  /** Where the first line holds bytes that are not UTF-8, if it does. */
  private firstNotUtf8: NotUtf8 | undefined;
  /** Per connection (page notes: ""), the note on its first line that held bytes not UTF-8, and how many such lines. */
  private readonly notUtf8Notes = new Map<string, { note: NoticeRecord; line: number; where: NotUtf8; lines: number }>();

  constructor(private readonly options: ReadCaptureLogOptions = {}) {}

  /**
   * The next line, without its "\n". `notUtf8`: where the file's bytes of this line are not UTF-8 (the line was
   * decoded with U+FFFD there, see utf8-lines.ts). Such a line is read as it was decoded, with a warning that names it
   * and its first such byte — not skipped: the damage is where the bytes were (a character of a text, of a URL), and
   * the rest of the line is sound, as the rest of a log whose records are out of order is; skipped, a connection's
   * line would take every later record of the connection with it. A line such bytes make unreadable is an error that
   * says they are there.
   */
  line(line: string, notUtf8?: NotUtf8): void {
    const lineNo = ++this.lineNo;
    if (lineNo === 1) {
      this.firstLine = line;
      this.firstNotUtf8 = notUtf8;
    }
    if (line.trim() === '') return;
    this.lastLine = lineNo;
    // The header line is read once a line that is not blank shows the file is not empty (it may be blank itself).
    if (!this.header) {
      this.header = withNotUtf8(this.firstNotUtf8, () => readHeader(this.firstLine as string));
      if (this.firstNotUtf8) this.noteNotUtf8(undefined, 1, this.firstNotUtf8);
    }
    if (lineNo === 1) return;
    if (this.notJson) throw notJsonError(this.notJson);
    const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      this.notJson = { lineNo, raw, error: e, ...(notUtf8 ? { notUtf8 } : {}) };
      return;
    }
    const rec = withNotUtf8(notUtf8, () => this.record(value, raw, lineNo, notUtf8 !== undefined));
    if (notUtf8 && rec) { // (a record of a kind this version skips: nothing of it is read)
      const conn = rec.kind === 'connection' ? rec.id : rec.kind === 'navigation' ? undefined : rec.conn;
      this.noteNotUtf8(conn, lineNo, notUtf8);
    }
  }

  /** The end of the file; `end`: its last characters (16 are enough), which say whether its last line was ended. */
  finish(end: string): Capture {
    if (!this.header) throw new CaptureLogError(1, 'the file is empty (expected a header line)');
    const cut = this.notJson;
    if (cut) {
      if (/\n\s*$/.test(end.slice(-16))) throw notJsonError(cut);
      if (!this.options.unended) this.pageNotes.push(...cutNotices(cut.lineNo, cut.raw.length, this.consistency.unended()));
    }
    for (const { note, line, where, lines } of this.notUtf8Notes.values()) note.text = notUtf8Text(line, where, lines - 1, note.conn !== undefined);
    for (const [kind, n] of this.unknownKinds) {
      this.pageNotes.push(pageNotice(`${n} record${n === 1 ? '' : 's'} of a kind this version does not know ("${kind}") skipped — a log from a newer Replyscope? This one reads version 1 records (${KNOWN_KINDS.join(', ')}).`));
    }
    let notes: NoticeRecord[];
    try {
      notes = this.consistency.finish();
    } catch (e) {
      if (e instanceof LogContradiction) throw new CaptureLogError(e.line ?? this.lastLine, e.message);
      throw e;
    }
    const records = this.records;
    const said = new Set(records.map((r) => (r.kind === 'notice' ? `${r.conn}\u0000${r.text}` : '')));
    for (const n of [...notes, ...this.pageNotes]) {
      if (said.has(`${n.conn}\u0000${n.text}`)) continue;
      records.push(n);
      this.options.lines?.push(0);
    }
    return { header: this.header, records };
  }

  /**
   * The note on bytes that are not UTF-8: on the connection, right after the record of its first such line (the
   * analysis places it at the event read so far; before any, on the connection as a whole); else above the
   * connections. Later lines of the same connection are counted in it (finish words it).
   */
  private noteNotUtf8(conn: string | undefined, line: number, where: NotUtf8): void {
    const said = this.notUtf8Notes.get(conn ?? '');
    if (said) {
      said.lines++;
      return;
    }
    const note: NoticeRecord = { ...pageNotice(''), ...(conn !== undefined ? { conn } : {}) };
    this.notUtf8Notes.set(conn ?? '', { note, line, where, lines: 1 });
    if (conn === undefined) this.pageNotes.push(note);
    else {
      this.records.push(note);
      this.options.lines?.push(0);
    }
  }

  /** The line's record, read and checked; undefined for one of a kind this version does not know (skipped). */
  private record(value: unknown, raw: string, lineNo: number, mended: boolean): CaptureRecord | undefined {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new CaptureLogError(lineNo, `not a JSON object (found ${JSON.stringify(raw.slice(0, 40))}): every line after the header is one record`);
    }
    const kind = (value as { kind?: unknown }).kind;
    if (kind === 'header') throw new CaptureLogError(lineNo, 'a second header line: two capture logs joined into one file? Import each on its own');
    if (typeof kind === 'string' && kind !== '' && !KNOWN_KINDS.includes(kind)) {
      this.unknownKinds.set(kind, (this.unknownKinds.get(kind) ?? 0) + 1);
      return undefined;
    }
    let rec: CaptureRecord;
    try {
      rec = parseRecord(value);
    } catch (e) {
      throw new CaptureLogError(lineNo, describeZodError(e, String(kind)) + newerWriterHint(e));
    }
    if (rec.kind === 'connection') {
      if (this.connections.has(rec.id)) throw new CaptureLogError(lineNo, `connection id ${JSON.stringify(rec.id)} appears twice`);
      this.connections.add(rec.id);
    } else if (rec.kind !== 'navigation' && (rec.kind !== 'notice' || rec.conn !== undefined)) {
      const conn = rec.conn as string;
      if (!this.connections.has(conn)) {
        throw new CaptureLogError(lineNo, `${rec.kind} record for connection ${JSON.stringify(conn)}, which no earlier line declares`);
      }
    }
    try {
      this.consistency.check(rec, lineNo, mended);
    } catch (e) {
      if (e instanceof LogContradiction) throw new CaptureLogError(lineNo, e.message);
      throw e;
    }
    this.records.push(rec);
    this.options.lines?.push(lineNo);
    return rec;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The error of a line that is not JSON, saying where it holds bytes that are not UTF-8 (their U+FFFD may be why). */
function notJsonError(cut: { lineNo: number; error: unknown; notUtf8?: NotUtf8 }): CaptureLogError {
  const bytes = cut.notUtf8 ? ` — the line holds bytes that are not UTF-8 (the first: ${notUtf8Place(cut.notUtf8)})` : '';
  return new CaptureLogError(cut.lineNo, `not JSON (${message(cut.error)})${bytes}`);
}

/** `read`, its error on the line saying where the line holds bytes that are not UTF-8 (read as U+FFFD). */
function withNotUtf8<T>(where: NotUtf8 | undefined, read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (!where || !(e instanceof CaptureLogError)) throw e;
    throw new CaptureLogError(e.line, `${e.detail} — the line holds bytes that are not UTF-8, read as U+FFFD (the first: ${notUtf8Place(where)})`);
  }
}


function readHeader(line: string): CaptureHeader {
  const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new CaptureLogError(1, `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const v = (value ?? {}) as { kind?: unknown; format?: unknown; version?: unknown };
  if (v.format !== CAPTURE_FORMAT) {
    const kind = typeof v.kind === 'string' && KNOWN_KINDS.includes(v.kind) ? v.kind : undefined;
    throw new CaptureLogError(1, kind
      ? `a ${kind} record where the header belongs: a capture log starts with {"kind":"header","format":"${CAPTURE_FORMAT}","version":1,…} (was its first line cut off?)`
      : `expected a header with "format": "${CAPTURE_FORMAT}", found ${JSON.stringify(raw.slice(0, 80))}`);
  }
  if (v.version !== 1) throw new CaptureLogError(1, `unsupported capture log version ${JSON.stringify(v.version)} (this build reads version 1)`);
  try {
    return parseHeader(value);
  } catch (e) {
    throw new CaptureLogError(1, describeZodError(e, 'header') + newerWriterHint(e));
  }
}

/** For an unknown field: the file may come from a newer writer (this version's schemas are strict). */
function newerWriterHint(err: unknown): string {
  return err instanceof z.ZodError && err.issues.some((i) => i.code === 'unrecognized_keys') ? ' — a field this version does not know (a log from a newer Replyscope?)' : '';
}

function pageNotice(text: string): NoticeRecord {
  return { kind: 'notice', t: Number.NaN, level: 'warning', text };
}

/**
 * A file cut in a line: on each connection still without its end (whose data may go on past the cut: a warning
 * there, which `validate` counts), else above the connections.
 */
function cutNotices(line: number, chars: number, unended: string[]): NoticeRecord[] {
  const text = `The capture log ends in the middle of line ${line} (${chars} characters, not a whole record): the file was cut short.`;
  if (unended.length === 0) return [pageNotice(`${text} The records before it are shown.`)];
  return unended.map((conn) => ({ ...pageNotice(`${text} This connection has no end record before it: its data may go on past the cut.`), conn }));
}

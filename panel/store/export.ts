// Export builders: pure functions from the capture (and the analyzer's read model) to file contents.
// Redaction is applied to the raw capture first; derived exports (events, messages, diagnostics) are then computed
// from the redacted capture, so no export leaks what the redaction removed.
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import type { Capture, CaptureRecord } from '../../src/core/capture/model.ts';
import { CaptureAnalyzer, captureLogParts, diagnosticDoc, harParts, jsonParts, PAUSE, ReadableCopies, redactSteps, type Pause, type RedactionOptions, type WorkProgress } from '../core-bridge.ts';
import { reindentJson } from '../lib/partial-json-view.ts';

export type ExportKind = 'capture-log' | 'har' | 'reply-events' | 'messages' | 'diagnostics';

export interface ExportRequest {
  kind: ExportKind;
  /** Connection ids to include; undefined = all. */
  connections?: readonly string[];
  /** For 'reply-events': which reply of which connection. */
  reply?: { connection: string; reply: string };
  redaction: RedactionOptions;
}

/** What an export is doing, for its progress: `done` of `total` units of that phase's work (records, mostly). */
export interface ExportProgress extends WorkProgress {
  phase: 'prepare' | 'redact' | 'analyse' | 'write';
}

export interface ExportFile {
  name: string;
  mime: string;
  /**
   * The file's text in parts, made as they are read: a HAR of a 150 MB capture is more than one JavaScript string
   * holds (~512 MiB), so the download is a Blob of parts — a whole string failed with "Invalid string length".
   * Everything is done as the parts are read — redaction, analysis, the HAR's bodies — and every long loop yields an
   * empty part now and then, so that a caller can write the file in slices and give the thread back between them
   * (export-writer.ts). `progress` is kept up to date as it goes.
   */
  parts(progress?: ExportProgress): Iterable<string>;
  /** The text as one string (tests, small files): only as long as a string can be. */
  readonly text: string;
}

function exportFile(name: string, mime: string, parts: (progress: ExportProgress) => Iterable<string>): ExportFile {
  return { name, mime, parts: (progress = { phase: 'prepare', done: 0, total: 0 }) => parts(progress), get text() { return [...parts({ phase: 'prepare', done: 0, total: 0 })].join(''); } };
}

/** A pausing computation as parts: an empty part for each pause, then its value. */
function* pausing<T>(steps: Generator<Pause, T>): Generator<string, T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    yield '';
  }
}

export function selectConnections(capture: Capture, ids: readonly string[] | undefined): Capture {
  if (!ids) return capture;
  const keep = new Set(ids);
  const records = capture.records.filter((r: CaptureRecord) =>
    r.kind === 'connection' ? keep.has(r.id) : 'conn' in r && r.conn !== undefined ? keep.has(r.conn) : true,
  );
  return { header: capture.header, records };
}

const anyRedaction = (o: RedactionOptions) => Boolean(o.headers || o.requestBodies || o.textContent);

/** The capture analysed a slice of records at a time (the analysis of a 300 MB capture takes seconds). */
function* analyze(capture: Capture, progress: ExportProgress): Generator<Pause, ConnectionView[]> {
  const a = new CaptureAnalyzer();
  const slice = 512;
  progress.phase = 'analyse';
  progress.done = 0;
  progress.total = capture.records.length;
  for (let i = 0; i < capture.records.length; i += slice) {
    a.push(capture.records.slice(i, i + slice));
    progress.done = Math.min(capture.records.length, i + slice);
    yield PAUSE;
  }
  return a.connections();
}

/** The reply's final message as `replay` has it: the client's after the connection ended (a pi abort), else the last step's. */
function lastMessage(conn: ConnectionView, replyId: string): unknown {
  const r = conn.replies.find((x) => x.id === replyId);
  if (!r) return undefined;
  if (r.afterEnd) return r.afterEnd.message;
  if (r.history.length === 0) return r.history.initial;
  // A copy: writing the message out reads its texts, which would leave the history's kept ropes flat (readable-copies.ts).
  return new ReadableCopies().of(r.history.at(r.history.length - 1));
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

/**
 * A connection still streaming gets an `end` record of state "open" ("still streaming when the record was taken"):
 * without one, the file read anywhere else showed it "● live", as if it were still arriving.
 */
export function withOpenEnds(capture: Capture): Capture {
  const ended = new Set<string>();
  // The end of what is known of each connection: its last record's time (its start when nothing came), as the panel
  // measures an open connection's duration. (It was the time of the export: an imported file's open connection got
  // months of duration from it.)
  const last = new Map<string, number>();
  for (const r of capture.records) {
    if (r.kind === 'end') ended.add(r.conn);
    else if (r.kind === 'connection') last.set(r.id, r.startTime);
    else if ((r.kind === 'chunk' || r.kind === 'message') && Number.isFinite(r.t)) last.set(r.conn, Math.max(last.get(r.conn) ?? -Infinity, r.t));
  }
  const open = capture.records.flatMap((r) => (r.kind === 'connection' && !ended.has(r.id) ? [r.id] : []));
  if (open.length === 0) return capture;
  return { ...capture, records: [...capture.records, ...open.map((conn): CaptureRecord => ({ kind: 'end', conn, t: last.get(conn) ?? Number.NaN, state: 'open' }))] };
}

export function buildExport(source: Capture, req: ExportRequest): ExportFile {
  const ids = req.kind === 'reply-events' && req.reply ? [req.reply.connection] : req.connections;
  // The capture as the file holds it: its connections, an open one ended "open", redacted.
  function* prepared(progress: ExportProgress): Generator<string, Capture> {
    const capture = withOpenEnds(selectConnections(source, ids));
    if (!anyRedaction(req.redaction)) return capture;
    progress.phase = 'redact';
    return yield* pausing(redactSteps(capture, req.redaction, Date.now(), progress));
  }
  function* writing(progress: ExportProgress, write: (capture: Capture) => Iterable<string>): Generator<string> {
    const capture = yield* prepared(progress);
    progress.phase = 'write';
    progress.done = 0;
    progress.total = 0;
    yield* write(capture);
  }
  const json = (v: unknown) => [...jsonParts(v, 2), '\n'];
  switch (req.kind) {
    case 'capture-log':
      return exportFile(`replyscope-${stamp()}.replyscope.ndjson`, 'application/x-ndjson', (p) => writing(p, (c) => captureLogParts(c, p)));
    case 'har':
      return exportFile(`replyscope-${stamp()}.har`, 'application/json', (p) => writing(p, (c) => harParts(c, p)));
    case 'reply-events': {
      const wanted = req.reply;
      if (!wanted) throw new Error('Select a reply to export its events.');
      return exportFile(`reply-${safeName(wanted.reply)}-events.json`, 'application/json', function* (p) {
        const conn = (yield* pausing(analyze(yield* prepared(p), p))).find((c) => c.record.id === wanted.connection);
        const reply = conn?.replies.find((r) => r.id === wanted.reply);
        if (!conn || !reply) throw new Error(`Reply ${wanted.reply} not found in the exported capture.`);
        p.phase = 'write';
        const byIndex = new Map(conn.events.map((e) => [e.index, e]));
        // Each event as its wire text, laid out but token for token (a parse and stringify rounded integers beyond 2^53:
        // the fixture then differed from what arrived); a frame that is not JSON as its text, a JSON string.
        const items = reply.eventIndices.map((i) => {
          const e = byIndex.get(i);
          if (!e) return 'null';
          const laid = e.raw !== undefined ? reindentJson(e.rawText) : undefined;
          return (laid ?? JSON.stringify(e.raw !== undefined ? e.raw : e.rawText, null, 2)).replace(/\n/g, '\n  ');
        });
        yield* items.length === 0 ? ['[]\n'] : ['[\n  ', ...items.flatMap((item, i) => (i === 0 ? [item] : [',\n  ', item])), '\n]\n'];
      });
    }
    case 'messages':
      return exportFile(`replyscope-messages-${stamp()}.json`, 'application/json', function* (p) {
        const conns = yield* pausing(analyze(yield* prepared(p), p));
        p.phase = 'write';
        yield* json(conns.flatMap((c) =>
          c.replies.map((r) => ({
            connection: c.record.id, url: c.record.url, reply: r.id, dialect: r.dialect,
            // Listed under both connections of a resumed stream: this one's message is the page's whole (as replay says).
            ...(r.continuesConnection !== undefined ? { continuesConnection: r.continuesConnection } : {}),
            // null, not left out, when there is none (a pi event whose `partial` is null): every entry has its key.
            message: lastMessage(c, r.id) ?? null,
          })),
        ));
      });
    case 'diagnostics':
      return exportFile(`replyscope-diagnostics-${stamp()}.json`, 'application/json', function* (p) {
        const conns = yield* pausing(analyze(yield* prepared(p), p));
        p.phase = 'write';
        yield* json(conns.map((c) => ({
          connection: c.record.id,
          url: c.record.url,
          dialect: c.dialect,
          diagnostics: c.diagnostics.map((d) => ({ ...d, title: diagnosticDoc(d.code)?.title })),
        })));
      });
  }
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'reply';
}

/**
 * Bytes a HAR of the capture has at the least: each chunk's bytes and each message's text are in it twice (in the
 * entry's body or message list, and in its raw records), never shorter than they were — what else the HAR holds
 * (indentation, the records' fields, an SSE body's messages) makes it ~3.5× the capture log. A floor, not a guess:
 * past an import's limit on it, the file certainly cannot be imported back.
 */
export function harBytesAtLeast(capture: Capture): number {
  let n = 0;
  for (const r of capture.records) {
    if (r.kind === 'chunk') n += r.bytes;
    else if (r.kind === 'message') n += r.data.length;
  }
  return 2 * n;
}

/**
 * About how large a capture log or HAR of the capture will be (bytes), to choose how to save it before it is made:
 * from the records' payload and count, fitted to generated sessions (a capture log ~1.3× its payload, a HAR of SSE
 * ~4–5×: the body, its messages and the raw records). A body of comments only makes a HAR of ~2×: over, not under.
 * Undefined for the derived files, which are small.
 */
export function exportBytesAbout(capture: Capture, kind: ExportKind): number | undefined {
  if (kind !== 'capture-log' && kind !== 'har') return undefined;
  let payload = 0;
  for (const r of capture.records) {
    if (r.kind === 'chunk') payload += r.bytes;
    else if (r.kind === 'message') payload += r.data.length;
  }
  const records = capture.records.length;
  return kind === 'har' ? 4 * payload + 300 * records : 1.3 * payload + 100 * records;
}

// Export builders: pure functions from the capture (and the analyzer's read model) to file contents.
// Redaction is applied to the raw capture first; derived exports (events, messages, diagnostics) are then computed
// from the redacted capture, so no export leaks what the redaction removed.
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import type { Capture, CaptureRecord } from '../../src/core/capture/model.ts';
import { CaptureAnalyzer, captureLogParts, diagnosticDoc, harParts, joinParts, jsonParts, redactCapture, type RedactionOptions } from '../core-bridge.ts';
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

export interface ExportFile {
  name: string;
  mime: string;
  /**
   * The file's text in parts, made as they are read: a HAR of a 150 MB capture is more than one JavaScript string
   * holds (~512 MiB), so the download is a Blob of parts — a whole string failed with "Invalid string length".
   */
  parts(): Iterable<string>;
  /** The text as one string (tests, small files): only as long as a string can be. */
  readonly text: string;
}

function exportFile(name: string, mime: string, parts: () => Iterable<string>): ExportFile {
  return { name, mime, parts, get text() { return [...parts()].join(''); } };
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

function analyze(capture: Capture): ConnectionView[] {
  const a = new CaptureAnalyzer();
  a.push(capture.records);
  return a.connections();
}

/** The reply's final message as `replay` has it: the client's after the connection ended (a pi abort), else the last step's. */
function lastMessage(conn: ConnectionView, replyId: string): unknown {
  const r = conn.replies.find((x) => x.id === replyId);
  if (!r) return undefined;
  if (r.afterEnd) return r.afterEnd.message;
  if (r.history.length === 0) return undefined;
  return r.history.at(r.history.length - 1);
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
  let capture = withOpenEnds(selectConnections(source, ids));
  if (anyRedaction(req.redaction)) capture = redactCapture(capture, req.redaction);
  const json = (v: unknown) => () => [...jsonParts(v, 2), '\n'];
  switch (req.kind) {
    case 'capture-log':
      return exportFile(`replyscope-${stamp()}.replyscope.ndjson`, 'application/x-ndjson', () => captureLogParts(capture));
    case 'har':
      return exportFile(`replyscope-${stamp()}.har`, 'application/json', () => harParts(capture));
    case 'reply-events': {
      if (!req.reply) throw new Error('Select a reply to export its events.');
      const conn = analyze(capture).find((c) => c.record.id === req.reply!.connection);
      const reply = conn?.replies.find((r) => r.id === req.reply!.reply);
      if (!conn || !reply) throw new Error(`Reply ${req.reply.reply} not found in the exported capture.`);
      const byIndex = new Map(conn.events.map((e) => [e.index, e]));
      // Each event as its wire text, laid out but token for token (a parse and stringify rounded integers beyond 2^53:
      // the fixture then differed from what arrived); a frame that is not JSON as its text, a JSON string.
      const items = reply.eventIndices.map((i) => {
        const e = byIndex.get(i);
        if (!e) return 'null';
        const laid = e.raw !== undefined ? reindentJson(e.rawText) : undefined;
        return (laid ?? JSON.stringify(e.raw !== undefined ? e.raw : e.rawText, null, 2)).replace(/\n/g, '\n  ');
      });
      const parts = items.length === 0 ? ['[]\n'] : ['[\n  ', ...items.flatMap((item, i) => (i === 0 ? [item] : [',\n  ', item])), '\n]\n'];
      return exportFile(`reply-${safeName(reply.id)}-events.json`, 'application/json', () => parts);
    }
    case 'messages': {
      const out = analyze(capture).flatMap((c) =>
        c.replies.map((r) => ({
          connection: c.record.id, url: c.record.url, reply: r.id, dialect: r.dialect,
          // Listed under both connections of a resumed stream: this one's message is the page's whole (as replay says).
          ...(r.continuesConnection !== undefined ? { continuesConnection: r.continuesConnection } : {}),
          message: lastMessage(c, r.id),
        })),
      );
      return exportFile(`replyscope-messages-${stamp()}.json`, 'application/json', json(out));
    }
    case 'diagnostics': {
      const out = analyze(capture).map((c) => ({
        connection: c.record.id,
        url: c.record.url,
        dialect: c.dialect,
        diagnostics: c.diagnostics.map((d) => ({ ...d, title: diagnosticDoc(d.code)?.title })),
      }));
      return exportFile(`replyscope-diagnostics-${stamp()}.json`, 'application/json', json(out));
    }
  }
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'reply';
}

/** Text gathered into one Blob at a time: the Blob holds it outside the JavaScript heap, where the strings go free. */
const BLOB_PIECE = 64 << 20;

/** The file as Blobs of its parts, never one string: together they may be larger than any string (a HAR of 1 GB). */
function exportPieces(file: ExportFile): Blob[] {
  const blobs: Blob[] = [];
  let pending: string[] = [];
  let length = 0;
  for (const piece of joinParts(file.parts())) {
    pending.push(piece);
    length += piece.length;
    if (length >= BLOB_PIECE) {
      blobs.push(new Blob(pending));
      pending = [];
      length = 0;
    }
  }
  blobs.push(new Blob(pending));
  return blobs;
}

export function exportBlob(file: ExportFile): Blob {
  return new Blob(exportPieces(file), { type: file.mime });
}

/**
 * The file's Blob, each piece read back one byte: a browser that cannot keep it (Chromium keeps ~500 MB of a page's
 * Blobs in memory, and pages more to disk only in a profile on disk — not in a private window) makes a Blob that
 * cannot be read, and its download was cancelled while the dialog closed as if it had been saved.
 */
export async function readableBlob(file: ExportFile): Promise<Blob> {
  const pieces = exportPieces(file);
  const blob = new Blob(pieces, { type: file.mime });
  try {
    for (const piece of pieces) if (piece.size > 0) await piece.slice(piece.size - 1).arrayBuffer();
  } catch {
    throw new Error(`The browser could not keep the ${(blob.size / 1e6).toFixed(0)} MB file to save (past ~500 MB it needs a profile ` +
      'on disk, not a private window): export the capture log (a HAR is ~3.5× larger), or the selected connection only.');
  }
  return blob;
}

/** Save a file the browser way (a Blob URL we created, on an anchor we created; nothing captured becomes a URL). */
export async function download(file: ExportFile): Promise<void> {
  const url = URL.createObjectURL(await readableBlob(file));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The Replyscope capture log: NDJSON, a header line then one line per record, in arrival order.
// Writing is JSON.stringify per line (NaN times become null); reading validates every line strictly and fails with
// one line of text naming the line number, the field and what was wrong.
import { z } from 'zod';
import type { Capture, CaptureHeader, CaptureRecord } from './model.ts';
import { parseHeader, parseRecord } from './schemas.ts';

export const CAPTURE_FORMAT = 'replyscope-capture';
export const CAPTURE_LOG_EXTENSION = '.replyscope.ndjson';

/** Bad capture log; `line` is 1-based. */
export class CaptureLogError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`capture log line ${line}: ${detail}`);
    this.name = 'CaptureLogError';
  }
}

export function makeHeader(tool: string, extra: Partial<Pick<CaptureHeader, 'pageUrl' | 'browser' | 'created'>> = {}): CaptureHeader {
  return {
    kind: 'header',
    format: CAPTURE_FORMAT,
    version: 1,
    tool,
    created: extra.created ?? new Date().toISOString(),
    ...(extra.pageUrl !== undefined ? { pageUrl: extra.pageUrl } : {}),
    ...(extra.browser !== undefined ? { browser: extra.browser } : {}),
  };
}

export function writeCaptureLog(capture: Capture): string {
  const lines = [JSON.stringify(capture.header)];
  for (const rec of capture.records) lines.push(JSON.stringify(rec));
  return lines.join('\n') + '\n';
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

/** A header line is far shorter; a longer first line is some other JSON (a one-line HAR, an events array). */
const HEADER_LINE_MAX = 64 * 1024;

/**
 * True when the text's first line is a capture log header, or a damaged one (so that readCaptureLog says what is
 * wrong with it) — used by input sniffing. Looking for the two strings alone took any one-line JSON file that
 * mentions them — a compact HAR of a Replyscope capture — for a capture log, and refused it.
 */
export function looksLikeCaptureLog(text: string): boolean {
  const nl = text.indexOf('\n');
  const first = text.slice(0, nl === -1 ? HEADER_LINE_MAX + 1 : nl);
  // A header this long (a page URL of 70,000 characters) is still one when it starts as the writer starts it; a long
  // first line that does not is some other one-line JSON (a compact HAR), not parsed here.
  if (first.length > HEADER_LINE_MAX) return /^\{\s*"kind"\s*:\s*"header"\s*,/.test(first);
  if (!first.includes(`"${CAPTURE_FORMAT}"`)) return false;
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    return first.includes('"kind"'); // a header line that is not JSON: readCaptureLog reports it
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as { kind?: unknown; format?: unknown };
  return v.kind === 'header' || v.format === CAPTURE_FORMAT;
}

export function readCaptureLog(text: string): Capture {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new CaptureLogError(1, 'the file is empty (expected a header line)');
  let header: CaptureHeader | undefined;
  const records: CaptureRecord[] = [];
  const connections = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
    if (raw.trim() === '') throw new CaptureLogError(lineNo, 'empty line (every line must be one JSON record)');
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new CaptureLogError(lineNo, `not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (i === 0) {
      const format = (value as { format?: unknown } | null)?.format;
      if (format !== CAPTURE_FORMAT) {
        throw new CaptureLogError(lineNo, `expected a header with "format": "${CAPTURE_FORMAT}", found ${JSON.stringify(raw.slice(0, 80))}`);
      }
      const version = (value as { version?: unknown }).version;
      if (version !== 1) throw new CaptureLogError(lineNo, `unsupported capture log version ${JSON.stringify(version)} (this build reads version 1)`);
      try {
        header = parseHeader(value);
      } catch (e) {
        throw new CaptureLogError(lineNo, describeZodError(e, 'header'));
      }
      continue;
    }
    const kind = String((value as { kind?: unknown } | null)?.kind);
    let rec: CaptureRecord;
    try {
      rec = parseRecord(value);
    } catch (e) {
      throw new CaptureLogError(lineNo, describeZodError(e, kind));
    }
    if (rec.kind === 'connection') {
      if (connections.has(rec.id)) throw new CaptureLogError(lineNo, `connection id ${JSON.stringify(rec.id)} appears twice`);
      connections.add(rec.id);
    } else if (rec.kind !== 'notice' || rec.conn !== undefined) {
      const conn = rec.conn as string;
      if (!connections.has(conn)) {
        throw new CaptureLogError(lineNo, `${rec.kind} record for connection ${JSON.stringify(conn)}, which no earlier line declares`);
      }
    }
    records.push(rec);
  }
  return { header: header as CaptureHeader, records };
}

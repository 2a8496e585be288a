// The Replyscope capture log: NDJSON, a header line then one line per record, in arrival order.
// Writing is JSON.stringify per line (NaN times become null); reading validates every line strictly and fails with
// one line of text naming the line number, the field and what was wrong — except damage that leaves the rest sound
// (see readCaptureLog), which is read with a note. The line reader itself is capture-log-reader.ts.
import type { Capture, CaptureHeader } from './model.ts';
import type { WorkProgress } from './json-parts.ts';
import { jsonText } from '../json-text.ts';
import { Utf8Lines } from './utf8-lines.ts';
import { CAPTURE_FORMAT, CaptureLogReader, type ReadCaptureLogOptions } from './capture-log-reader.ts';

export { CAPTURE_FORMAT, CaptureLogError, CaptureLogReader, describeZodError, type ReadCaptureLogOptions } from './capture-log-reader.ts';

export const CAPTURE_LOG_EXTENSION = '.replyscope.ndjson';

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
  return [...captureLogParts(capture)].join('');
}

/**
 * The capture log's lines, each with its newline: a log larger than one JavaScript string can hold (~512 MiB of
 * text: several large captures imported side by side) is written as a Blob of these (joined, it failed with
 * "Invalid string length").
 */
export function* captureLogParts(capture: Capture, progress: WorkProgress = { done: 0, total: 0 }): Generator<string> {
  progress.total = capture.records.length + 1;
  progress.done = 1;
  yield JSON.stringify(capture.header) + '\n';
  for (const rec of capture.records) {
    progress.done++;
    // jsonText: an eviction digest's message may hold a value nested too deep for JSON.stringify (see json-text.ts).
    yield jsonText(rec) + '\n';
  }
}

/** A header line is far shorter; a longer first line is some other JSON (a one-line HAR, an events array). */
const HEADER_LINE_MAX = 64 * 1024;

/**
 * True when the text's first line is a capture log header, or a damaged one, or a capture log's record where the
 * header belongs (so that readCaptureLog says what is wrong, instead of the file being read as a stream of events of
 * an unknown dialect) — used by input sniffing. Looking for the two strings alone took any one-line JSON file that
 * mentions them — a compact HAR of a Replyscope capture — for a capture log, and refused it.
 */
export function looksLikeCaptureLog(text: string): boolean {
  const nl = text.indexOf('\n');
  const first = text.slice(0, nl === -1 ? HEADER_LINE_MAX + 1 : nl);
  // A header this long (a page URL of 70,000 characters) is still one when it starts with a header's key; a long
  // first line that does not is some other one-line JSON (a compact HAR starts with "log"), not parsed here.
  if (first.length > HEADER_LINE_MAX) return /^\{\s*"(?:kind|format|version|tool|created)"\s*:/.test(first) && first.includes(`"${CAPTURE_FORMAT}"`);
  if (!first.includes('"kind"') && !first.includes(`"${CAPTURE_FORMAT}"`)) return false;
  let value: unknown;
  try {
    value = JSON.parse(first);
  } catch {
    return first.includes('"kind"') && first.includes('"header"'); // a header line that is not JSON: readCaptureLog reports it
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as { kind?: unknown; format?: unknown; id?: unknown; conn?: unknown; transport?: unknown };
  if (v.kind === 'header' || v.format === CAPTURE_FORMAT) return true;
  // A capture log whose header line is missing: its first record is a connection.
  return v.kind === 'connection' && typeof v.id === 'string' && typeof v.transport === 'string';
}

/**
 * Reads a capture log. A line that is wrong is an error naming it — except the cases where the file's own damage says
 * what happened and the rest is sound: blank lines are skipped, a last line cut off mid-way (a truncated file) is
 * dropped with a note, records of a kind this version does not know are skipped with a note, and what the lines say
 * together is checked by LogConsistency (which notes what is odd but keeps it). Lines of bytes that are not UTF-8 are
 * read with U+FFFD and a note by readCaptureLogBytes (text has no such bytes left to tell).
 */
export function readCaptureLog(text: string, options: ReadCaptureLogOptions = {}): Capture {
  const reader = new CaptureLogReader(options);
  for (const line of text.split('\n')) reader.line(line);
  return reader.finish(text.slice(-16));
}

/**
 * readCaptureLog of a file's bytes that are not all UTF-8 (valid UTF-8 is read as text, faster): each line holding
 * such bytes is read with U+FFFD for them, and said (see CaptureLogReader.line).
 */
export function readCaptureLogBytes(bytes: Uint8Array, options: ReadCaptureLogOptions = {}): Capture {
  const reader = new CaptureLogReader(options);
  const lines = new Utf8Lines((line, notUtf8) => reader.line(line, notUtf8));
  lines.push(bytes);
  return reader.finish(lines.end());
}


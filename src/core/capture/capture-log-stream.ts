// A capture log read in slices of bytes, for a file of any size. Read whole, a file must fit in one JavaScript string
// (~512 MiB): a capture log larger than that — the export of several large captures side by side — could be exported
// but never imported again. A capture log is lines, so it needs no whole string: the bytes are cut into lines as they
// come, decoded (utf8-lines.ts: bytes that are not UTF-8 are said, not mended in silence), and each line read as
// readCaptureLog reads it (CaptureLogReader); the result, or the error, is the one loadInput gives for the same bytes
// (test/unit/capture/capture-log-stream.test.ts).
import type { Capture } from './model.ts';
import { CaptureLogError, CaptureLogReader, looksLikeCaptureLog } from './capture-log.ts';
import { InputError } from './load-input.ts';
import { isOtherEncodingOrContainer } from './input-bytes.ts';
import { Utf8Lines } from './utf8-lines.ts';

/** Bytes enough of a file's start to tell a capture log: its header line is far shorter. */
export const CAPTURE_LOG_HEAD_BYTES = 1 << 20;

/**
 * True when a file starting with `head` (its first CAPTURE_LOG_HEAD_BYTES, or all of it) is read as a capture log by
 * loadInput: UTF-8 text whose first line is a capture log's header (or a damaged one: the reader says what is wrong).
 */
export function startsAsCaptureLog(head: Uint8Array): boolean {
  if (isOtherEncodingOrContainer(head)) return false;
  let text = new TextDecoder('utf-8').decode(head, { stream: true }); // a character cut at the end of the head is no error
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.trim() !== '' && looksLikeCaptureLog(text);
}

/** Feed it the file's bytes in order (`push`), then `end` for the capture; errors are loadInput's InputErrors. */
export class CaptureLogStream {
  private readonly reader = new CaptureLogReader();
  /** Lines decoded as loadInput decodes a file (leading BOMs dropped), each with where it holds bytes not UTF-8. */
  private readonly lines = new Utf8Lines((line, notUtf8) => this.reader.line(line, notUtf8));

  constructor(private readonly fileName?: string) {}

  push(bytes: Uint8Array): void {
    this.guard(() => this.lines.push(bytes));
  }

  end(): Capture {
    return this.guard(() => this.reader.finish(this.lines.end()));
  }

  /** loadInput's errors for the same input: the reader's, and anything else said as "could not read the input". */
  private guard<T>(read: () => T): T {
    const where = this.fileName ? `${this.fileName}: ` : '';
    try {
      return read();
    } catch (e) {
      if (e instanceof CaptureLogError) throw new InputError(`${where}${e.message}`, e.line);
      throw new InputError(`${where}could not read the input: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

// A capture log read in slices of bytes, for a file of any size. Read whole, a file must fit in one JavaScript string
// (~512 MiB): a capture log larger than that — the export of several large captures side by side — could be exported
// but never imported again. A capture log is lines, so it needs no whole string: the bytes are decoded as they come,
// cut into lines, and each line read as readCaptureLog reads it (CaptureLogReader); the result, or the error, is the
// one loadInput gives for the same bytes (test/unit/capture/capture-log-stream.test.ts).
import type { Capture } from './model.ts';
import { CaptureLogError, CaptureLogReader, looksLikeCaptureLog } from './capture-log.ts';
import { InputError } from './load-input.ts';
import { isOtherEncodingOrContainer } from './input-bytes.ts';

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
  private readonly decoder = new TextDecoder('utf-8'); // as loadInput decodes a file: a leading BOM dropped
  private readonly reader = new CaptureLogReader();
  /** The text of the line not yet ended. */
  private partial = '';
  /** The text's last characters: whether the file ends in a line end says whether its last line was cut short. */
  private tail = '';
  private started = false;

  constructor(private readonly fileName?: string) {}

  push(bytes: Uint8Array): void {
    this.guard(() => this.text(this.decoder.decode(bytes, { stream: true })));
  }

  end(): Capture {
    return this.guard(() => {
      this.text(this.decoder.decode());
      this.reader.line(this.partial);
      this.partial = '';
      return this.reader.finish(this.tail);
    });
  }

  private text(piece: string): void {
    if (piece === '') return;
    if (!this.started) {
      this.started = true;
      if (piece.charCodeAt(0) === 0xfeff) piece = piece.slice(1); // a second BOM, as loadInput drops it
    }
    this.tail = (this.tail + piece).slice(-16);
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl !== -1; nl = piece.indexOf('\n', from)) {
      const line = this.partial + piece.slice(from, nl);
      this.partial = '';
      this.reader.line(line);
      from = nl + 1;
    }
    this.partial += piece.slice(from);
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

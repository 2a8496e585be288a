// The line of the input a diagnostic is about, for `--github` (`::error file=…,line=N::`), `--json` (`"line"`) and the
// text report — so a reviewer can jump to it. Computed here, in the CLI only: the panel's analysis keeps no line of
// anything (its ingest is the hot path; see `npm run bench`).
//
// A capture log holds one record per line, and a frame is read from the chunk (or EventSource/WebSocket message)
// records of its connection: its line is that of the record that completed it — the record whose arrival time the
// frame has (FrameView.t). The records are pushed into the analyzer one at a time, and after each the connection's
// frame count says which frames that record completed. An SSE or NDJSON file is the body itself: a frame's line is
// where its text starts. Other inputs (HAR, JSON events) have no line per frame.
import type { CaptureAnalyzer } from '../core/analysis/analyze.ts';
import type { ConnectionView } from '../core/analysis/types.ts';
import type { CaptureRecord } from '../core/capture/model.ts';
import { PageTextDecoder } from '../core/frames/utf8-chunks.ts';
import type { Diagnostic } from '../core/diagnostics/types.ts';
import { partitionPoint } from '../core/partition-point.ts';

/** Where one connection's records lie. */
interface ConnectionLines {
  connection?: number;
  /** Its last end record. */
  end?: number;
  /** Its last chunk or message record. */
  lastData?: number;
  /** Its first eviction record. */
  evicted?: number;
  /** Frame i: the line of the record that completed it (capture logs). */
  frames: number[];
  /** A notice's text: the line of its record, or the line a note of the reader's names (undefined: none). */
  notices: Map<string, number | undefined>;
}

/** Diagnostics about the response head or the connection as a whole: its record is the place. */
const OF_CONNECTION = new Set(['stream.http-error', 'stream.eventsource-partial-view', 'stream.unknown-dialect']);
/** Diagnostics about how the connection stopped: its end record is the place. */
const OF_END = new Set(['stream.network-error', 'stream.aborted', 'pi.network-error', 'pi.stream-aborted']);

/** The line a reader's note names ("… line 12: …"), if it names one. */
function namedLine(text: string): number | undefined {
  const m = /\bline (\d+)\b/.exec(text);
  return m ? Number(m[1]) : undefined;
}

export class DiagnosticLines {
  private readonly conns = new Map<string, ConnectionLines>();
  /** The notices of no connection: text → line. */
  private readonly pageNotices = new Map<string, number | undefined>();
  /** A body file's text and the offsets of its line ends (built on the first question). */
  private body?: { text: string; breaks?: number[] };

  /**
   * Pushes a capture log's records into `analyzer` one by one (`lines[i]`: record i's line, 0 for a note the reader
   * added) and notes where each connection's records, and each frame, lie.
   */
  static ofCaptureLog(records: readonly CaptureRecord[], lines: readonly number[], analyzer: CaptureAnalyzer): DiagnosticLines {
    const out = new DiagnosticLines();
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const line = lines[i];
      analyzer.push([r]);
      if (r.kind === 'navigation') continue;
      if (line === 0) {
        // A note the reader added ("Capture log line 12: a chunk record after this connection's end record", "ends in
        // the middle of line 40"): the line it names — not the last event's, where the analysis puts it.
        if (r.kind === 'notice') (r.conn === undefined ? out.pageNotices : out.lines(r.conn).notices).set(r.text, namedLine(r.text));
        continue;
      }
      if (r.kind === 'notice' && r.conn === undefined) {
        if (!out.pageNotices.has(r.text)) out.pageNotices.set(r.text, line);
        continue;
      }
      const id = r.kind === 'connection' ? r.id : (r.conn as string);
      const c = out.lines(id);
      if (r.kind === 'connection') c.connection ??= line;
      else if (r.kind === 'end') c.end = line;
      else if (r.kind === 'evicted') c.evicted ??= line;
      else if (r.kind === 'notice') {
        if (!c.notices.has(r.text)) c.notices.set(r.text, line);
      } else c.lastData = line;
      if (r.kind === 'chunk' || r.kind === 'message' || r.kind === 'end') {
        for (let f = c.frames.length, n = analyzer.frameCount(id); f < n; f++) c.frames.push(line);
      }
    }
    return out;
  }

  private lines(id: string): ConnectionLines {
    let c = this.conns.get(id);
    if (!c) this.conns.set(id, (c = { frames: [], notices: new Map() }));
    return c;
  }

  /**
   * An SSE or NDJSON file: the body text as its one connection read it, decoded as the analysis decodes it — so where
   * some bytes are not UTF-8 (base64 chunks) the frames' offsets still fall on the file's lines: one bad byte took the
   * line away from every diagnostic.
   */
  static ofBody(records: readonly CaptureRecord[]): DiagnosticLines {
    const decoder = new PageTextDecoder();
    let text = '';
    for (const r of records) if (r.kind === 'chunk') text += decoder.push(r);
    text += decoder.end();
    const out = new DiagnosticLines();
    out.body = { text };
    return out;
  }

  /** The line of a note of no connection, when the input holds it as a record. */
  noteLine(text: string): number | undefined {
    return this.pageNotices.get(text);
  }

  /** The line of the input `d` (a diagnostic of connection `c`) is about, when there is one. */
  lineOf(c: ConnectionView, d: Diagnostic): number | undefined {
    if (this.body) return this.bodyLine(c, d);
    const lines = this.conns.get(c.record.id);
    if (!lines) return undefined;
    const end = lines.end ?? lines.lastData ?? lines.connection;
    if (OF_CONNECTION.has(d.code)) return lines.connection;
    if (OF_END.has(d.code)) return end;
    if (d.code === 'stream.evicted') return lines.evicted ?? lines.connection;
    if (d.code === 'capture.notice' && lines.notices.has(d.message)) return lines.notices.get(d.message); // (undefined: the reader's, no line)
    const frame = d.frame ?? c.events[d.index]?.frameIndex;
    if (frame === undefined) return lines.connection; // no event to point at
    return frame >= 0 && frame < lines.frames.length ? lines.frames[frame] : end; // past the frames: the end of the body
  }

  private bodyLine(c: ConnectionView, d: Diagnostic): number | undefined {
    const frame = d.frame ?? c.events[d.index]?.frameIndex;
    if (frame === undefined || OF_CONNECTION.has(d.code)) return undefined; // the file has no line for its head
    const body = this.body as { text: string; breaks?: number[] };
    if (!(frame >= 0 && frame < c.frames.length)) return this.lineAt(body, body.text.length); // the end of the body
    let at = c.frames.start(frame);
    while (body.text.charCodeAt(at) === 10 || body.text.charCodeAt(at) === 13) at++; // (blank lines before it)
    return this.lineAt(body, at);
  }

  /** The 1-based line of offset `at` of the body text (its last line when `at` is its end). */
  private lineAt(body: { text: string; breaks?: number[] }, at: number): number {
    if (!body.breaks) {
      // A line ends at LF, CR LF or a lone CR (SSE's three; an editor counts a lone CR as a line too): the offset of
      // its last character.
      body.breaks = [];
      const text = body.text;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) body.breaks.push(i);
      }
    }
    const breaks = body.breaks;
    if (at >= body.text.length && breaks.at(-1) === body.text.length - 1) at = body.text.length - 1; // on the last line, not the empty one after it
    return partitionPoint(breaks.length, (i) => breaks[i] < at) + 1; // line breaks before `at`, plus one
  }
}

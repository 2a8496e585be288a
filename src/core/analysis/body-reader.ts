// Reads one connection's body, chunk by chunk, into frames (the spec reading, for display) and raw events (what the
// dialect's client parses, for reconstruction). Both AgentScope's web UI and pi's streamProxy read SSE the same
// way — split on "\n", take lines starting exactly "data: " — so one client reader serves both; where it disagrees
// with the spec reading, the comparison becomes `sse.*` diagnostics.
import type { ChunkRecord, MessageRecord, Transport } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { ClientComparer } from '../frames/client-comparison.ts';
import { FrameList } from '../frames/frame-list.ts';
import { AgentScopeClientReader } from '../frames/client-reading.ts';
import { NdjsonDecoder } from '../frames/ndjson.ts';
import { SseSpecDecoder, type SpecTail } from '../frames/sse-spec.ts';
import { PageTextDecoder } from '../frames/utf8-chunks.ts';
import { Resync } from '../frames/resync.ts';
import type { FrameView } from './types.ts';
import { readWireDelta } from './agentscope-wire-delta.ts';
import { ReadEvent, type RawEvent } from './raw-event.ts';
import { messageNonEvent, type BodyKind } from './body-kind.ts';

export type { RawEvent } from './raw-event.ts';
export { bodyKindOf, header, messageNonEvent, type BodyKind } from './body-kind.ts';

export class BodyReader {
  readonly kind: BodyKind;
  /** The frames read so far (for SSE bodies the spec decoder's own list: one list, not two). */
  readonly frames: FrameList;
  /** Events read so far. The events themselves are not kept (their parsed JSON is the biggest thing a reader holds). */
  eventCount = 0;
  bytes = 0;
  private text = new PageTextDecoder();
  private sse?: SseSpecDecoder;
  private client?: AgentScopeClientReader;
  private ndjson?: NdjsonDecoder;
  /** Client events whose spec frame has not completed yet, with the offset of their line. */
  private unmapped: [RawEvent, number][] = [];
  /** Events returned earlier whose frame completed since the last `takeResolved`. */
  private resolved: RawEvent[] = [];
  private specTail?: SpecTail;
  private clientTail?: { unread: string; start: number };
  private comparison?: { bytes: number; frames: number; ended: boolean; clientName?: string; diagnostics: Diagnostic[] };
  /** The client comparison, resumed on each call while the body is read (see ClientComparer). */
  private readonly comparer = new ClientComparer();
  /** Every text pushed so far is well-formed UTF-16 (see RawEvent.wellFormed). */
  private allWellFormed = true;
  /** The first spec frame that may hold the next client event line (see `frameOfLine`). */
  private lineFrame = 0;
  /** The spec and client readers hold the same unfinished line (see `readChunk`). */
  private linesAgree = true;
  /**
   * After an eviction nothing was derived from: text is dropped up to the first frame boundary (see `resync`); after
   * one inside a line the digest gave up: up to the end of that line.
   */
  private resyncing?: Resync;

  /**
   * `splitOnce: false` makes each reader split every chunk itself (the tests compare both ways); `transport`: whose
   * messages these are — a WebSocket's or an EventSource's carry the app's own too, frames, not events (messageNonEvent).
   */
  constructor(kind: BodyKind, private readonly options: { splitOnce?: boolean; transport?: Transport } = {}) {
    this.kind = kind;
    if (kind === 'sse') {
      this.sse = new SseSpecDecoder();
      this.frames = this.sse.frames;
      // The reader parses each event line itself (below) and tells the client model which ones fail.
      this.client = new AgentScopeClientReader({ parseLater: true });
      return;
    }
    this.frames = new FrameList();
    if (kind === 'ndjson') this.ndjson = new NdjsonDecoder();
  }

  /**
   * Chunks whose bytes are not valid UTF-8 (the capture stores exactly those as base64, see capture/model.ts): the
   * page's TextDecoder read U+FFFD there. `event`: the events read before the first; `chunks`: how many.
   */
  invalidUtf8?: { event: number; chunks: number };

  /** The `id:` of an SSE frame begun but not dispatched (see SseSpecDecoder.pendingId). */
  get pendingFrameId(): string | undefined {
    return this.sse?.pendingId;
  }

  /** Feed one chunk; returns the raw events it completed. */
  pushChunk(chunk: ChunkRecord): RawEvent[] {
    this.bytes += chunk.bytes;
    const text = this.text.push(chunk);
    // A base64 chunk is one that was not valid UTF-8 (this tool's writers; another's may base64 valid text: then
    // its decoding shows no U+FFFD).
    if (chunk.base64 !== undefined && chunk.bytes > 0 && text.includes('\ufffd')) this.noteInvalidUtf8();
    return this.pushText(this.resyncing ? this.skipToBoundary(this.resyncing, text) : text, chunk.t);
  }

  /**
   * The body's head was evicted and digested: continue the client's unfinished line (`carry`, the text after the
   * last "\n" of the evicted part) so the first remaining chunk reads exactly as it would have. Call before any data.
   */
  seed(carry: string, t: number): RawEvent[] {
    if (this.bytes > 0 || this.frames.length > 0) throw new Error('BodyReader.seed: the reader has already read data');
    return this.pushText(carry, t);
  }

  /**
   * The body's head was evicted and nothing was derived from it (older logs): drop text up to the first frame
   * boundary (a blank line; NDJSON: a line end) instead of reading the middle of a line as garbage.
   */
  resync(): void {
    if (this.bytes > 0 || this.frames.length > 0) throw new Error('BodyReader.resync: the reader has already read data');
    if (this.kind !== 'eventsource') this.resyncing = new Resync(this.kind === 'ndjson' ? 'line' : 'frame');
  }

  /**
   * The body's head was evicted in the middle of a line too long to digest (EvictionDerived.carryLost): drop the rest
   * of that line — up to the client's line end, "\n" — so its tail is not read as a line of its own.
   */
  resyncLine(): void {
    if (this.bytes > 0 || this.frames.length > 0) throw new Error('BodyReader.resyncLine: the reader has already read data');
    if (this.kind !== 'eventsource') this.resyncing = new Resync('line');
  }

  /** The part of `text` after the first frame boundary since `resync` ('' while none was seen yet). */
  private skipToBoundary(resync: Resync, text: string): string {
    const rest = resync.skip(text);
    if (resync.found) this.resyncing = undefined;
    return rest;
  }

  /** Feed one EventSource message: the browser already did the SSE reading. */
  pushMessage(msg: MessageRecord): RawEvent[] {
    const index = this.frames.length;
    const role = this.options.transport === undefined ? undefined : messageNonEvent(msg, this.options.transport);
    const sent = role === 'sent';
    const foreign = role === 'foreign';
    if (!sent) this.bytes += msg.data.length; // what was received
    this.frames.push({
      t: msg.t, kind: 'message', data: msg.data, heartbeat: msg.data === '' || foreign || sent,
      ...(foreign ? { foreign } : {}),
      ...(sent ? { sent } : {}),
      ...(msg.type !== 'message' ? { event: msg.type } : {}),
      ...(msg.lastEventId ? { id: msg.lastEventId } : {}),
    });
    if (msg.data === '' || foreign || sent) return [];
    return [this.event(index, msg.t, msg.data)];
  }

  private noteInvalidUtf8(): void {
    if (this.invalidUtf8) this.invalidUtf8.chunks++;
    else this.invalidUtf8 = { event: this.eventCount, chunks: 1 };
  }

  /** End of body: flush what the readers held back. */
  end(): RawEvent[] {
    // A decoder that holds bytes of an unfinished character flushes them (as U+FFFD) at end of body.
    const flush = (this.text as { end?: () => string }).end?.() ?? '';
    if (flush !== '') this.noteInvalidUtf8(); // the body ended inside a character
    const out = this.pushText(flush, this.frames.length > 0 ? this.frames.t(this.frames.length - 1) : NaN);
    if (this.ndjson) for (const f of this.ndjson.finish()) out.push(this.addNdjsonFrame(f));
    if (this.sse && this.client) {
      this.specTail = this.sse.finish();
      this.clientTail = this.client.finish();
    }
    return out;
  }

  /** Events returned by earlier pushes whose spec frame has completed since (their `frameIndex` is now set). */
  takeResolved(): RawEvent[] {
    if (this.resolved.length === 0) return this.resolved;
    const out = this.resolved;
    this.resolved = [];
    return out;
  }

  /** Diagnostics where the client reading and the spec reading disagree (`index` = frame index). */
  frameDiagnostics(ended: boolean, clientName?: string): Diagnostic[] {
    if (!this.sse || !this.client) return [];
    const c = this.comparison;
    // Keyed on bytes too: a chunk can add ignored lines or client lines without completing a frame.
    if (c && c.bytes === this.bytes && c.frames === this.frames.length && c.ended === ended && c.clientName === clientName) return c.diagnostics;
    const cmp = this.comparer.compare(this.sse.frames, ended ? this.specTail : undefined, this.client,
      ended ? this.clientTail : undefined, clientName);
    for (const [i, note] of cmp.notes) {
      if (i < this.frames.length && this.frames.clientNote(i) !== note) this.frames.setClientNote(i, note);
    }
    const diagnostics = [
      ...this.sse.problems.map((p) => ({
        code: 'sse.ignored-line', severity: 'warning' as const, index: this.frameAtOrEnd(p.start),
        message: `${p.message} — the line ${JSON.stringify(p.line.slice(0, 60))} is ignored`,
      })),
      ...cmp.diagnostics,
    ];
    this.comparison = { bytes: this.bytes, frames: this.frames.length, ended, clientName, diagnostics };
    return diagnostics;
  }

  private pushText(text: string, t: number): RawEvent[] {
    const out: RawEvent[] = [];
    if (text === '') return out;
    if (this.ndjson) {
      for (const f of this.ndjson.push(text, t)) out.push(this.addNdjsonFrame(f));
      return out;
    }
    if (!this.sse || !this.client) return out;
    const frames = this.sse.frames;
    const before = frames.length;
    const client = this.client;
    const first = client.lineCount;
    this.readChunk(text, t);
    for (let k = before; k < frames.length; k++) {
      const fEnd = frames.end(k);
      // Client lines that lie inside this frame now know their frame.
      while (this.unmapped.length > 0 && this.unmapped[0][1] < fEnd) {
        const [ev] = this.unmapped.shift() as [RawEvent, number];
        ev.frameIndex = k;
        this.resolved.push(ev);
      }
    }
    // One well-formedness check per chunk instead of one per event (the validation needs it: see wireProblem). A line
    // can continue text of earlier chunks: it is known well-formed while every text so far was.
    if (this.allWellFormed) this.allWellFormed = (text as string & { isWellFormed?: () => boolean }).isWellFormed?.() ?? false;
    const wellFormed = this.allWellFormed;
    for (let i = first; i < client.lineCount; i++) {
      let json = client.jsonOf(i); // set for 'event' lines only
      if (json === undefined) continue;
      const start = client.startOf(i);
      const frame = this.frameOfLine(start);
      // The usual frame's data is exactly the client's text: keep one string for both, not two copies of the slice
      // (one object less per event to hold, and the later comparison finds them identical at once).
      const data = frame === -1 ? undefined : this.sse.frames.data(frame);
      if (data === json) json = client.shareJson(i, data);
      const ev = this.event(frame, t, json, wellFormed);
      if (ev.parseError !== undefined) client.parseFailedAt(i, ev.parseError);
      if (ev.frameIndex === -1) this.unmapped.push([ev, start]);
      out.push(ev);
    }
    return out;
  }

  /**
   * Both readers read a chunk — from one split when they agree on how to split it: the text has no CR (so the
   * spec's line ends are the client's "\n"s), neither reader is in the middle of a CRLF or before the first chunk,
   * and both hold the same unfinished line. Reading each chunk twice — two scans, two slices per line and two
   * trims — was the larger part of the analysis' own reading cost.
   */
  private readChunk(text: string, t: number): void {
    const spec = this.sse as SseSpecDecoder;
    const client = this.client as AgentScopeClientReader;
    const cr = text.indexOf('\r') !== -1;
    if (this.options.splitOnce === false || cr || !spec.lineReady || !client.lineReady || !this.linesAgree) {
      spec.read(text, t);
      client.read(text, t);
      // Both split CR-free text alike, so they hold the same unfinished line until a CR comes; after one, again once
      // both have just ended a line. (Comparing the two unfinished lines instead was quadratic on a long line that
      // arrives in many small chunks.)
      this.linesAgree = (this.linesAgree && !cr) || (spec.pendingLine === '' && client.pendingLine === '');
      return;
    }
    const carry = spec.pendingLine;
    const base = spec.nextOffset; // the client's offset too: both count every code unit pushed
    let seg = 0;
    let nl = text.indexOf('\n');
    if (nl !== -1 && carry !== '') {
      // The line continued from earlier chunks: joined once.
      this.takeLine(spec, client, carry + text.slice(0, nl), base + nl + 1, t);
      seg = nl + 1;
      nl = text.indexOf('\n', seg);
    }
    for (; nl !== -1; nl = text.indexOf('\n', seg)) {
      // "data: " at the line's start: the value is cut from the chunk once, for both readers.
      if (nl - seg >= 6 && text.charCodeAt(seg + 5) === 32 && text.startsWith('data:', seg)) {
        const value = text.slice(seg + 6, nl);
        spec.takeDataLine(value, base + nl + 1, t);
        client.takeDataLine(value, base + nl + 1, t);
      } else this.takeLine(spec, client, text.slice(seg, nl), base + nl + 1, t);
      seg = nl + 1;
    }
    spec.takeRest(text, seg);
    client.takeRest(text, seg);
  }

  private takeLine(spec: SseSpecDecoder, client: AgentScopeClientReader, line: string, end: number, t: number): void {
    if (line.length >= 6 && line.charCodeAt(5) === 32 && line.startsWith('data:')) {
      const value = line.slice(6);
      spec.takeDataLine(value, end, t);
      client.takeDataLine(value, end, t);
      return;
    }
    spec.takeLine(line, end, t);
    client.takeLine(line, end, t);
  }

  private event(frameIndex: number, t: number, rawText: string, wellFormed = false): RawEvent {
    return new ReadEvent(this.eventCount++, frameIndex, t, rawText, wellFormed, readWireDelta(rawText));
  }

  private addNdjsonFrame(f: FrameView): RawEvent {
    const index = this.frames.length;
    this.frames.push(f);
    return this.event(index, f.t, f.data);
  }

  private frameAtOrEnd(offset: number): number {
    const i = this.frameAt(offset);
    return i === -1 ? this.frames.length : i;
  }

  /**
   * `frameAt` for the client's event lines, which come in body order: a cursor moving forward instead of a binary
   * search per event (frames complete in body order, so their ends ascend).
   */
  private frameOfLine(offset: number): number {
    const frames = (this.sse as SseSpecDecoder).frames;
    let i = this.lineFrame;
    while (i < frames.length && frames.end(i) <= offset) i++;
    this.lineFrame = i;
    return i < frames.length ? i : -1;
  }

  /** Index of the spec frame containing body offset `offset`, or -1 when that frame is not complete yet. */
  private frameAt(offset: number): number {
    const frames = this.sse?.frames;
    if (frames === undefined) return -1;
    let lo = 0;
    let hi = frames.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (frames.end(mid) > offset) {
        found = mid;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    return found;
  }
}

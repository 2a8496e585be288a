// The reading half of an eviction digest (eviction-digest.ts): the evicted records read into client events exactly as
// BodyReader reads them — the lines split on "\n", those the client reads as events, the dialect the first ones tell
// (the events before it held, within a bound), an unfinished line too long to keep given up — each event then applied
// by EvictionDigest.
import type { ChunkRecord, ConnectionRecord, MessageRecord, Transport } from '../capture/model.ts';
import { PageTextDecoder } from '../frames/utf8-chunks.ts';
import { SseLineState } from '../frames/sse-line-state.ts';
import { bodyKindOf, messageNonEvent, type BodyKind } from './body-kind.ts';
import { DialectDetector } from './dialect.ts';

/** Events kept (as text) while no event has told the protocol yet; beyond this the replies are not derived. */
const MAX_PENDING_EVENTS = 256;
const MAX_PENDING_CHARS = 1 << 20;

export abstract class EvictionDigestReading {
  // What the digest reads of its connection — not the record itself, which holds the request body (up to 1 MiB, a
  // chat's whole conversation): the relay's store may let that go (retirement.ts), and the digest kept it alive.
  private readonly connId: string;
  private readonly transport: Transport;
  protected readonly kind: BodyKind;
  private readonly text = new PageTextDecoder();
  protected readonly detector = new DialectDetector();
  protected carry = '';
  private first = true;
  protected events = 0;
  protected pending: { index: number; t: number; text: string }[] = [];
  private pendingChars = 0;
  protected incomplete?: string;
  /**
   * An unfinished line longer than MAX_DERIVED_CHARS was given up (see `bound`): the text up to its end is skipped.
   * `event`: the client reads that line as an event (it is counted, and `lost`), not a comment or an empty line.
   */
  protected skipping?: { event: boolean };
  /** Events whose line was too long to keep and that ended within the evicted records: read by nobody. */
  protected lost = 0;
  /** An SSE body's spec reading at the start of `carry`: is a frame pending, which id is the last (EvictionDerived.sse). */
  protected readonly sse?: SseLineState;

  constructor(conn: ConnectionRecord) {
    this.connId = conn.id;
    this.transport = conn.transport;
    this.kind = bodyKindOf(conn);
    if (this.kind === 'sse') this.sse = new SseLineState();
  }

  /** Number of client events read so far. */
  get eventCount(): number {
    return this.events;
  }

  /** Feed the next evicted record of this connection (all of them, in order). */
  push(rec: ChunkRecord | MessageRecord): void {
    if (rec.conn !== this.connId) throw new Error(`EvictionDigest of ${this.connId} fed a record of ${rec.conn}`);
    if (rec.kind === 'message') {
      if (this.kind !== 'eventsource') throw new Error(`EvictionDigest: EventSource message on a ${this.kind} connection`);
      if (rec.data !== '' && !messageNonEvent(rec, this.transport)) this.event(rec.data, rec.t);
      this.bound(); // as after a chunk: a socket's endless reply is bounded too
      return;
    }
    if (this.kind === 'eventsource') throw new Error('EvictionDigest: body chunk on an EventSource connection');
    this.lines(this.text.push(rec), rec.t);
    this.bound();
  }

  /** Keeps the digest within the cap it serves, after each record (see EvictionDigest.bound). */
  protected abstract bound(): void;

  /** One client event, once the dialect is known, in event order (see EvictionDigest.apply). */
  protected abstract apply(index: number, t: number, text: string, json: { raw: unknown } | undefined): void;

  /** Splits decoded text into the lines the client reads ("\n" only; a leading BOM is stripped like TextDecoder). */
  private lines(text: string, t: number): void {
    if (text === '') return;
    let from = 0;
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) from = 1;
    }
    let seg = from;
    for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', seg)) {
      const start = seg;
      seg = nl + 1;
      if (this.skipping) {
        // The end of a line given up: the client read it as one event, which keeps the numbering of the rest.
        if (this.skipping.event) {
          this.events++;
          this.lost++;
        }
        this.skipping = undefined;
        continue;
      }
      const line = this.carry + text.slice(start, nl);
      this.carry = '';
      this.line(line, t);
    }
    if (!this.skipping) this.carry += text.slice(seg);
  }

  private line(line: string, t: number): void {
    if (this.kind === 'ndjson') {
      // NdjsonDecoder: a CR before the LF is dropped; blank lines are not records.
      const data = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (data.trim() !== '') this.event(data, t);
      return;
    }
    this.sse?.clientLine(line);
    if (!line.startsWith('data: ')) return;
    const json = line.slice(6).trim();
    if (json !== '') this.event(json, t);
  }

  /** One client event (connection event index = events read before it). */
  private event(text: string, t: number): void {
    const index = this.events++;
    let raw: unknown;
    let parsed = true;
    try {
      raw = JSON.parse(text);
    } catch {
      parsed = false;
    }
    if (this.detector.dialect === 'unknown') {
      if (parsed) this.detector.push(raw, index);
      if (this.detector.dialect === 'unknown') {
        this.hold(index, t, text);
        return;
      }
      const held = this.pending;
      this.pending = [];
      this.pendingChars = 0;
      for (const p of held) this.apply(p.index, p.t, p.text, tryParse(p.text));
    }
    this.apply(index, t, text, parsed ? { raw } : undefined);
  }

  private hold(index: number, t: number, text: string): void {
    if (this.incomplete !== undefined) return;
    this.pendingChars += text.length;
    this.pending.push({ index, t, text });
    if (this.pending.length > MAX_PENDING_EVENTS || this.pendingChars > MAX_PENDING_CHARS) {
      this.pending = [];
      this.pendingChars = 0;
      this.incomplete = `no event among the first ${MAX_PENDING_EVENTS} evicted ones named a known protocol`;
    }
  }
}

function tryParse(text: string): { raw: unknown } | undefined {
  try {
    return { raw: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

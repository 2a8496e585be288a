// Reads one connection's body, chunk by chunk, into frames (the spec reading, for display) and raw events (what the
// dialect's client parses, for reconstruction). Both AgentScope's web UI and pi's streamProxy read SSE the same
// way — split on "\n", take lines starting exactly "data: " — so one client reader serves both; where it disagrees
// with the spec reading, the comparison becomes `sse.*` diagnostics.
import type { ChunkRecord, ConnectionRecord, MessageRecord } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import { AgentScopeClientReader, compareWithAgentScopeClient } from '../frames/client-reading.ts';
import { NdjsonDecoder, isNdjsonContentType } from '../frames/ndjson.ts';
import { SseSpecDecoder, type SpecTail } from '../frames/sse-spec.ts';
import { PageTextDecoder } from '../frames/utf8-chunks.ts';
import type { FrameView } from './types.ts';

/** One event as the client reads it, before any protocol interpretation. */
export interface RawEvent {
  frameIndex: number;
  t: number;
  rawText: string;
  /** JSON.parse result; undefined when `parseError` is set. */
  raw: unknown;
  parseError?: string;
}

export type BodyKind = 'sse' | 'ndjson' | 'eventsource';

export function header(headers: [string, string][] | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers?.find(([k]) => k.toLowerCase() === lower)?.[1];
}

export function bodyKindOf(rec: ConnectionRecord): BodyKind {
  if (rec.transport === 'eventsource') return 'eventsource';
  return isNdjsonContentType(header(rec.responseHeaders, 'content-type')) ? 'ndjson' : 'sse';
}

function parse(rawText: string): { raw: unknown; parseError?: string } {
  try {
    return { raw: JSON.parse(rawText) };
  } catch (err) {
    return { raw: undefined, parseError: (err as Error).message };
  }
}

export class BodyReader {
  readonly kind: BodyKind;
  readonly frames: FrameView[] = [];
  readonly events: RawEvent[] = [];
  bytes = 0;
  private text = new PageTextDecoder();
  private sse?: SseSpecDecoder;
  private client?: AgentScopeClientReader;
  private ndjson?: NdjsonDecoder;
  /** Client events whose spec frame has not completed yet: [event index, offset of its line]. */
  private unmapped: [number, number][] = [];
  private specTail?: SpecTail;
  private clientTail?: { unread: string; start: number };
  private comparison?: { frames: number; ended: boolean; diagnostics: Diagnostic[] };

  constructor(kind: BodyKind) {
    this.kind = kind;
    if (kind === 'sse') {
      this.sse = new SseSpecDecoder();
      this.client = new AgentScopeClientReader();
    } else if (kind === 'ndjson') this.ndjson = new NdjsonDecoder();
  }

  /** Feed one chunk; returns the raw events it completed. */
  pushChunk(chunk: ChunkRecord): RawEvent[] {
    this.bytes += chunk.bytes;
    return this.pushText(this.text.push(chunk), chunk.t);
  }

  /** Feed one EventSource message: the browser already did the SSE reading. */
  pushMessage(msg: MessageRecord): RawEvent[] {
    this.bytes += msg.data.length;
    const index = this.frames.length;
    this.frames.push({
      index, t: msg.t, kind: 'message', data: msg.data, heartbeat: msg.data === '',
      ...(msg.type !== 'message' ? { event: msg.type } : {}),
      ...(msg.lastEventId ? { id: msg.lastEventId } : {}),
    });
    if (msg.data === '') return [];
    const ev: RawEvent = { frameIndex: index, t: msg.t, rawText: msg.data, ...parse(msg.data) };
    this.events.push(ev);
    return [ev];
  }

  /** End of body: flush what the readers held back. */
  end(): RawEvent[] {
    // A decoder that holds bytes of an unfinished character flushes them (as U+FFFD) at end of body.
    const flush = (this.text as { end?: () => string }).end?.() ?? '';
    const out = this.pushText(flush, this.frames.at(-1)?.t ?? NaN);
    if (this.ndjson) for (const f of this.ndjson.finish()) out.push(this.addNdjsonFrame(f));
    if (this.sse && this.client) {
      this.specTail = this.sse.finish();
      this.clientTail = this.client.finish();
    }
    return out;
  }

  /** Diagnostics where the client reading and the spec reading disagree (`index` = frame index). */
  frameDiagnostics(ended: boolean): Diagnostic[] {
    if (!this.sse || !this.client) return [];
    const c = this.comparison;
    if (c && c.frames === this.frames.length && c.ended === ended) return c.diagnostics;
    const cmp = compareWithAgentScopeClient(this.sse.frames, ended ? this.specTail : undefined, this.client,
      ended ? this.clientTail : undefined);
    for (const [i, note] of cmp.notes) if (this.frames[i]) this.frames[i] = { ...this.frames[i], clientNote: note };
    const diagnostics = [
      ...this.sse.problems.map((p) => ({
        code: 'sse.ignored-line', severity: 'warning' as const, index: this.frameAtOrEnd(p.start),
        message: `${p.message} — the line ${JSON.stringify(p.line.slice(0, 60))} is ignored`,
      })),
      ...cmp.diagnostics,
    ];
    this.comparison = { frames: this.frames.length, ended, diagnostics };
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
    for (const f of this.sse.push(text, t)) {
      this.frames.push(f);
      // Client lines that lie inside this frame now know their frame.
      while (this.unmapped.length > 0 && this.unmapped[0][1] < f.end) {
        const [ei] = this.unmapped.shift() as [number, number];
        this.events[ei].frameIndex = f.index;
      }
    }
    for (const line of this.client.push(text, t)) {
      if (line.kind !== 'event' || line.json === undefined) continue;
      const ev: RawEvent = { frameIndex: this.frameAt(line.start), t: line.t, rawText: line.json, ...parse(line.json) };
      if (ev.frameIndex === -1) this.unmapped.push([this.events.length, line.start]);
      this.events.push(ev);
      out.push(ev);
    }
    return out;
  }

  private addNdjsonFrame(f: FrameView): RawEvent {
    this.frames.push(f);
    const ev: RawEvent = { frameIndex: f.index, t: f.t, rawText: f.data, ...parse(f.data) };
    this.events.push(ev);
    return ev;
  }

  private frameAtOrEnd(offset: number): number {
    const i = this.frameAt(offset);
    return i === -1 ? this.frames.length : i;
  }

  /** Index of the spec frame containing body offset `offset`, or -1 when that frame is not complete yet. */
  private frameAt(offset: number): number {
    const frames = this.sse?.frames ?? [];
    let lo = 0;
    let hi = frames.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (frames[mid].end > offset) {
        found = mid;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    return found;
  }
}

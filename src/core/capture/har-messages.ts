// An entry's messages as Chrome lists them beside its body: `_eventSourceMessages` ({time, eventName, eventId, data},
// time in epoch seconds) — an EventSource's dispatched messages, or an SSE body read by the spec — and a WebSocket's
// `_webSocketMessages`. When the memory cap evicted a connection's head the list holds what was kept, and the entry's
// comment says so. An SSE body's list then begins where the text kept begins a whole event: at its first byte when the
// eviction digest says the cut fell between two events (no `data:` or `event:` line pending, no unfinished line: the
// analysis reads that event too), else at its first blank line, as the analysis reads a head it has nothing to continue
// from (frames/resync.ts) — the text before it may be the rest of an event the eviction cut through, which read as a
// message gave a viewer an event that was never sent: its data under no name (its `event:` line evicted), or the second
// half of its data. (The analysis continues a digested head from its client's unfinished line, but a message is a
// whole frame of the text the entry holds.) Each message's `eventId` is the spec's last event ID, which persists from
// event to event: after a cut, the digest's (the last `id:` evicted), or none — left out — where it is not known.
// Evicted messages of an EventSource or a WebSocket went whole: the rest are whole too, and carry their own ids.
import { evictedWhyText, type EvictionCause } from './eviction-cause.ts';
import type { ChunkRecord, EvictionDerived, MessageRecord, Transport } from './model.ts';
import { chunkTexts } from '../frames/read-body.ts';
import { SseSpecDecoder } from '../frames/sse-spec.ts';
import type { PlacedFrame } from '../frames/frame-list.ts';
import { Resync } from '../frames/resync.ts';

/** One EventSource-like message as Chrome writes them (`time` in seconds since the epoch; `eventId` absent: not known). */
export interface HarEventSourceMessage {
  time: number;
  eventName: string;
  eventId?: string;
  data: string;
}

/** An SSE body's head was evicted: the digest of the last eviction before its first chunk kept, when it has one. */
export interface EvictedSseHead {
  derived?: EvictionDerived;
}

/** The text kept begins a whole event: the digest says no field of one was pending at the cut, nor a line unfinished. */
export function keptBeginsEvent(head: EvictedSseHead): boolean {
  return head.derived?.sse?.frameStart === true && head.derived.carry === '' && !head.derived.carryLost;
}

/**
 * An SSE body's `_eventSourceMessages`, read chunk by chunk (sseMessages reads them at once, har-parts.ts as it writes
 * them). After a cut the spec reads from the digest's unfinished line (the start of the line the cut was in), or, with
 * no digest or a line given up, from the first line end kept: every `id:` line it reads is whole, and counts for the
 * events after it, listed or not.
 */
export class SseMessageReading {
  private readonly spec = new SseSpecDecoder();
  /** The text kept up to its first blank line, when it may not begin a whole event (its frames are not listed). */
  private readonly skip?: Resync;
  /** Frames that begin at this offset of the spec's text or later are listed (Infinity: their start not found yet). */
  private from = 0;
  /** Text to read in front of the first text: the digest's unfinished line. */
  private prefix: string;
  /** The text kept up to its first line end is not read: the cut may be inside a line whose start is not known. */
  private toLineEnd: boolean;
  private lastId: string | undefined = '';
  private frame = 0;
  private idOnly = 0;

  constructor(head?: EvictedSseHead) {
    const d = head?.derived;
    this.prefix = d?.carry ?? '';
    this.toLineEnd = head !== undefined && (d === undefined || d.carryLost === true);
    if (head === undefined) return;
    this.lastId = d?.sse?.lastEventId;
    if (!keptBeginsEvent(head)) {
      this.skip = new Resync('frame');
      this.from = Infinity;
    }
  }

  /** The messages the page's text of the next chunk (arrived at `t`) completes. */
  read(text: string, t: number): HarEventSourceMessage[] {
    let at = 0; // where the spec's reading of this text begins
    if (this.toLineEnd) {
      const end = /\r\n?|\n/.exec(text);
      at = end ? end.index + end[0].length : text.length;
      this.toLineEnd = end === null;
    }
    const offset = this.spec.nextOffset + this.prefix.length - at; // the spec's offset of this text's index 0
    if (this.skip && !this.skip.found) {
      const rest = this.skip.skip(text);
      if (this.skip.found) this.from = offset + text.length - rest.length;
    }
    this.spec.read(this.prefix + text.slice(at), t);
    this.prefix = '';
    const out: HarEventSourceMessage[] = [];
    const ids = this.spec.frames.idOnlyFrames();
    for (; this.frame < this.spec.frames.length; this.frame++) {
      // (An `id:` in a frame without data sets the last event ID all the same: such frames are kept beside the list.)
      for (; this.idOnly < ids.length && ids[this.idOnly].before <= this.frame; this.idOnly++) this.lastId = ids[this.idOnly].id;
      const f = this.spec.frames.at(this.frame) as PlacedFrame;
      if (f.kind !== 'data') continue;
      if (f.id !== undefined) this.lastId = f.id;
      if (f.start < this.from) continue;
      out.push({ time: f.t / 1000, eventName: f.event ?? 'message', ...(this.lastId !== undefined ? { eventId: this.lastId } : {}), data: f.data });
    }
    return out;
  }
}

/** `_eventSourceMessages` of an SSE body; `head`: its first bytes were evicted (see SseMessageReading). */
export function sseMessages(chunks: ChunkRecord[], head?: EvictedSseHead): HarEventSourceMessage[] {
  const reading = new SseMessageReading(head);
  const out: HarEventSourceMessage[] = [];
  for (const { text, t } of chunkTexts(chunks)) for (const m of reading.read(text, t)) out.push(m);
  return out;
}

export function esMessage(m: MessageRecord): HarEventSourceMessage {
  return { time: m.t / 1000, eventName: m.type, eventId: m.lastEventId, data: m.data };
}

export function wsMessage(m: MessageRecord) {
  return { type: m.type === 'send' ? ('send' as const) : ('receive' as const), time: m.t / 1000, opcode: 1, data: m.data };
}

/**
 * The entry's comment when the memory cap (or Clear, `by`) evicted the head of its messages (undefined when it evicted
 * none of them): of an SSE body (`sse`), its first `bytes` — where its list begins, and that an id evicted unread is
 * left out (`head`, see SseMessageReading); of an EventSource or a WebSocket, its first `messages`.
 */
export function evictedMessagesComment(transport: Transport, sse: boolean, evicted: { bytes: number; messages: number; by: EvictionCause; head?: EvictedSseHead }): string | undefined {
  const keep = `were ${evictedWhyText(evicted.by)}`;
  if (transport === 'eventsource' || transport === 'websocket') {
    const list = transport === 'websocket' ? '_webSocketMessages' : '_eventSourceMessages';
    return evicted.messages > 0 ? `messages cut: the first ${evicted.messages} ${keep}; ${list} holds the rest` : undefined;
  }
  if (!sse || evicted.bytes <= 0) return undefined;
  const head = evicted.head ?? {};
  const from = keptBeginsEvent(head)
    ? 'begins at the first byte of the rest (the eviction cut between two events)'
    : 'begins at the first whole event of the rest, after its first blank line (the text before it may be the rest of an event the eviction cut through)';
  const ids = head.derived?.sse?.lastEventId === undefined ? '; the last event ID at the cut is not known: an event before the first id: line kept has no eventId' : '';
  return `messages cut: the body's first ${evicted.bytes} bytes ${keep}; _eventSourceMessages ${from}${ids}`;
}

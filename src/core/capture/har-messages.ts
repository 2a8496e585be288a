// An entry's messages as Chrome lists them beside its body: `_eventSourceMessages` ({time, eventName, eventId, data},
// time in epoch seconds) — an EventSource's dispatched messages, or an SSE body read by the spec — and a WebSocket's
// `_webSocketMessages`. When the memory cap evicted a connection's head the list holds what was kept, and the entry's
// comment says so. An SSE body's list then begins at the first whole event of the text kept, as the analysis reads a
// head it has nothing to continue from (frames/resync.ts): the text before the first blank line may be the rest of an
// event the eviction cut through, which read as a message gave a viewer an event that was never sent — its data under
// no name (its `event:` line evicted), or the second half of its data. (The analysis continues a digested head from its
// client's unfinished line, but a message is a whole frame: the frame's `event:` and `id:` lines may precede that line.)
// Evicted messages of an EventSource or a WebSocket went whole: the rest are whole too.
import { evictedWhyText, type EvictionCause } from './eviction-cause.ts';
import type { ChunkRecord, MessageRecord, Transport } from './model.ts';
import { readSse, chunkTexts } from '../frames/read-body.ts';
import { Resync } from '../frames/resync.ts';

/** One EventSource-like message as Chrome writes them (`time` in seconds since the epoch). */
export interface HarEventSourceMessage {
  time: number;
  eventName: string;
  eventId: string;
  data: string;
}

/** `_eventSourceMessages` of an SSE body; `headEvicted`: its first bytes were evicted, read from its first whole event. */
export function sseMessages(chunks: ChunkRecord[], ended: boolean, headEvicted: boolean): HarEventSourceMessage[] {
  const texts = chunkTexts(chunks);
  const resync = headEvicted ? new Resync('frame') : undefined;
  const reading = readSse(resync ? texts.map(({ text, t }) => ({ text: resync.skip(text), t })) : texts, { ended });
  let lastId = '';
  const out: HarEventSourceMessage[] = [];
  for (const f of reading.frames) {
    if (f.kind !== 'data') continue;
    if (f.id !== undefined) lastId = f.id; // EventSource semantics: the last event id persists
    out.push({ time: f.t / 1000, eventName: f.event ?? 'message', eventId: lastId, data: f.data });
  }
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
 * none of them): of an SSE body (`sse`), its first `bytes`; of an EventSource or a WebSocket, its first `messages`.
 */
export function evictedMessagesComment(transport: Transport, sse: boolean, evicted: { bytes: number; messages: number; by: EvictionCause }): string | undefined {
  const keep = `were ${evictedWhyText(evicted.by)}`;
  if (transport === 'eventsource' || transport === 'websocket') {
    const list = transport === 'websocket' ? '_webSocketMessages' : '_eventSourceMessages';
    return evicted.messages > 0 ? `messages cut: the first ${evicted.messages} ${keep}; ${list} holds the rest` : undefined;
  }
  if (!sse || evicted.bytes <= 0) return undefined;
  return `messages cut: the body's first ${evicted.bytes} bytes ${keep}; _eventSourceMessages begins at the first whole event ` +
    'of the rest, after its first blank line (the text before it may be the rest of an event the eviction cut through)';
}

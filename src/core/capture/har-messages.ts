// An entry's messages as Chrome lists them beside its body: `_eventSourceMessages` ({time, eventName, eventId, data},
// time in epoch seconds) — an EventSource's dispatched messages, or an SSE body read by the spec — and a WebSocket's
// `_webSocketMessages`.
import type { ChunkRecord, MessageRecord } from './model.ts';
import { readSse, chunkTexts } from '../frames/read-body.ts';

/** One EventSource-like message as Chrome writes them (`time` in seconds since the epoch). */
export interface HarEventSourceMessage {
  time: number;
  eventName: string;
  eventId: string;
  data: string;
}

/** `_eventSourceMessages` of an SSE body. */
export function sseMessages(chunks: ChunkRecord[], ended: boolean): HarEventSourceMessage[] {
  const reading = readSse(chunkTexts(chunks), { ended });
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

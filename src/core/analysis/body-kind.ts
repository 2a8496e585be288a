// What a connection's answer is to read as — an SSE body, NDJSON lines, or a list of messages (EventSource, a
// WebSocket) — and which of those messages are no events. Apart from BodyReader because the eviction digest
// (eviction-digest-reading.ts) and the connection's reading (connection-reading.ts) ask the same before any reader
// exists, and must answer as the reader does.
import { isForeignSocketMessage } from '../capture/agent-message-sniff.ts';
import type { ConnectionRecord, MessageRecord, Transport } from '../capture/model.ts';
import { isNdjsonContentType } from '../frames/ndjson.ts';

export type BodyKind = 'sse' | 'ndjson' | 'eventsource';

export function header(headers: [string, string][] | undefined, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers?.find(([k]) => k.toLowerCase() === lower)?.[1];
}

/** 'eventsource': the connection is a list of messages, each one event's data (EventSource, and an imported WebSocket's received text messages). */
export function bodyKindOf(rec: ConnectionRecord): BodyKind {
  if (rec.transport === 'eventsource' || rec.transport === 'websocket') return 'eventsource';
  return isNdjsonContentType(header(rec.responseHeaders, 'content-type')) ? 'ndjson' : 'sse';
}

/**
 * What a message of a socket or an EventSource is when it is no event: 'sent' (the page sent it on a socket, `type`
 * "send"), 'foreign' (the app's own, isForeignSocketMessage: on a socket any message, on an EventSource a named event
 * — an app's `done` with `{}` beside the agent's unnamed ones showed as an invalid event); undefined for an event or
 * an empty message. BodyReader shows such messages as frames and the eviction digest skips them: both ask this one
 * function.
 */
export function messageNonEvent(msg: MessageRecord, transport: Transport): 'sent' | 'foreign' | undefined {
  if (transport === 'websocket') {
    if (msg.type === 'send') return 'sent';
  } else if (transport !== 'eventsource' || msg.type === 'message') return undefined;
  return msg.data !== '' && isForeignSocketMessage(msg.data) ? 'foreign' : undefined;
}

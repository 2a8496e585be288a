// Is a WebSocket message an agent event? And, once a socket is recorded, is a message of it the app's own? A socket
// has no content type to tell an agent stream from a dev server's hot-reload channel, a chat's presence pings or a
// price feed, so the tap records a socket only once one of its text messages is an AgentScope or pi event (capture
// from then on; see extension/tap/websocket-tap.ts). The page tap bundles this file: no zod, no imports beyond the
// type-name lists.
//
// Names no other protocol is likely to use count on their own: the 28 AgentScope types but CUSTOM, the legacy
// dialect's run events, pi's block events and pi-agent-core's agent events. pi's `start`, `done` and `error` are
// common words (a hot-reload channel sends `{"type":"error"}`), so they count only with pi's shape: a `partial`
// message (pi-ai's own events), or a stop `reason` (the proxy form's end). The proxy form's bare `{"type":"start"}`
// does not; the tap's look-back keeps it when the block events follow.
import { AGENTSCOPE_EVENT_TYPES } from '../agentscope/event-types.ts';
import { PI_AGENT_EVENT_TYPES, PI_PROXY_EVENT_TYPES } from '../pi/event-types.ts';

/** Every type name of the protocols (a socket message with another `type` is the app's own, see isForeignSocketMessage). */
const PROTOCOL_NAMES: ReadonlySet<string> = new Set([...AGENTSCOPE_EVENT_TYPES, 'RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', ...PI_PROXY_EVENT_TYPES, ...PI_AGENT_EVENT_TYPES]);
/** pi's common-word events, and the stop reasons its `done` / `error` carry. */
const PI_GENERIC = new Set(['start', 'done', 'error']);
const PI_STOP_REASONS = new Set(['stop', 'length', 'toolUse', 'error', 'aborted']);

/** The `type` values that mark a message as an agent event on their own. */
export const AGENT_EVENT_NAMES: ReadonlySet<string> = new Set([...PROTOCOL_NAMES].filter((t) => t !== 'CUSTOM' && !PI_GENERIC.has(t)));
const LEGACY_BINARY = /^BINARY_BLOCK_[A-Z_]+$/;

/** Where the type is looked for: AgentScope writes it after id, created_at and metadata; pi first. */
const HEAD_CHARS = 4096;
/** Messages up to this size are parsed to confirm the type is the top-level one; longer ones are taken on the head. */
const MAX_PARSED_CHARS = 1024 * 1024;
const TYPE_FIELD = /"type"\s*:\s*"([A-Za-z_]{3,40})"/g;

/**
 * True when `text` is a JSON object whose top-level `type` is an agent event name, or one of pi's common words with
 * pi's shape (a message of over 1 MiB is judged by the names in its head alone). Cheap on everything else: a regular
 * expression over the first 4 KiB, a parse only when a candidate name is there.
 */
export function looksLikeAgentEvent(text: string): boolean {
  if (text.length < 12 || firstChar(text) !== 123 /* { */) return false;
  const head = text.length > HEAD_CHARS ? text.slice(0, HEAD_CHARS) : text;
  TYPE_FIELD.lastIndex = 0;
  let distinctive = false;
  let generic = false; // pi's common words: only if the parse below finds pi's shape
  for (let m = TYPE_FIELD.exec(head); m !== null && !distinctive; m = TYPE_FIELD.exec(head)) {
    distinctive = AGENT_EVENT_NAMES.has(m[1]);
    generic ||= PI_GENERIC.has(m[1]);
  }
  if (!distinctive && !generic) return false;
  if (text.length > MAX_PARSED_CHARS) return distinctive;
  const event = objectOf(text);
  if (!event) return false;
  if (typeof event.type !== 'string') return false;
  if (AGENT_EVENT_NAMES.has(event.type)) return true;
  if (!PI_GENERIC.has(event.type)) return false;
  if (event.partial !== null && typeof event.partial === 'object') return true;
  return event.type !== 'start' && typeof event.reason === 'string' && PI_STOP_REASONS.has(event.reason);
}


/**
 * A recorded socket also carries the app's own messages (presence, typing, pings): a frontend routes those away
 * before `appendEvent`, so analysis shows them as frames, not as invalid events. Foreign: text that is not JSON
 * (`ping`), and JSON that is not an object or whose `type` is no protocol's name (unless the object has a
 * protocol's shape: then it is a broken event). JSON that does not parse but looks like an object or array stays an event, so the broken
 * message is reported.
 */
export function isForeignSocketMessage(text: string): boolean {
  const first = firstChar(text);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return true;
  const event = objectOf(text);
  if (event === undefined) return false;
  if (event === null) return true;
  const type = event.type;
  if (typeof type === 'string' && (PROTOCOL_NAMES.has(type) || LEGACY_BINARY.test(type))) return false;
  // No type, or one no protocol knows, on an object of a protocol's shape (AgentScope's reply id, pi's content
  // index): an event the reference rejects (a misspelt or missing type), which is reported as such.
  return !('reply_id' in event || 'replyId' in event || 'contentIndex' in event);
}

/** The JSON object `text` holds; null when it holds another JSON value, undefined when it is not JSON. */
function objectOf(text: string): Record<string, unknown> | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The first character code after up to 16 characters of JSON whitespace. */
function firstChar(text: string): number {
  let i = 0;
  for (let c = text.charCodeAt(0); i < 16 && (c === 32 || c === 10 || c === 13 || c === 9); c = text.charCodeAt(++i));
  return text.charCodeAt(i);
}

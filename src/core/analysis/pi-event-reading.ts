// What a pi stream (pi-stream.ts) reads of one event besides its lifecycle step: what the proxy history keeps of it
// and replays, the message an assistant or agent event carries, the assistant event inside an agent's message_update.
// Apart from PiStream, which steps the lifecycle and keeps each reply's record: these are readings of one event alone,
// without the stream's state.
import { applyPiProxyEvent, failPiClient, type PiProxyState } from '../pi/proxy-reducer.ts';
import type { RawEvent } from './raw-event.ts';

/**
 * What the proxy history keeps of a step: the event's wire text (kept anyway by the event view) when it parsed, read
 * again on replay — not the parsed object, which for the tiny proxy events outweighed the text. (The assistant and
 * agent forms need no replay: see carried-history.ts.)
 */
export type PiStep = RawEvent | string;

export function stepOf(ev: RawEvent): PiStep {
  return ev.parseError === undefined ? ev.rawText : ev;
}

function rawOf(step: PiStep): unknown {
  return typeof step === 'string' ? JSON.parse(step) : step.raw;
}

export function reduceProxy(s: PiProxyState, step: PiStep): PiProxyState {
  return typeof step !== 'string' && step.parseError !== undefined ? failPiClient(s, step.parseError).state : applyPiProxyEvent(s, rawOf(step)).state;
}

/** The message an AssistantMessageEvent / AgentEvent carries, if any. */
export function carriedMessage(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return undefined;
  const o = raw as Record<string, unknown>;
  if (o.type === 'error' && o.error && typeof o.error === 'object') return o.error;
  return o.partial ?? o.message;
}

/** A message_update's assistantMessageEvent, when it is an object. */
export function innerEventOf(update: Record<string, unknown>): Record<string, unknown> | undefined {
  const inner = update.assistantMessageEvent;
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

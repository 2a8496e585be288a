// For full pi streams (pi-ai AssistantMessageEvent with `partial`, pi-agent-core AgentEvent with `message`), the
// message a frontend shows is the one the event carries — the deltas are redundant. This checker recomputes, for
// each event, what the previous reported message plus this event's delta should give, and reports every place the
// reported message disagrees. Comparing against the PREVIOUS REPORTED message (not an independent replay) pins
// each disagreement on the event that introduced it instead of repeating it on every later event.
import { parseStreamingJson } from './streaming-json.ts';

export interface PiMessageMismatch {
  /** Index of the event (as fed to the checker). */
  index: number;
  /** Where in the event, e.g. `partial.content[0].text`. */
  path: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

export interface PiMessageCheckState {
  /** The assistant message as the stream last reported it (undefined before a start / outside a message). */
  readonly previous?: Record<string, unknown>;
  /** Number of events checked. */
  readonly index: number;
}

export const initialPiMessageCheck: PiMessageCheckState = Object.freeze({ index: 0 });

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Structural equality of JSON values (key order ignored). With a stack of pairs still to compare, not recursion: the
 * messages come from the stream, and a value nested thousands deep (JSON.parse reads it) overflowed the call stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (!isObj(x) || !isObj(y)) return false;
    const kx = Object.keys(x).filter((k) => x[k] !== undefined);
    const ky = Object.keys(y).filter((k) => y[k] !== undefined);
    if (kx.length !== ky.length) return false;
    for (const k of kx) pending.push(x[k], y[k]);
  }
  return true;
}

/**
 * `${text}${delta}`, as the producer's `text += delta` coerces; undefined when the delta cannot be made text (an
 * array nested thousands deep, an object with its own toString key: the schema reports those), and no check is made.
 */
function appended(text: unknown, delta: unknown): string | undefined {
  try {
    return `${text}${delta}`;
  } catch {
    return undefined;
  }
}

function contentOf(message: unknown): unknown[] {
  return isObj(message) && Array.isArray(message.content) ? message.content : [];
}

class Collector {
  readonly found: PiMessageMismatch[] = [];
  constructor(readonly index: number, readonly base: string) {}
  expect(path: string, expected: unknown, actual: unknown, message: string): void {
    if (!jsonEqual(expected, actual)) this.found.push({ index: this.index, path: this.base + path, expected, actual, message });
  }
}

/** Blocks other than `changed` must be exactly as before. */
function checkUntouched(c: Collector, prev: unknown[], next: unknown[], changed: number | undefined): void {
  const n = Math.max(prev.length, next.length);
  for (let j = 0; j < n; j++) {
    if (j === changed) continue;
    // An event without a content index (message_end, done) changes no block: "about content[-]" read as a typo.
    const why = changed === undefined ? 'although the event changes no block (it names no content index)' : `although the event is about content[${changed}]`;
    c.expect(`.content[${j}]`, prev[j], next[j], `content[${j}] changed ${why}: the message it carries differs from the one the stream built`);
  }
}

function checkBlockEvent(c: Collector, ev: Obj, prevContent: unknown[], content: unknown[]): void {
  const i = typeof ev.contentIndex === 'number' ? ev.contentIndex : undefined;
  const type = ev.type as string;
  checkUntouched(c, prevContent, content, i);
  if (i === undefined) return;
  const before = isObj(prevContent[i]) ? prevContent[i] : undefined;
  const after = isObj(content[i]) ? content[i] : undefined;
  const at = `.content[${i}]`;
  const kind = type.startsWith('text') ? 'text' : type.startsWith('thinking') ? 'thinking' : 'toolCall';
  c.expect(`${at}.type`, kind, after?.type, `${type} but content[${i}] is not a ${kind} block`);
  if (type.endsWith('_start')) {
    if (kind !== 'toolCall') c.expect(`${at}.${kind}`, '', after?.[kind], `${type} should start an empty block`);
    return;
  }
  if (before?.type !== kind) {
    c.found.push({ index: c.index, path: c.base + at, expected: kind, actual: before?.type, message: `${type} on content[${i}], which was not a started ${kind} block` });
    return;
  }
  if (type === 'text_delta' || type === 'thinking_delta') {
    const text = appended(before[kind], ev.delta);
    if (text !== undefined) c.expect(`${at}.${kind}`, text, after?.[kind], `${kind} is not the previous ${kind} plus the delta`);
  } else if (type === 'text_end' || type === 'thinking_end') {
    c.expect(`${at}.${kind}`, before[kind], after?.[kind], `${type} changed the ${kind}`);
    if (ev.content !== after?.[kind]) {
      c.found.push({ index: c.index, path: 'content', expected: after?.[kind], actual: ev.content, message: `${type}.content differs from the block's ${kind}` });
    }
  } else if (type === 'toolcall_delta') {
    if (typeof before.partialJson === 'string' && after && 'partialJson' in after) {
      const json = appended(before.partialJson, ev.delta);
      if (json !== undefined) {
        c.expect(`${at}.partialJson`, json, after.partialJson, 'partialJson is not the previous text plus the delta');
        c.expect(`${at}.arguments`, parseStreamingJson(json) || {}, after.arguments, 'arguments are not the best-effort parse of partialJson');
      }
    }
  } else if (type === 'toolcall_end') {
    const { partialJson: _p, ...call } = after ?? {};
    if (!jsonEqual(call, ev.toolCall)) {
      c.found.push({ index: c.index, path: 'toolCall', expected: call, actual: ev.toolCall, message: 'toolcall_end.toolCall differs from the block in the message' });
    }
  }
}

/**
 * Checks one AssistantMessageEvent (`base` names where its message sits, for paths). Returns the message the
 * event reports (the next `previous`).
 */
function checkAssistantEvent(c: Collector, ev: Obj, previous: Obj | undefined): Obj | undefined {
  const type = ev.type;
  const message = (type === 'done' ? ev.message : type === 'error' ? ev.error : ev.partial) as unknown;
  if (!isObj(message)) return previous;
  if (type === 'start' || !previous) return message;
  const prevContent = contentOf(previous);
  const content = contentOf(message);
  if (type === 'done' || type === 'error') {
    checkUntouched(c, prevContent, content, undefined);
    c.expect('.stopReason', ev.reason, message.stopReason, `${type} reason differs from the message's stopReason`);
  } else {
    checkBlockEvent(c, ev, prevContent, content);
  }
  return message;
}

/** Checks one pi-ai AssistantMessageEvent (with partial/message/error). */
export function checkPiAssistantEvent(
  state: PiMessageCheckState,
  event: unknown,
): { state: PiMessageCheckState; mismatches: PiMessageMismatch[] } {
  const index = state.index;
  if (!isObj(event)) return { state: { ...state, index: index + 1 }, mismatches: [] };
  const base = event.type === 'done' ? 'message' : event.type === 'error' ? 'error' : 'partial';
  const c = new Collector(index, base);
  const previous = checkAssistantEvent(c, event, state.previous);
  return { state: { previous, index: index + 1 }, mismatches: c.found };
}

/**
 * Checks one pi-agent-core AgentEvent. message_start (assistant) sets the baseline; message_update is checked like
 * its assistantMessageEvent, and its `message` must equal that event's message; message_end must keep the content.
 */
export function checkPiAgentEvent(
  state: PiMessageCheckState,
  event: unknown,
): { state: PiMessageCheckState; mismatches: PiMessageMismatch[] } {
  const index = state.index;
  const next = (previous: Obj | undefined, found: PiMessageMismatch[] = []) => ({
    state: { previous, index: index + 1 },
    mismatches: found,
  });
  if (!isObj(event) || !isObj(event.message) || event.message.role !== 'assistant') {
    return next(event && isObj(event) && event.type === 'message_end' ? undefined : state.previous);
  }
  const message = event.message;
  if (event.type === 'message_start') return next(message);
  if (event.type === 'message_update' && isObj(event.assistantMessageEvent)) {
    const inner = event.assistantMessageEvent;
    const base = inner.type === 'done' ? 'message' : inner.type === 'error' ? 'error' : 'partial';
    const c = new Collector(index, `assistantMessageEvent.${base}`);
    checkAssistantEvent(c, inner, state.previous);
    const carried = inner.partial ?? inner.message ?? inner.error;
    if (carried !== undefined && !jsonEqual(carried, message)) {
      c.found.push({ index, path: 'message', expected: carried, actual: message, message: 'message differs from assistantMessageEvent.partial' });
    }
    return next(message, c.found);
  }
  if (event.type === 'message_end') {
    const c = new Collector(index, 'message');
    if (state.previous) checkUntouched(c, contentOf(state.previous), contentOf(message), undefined);
    return next(undefined, c.found);
  }
  return next(state.previous);
}

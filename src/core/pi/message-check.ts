// For full pi streams (pi-ai AssistantMessageEvent with `partial`, pi-agent-core AgentEvent with `message`), the
// message a frontend shows is the one the event carries — the deltas are redundant. This checker recomputes, for
// each event, what the previous reported message plus this event's delta should give, and reports every place the
// reported message disagrees. Comparing against the PREVIOUS REPORTED message (not an independent replay) pins
// each disagreement on the event that introduced it instead of repeating it on every later event.
//
// A carried message may be AHEAD of its event: pi-ai and streamProxy mutate one shared message, and a server
// serialises an event when it consumes it — after the producer has applied the frames that arrived with it in the
// same network chunk (an Agent listener that awaits lags the same way). Such a message holds text of later deltas,
// blocks started later, a tool call already ended; that is pi's own behaviour, not the server's doing. So a block's
// text (text, thinking, a tool call's partialJson) is held against what the deltas built of it, and a carried text
// that extends it is a claim on a later state: kept until the deltas reach it (or prove that they never do, which
// is then reported against the event that carried it).
import { parseStreamingJson } from './streaming-json.ts';
import { isObj, jsonEqual, type Obj } from '../json-equal.ts';
import { PI_PROXY_EVENT_TYPES } from './event-types.ts';

export { jsonEqual } from '../json-equal.ts';

export interface PiMessageMismatch {
  /** Index of the event (as fed to the checker). */
  index: number;
  /** Where in the event, e.g. `partial.content[0].text`. */
  path: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

/** What the deltas built of one block's text, and the furthest later state a carried message claimed for it. */
export interface BuiltText {
  readonly text: string;
  readonly claim?: { readonly text: string; readonly index: number; readonly path: string };
}

export interface PiMessageCheckState {
  /** The assistant message as the stream last reported it (undefined before a start / outside a message). */
  readonly previous?: Record<string, unknown>;
  /** Per content index: the text its events built (the current message's blocks; reset with the message). */
  readonly built?: readonly (BuiltText | undefined)[];
  /** Number of events checked. */
  readonly index: number;
}

export const initialPiMessageCheck: PiMessageCheckState = Object.freeze({ index: 0 });

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
  readonly built: (BuiltText | undefined)[];
  constructor(readonly index: number, readonly base: string, built: readonly (BuiltText | undefined)[] = []) {
    this.built = built.slice();
  }
  expect(path: string, expected: unknown, actual: unknown, message: string): void {
    if (!jsonEqual(expected, actual)) this.found.push({ index: this.index, path: this.base + path, expected, actual, message });
  }

  /**
   * The deltas built `built` of block `i`; the message carries `carried`. Equal, or ahead (a later state it
   * claims), is fine; anything else is reported here and the check goes on from the carried text.
   */
  text(i: number, path: string, built: string, carried: unknown, message: string): void {
    const at = this.base + path;
    const claim = this.advance(i, built);
    if (typeof carried === 'string' && carried !== built && carried.startsWith(built)) {
      if (claim && !claim.text.startsWith(carried) && !carried.startsWith(claim.text)) this.refute(claim, built);
      // Of two claims on one line of states, the further one holds the other (it is checked when reached).
      const further = claim && claim.text.startsWith(carried) ? claim : { text: carried, index: this.index, path: at };
      this.built[i] = { text: built, claim: further };
      return;
    }
    if (carried !== built) {
      this.found.push({ index: this.index, path: at, expected: built, actual: carried, message });
      this.built[i] = { text: typeof carried === 'string' ? carried : built };
      return;
    }
    this.built[i] = { text: built, ...(claim ? { claim } : {}) };
  }

  /**
   * The deltas built `built` of block `i` (also when the message no longer shows that text: a tool call carried as
   * already ended). Returns the claim still open: one the deltas reached is settled, one they left is refuted.
   */
  advance(i: number, built: string): BuiltText['claim'] {
    let claim = this.built[i]?.claim;
    if (claim && !claim.text.startsWith(built)) {
      // The deltas went another way than an earlier event's message said they would.
      this.refute(claim, built);
      claim = undefined;
    } else if (claim && claim.text === built) {
      claim = undefined; // reached
    }
    this.built[i] = { text: built, ...(claim ? { claim } : {}) };
    return claim;
  }

  /** The block is complete (or the message is): a claim its deltas never reached was no state of the stream. */
  settle(i: number): void {
    const b = this.built[i];
    if (b?.claim && b.claim.text !== b.text) this.refute(b.claim, b.text);
    if (b) this.built[i] = { text: b.text };
  }

  settleAll(): void {
    for (let i = 0; i < this.built.length; i++) this.settle(i);
  }

  private refute(claim: NonNullable<BuiltText['claim']>, built: string): void {
    this.found.push({
      index: claim.index,
      path: claim.path,
      expected: built,
      actual: claim.text,
      message: 'an earlier event carried text for this block that its deltas never built',
    });
  }
}

/**
 * A later state of the same block, as a message serialised after later events shows it: the block started since,
 * or its text, thinking or partialJson grew (a tool call's partialJson gone once it ended), the rest unchanged.
 */
function isLaterState(prev: unknown, next: unknown): boolean {
  if (prev === undefined) return isObj(next);
  if (!isObj(prev) || !isObj(next) || prev.type !== next.type) return false;
  for (const k of new Set([...Object.keys(prev), ...Object.keys(next)])) {
    const a = prev[k];
    const b = next[k];
    if (k === 'text' || k === 'thinking' || k === 'partialJson') {
      if (typeof a === 'string' && typeof b === 'string' ? b.startsWith(a) : a === b || (k === 'partialJson' && b === undefined)) continue;
      return false;
    }
    // Set by an end after the deltas: a signature, the arguments parsed from more JSON.
    if (a === undefined || k === 'arguments' || jsonEqual(a, b)) continue;
    return false;
  }
  return true;
}

/**
 * Blocks other than `changed` must be as before — or, for an event amid the stream (`later`), a later state of it
 * (see the top of the file). At done/error/message_end nothing comes later: the content is what it was.
 */
function checkUntouched(c: Collector, prev: unknown[], next: unknown[], changed: number | undefined, later = false): void {
  const n = Math.max(prev.length, next.length);
  for (let j = 0; j < n; j++) {
    if (j === changed) continue;
    if (later && !jsonEqual(prev[j], next[j]) && isLaterState(prev[j], next[j])) continue;
    // An event without a content index (message_end, done) changes no block: "about content[-]" read as a typo.
    const why = changed === undefined ? 'although the event changes no block (it names no content index)' : `although the event is about content[${changed}]`;
    c.expect(`.content[${j}]`, prev[j], next[j], `content[${j}] changed ${why}: the message it carries differs from the one the stream built`);
  }
}

/** The block events (text/thinking/toolcall × start/delta/end): what checkBlockEvent reads `type` as. */
type BlockEventType = Exclude<(typeof PI_PROXY_EVENT_TYPES)[number], 'start' | 'done' | 'error'>;

function checkBlockEvent(c: Collector, ev: Obj, type: BlockEventType, prevContent: unknown[], content: unknown[]): void {
  const i = typeof ev.contentIndex === 'number' ? ev.contentIndex : undefined;
  checkUntouched(c, prevContent, content, i, true);
  if (i === undefined) return;
  const before = isObj(prevContent[i]) ? prevContent[i] : undefined;
  const after = isObj(content[i]) ? content[i] : undefined;
  const at = `.content[${i}]`;
  const kind = type.startsWith('text') ? 'text' : type.startsWith('thinking') ? 'thinking' : 'toolCall';
  c.expect(`${at}.type`, kind, after?.type, `${type} but content[${i}] is not a ${kind} block`);
  if (type.endsWith('_start')) {
    c.settle(i); // a block started anew at this index: what was claimed for the old one is decided
    const field = kind === 'toolCall' ? 'partialJson' : kind;
    if (kind !== 'toolCall' || (after && typeof after.partialJson === 'string')) {
      c.text(i, `${at}.${field}`, '', after?.[field], `${type} should start an empty block`);
    } else {
      c.built[i] = { text: '' };
    }
    return;
  }
  if (before?.type !== kind) {
    c.found.push({ index: c.index, path: c.base + at, expected: kind, actual: before?.type, message: `${type} on content[${i}], which was not a started ${kind} block` });
    return;
  }
  if (type === 'text_delta' || type === 'thinking_delta') {
    const text = appended(c.built[i]?.text ?? before[kind], ev.delta);
    if (text !== undefined) c.text(i, `${at}.${kind}`, text, after?.[kind], `${kind} is not the previous ${kind} plus the delta`);
  } else if (type === 'text_end' || type === 'thinking_end') {
    c.expect(`${at}.${kind}`, before[kind], after?.[kind], `${type} changed the ${kind}`);
    if (ev.content !== after?.[kind]) {
      c.found.push({ index: c.index, path: 'content', expected: after?.[kind], actual: ev.content, message: `${type}.content differs from the block's ${kind}` });
    }
    c.settle(i);
  } else if (type === 'toolcall_delta') {
    const built = c.built[i]?.text ?? before.partialJson;
    if (typeof built === 'string' && after && 'partialJson' in after) {
      const json = appended(built, ev.delta);
      if (json !== undefined) {
        c.text(i, `${at}.partialJson`, json, after.partialJson, 'partialJson is not the previous text plus the delta');
        // The arguments are parsed from the partialJson the message carries (the same, or a later one).
        const carried = typeof after.partialJson === 'string' ? after.partialJson : json;
        c.expect(`${at}.arguments`, parseStreamingJson(carried) || {}, after.arguments, 'arguments are not the best-effort parse of partialJson');
      }
    } else if (typeof built === 'string') {
      // The carried call already ended (its partialJson gone): the deltas build on unseen.
      const json = appended(built, ev.delta);
      if (json !== undefined) c.advance(i, json);
    }
  } else if (type === 'toolcall_end') {
    c.settle(i);
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
  // Not an AssistantMessageEvent (a type that is no pi type, or no string at all: the validation tells it). The
  // client skips such a frame, so it is no state of the message: the next event is checked against the one before.
  if (!(PI_PROXY_EVENT_TYPES as readonly unknown[]).includes(type)) return previous;
  const message = (type === 'done' ? ev.message : type === 'error' ? ev.error : ev.partial) as unknown;
  if (!isObj(message)) return previous;
  if (type === 'start' || !previous) return message;
  const prevContent = contentOf(previous);
  const content = contentOf(message);
  if (type === 'done' || type === 'error') {
    c.settleAll();
    checkUntouched(c, prevContent, content, undefined);
    c.expect('.stopReason', ev.reason, message.stopReason, `${type} reason differs from the message's stopReason`);
  } else {
    checkBlockEvent(c, ev, type as BlockEventType, prevContent, content);
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
  const c = new Collector(index, base, event.type === 'start' ? [] : state.built);
  const previous = checkAssistantEvent(c, event, state.previous);
  return { state: { previous, built: c.built, index: index + 1 }, mismatches: c.found };
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
  const next = (previous: Obj | undefined, found: PiMessageMismatch[] = [], built?: readonly (BuiltText | undefined)[]) => ({
    state: { previous, ...(previous && (built ?? state.built) ? { built: built ?? state.built } : {}), index: index + 1 },
    mismatches: found,
  });
  if (!isObj(event) || !isObj(event.message) || event.message.role !== 'assistant') {
    return next(event && isObj(event) && event.type === 'message_end' ? undefined : state.previous);
  }
  const message = event.message;
  if (event.type === 'message_start') return next(message, [], []);
  if (event.type === 'message_update' && isObj(event.assistantMessageEvent)) {
    const inner = event.assistantMessageEvent;
    const base = inner.type === 'done' ? 'message' : inner.type === 'error' ? 'error' : 'partial';
    const c = new Collector(index, `assistantMessageEvent.${base}`, inner.type === 'start' ? [] : state.built);
    checkAssistantEvent(c, inner, state.previous);
    const carried = inner.partial ?? inner.message ?? inner.error;
    if (carried !== undefined && !jsonEqual(carried, message)) {
      c.found.push({ index, path: 'message', expected: carried, actual: message, message: 'message differs from assistantMessageEvent.partial' });
    }
    return next(message, c.found, c.built);
  }
  if (event.type === 'message_end') {
    const c = new Collector(index, 'message', state.built);
    c.settleAll();
    if (state.previous) checkUntouched(c, contentOf(state.previous), contentOf(message), undefined);
    return next(undefined, c.found);
  }
  return next(state.previous);
}

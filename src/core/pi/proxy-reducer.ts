// Step-wise, pure reconstruction of pi-agent-core 0.73.1 `streamProxy`: what `processProxyEvent` does to the
// client's message for each data frame, which event the client yields, and when `result()` settles.
// Reference behaviour reproduced on purpose (conformance README, "pi" section):
// - frames are NOT validated: whatever JSON arrives is used with JavaScript's coercions (`text += delta` etc.);
// - after `done`/`error` the stream drops the yielded events, but the frames still change the message that
//   result() returned (one shared object) — here: `state.settled` stays true and `state.message` keeps changing;
// - a mismatched text/thinking/toolcall delta or text/thinking end throws: the client yields one `error` event
//   (stopReason "error", errorMessage = the thrown text) and reads nothing more (`state.stopped`);
// - a toolcall_end on a non-toolCall slot is silently ignored; unknown types only console.warn.
import {
  contentKey,
  initialPiMessage,
  jsonRoundTrip,
  piMessageSnapshot,
  readBlock,
  writeBlock,
  type PiBlock,
  type PiMessageJson,
  type PiMessageState,
} from './message-state.ts';
import { StreamedArguments } from './streaming-json.ts';

export const PI_EMITTED_TYPES = [
  'start',
  'text_start',
  'text_delta',
  'text_end',
  'thinking_start',
  'thinking_delta',
  'thinking_end',
  'toolcall_start',
  'toolcall_delta',
  'toolcall_end',
  'done',
  'error',
] as const;
export type PiEmittedType = (typeof PI_EMITTED_TYPES)[number];

export interface PiProxyState {
  readonly message: PiMessageState;
  /** A done/error event was yielded: result() has resolved and further yields are dropped. */
  readonly settled: boolean;
  /** The client threw (bad frame, HTTP error, abort…) and stopped reading; later frames are never read. */
  readonly stopped: boolean;
  /** Number of frames/failures applied so far. */
  readonly steps: number;
}

/** JSON form of a yielded event without its `partial`/`message`/`error` (the conformance `eventDetails`). */
export type PiEventDetail = Record<string, unknown> & { type: PiEmittedType };

export interface PiProxyStep {
  readonly state: PiProxyState;
  /** The event the client created for this input (also when it is dropped because result() settled). */
  readonly emitted?: PiEmittedType;
  /** True when `emitted` actually reached the consumer (false after settlement). */
  readonly delivered: boolean;
  readonly detail?: PiEventDetail;
  /** The message the client threw with (the client stops reading after this step). */
  readonly failure?: string;
  /** Text the client passed to console.warn. */
  readonly warning?: string;
  /** Why the input changed nothing and yielded nothing. */
  readonly skipped?: 'after-failure' | 'mismatched-toolcall-end' | 'unknown-type';
}

export interface PiInitOptions {
  /** Epoch ms the client stamped on the message (omitted from snapshots when unknown). */
  timestamp?: number;
}

/** State before any frame. `requestBody` is the parsed JSON body of the client's POST ({model, context, options}). */
export function initialPiState(requestBody: unknown, options: PiInitOptions = {}): PiProxyState {
  return { message: initialPiMessage(requestBody, options.timestamp), settled: false, stopped: false, steps: 0 };
}

interface Transition {
  message: PiMessageState;
  emitted?: PiEmittedType;
  /** Event fields besides type/partial, in the reference's key order. */
  fields?: Record<string, unknown>;
  warning?: string;
  skipped?: PiProxyStep['skipped'];
}

function withContent(message: PiMessageState, key: string, block: PiBlock): PiMessageState {
  return { ...message, content: writeBlock(message.content, key, block) };
}

// `any` on purpose: the reference applies JavaScript semantics to unvalidated JSON, and so must we.
function startBlock(message: PiMessageState, ev: any, block: PiBlock, type: PiEmittedType): Transition {
  const key = contentKey(ev.contentIndex);
  return { message: withContent(message, key, block), emitted: type, fields: { contentIndex: ev.contentIndex } };
}

/** text/thinking delta: append to the block's text field, or throw like processProxyEvent. */
function appendDelta(message: PiMessageState, ev: any, kind: 'text' | 'thinking'): Transition {
  const key = contentKey(ev.contentIndex);
  const block = readBlock(message.content, key);
  if (block?.type !== kind) throw new Error(`Received ${kind}_delta for non-${kind} content`);
  const updated = { ...block, [kind]: (block[kind] as string) + ev.delta } as PiBlock;
  return {
    message: withContent(message, key, updated),
    emitted: `${kind}_delta`,
    fields: { contentIndex: ev.contentIndex, delta: ev.delta },
  };
}

function endTextual(message: PiMessageState, ev: any, kind: 'text' | 'thinking'): Transition {
  const key = contentKey(ev.contentIndex);
  const block = readBlock(message.content, key);
  if (block?.type !== kind) throw new Error(`Received ${kind}_end for non-${kind} content`);
  const updated = { ...block, [`${kind}Signature`]: ev.contentSignature } as PiBlock;
  return {
    message: withContent(message, key, updated),
    emitted: `${kind}_end`,
    fields: { contentIndex: ev.contentIndex, content: block[kind] },
  };
}

function toolCallDelta(message: PiMessageState, ev: any): Transition {
  const key = contentKey(ev.contentIndex);
  const block = readBlock(message.content, key);
  if (block?.type !== 'toolCall') throw new Error('Received toolcall_delta for non-toolCall content');
  // After a toolcall_end removed partialJson, `undefined + delta` gives "undefined…" like the reference.
  const partialJson = (block.partialJson as string) + ev.delta;
  const updated = { ...block, partialJson, arguments: new StreamedArguments(partialJson) } as PiBlock;
  // Keep the reference's key order (arguments before partialJson; a re-added partialJson goes last).
  const ordered = reorder(updated, block);
  return {
    message: withContent(message, key, ordered),
    emitted: 'toolcall_delta',
    fields: { contentIndex: ev.contentIndex, delta: ev.delta },
  };
}

/** Rebuilds `next` with `prev`'s key order first, new keys after (what in-place assignment produces). */
function reorder(next: PiBlock, prev: PiBlock): PiBlock {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(prev)) out[k] = next[k];
  for (const k of Object.keys(next)) if (!(k in out)) out[k] = next[k];
  return out as PiBlock;
}

function toolCallEnd(message: PiMessageState, ev: any): Transition {
  const key = contentKey(ev.contentIndex);
  const block = readBlock(message.content, key);
  if (block?.type !== 'toolCall') return { message, skipped: 'mismatched-toolcall-end' };
  const { partialJson: _dropped, ...rest } = block;
  const updated = rest as PiBlock;
  return {
    message: withContent(message, key, updated),
    emitted: 'toolcall_end',
    fields: { contentIndex: ev.contentIndex, toolCall: updated },
  };
}

function transition(message: PiMessageState, ev: any): Transition {
  switch (ev.type) {
    case 'start':
      return { message, emitted: 'start', fields: {} };
    case 'text_start':
      return startBlock(message, ev, { type: 'text', text: '' }, 'text_start');
    case 'text_delta':
      return appendDelta(message, ev, 'text');
    case 'text_end':
      return endTextual(message, ev, 'text');
    case 'thinking_start':
      return startBlock(message, ev, { type: 'thinking', thinking: '' }, 'thinking_start');
    case 'thinking_delta':
      return appendDelta(message, ev, 'thinking');
    case 'thinking_end':
      return endTextual(message, ev, 'thinking');
    case 'toolcall_start':
      return startBlock(
        message,
        ev,
        { type: 'toolCall', id: ev.id, name: ev.toolName, arguments: {}, partialJson: '' },
        'toolcall_start',
      );
    case 'toolcall_delta':
      return toolCallDelta(message, ev);
    case 'toolcall_end':
      return toolCallEnd(message, ev);
    case 'done':
      return {
        message: { ...message, stopReason: ev.reason, usage: ev.usage },
        emitted: 'done',
        fields: { reason: ev.reason },
      };
    case 'error':
      return {
        message: {
          ...message,
          stopReason: ev.reason,
          errorMessage: ev.errorMessage,
          hasErrorMessage: true,
          usage: ev.usage,
        },
        emitted: 'error',
        fields: { reason: ev.reason },
      };
    default:
      // A template literal, like the reference's console.warn (it can throw for odd objects, and then fails too).
      return { message, warning: `Unhandled proxy event type: ${ev.type}`, skipped: 'unknown-type' };
  }
}

/**
 * The yielded event as JSON (`{type, ...fields}` through a JSON round trip). Nearly every event's fields are plain
 * strings and finite numbers (a delta and its contentIndex), which JSON keeps as they are: those skip the round trip,
 * which on every event cost ~12% of a pi stream's analysis.
 */
function eventDetail(type: PiEmittedType, fields: Record<string, unknown> | undefined): PiEventDetail {
  const out: PiEventDetail = { type };
  for (const k in fields) {
    const v = fields[k];
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0)) || typeof v === 'boolean' || v === null) out[k] = v;
    else return jsonRoundTrip<PiEventDetail>({ type, ...fields });
  }
  return out;
}

function finish(state: PiProxyState, t: Transition, stopped = false, failure?: string): PiProxyStep {
  const delivered = t.emitted !== undefined && !state.settled;
  const settles = t.emitted === 'done' || t.emitted === 'error';
  const next: PiProxyState = {
    message: t.message,
    settled: state.settled || (delivered && settles),
    stopped: state.stopped || stopped,
    steps: state.steps + 1,
  };
  const detail = t.emitted ? eventDetail(t.emitted, t.fields) : undefined;
  return {
    state: next,
    delivered,
    ...(t.emitted ? { emitted: t.emitted, detail } : {}),
    ...(failure !== undefined ? { failure } : {}),
    ...(t.warning !== undefined ? { warning: t.warning } : {}),
    ...(t.skipped ? { skipped: t.skipped } : {}),
  };
}

function ignoredAfterFailure(state: PiProxyState): PiProxyStep {
  return { state, delivered: false, skipped: 'after-failure' };
}

/**
 * The client gave up (threw): stopReason becomes `reason`, errorMessage the message, one `error` event is
 * yielded (dropped if result() already settled — the message changes anyway) and nothing more is read.
 */
export function failPiClient(state: PiProxyState, message: string, reason: 'error' | 'aborted' = 'error'): PiProxyStep {
  if (state.stopped) return ignoredAfterFailure(state);
  const failed: PiMessageState = { ...state.message, stopReason: reason, errorMessage: message, hasErrorMessage: true };
  return finish(state, { message: failed, emitted: 'error', fields: { reason } }, true, message);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Applies one parsed proxy frame (any JSON value) exactly as processProxyEvent + the stream would. */
export function applyPiProxyEvent(state: PiProxyState, event: unknown): PiProxyStep {
  if (state.stopped) return ignoredAfterFailure(state);
  let t: Transition;
  try {
    t = transition(state.message, event);
  } catch (error) {
    return failPiClient(state, errorText(error));
  }
  return finish(state, t);
}

/** One `data: ` payload (already sliced and trimmed, non-empty): JSON.parse, then apply; a parse error fails the client. */
export function applyPiDataLine(state: PiProxyState, data: string): PiProxyStep {
  if (state.stopped) return ignoredAfterFailure(state);
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch (error) {
    return failPiClient(state, errorText(error));
  }
  return applyPiProxyEvent(state, event);
}

/** The message as JSON at this state. */
export function piStateSnapshot(state: PiProxyState): PiMessageJson {
  return piMessageSnapshot(state.message);
}

/** What `result()` resolves to once the body was read: the (shared) message, or null when it never settles. */
export function piFinalResult(state: PiProxyState): PiMessageJson | null {
  return state.settled ? piMessageSnapshot(state.message) : null;
}

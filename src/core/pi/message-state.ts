// The immutable message a pi client builds from a stream. pi-agent-core mutates ONE shared object; we keep a new
// value per step with structural sharing instead (unchanged blocks are reused, nothing is ever mutated), so any
// step can be kept for time travel. `piMessageSnapshot` turns a state into exactly what a JSON round trip of the
// reference's object gives (undefined keys vanish, holes become null, non-index content keys disappear).
import { truncateDeep } from '../diagnostics/shown.ts';
import { BlockMap } from './block-map.ts';

/** A content block as the client stores it (text / thinking / toolCall), keys in the reference's order. */
export type PiBlock = Readonly<Record<string, unknown>> & { readonly type: string };

/**
 * The client's `content` array. The reference assigns `content[contentIndex]` with whatever `contentIndex` the
 * frame carried, so besides array slots (holes allowed) blocks can live under non-index keys such as "undefined"
 * or "-1": JavaScript keeps them on the array object, JSON never shows them.
 */
export interface PiContent {
  /** Blocks by array index: a persistent map (block-map.ts), not a sparse array — contentIndex 4294967294 stays cheap. */
  readonly items: BlockMap;
  /** The array's `length` (highest index + 1; holes in between are JSON nulls). */
  readonly length: number;
  readonly hidden: Readonly<Record<string, PiBlock>>;
}

export interface PiMessageState {
  readonly role: 'assistant';
  readonly stopReason: unknown;
  readonly content: PiContent;
  readonly api: unknown;
  readonly provider: unknown;
  readonly model: unknown;
  readonly usage: unknown;
  /** The reference stamps Date.now() at request time; only kept when the caller knows it. */
  readonly timestamp?: number;
  /** Set (possibly to undefined) by an `error` frame or a client failure; the key then exists in the object. */
  readonly errorMessage?: unknown;
  readonly hasErrorMessage: boolean;
}

/** JSON form of the message (what `steps`/`final` hold). */
export type PiMessageJson = Record<string, unknown>;

const ZERO_USAGE = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }),
});

const EMPTY_CONTENT: PiContent = Object.freeze({ items: BlockMap.EMPTY, length: 0, hidden: Object.freeze({}) });

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The message before any frame: streamProxy starts from the request's `model` (api, provider, id →
 * api/provider/model), stopReason "stop", empty content and zero usage. `requestBody` is the parsed JSON the
 * client POSTed ({model, context, options}); anything missing stays undefined (absent in JSON).
 */
export function initialPiMessage(requestBody: unknown, timestamp?: number): PiMessageState {
  const model = field(requestBody, 'model');
  return {
    role: 'assistant',
    stopReason: 'stop',
    content: EMPTY_CONTENT,
    api: field(model, 'api'),
    provider: field(model, 'provider'),
    model: field(model, 'id'),
    usage: ZERO_USAGE,
    ...(timestamp === undefined ? {} : { timestamp }),
    hasErrorMessage: false,
  };
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/** The property key JavaScript uses for `content[index]` (may throw like the reference, e.g. for odd objects). */
export function contentKey(index: unknown): string {
  return String(index);
}

/** Array index of a property key, or undefined when the key is not a canonical array index. */
export function arrayIndexOf(key: string): number | undefined {
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && n <= MAX_ARRAY_INDEX && String(n) === key ? n : undefined;
}

/** Reads `content[key]`: only own slots/keys can hold a block (inherited Array members never are blocks). */
export function readBlock(content: PiContent, key: string): PiBlock | undefined {
  const index = arrayIndexOf(key);
  if (index !== undefined) return content.items.get(index);
  return Object.hasOwn(content.hidden, key) ? content.hidden[key] : undefined;
}

/** `content[key] = block` without touching `content`. Writing `length` fails like on a real array. */
export function writeBlock(content: PiContent, key: string, block: PiBlock): PiContent {
  const index = arrayIndexOf(key);
  if (index !== undefined) {
    const items = content.items.set(index, block);
    return { items, length: Math.max(content.length, index + 1), hidden: content.hidden };
  }
  if (key === 'length') throw new RangeError('Invalid array length');
  return { items: content.items, length: content.length, hidden: { ...content.hidden, [key]: block } };
}

/** Blocks visible in JSON, with their indices (holes skipped). */
export function visibleBlocks(content: PiContent): [number, PiBlock][] {
  return [...content.items.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * Largest content array we materialise. The reference would build a JSON string of `length` nulls (and fail past
 * V8's string limit); a panel must not, so beyond this a snapshot throws instead of allocating gigabytes.
 */
export const MAX_MATERIALISED_CONTENT = 1_000_000;

function contentArray(content: PiContent): (PiBlock | undefined)[] {
  if (content.length > MAX_MATERIALISED_CONTENT) {
    throw new RangeError(`pi content index ${content.length - 1} is too large to materialise the message`);
  }
  const array: (PiBlock | undefined)[] = new Array(content.length);
  for (const [i, block] of content.items) array[i] = block;
  return array;
}

/** The plain object the reference holds, before JSON. */
function toPlain(message: PiMessageState): Record<string, unknown> {
  const plain: Record<string, unknown> = {
    role: message.role,
    stopReason: message.stopReason,
    content: contentArray(message.content),
    api: message.api,
    provider: message.provider,
    model: message.model,
    usage: message.usage,
  };
  if (message.timestamp !== undefined) plain.timestamp = message.timestamp;
  if (message.hasErrorMessage) plain.errorMessage = message.errorMessage;
  return plain;
}

/** A JSON round trip of any value (the snapshot rule of the conformance output). */
export function jsonRoundTrip<T = unknown>(value: unknown): T {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    // A hostile, absurdly deep value (the client holds it; JSON cannot show it): cut it where it gets too deep.
    text = JSON.stringify(truncateDeep(value, MAX_SNAPSHOT_DEPTH));
  }
  return (text === undefined ? undefined : JSON.parse(text)) as T;
}

const MAX_SNAPSHOT_DEPTH = 1000;

/** The message as JSON: what the reference's shared object looked like at this step. */
export function piMessageSnapshot(message: PiMessageState): PiMessageJson {
  return jsonRoundTrip<PiMessageJson>(toPlain(message));
}

// JSON text of a value as a sequence of parts, for files larger than one JavaScript string can hold (V8: 2^29 − 24
// UTF-16 units, ~512 MiB). The HAR of a 150 MB capture is ~530 MB of text: written by one JSON.stringify, the export
// of anything larger failed with "Invalid string length". Joined, the parts are exactly JSON.stringify(value, null,
// indent) — the same file, only never held as one string; a download makes a Blob of them. (A value nested too deep
// for JSON.stringify, which a stream can send, is written by jsonText, see json-text.ts: whole, laid out down to its
// depth limit.)
import { jsonText } from '../json-text.ts';

export interface PartLimits {
  /** A string longer than this is written in slices (a body of hundreds of MB is one JSON string in a HAR). */
  slice: number;
  /** A container of at most this many values and `slice` characters of strings is written by one JSON.stringify. */
  values: number;
}

const LIMITS: PartLimits = { slice: 1 << 20, values: 512 };

/**
 * Containers walked part by part down to this depth; a deeper one is written as one text by jsonText. Each level
 * walked is a generator delegating to the next, and resuming one resumes them all: a value a stream sent nested
 * 100,000 deep (a legacy AgentScope message's metadata) overflowed the stack. Parts this deep are in no file's
 * records (those are a few levels deep): only such a value reaches it.
 */
const MAX_WALKED_DEPTH = 100;

/**
 * A point in a long computation where a writer may give the thread back: jsonParts yields an empty part there. An
 * export of a 300 MB capture is seconds of work; a caller that drains the parts in slices (the panel's export) needs
 * a part now and then even where none is written — while a body is checked, or records are grouped.
 */
export const PAUSE: unique symbol = Symbol('pause');
export type Pause = typeof PAUSE;

/** Runs a pausing computation through at once (for callers that do not slice it). */
export function runSteps<T>(steps: Generator<Pause, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How far a lazy writer has come, in units of work it names (records written, say): `done` of `total`. */
export interface WorkProgress {
  done: number;
  total: number;
}

/**
 * Values jsonParts writes as they are made, for what is too large, or too slow, to make at once. JSON.stringify does
 * not know them: they are for jsonParts only.
 */
export abstract class LazyJson {}

/** A value whose making pauses: `steps` yields PAUSE between pieces of its work and returns the value to write. */
export class LazyValue extends LazyJson {
  constructor(readonly steps: () => Generator<Pause, unknown>) {
    super();
  }
}

/** An array written item by item as `items` makes them (a PAUSE among them is no item). */
export class LazyArray extends LazyJson {
  constructor(readonly items: () => Iterable<unknown>) {
    super();
  }
}

/**
 * A string written piece by piece — never held whole: a body may be longer than a string can be. A piece must not end
 * in the first half of a surrogate pair (escaped alone, each half would be written as a \u escape).
 */
export class LazyString extends LazyJson {
  constructor(readonly pieces: () => Iterable<string | Pause>) {
    super();
  }
}

/**
 * The parts of JSON.stringify(value, null, indent). Small values (a capture record, a header) are stringified whole and
 * re-indented; larger arrays and objects are walked, so that no part is longer than a slice of a long string or a
 * small value's text.
 */
export function* jsonParts(value: unknown, indent = 0, limits: PartLimits = LIMITS): Generator<string> {
  const top = toJsonValue(value, '');
  if (top === undefined) return; // JSON.stringify(undefined) is no text either
  yield* walk(top, '', ' '.repeat(indent), limits, 0);
}

/** Parts joined into pieces of about `size` characters: fewer, larger parts for a Blob or a file. */
export function* joinParts(parts: Iterable<string>, size = 4 << 20): Generator<string> {
  let pending: string[] = [];
  let length = 0;
  for (const p of parts) {
    pending.push(p);
    length += p.length;
    if (length >= size) {
      yield pending.join('');
      pending = [];
      length = 0;
    }
  }
  if (length > 0) yield pending.join('');
}

/** What JSON.stringify writes for a value: its toJSON's result; undefined, functions and symbols are no value. */
function toJsonValue(v: unknown, key: string): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
}

function* walk(v: unknown, pad: string, gap: string, limits: PartLimits, depth: number): Generator<string> {
  if (v instanceof LazyJson) {
    yield* walkLazy(v, pad, gap, limits, depth);
    return;
  }
  if (typeof v === 'string' && v.length > limits.slice) {
    yield* longString(v, limits.slice);
    return;
  }
  if (v === null || typeof v !== 'object' || depth >= MAX_WALKED_DEPTH || isSmall(v, { values: limits.values, chars: limits.slice })) {
    yield jsonText(v, gap, pad) as string;
    return;
  }
  const inner = pad + gap;
  const open = gap ? `\n${inner}` : '';
  if (Array.isArray(v)) {
    if (v.length === 0) return void (yield '[]');
    for (let i = 0; i < v.length; i++) {
      yield i === 0 ? `[${open}` : `,${open}`;
      const item = toJsonValue(v[i], String(i));
      yield* walk(item === undefined ? null : item, inner, gap, limits, depth + 1);
    }
    yield gap ? `\n${pad}]` : ']';
    return;
  }
  let first = true;
  for (const key of Object.keys(v)) {
    const item = toJsonValue((v as Record<string, unknown>)[key], key);
    if (item === undefined) continue;
    yield `${first ? '{' : ','}${open}${JSON.stringify(key)}:${gap ? ' ' : ''}`;
    first = false;
    yield* walk(item, inner, gap, limits, depth + 1);
  }
  yield first ? '{}' : gap ? `\n${pad}}` : '}';
}

function* walkLazy(v: LazyJson, pad: string, gap: string, limits: PartLimits, depth: number): Generator<string> {
  if (v instanceof LazyValue) {
    const steps = v.steps();
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        const value = toJsonValue(step.value, '');
        yield* walk(value === undefined ? null : value, pad, gap, limits, depth);
        return;
      }
      yield '';
    }
  }
  if (v instanceof LazyString) {
    yield '"';
    for (const piece of v.pieces()) {
      if (piece === PAUSE) yield '';
      else yield* escapedSlices(piece, limits.slice);
    }
    yield '"';
    return;
  }
  if (v instanceof LazyArray) {
    const inner = pad + gap;
    const open = gap ? `\n${inner}` : '';
    let i = 0;
    for (const raw of v.items()) {
      if (raw === PAUSE) {
        yield '';
        continue;
      }
      yield i === 0 ? `[${open}` : `,${open}`;
      const item = toJsonValue(raw, String(i++));
      yield* walk(item === undefined ? null : item, inner, gap, limits, depth + 1);
    }
    yield i === 0 ? '[]' : gap ? `\n${pad}]` : ']';
  }
}

/** A long string as JSON, in slices. */
function* longString(s: string, slice: number): Generator<string> {
  yield '"';
  yield* escapedSlices(s, slice);
  yield '"';
}

/**
 * A string in slices, each escaped as JSON.stringify escapes it. A slice never ends between the two halves of a
 * surrogate pair: escaped alone, each half would be written as a \u escape, not as the character.
 */
function* escapedSlices(s: string, slice: number): Generator<string> {
  for (let i = 0; i < s.length;) {
    let end = Math.min(s.length, i + slice);
    const last = s.charCodeAt(end - 1);
    const next = s.charCodeAt(end); // NaN at the end
    if (last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) end++; // the pair goes whole
    yield JSON.stringify(s.slice(i, end)).slice(1, -1);
    i = end;
  }
}

/** True when the value holds at most `budget.values` values and `budget.chars` characters of strings (counted down). */
function isSmall(v: unknown, budget: { values: number; chars: number }): boolean {
  if (--budget.values < 0) return false;
  if (typeof v === 'string') return (budget.chars -= v.length) >= 0;
  if (v === null || typeof v !== 'object') return true;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false; // walked: toJSON is called there
  if (v instanceof LazyJson) return false; // made as it is written
  const items = Array.isArray(v) ? v : Object.values(v);
  for (const item of items) if (!isSmall(item, budget)) return false;
  return true;
}

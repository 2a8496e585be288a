// The pi proxy client's state as plain JSON, and back: an eviction digest carries it (eviction-digest.ts), in the
// relay's records and in capture logs, and PiStream continues from it — an evicted head's, or where a resumed stream
// stood (PiStream.stateAt writes it).
import { BlockMap } from '../pi/block-map.ts';
import type { PiProxyState } from '../pi/proxy-reducer.ts';
import { StreamedArguments } from '../pi/streaming-json.ts';

/**
 * The pi client state as plain JSON (its content is a Map of blocks by index), or why it cannot be. The reference
 * applies JavaScript coercions to unvalidated JSON, so a block can hold `undefined` (a key that exists, e.g. an
 * absent textSignature) or a non-finite number: those are written as `{"$js": "undefined" | "NaN" | …}` in place,
 * so decoding restores the very same object (same keys, same order). Anything else not JSON — or a genuine
 * `{"$js": …}` object, which would be ambiguous — reports the state as not derived rather than altering it.
 */
export function encodePiState(s: PiProxyState): Record<string, unknown> | string {
  const { content, ...message } = s.message;
  const value = {
    message: { ...message, content: { items: [...content.items.entries()], length: content.length, hidden: content.hidden } },
    settled: s.settled,
    stopped: s.stopped,
    steps: s.steps,
  };
  const out = toJson(value, 'state');
  return typeof out === 'object' && 'problem' in out ? out.problem : (out.value as Record<string, unknown>);
}

/** Inverse of encodePiState. */
export function decodePiState(json: unknown): PiProxyState {
  const v = fromJson(json) as {
    message: Record<string, unknown> & { content: { items: [number, unknown][]; length: number; hidden: Record<string, unknown> } };
    settled: boolean; stopped: boolean; steps: number;
  };
  const c = v.message.content;
  return {
    message: { ...v.message, content: { items: BlockMap.from(c.items), length: c.length, hidden: c.hidden } } as unknown as PiProxyState['message'],
    settled: v.settled,
    stopped: v.stopped,
    steps: v.steps,
  };
}

const JS_VALUES: Record<string, unknown> = { undefined, NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };
const isJsMarker = (v: object): boolean => {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0] === '$js';
};

/**
 * Deepest nesting the encoding writes out. The client holds whatever JSON.parse read (a block id can be an array
 * nested 100,000 deep), and a recursive walk of that overflowed the stack in the relay; such a state is reported as
 * not derived instead.
 */
const MAX_ENCODED_DEPTH = 1000;

function toJson(v: unknown, path: string, depth = 0): { value: unknown } | { problem: string } {
  if (depth > MAX_ENCODED_DEPTH) return { problem: `${path.slice(0, 80)}… is nested deeper than ${MAX_ENCODED_DEPTH} levels` };
  if (v === undefined) return { value: { $js: 'undefined' } };
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return { value: v };
  if (typeof v === 'number') return { value: Number.isFinite(v) ? v : { $js: String(v) } };
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const x = toJson(v[i], `${path}[${i}]`, depth + 1);
      if ('problem' in x) return x;
      out.push(x.value);
    }
    return { value: out };
  }
  // A tool call's arguments, parsed when read (see StreamedArguments): encoded as the value they stand for.
  if (v instanceof StreamedArguments) return toJson(v.toJSON(), path, depth);
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    if (isJsMarker(v)) return { problem: `${path} is an object {"$js": …}, which the encoding reserves` };
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const e = toJson(x, `${path}.${k}`, depth + 1);
      if ('problem' in e) return e;
      out[k] = e.value;
    }
    return { value: out };
  }
  return { problem: `${path} is a ${typeof v}, which JSON cannot hold` };
}

function fromJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromJson);
  if (v === null || typeof v !== 'object') return v;
  if (isJsMarker(v)) return JS_VALUES[(v as { $js: string }).$js];
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = fromJson(x);
  return out;
}

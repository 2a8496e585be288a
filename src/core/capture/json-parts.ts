// JSON text of a value as a sequence of parts, for files larger than one JavaScript string can hold (V8: 2^29 − 24
// UTF-16 units, ~512 MiB). The HAR of a 150 MB capture is ~530 MB of text: written by one JSON.stringify, the export
// of anything larger failed with "Invalid string length". Joined, the parts are exactly JSON.stringify(value, null,
// indent) — the same file, only never held as one string; a download makes a Blob of them.

export interface PartLimits {
  /** A string longer than this is written in slices (a body of hundreds of MB is one JSON string in a HAR). */
  slice: number;
  /** A container of at most this many values and `slice` characters of strings is written by one JSON.stringify. */
  values: number;
}

const LIMITS: PartLimits = { slice: 1 << 20, values: 512 };

/**
 * The parts of JSON.stringify(value, null, indent). Small values (a capture record, a header) are stringified whole and
 * re-indented; larger arrays and objects are walked, so that no part is longer than a slice of a long string or a
 * small value's text.
 */
export function* jsonParts(value: unknown, indent = 0, limits: PartLimits = LIMITS): Generator<string> {
  const top = toJsonValue(value, '');
  if (top === undefined) return; // JSON.stringify(undefined) is no text either
  yield* walk(top, '', ' '.repeat(indent), limits);
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

function* walk(v: unknown, pad: string, gap: string, limits: PartLimits): Generator<string> {
  if (typeof v === 'string' && v.length > limits.slice) {
    yield* longString(v, limits.slice);
    return;
  }
  if (v === null || typeof v !== 'object' || isSmall(v, { values: limits.values, chars: limits.slice })) {
    const text = JSON.stringify(v, null, gap);
    yield gap && pad ? text.replace(/\n/g, `\n${pad}`) : text;
    return;
  }
  const inner = pad + gap;
  const open = gap ? `\n${inner}` : '';
  if (Array.isArray(v)) {
    if (v.length === 0) return void (yield '[]');
    for (let i = 0; i < v.length; i++) {
      yield i === 0 ? `[${open}` : `,${open}`;
      const item = toJsonValue(v[i], String(i));
      yield* walk(item === undefined ? null : item, inner, gap, limits);
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
    yield* walk(item, inner, gap, limits);
  }
  yield first ? '{}' : gap ? `\n${pad}}` : '}';
}

/**
 * A string in slices, each escaped as JSON.stringify escapes it. A slice never ends between the two halves of a
 * surrogate pair: escaped alone, each half would be written as a \u escape, not as the character.
 */
function* longString(s: string, slice: number): Generator<string> {
  yield '"';
  for (let i = 0; i < s.length;) {
    let end = Math.min(s.length, i + slice);
    const last = s.charCodeAt(end - 1);
    const next = s.charCodeAt(end); // NaN at the end
    if (last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) end++; // the pair goes whole
    yield JSON.stringify(s.slice(i, end)).slice(1, -1);
    i = end;
  }
  yield '"';
}

/** True when the value holds at most `budget.values` values and `budget.chars` characters of strings (counted down). */
function isSmall(v: unknown, budget: { values: number; chars: number }): boolean {
  if (--budget.values < 0) return false;
  if (typeof v === 'string') return (budget.chars -= v.length) >= 0;
  if (v === null || typeof v !== 'object') return true;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false; // walked: toJSON is called there
  const items = Array.isArray(v) ? v : Object.values(v);
  for (const item of items) if (!isSmall(item, budget)) return false;
  return true;
}

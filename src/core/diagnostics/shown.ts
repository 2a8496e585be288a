// Text made from values a stream sent, for diagnostics and previews. `String()` and `JSON.stringify` recurse into
// arrays (and `JSON.stringify` into objects), so a value that `JSON.parse` reads without complaint — nested
// thousands deep — overflows the stack in them. The protocol fuzz found it as a pi `contentIndex` of 100,000 nested
// arrays: describing the bad index threw, and the whole event was reported as one Replyscope could not analyse.
// `String()` also throws on an object with its own `toString` key that is not a function ({"toString": 1}).
// These never throw; a value that cannot be written out is described by its kind instead.

function unshowable(v: unknown, err: unknown): string {
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  return `${open}… ${err instanceof RangeError ? 'nested too deeply to show' : 'not convertible to text'}${close}`;
}

/** `String(v)`, or a description of `v` when converting it throws. */
export function shownString(v: unknown): string {
  try {
    return String(v);
  } catch (err) {
    return unshowable(v, err);
  }
}

/** `JSON.stringify(v)` (undefined for undefined, as there), or a description of `v` when it throws. */
export function shownJson(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch (err) {
    return unshowable(v, err);
  }
}

/**
 * `value` as JSON would show it, with everything below `maxDepth` levels replaced by a marker string (the recursion
 * is bounded by `maxDepth`), for values too deep to write out whole.
 */
export function truncateDeep(value: unknown, maxDepth: number, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  // What JSON would show (e.g. a pi tool call's lazily parsed arguments, see StreamedArguments).
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return truncateDeep(toJSON.call(value), maxDepth, depth);
  if (depth >= maxDepth) return `[nested deeper than ${maxDepth} levels: not shown]`;
  if (Array.isArray(value)) return value.map((v) => truncateDeep(v, maxDepth, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = truncateDeep(v, maxDepth, depth + 1);
  return out;
}

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

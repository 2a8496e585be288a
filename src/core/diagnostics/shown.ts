// Text made from values a stream sent, for diagnostics and previews. `String()` and `JSON.stringify` recurse into
// arrays (and `JSON.stringify` into objects), so a value that `JSON.parse` reads without complaint — nested
// thousands deep — overflows the stack in them. The protocol fuzz found it as a pi `contentIndex` of 100,000 nested
// arrays: describing the bad index threw, and the whole event was reported as one Replyscope could not analyse.
// `String()` also throws on an object with its own `toString` key that is not a function ({"toString": 1}).
// These never throw; a value that cannot be written out is described by its kind instead. JSON is shown as its head
// (shownJsonHead), written without the rest of the value, so a deep value shows its head too.

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

/**
 * `JSON.stringify(v)?.slice(0, n)`, written without writing out the rest: at most ~n characters of output whatever
 * the value's size or depth (a loop with its own stack, not recursion). Previews and diagnostics show the head of
 * values a stream sent; writing all of a multi-MB value to keep 40 characters cost its whole size per event, and a
 * value nested 100,000 deep overflowed the stack first (~140 ms per attempt where the stack is 4 MB, as in a worker).
 * Equal to `JSON.stringify(v).slice(0, n)` wherever that does not throw (test/unit/diagnostics/shown.test.ts); on a
 * cycle it writes the head instead of throwing; where JSON.stringify throws for another reason (a BigInt, a toJSON
 * that throws) it describes `v`.
 */
export function shownJsonHead(v: unknown, n: number): string | undefined {
  try {
    return new JsonHead(n).write(v);
  } catch (err) {
    return unshowable(v, err).slice(0, n);
  }
}

/**
 * The first `n` characters of `text` (all of it when shorter), one less when the cut would split a surrogate pair: a
 * lone half renders as "\ufffd", and model output is full of emoji.
 */
export function headOf(text: string, n: number): string {
  if (text.length <= n) return text;
  const c = text.charCodeAt(n - 1);
  return text.slice(0, c >= 0xd800 && c <= 0xdbff && n > 0 ? n - 1 : n);
}

/** `text` cut to `max` characters (see headOf), ending in "…" when it was longer (text shown in one line). */
export function clipped(text: string, max: number): string {
  return text.length > max ? `${headOf(text, max)}…` : text;
}

/** `shownJsonHead(v, max)`, ending in "…" when the JSON is longer than `max` (for text shown in one line). */
export function shownJsonClipped(v: unknown, max: number): string | undefined {
  const head = shownJsonHead(v, max + 1);
  return head === undefined ? undefined : clipped(head, max);
}

/** `s` as JSON writes it, cut to `room` characters (its head is written from its head: escapes only lengthen). */
function quotedHead(s: string, room: number): string {
  if (s.length <= room) return JSON.stringify(s);
  let k = room + 1;
  const c = s.charCodeAt(k - 1);
  if (c >= 0xd800 && c <= 0xdbff) k++; // keep a surrogate pair whole (a lone half is written as an escape)
  return JSON.stringify(s.slice(0, k)).slice(0, -1); // the closing quote is not where the cut is
}

type Frame = { array: unknown[]; i: number } | { object: Record<string, unknown>; keys: string[]; i: number; wrote: boolean };

class JsonHead {
  private out = '';
  constructor(private readonly n: number) {}

  private get room(): number {
    return this.n - this.out.length;
  }

  /** A value JSON.stringify would write (`key`: what its toJSON gets), or undefined for one it leaves out. */
  private prepared(value: unknown, key: string): unknown {
    if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') value = toJSON.call(value, key);
    }
    if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
    return value;
  }

  private writable(value: unknown): boolean {
    return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
  }

  /** Writes a leaf, or opens a container (returns its frame). */
  private open(value: unknown): Frame | undefined {
    if (value === null) this.out += 'null';
    else if (typeof value === 'string') this.out += quotedHead(value, this.room);
    else if (typeof value === 'number') this.out += Number.isFinite(value) ? String(value) : 'null';
    else if (typeof value === 'boolean') this.out += String(value);
    else if (typeof value === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    else if (Array.isArray(value)) {
      this.out += '[';
      return { array: value, i: 0 };
    } else {
      this.out += '{';
      return { object: value as Record<string, unknown>, keys: Object.keys(value as object), i: 0, wrote: false };
    }
    return undefined;
  }

  write(top: unknown): string | undefined {
    const first = this.prepared(top, '');
    if (!this.writable(first)) return undefined;
    const stack: Frame[] = [];
    const opened = this.open(first);
    if (opened) stack.push(opened);
    while (stack.length > 0 && this.out.length < this.n) {
      const f = stack[stack.length - 1];
      let next: Frame | undefined;
      if ('array' in f) {
        if (f.i >= f.array.length) {
          this.out += ']';
          stack.pop();
          continue;
        }
        if (f.i > 0) this.out += ',';
        const v = this.prepared(f.array[f.i], String(f.i));
        f.i++;
        next = this.writable(v) ? this.open(v) : ((this.out += 'null'), undefined);
      } else {
        if (f.i >= f.keys.length) {
          this.out += '}';
          stack.pop();
          continue;
        }
        const key = f.keys[f.i++];
        const v = this.prepared(f.object[key], key);
        if (!this.writable(v)) continue;
        if (f.wrote) this.out += ',';
        f.wrote = true;
        this.out += `${quotedHead(key, this.room)}:`;
        if (this.out.length >= this.n) break;
        next = this.open(v);
      }
      if (next) stack.push(next);
    }
    return this.out.slice(0, this.n);
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

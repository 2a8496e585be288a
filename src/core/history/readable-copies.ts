// Copies of the messages a history hands out, whose long strings belong to the reader and not to the history.
//
// Why: a state the history keeps (a checkpoint, the latest message) holds a streamed text as a V8 rope: each
// checkpoint's text is the previous checkpoint's plus what came since, sharing it. The first read of a rope's
// characters (startsWith, slice, charCodeAt, a regular expression, JSON.stringify…) flattens it *in place*: from then
// on that rope holds a flat copy of all its characters, for as long as the history keeps it. A reader that looks at
// many steps of a long reply — the panel's bubble and diff while scrubbing, or following a live reply's last step —
// so left one full copy per checkpoint behind: the panel's heap passed 2.7 GB on a 60 MB reply and Chrome killed it.
// A copy made here reads the rope through a new concatenation, and only that one is flattened (V8 copies a rope's
// parts without changing them); the history's rope stays as it was.
//
// Only the fields streaming builds are copied: each content block's strings, and those of the objects in a block's
// arrays (a tool result's output). Short strings are left alone: a flattened prefix shorter than LONG costs at most
// LONG per checkpoint.

/** Strings at least this long are copied. */
const LONG = 1024;

const isLong = (v: unknown): v is string => typeof v === 'string' && v.length >= LONG;

/** A string equal to `s` that is not `s` when `s` is long (see the top of the file). */
function ownString(s: string): string {
  return s.length < LONG ? s : (s + ' ').slice(0, -1);
}

/**
 * Readable copies, those of the last read kept for reuse by the next: a block the history shares between steps (one
 * not changed by the event) gets one copy, so a diff of step k−1 against k sees it unchanged by identity, and the
 * next step (k+1, or k−1 going back) does not copy it again. Older copies are let go — what is held between reads is
 * bounded by what one read looked at, however many steps are read.
 */
export class ReadableCopies {
  private current = new Map<object, object>();
  private previous = new Map<object, object>();

  /** One read (e.g. the step shown: its message and the one before): `of` called within `look` reuses the last read's copies. */
  read<R>(look: () => R): R {
    this.previous = this.current;
    this.current = new Map();
    try {
      return look();
    } finally {
      this.previous = new Map(); // what this read did not reuse
    }
  }

  /** `message` with its content blocks' long strings copied (itself when it has none, or is no message). */
  of<T>(message: T): T {
    if (typeof message !== 'object' || message === null) return message;
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) return message;
    return this.cached(message, () => {
      let copied: unknown[] | undefined;
      for (let i = 0; i < content.length; i++) {
        const block = content[i];
        const own = this.cached(block, () => copyObject(block, 1));
        if (own !== block) (copied ??= content.slice())[i] = own;
      }
      return copied ? { ...message, content: copied } : message;
    });
  }

  private cached<T>(value: T, make: () => T): T {
    if (typeof value !== 'object' || value === null) return value;
    const key = value as object;
    let got = this.current.get(key) ?? this.previous.get(key);
    if (got === undefined) got = make() as object;
    this.current.set(key, got);
    return got as T;
  }
}

/** `block`'s long strings copied, and (`depth` > 0) those in its arrays and in their objects, `depth` levels down. */
function copyObject<T>(block: T, depth: number): T {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return block;
  const from = block as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k of Object.keys(from)) {
    const v = from[k];
    const long = isLong(v);
    const c = long ? ownString(v) : depth > 0 && Array.isArray(v) ? copyArray(v, depth) : v;
    // Never `c !== v` on a long string: comparing a copy with its rope reads the rope, which flattens it.
    // defineProperty: an own "__proto__" key (JSON.parse makes them) stays a key, not a prototype.
    if (long || c !== v) Object.defineProperty((out ??= { ...from }), k, { value: c, writable: true, enumerable: true, configurable: true });
  }
  return (out ?? block) as T;
}

function copyArray(items: unknown[], depth: number): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const v = items[i];
    const long = isLong(v);
    const c = long ? ownString(v) : copyObject(v, depth - 1);
    if (long || c !== v) (out ??= items.slice())[i] = c;
  }
  return out ?? items;
}

// A structural diff between two JSON values, for "what did event k change in the message".
// Paths are JSON-pointer-like (`/content/1/text`). Strings that only grew are reported as appends, which is what
// almost every streaming delta does.

export type JsonChange =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'remove'; path: string; value: unknown }
  | { op: 'replace'; path: string; from: unknown; value: unknown }
  | { op: 'append'; path: string; appended: string };

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

type Task = { before: unknown; after: unknown; path: string } | JsonChange;

/**
 * The changes from `before` to `after`, in document order (a key's changes before the next key's; keys only `after`
 * has come last). With a stack of tasks, not recursion: messages are built from stream data, and a value nested
 * thousands deep (JSON.parse reads it) overflowed the call stack, which took the whole message view with it.
 */
export function diffJson(before: unknown, after: unknown, path = '', out: JsonChange[] = []): JsonChange[] {
  const stack: Task[] = [{ before, after, path }];
  while (stack.length > 0) {
    const task = stack.pop() as Task;
    if ('op' in task) {
      out.push(task);
      continue;
    }
    const { before: b, after: a, path: p } = task;
    if (Object.is(b, a)) continue;
    if (typeof b === 'string' && typeof a === 'string') {
      out.push(a.startsWith(b) ? { op: 'append', path: p, appended: a.slice(b.length) } : { op: 'replace', path: p, from: b, value: a });
      continue;
    }
    // Children are pushed last-first, so they come off the stack in order.
    if (Array.isArray(b) && Array.isArray(a)) {
      for (let i = Math.max(b.length, a.length) - 1; i >= 0; i--) {
        const q = `${p}/${i}`;
        stack.push(i >= b.length ? { op: 'add', path: q, value: a[i] } : i >= a.length ? { op: 'remove', path: q, value: b[i] } : { before: b[i], after: a[i], path: q });
      }
      continue;
    }
    if (isObj(b) && isObj(a)) {
      const added = Object.keys(a).filter((k) => !(k in b));
      for (let i = added.length - 1; i >= 0; i--) stack.push({ op: 'add', path: `${p}/${esc(added[i])}`, value: a[added[i]] });
      const keys = Object.keys(b);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        const q = `${p}/${esc(k)}`;
        stack.push(k in a ? { before: b[k], after: a[k], path: q } : { op: 'remove', path: q, value: b[k] });
      }
      continue;
    }
    out.push({ op: 'replace', path: p, from: b, value: a });
  }
  return out;
}

/** Content block indices a change list touches (`/content/<i>/…`), in order, without repeats. */
export function touchedBlocks(changes: readonly JsonChange[]): number[] {
  const seen: number[] = [];
  for (const c of changes) {
    const m = /^\/content\/(\d+)(?:\/|$)/.exec(c.path);
    if (m) {
      const i = Number(m[1]);
      if (!seen.includes(i)) seen.push(i);
    }
  }
  return seen;
}

/**
 * For each touched field of block `i`: how many leading characters were already there before the event (so the
 * view can mark the rest as appended). Keyed by the path below the block (`text`, `input`, `output/0/text`…).
 */
export function appendedIn(changes: readonly JsonChange[], blockIndex: number): Map<string, string> {
  const prefix = `/content/${blockIndex}/`;
  const map = new Map<string, string>();
  for (const c of changes) {
    if (c.op === 'append' && c.path.startsWith(prefix)) map.set(c.path.slice(prefix.length), c.appended);
  }
  return map;
}

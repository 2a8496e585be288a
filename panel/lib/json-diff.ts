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

export function diffJson(before: unknown, after: unknown, path = '', out: JsonChange[] = []): JsonChange[] {
  if (Object.is(before, after)) return out;
  if (typeof before === 'string' && typeof after === 'string') {
    if (after.startsWith(before)) out.push({ op: 'append', path, appended: after.slice(before.length) });
    else out.push({ op: 'replace', path, from: before, value: after });
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.max(before.length, after.length);
    for (let i = 0; i < n; i++) {
      const p = `${path}/${i}`;
      if (i >= before.length) out.push({ op: 'add', path: p, value: after[i] });
      else if (i >= after.length) out.push({ op: 'remove', path: p, value: before[i] });
      else diffJson(before[i], after[i], p, out);
    }
    return out;
  }
  if (isObj(before) && isObj(after)) {
    for (const k of Object.keys(before)) {
      const p = `${path}/${esc(k)}`;
      if (!(k in after)) out.push({ op: 'remove', path: p, value: before[k] });
      else diffJson(before[k], after[k], p, out);
    }
    for (const k of Object.keys(after)) if (!(k in before)) out.push({ op: 'add', path: `${path}/${esc(k)}`, value: after[k] });
    return out;
  }
  out.push({ op: 'replace', path, from: before, value: after });
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

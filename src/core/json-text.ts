// JSON text of a value a stream sent, at any depth. JSON.parse reads a value nested 100,000 deep without complaint
// (the legacy AgentScope dialect and pi have no depth limit, and their messages keep such values), but JSON.stringify
// recurses: in V8 it overflows the stack between 4,000 and 8,000 levels (a RangeError; Firefox throws an
// InternalError, "too much recursion"). Writing out a reconstructed message that holds one — `replyscope replay`, the
// panel's messages export, a capture log with an eviction digest — then failed.
//
// JSON.stringify is native and several times faster than any writer in JavaScript, and nearly every value is
// shallow: it is tried first, and the writer here, which walks with a stack of its own, runs only when it failed
// for any reason but a TypeError (a cycle, a BigInt: this writer would throw the same). Its output is JSON.stringify's
// for plain data — key order (Object.keys), undefined/function/symbol members left out and array items written as
// null, NaN/±Infinity as null, -0 as 0, toJSON called with its key, the same indentation — with one exception: a
// container nested deeper than MAX_LAID_OUT_DEPTH is written without line breaks and indentation (JSON.stringify
// writes none at that depth either: it overflows). Laid out, a chain nested 100,000 deep is 2·depth² characters of
// indentation (~20 GB with an indent of 2), past any string; compact it is ~200 KB, the same value.

/** Levels laid out with line breaks and indentation, when asked; deeper containers are written compactly. */
export const MAX_LAID_OUT_DEPTH = 1000;

/** JSON.stringify's `space`: a number of spaces (at most 10) or a string (its first 10 characters). */
export type JsonSpace = number | string | undefined;

/**
 * `JSON.stringify(value, null, space)`, at any depth: the native writer, and the stack-safe one where it fails (see
 * above). `pad` is put after every line break, for text written inside an indented document at that indentation.
 */
export function jsonText(value: unknown, space?: JsonSpace, pad = ''): string | undefined {
  try {
    const text = JSON.stringify(value, null, space);
    return pad && text !== undefined && gapOf(space) ? text.replace(/\n/g, `\n${pad}`) : text;
  } catch (err) {
    if (err instanceof TypeError) throw err;
    return stackSafeJsonText(value, space, pad);
  }
}

function gapOf(space: JsonSpace): string {
  if (typeof space === 'number') return ' '.repeat(Math.max(0, Math.min(10, Math.trunc(space))));
  return typeof space === 'string' ? space.slice(0, 10) : '';
}

/** What JSON.stringify writes for a member: its toJSON's result, a boxed primitive's value; undefined when none (left out). */
function jsonValueOf(key: string, v: unknown): unknown {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    v = (v as { toJSON: (k: string) => unknown }).toJSON(key);
  }
  // Boxed primitives are written as their value (JSON.stringify's SerializeJSONProperty does so too).
  if (v instanceof Number) v = Number(v);
  else if (v instanceof String) v = String(v);
  else if (v instanceof Boolean) v = v.valueOf();
  return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
}

/** An open array or object: its members still to write. */
interface Frame {
  readonly value: object;
  readonly keys: readonly string[] | undefined; // undefined: an array
  readonly length: number;
  next: number;
  written: number;
  /** Line break + indentation before each member, and before its closing bracket ('' when written compactly). */
  readonly inner: string;
  readonly outer: string;
}

/**
 * The stack-safe writer on its own (jsonText runs it only where JSON.stringify failed; exported for its tests).
 * Throws a TypeError on a cycle or a BigInt, as JSON.stringify does.
 */
export function stackSafeJsonText(value: unknown, space?: JsonSpace, pad = ''): string | undefined {
  const gap = gapOf(space);
  const top = jsonValueOf('', value);
  if (top === undefined) return undefined;
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();

  /** Writes a primitive, or opens a container (its members are written by the loop below). */
  const write = (v: unknown): void => {
    if (v === null || typeof v !== 'object') {
      out.push(JSON.stringify(v)); // a primitive: no recursion (a BigInt throws its TypeError here)
      return;
    }
    if (open.has(v)) throw new TypeError('Converting circular structure to JSON');
    // Laid out: its members one level in from the line its closing bracket is on (that of its parent's members).
    const laid = gap !== '' && stack.length < MAX_LAID_OUT_DEPTH;
    const outer = !laid ? '' : stack.length > 0 ? stack[stack.length - 1].inner : `\n${pad}`;
    const keys = Array.isArray(v) ? undefined : Object.keys(v);
    open.add(v);
    out.push(keys ? '{' : '[');
    stack.push({
      value: v, keys, length: keys ? keys.length : (v as unknown[]).length, next: 0, written: 0,
      inner: laid ? outer + gap : '',
      outer,
    });
  };

  write(top);
  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.next >= f.length) {
      stack.pop();
      open.delete(f.value);
      out.push(`${f.written > 0 ? f.outer : ''}${f.keys ? '}' : ']'}`);
      continue;
    }
    const i = f.next++;
    if (f.keys) {
      const key = f.keys[i];
      const member = jsonValueOf(key, (f.value as Record<string, unknown>)[key]);
      if (member === undefined) continue;
      out.push(`${f.written++ > 0 ? ',' : ''}${f.inner}${JSON.stringify(key)}:${f.inner ? ' ' : ''}`);
      write(member);
    } else {
      const item = jsonValueOf(String(i), (f.value as unknown[])[i]);
      out.push(`${f.written++ > 0 ? ',' : ''}${f.inner}`);
      write(item === undefined ? null : item);
    }
  }
  return out.join('');
}

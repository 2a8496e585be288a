// Structural equality of the JSON values a pi stream carries (key order and undefined members ignored), for the
// message checks (message-check.ts) and the analysis' step statuses (pi-stream.ts: did an event's message change?).
// A module of its own because both ask it: pi-stream.ts took it from message-check.ts for a comparison that is no check.

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Structural equality of JSON values (key order ignored). With a stack of pairs still to compare, not recursion: the
 * messages come from the stream, and a value nested thousands deep (JSON.parse reads it) overflowed the call stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop();
    const x = pending.pop();
    if (x === y) continue;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i], y[i]);
      continue;
    }
    if (!isObj(x) || !isObj(y)) return false;
    const kx = Object.keys(x).filter((k) => x[k] !== undefined);
    const ky = Object.keys(y).filter((k) => y[k] !== undefined);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      // A key y lacks is a difference even where y[k] reads something: JSON.parse makes `"__proto__"` an own key, and
      // y.__proto__ is Object.prototype, which compared equal to an empty object.
      if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
      pending.push(x[k], y[k]);
    }
  }
  return true;
}

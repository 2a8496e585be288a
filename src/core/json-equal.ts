// Structural equality of the JSON values a stream carries, for both protocols: AgentScope's copy-on-write edits
// (agentscope/msg-edit.ts `patch`: a field keeps its object when the event's value equals it) and pi's message checks
// and step statuses (pi/message-check.ts, analysis/pi-stream.ts: did an event's message change?). One walker, in a
// module of neither protocol, because both compare values a stream sent: JSON.parse reads a value nested 100,000
// deep without complaint (the legacy AgentScope dialect and pi have no depth limit), and a recursive walk of it
// overflowed the call stack — AgentScope's did, on a TOOL_RESULT_END repeating a deep `metadata`.
//
// The semantics are JavaScript's, for both, on purpose:
//  - numbers and booleans by `===`: 1 and 1.0 are one number, `true` is not 1. AgentScope's reference is Python,
//    where True == 1, but `patch` keeps the OLD value when the new one is equal, and the reference stores the event's
//    value (`metadata` {"x": 1} after {"x": true} ends as 1): Python's equality here would keep `true`.
//  - objects: key order and undefined-valued members ignored; a member only one side has (as an own key: JSON.parse
//    makes `"__proto__"` one) is a difference;
//  - arrays: element by element; an array and an object are never equal.

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether `a` and `b` are the same JSON value (see above). Identical references short-cut at every level, which keeps
 * it cheap on structurally shared messages. With a stack of pairs still to compare, not recursion: any depth.
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
      if (!hasOwn.call(y, k)) return false;
      pending.push(x[k], y[k]);
    }
  }
  return true;
}

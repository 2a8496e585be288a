// The one structural equality both protocols use (src/core/json-equal.ts): what it calls equal, and that it walks a
// value of any depth. AgentScope's patch and pi's checks ask it; their own tests show it through them.
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../src/core/json-equal.ts';

const deepObject = (depth: number, leaf: unknown) => JSON.parse(`${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`);
const deepArray = (depth: number, leaf: unknown) => JSON.parse(`${'['.repeat(depth)}${JSON.stringify(leaf)}${']'.repeat(depth)}`);

describe('jsonEqual', () => {
  it('numbers and booleans by ===: 1 and 1.0 are one number, true is not 1 (not Python\'s ==)', () => {
    expect(jsonEqual(JSON.parse('{"x":1}'), JSON.parse('{"x":1.0}'))).toBe(true);
    expect(jsonEqual(0, -0)).toBe(true);
    expect(jsonEqual({ x: true }, { x: 1 })).toBe(false);
    expect(jsonEqual([false], [0])).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, 0)).toBe(false);
  });

  it('objects: key order and undefined members ignored, a member one side lacks is a difference', () => {
    expect(jsonEqual({ a: 1, b: [2, { c: 3 }] }, { b: [2, { c: 3 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, u: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":{}}'), { x: {} })).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":{}}'), JSON.parse('{"__proto__":{}}'))).toBe(true);
  });

  it('arrays element by element, in order; an array is no object; a hole reads as undefined', () => {
    expect(jsonEqual([1, [2]], [1, [2]])).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([1], [1, 1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({ 0: 'a' }, ['a'])).toBe(false);
    // eslint-disable-next-line no-sparse-arrays
    expect(jsonEqual([, 1], [2, 1])).toBe(false); // (AgentScope's walker skipped holes: Array.every)
    // eslint-disable-next-line no-sparse-arrays
    expect(jsonEqual([, 1], [undefined, 1])).toBe(true);
  });

  it('walks values nested 100,000 deep, equal or differing at the bottom, objects and arrays', () => {
    for (const deep of [deepObject, deepArray]) {
      expect(jsonEqual(deep(100_000, 1), deep(100_000, 1))).toBe(true);
      expect(jsonEqual(deep(100_000, 1), deep(100_000, 2))).toBe(false);
      expect(jsonEqual(deep(100_000, 1), deep(99_999, 1))).toBe(false);
    }
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { joinParts, jsonParts, LazyArray, LazyString, LazyValue, PAUSE } from '../../../src/core/capture/json-parts.ts';

const join = (parts: Iterable<string>) => [...parts].join('');

/** JSON-like values with what JSON.stringify drops or rewrites: undefined, NaN, functions, a toJSON. */
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, undefined, Number.NaN, Infinity, () => 1),
    fc.double(),
    fc.string({ unit: 'binary' }), // lone surrogates and pairs
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 6 }),
    fc.date({ noInvalidDate: true }),
  ),
})).value;

describe('jsonParts', () => {
  it('property: the parts joined are JSON.stringify(value, null, indent), whatever the limits', () => {
    fc.assert(
      fc.property(valueArb, fc.constantFrom(0, 2, 4), fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 6 }), (v, indent, slice, values) => {
        const expected = JSON.stringify(v, null, indent) as string | undefined;
        expect(join(jsonParts(v, indent, { slice, values }))).toBe(expected ?? '');
      }),
      { numRuns: 2000 },
    );
  });

  it('property: values made as they are written (LazyValue, LazyArray, LazyString, with pauses) are written as the values they make', () => {
    // Each array, string and value of a plain JSON tree, at random, replaced by its lazy form: the text must not change.
    const lazy = (v: unknown, pick: () => number): unknown => {
      const r = pick();
      if (typeof v === 'string' && r % 3 === 0) {
        // pieces cut anywhere but inside a surrogate pair (as a streaming decoder cuts them)
        const pieces: (string | typeof PAUSE)[] = [];
        let from = 0;
        for (let i = 1; i < v.length; i++) {
          const lead = v.charCodeAt(i - 1) >= 0xd800 && v.charCodeAt(i - 1) <= 0xdbff && v.charCodeAt(i) >= 0xdc00 && v.charCodeAt(i) <= 0xdfff;
          if (!lead && pick() % 3 === 0) pieces.push(v.slice(from, i), PAUSE), (from = i);
        }
        pieces.push(v.slice(from));
        return new LazyString(() => pieces);
      }
      if (Array.isArray(v)) {
        const items = v.map((x) => lazy(x, pick));
        return r % 2 === 0 ? new LazyArray(() => items.flatMap((x) => [PAUSE, x])) : items;
      }
      if (v !== null && typeof v === 'object') {
        const out = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, lazy(x, pick)]));
        return r % 4 === 0 ? new LazyValue(function* () { yield PAUSE; return out; }) : out;
      }
      return v;
    };
    const plain = fc.jsonValue({ stringUnit: 'binary' }).map((v) => JSON.parse(JSON.stringify(v)) as unknown); // no -0 (written as 0, read as 0)
    fc.assert(
      fc.property(plain, fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), fc.constantFrom(0, 2), fc.integer({ min: 1, max: 8 }), (v, seq, indent, slice) => {
        let k = 0;
        const pick = () => seq[k++ % seq.length];
        expect(join(jsonParts(lazy(v, pick), indent, { slice, values: 4 }))).toBe(JSON.stringify(v, null, indent));
      }),
      { numRuns: 1000 },
    );
  });

  it('writes a long string in slices that never split a surrogate pair, and walks large containers', () => {
    const s = '🙂é"\n'.repeat(10);
    const parts = [...jsonParts({ a: [s, 1], b: {} }, 2, { slice: 3, values: 2 })];
    expect(parts.join('')).toBe(JSON.stringify({ a: [s, 1], b: {} }, null, 2));
    expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(3 * 6 + 2); // a slice, each unit escaped at most
    expect(parts.some((p) => /\\ud[89ab]/i.test(p))).toBe(false);
  });

  it('joinParts groups parts into pieces of about the size asked, losing nothing', () => {
    const parts = Array.from({ length: 100 }, (_, i) => String(i));
    const pieces = [...joinParts(parts, 10)];
    expect(pieces.join('')).toBe(parts.join(''));
    expect(pieces.every((p, i) => p.length >= 10 || i === pieces.length - 1)).toBe(true);
    expect([...joinParts([], 10)]).toEqual([]);
  });
});

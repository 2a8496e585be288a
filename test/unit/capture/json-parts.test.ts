import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { joinParts, jsonParts } from '../../../src/core/capture/json-parts.ts';

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

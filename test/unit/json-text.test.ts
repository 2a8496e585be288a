// The JSON writer for values a stream sent (src/core/json-text.ts): JSON.stringify's text, also for a value nested
// too deep for JSON.stringify, which is where its stack-safe writer takes over.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LAID_OUT_DEPTH, jsonText, stackSafeJsonText } from '../../src/core/json-text.ts';

const deepArray = (depth: number, leaf: unknown) => JSON.parse(`${'['.repeat(depth)}${JSON.stringify(leaf)}${']'.repeat(depth)}`);
const deepObject = (depth: number, leaf: unknown) => JSON.parse(`${'{"a":'.repeat(depth)}${JSON.stringify(leaf)}${'}'.repeat(depth)}`);

/** What JSON.stringify treats apart: left out or null, toJSON, boxed primitives, -0, non-finite numbers, odd keys. */
const odd = fc.oneof(
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.constantFrom(NaN, Infinity, -Infinity, -0),
  fc.string({ unit: 'binary' }).map((s) => new String(s)),
  fc.integer().map((n) => new Number(n)),
  fc.boolean().map((b) => new Boolean(b)),
  fc.date({ noInvalidDate: true }),
  fc.jsonValue().map((v) => ({ toJSON: (key: string) => ({ key, v }) })),
  fc.constant({ toJSON: () => undefined }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), odd, fc.array(tie('v')),
    fc.dictionary(fc.oneof(fc.string({ unit: 'binary' }), fc.nat().map(String), fc.constant('__proto__')), tie('v'))),
})).v;
const space = fc.oneof(fc.constant(undefined), fc.integer({ min: -2, max: 14 }), fc.string({ maxLength: 14 }));

describe('stackSafeJsonText', () => {
  it('writes what JSON.stringify writes: key order, left-out members, null items, -0, NaN, toJSON, indentation', () => {
    fc.assert(
      fc.property(value, space, (v, s) => {
        expect(stackSafeJsonText(v, s)).toBe(JSON.stringify(v, null, s));
      }),
      { numRuns: 500 },
    );
  });

  it('with a pad: the text JSON.stringify writes, each line break followed by the pad', () => {
    fc.assert(
      fc.property(value, space, fc.constantFrom('  ', '\t\t'), (v, s, pad) => {
        const text = JSON.stringify(v, null, s);
        const padded = text === undefined || JSON.stringify([1], null, s) === '[1]' ? text : text.replace(/\n/g, `\n${pad}`);
        expect(stackSafeJsonText(v, s, pad)).toBe(padded);
        expect(jsonText(v, s, pad)).toBe(padded);
      }),
    );
  });

  it('throws JSON.stringify\'s TypeError on a cycle and a BigInt, also deep down', () => {
    const cyclic: Record<string, unknown> = { a: [1] };
    (cyclic.a as unknown[]).push(cyclic);
    expect(() => stackSafeJsonText(cyclic)).toThrow(TypeError);
    expect(() => stackSafeJsonText({ a: [[10n]] })).toThrow(TypeError);
    // The same object twice, not inside itself, is no cycle.
    const shared = { x: 1 };
    expect(stackSafeJsonText([shared, { y: shared }])).toBe(JSON.stringify([shared, { y: shared }]));
  });

  it('writes a value nested 100,000 deep whole: compact as JSON.stringify would, laid out down to its depth limit', () => {
    const v = deepObject(100_000, [1, 'x']);
    const compact = `${'{"a":'.repeat(100_000)}[1,"x"]${'}'.repeat(100_000)}`;
    expect(() => JSON.stringify(v)).toThrow(RangeError); // the premise: the native writer overflows
    expect(stackSafeJsonText(v)).toBe(compact);
    const laid = stackSafeJsonText(v, 2) as string;
    expect(JSON.parse(laid)).toBeDefined(); // the same value (JSON.parse does not recurse)
    expect(laid.replace(/\s+/g, '')).toBe(compact);
    // Down to the limit, as JSON.stringify lays out; below it, compact.
    const head = JSON.stringify(deepObject(3, null), null, 2);
    expect(laid.startsWith(head.slice(0, head.indexOf('null')))).toBe(true);
    const lines = laid.split('\n');
    expect(lines).toHaveLength(2 * MAX_LAID_OUT_DEPTH + 1);
    expect(lines[MAX_LAID_OUT_DEPTH]).toBe(`${'  '.repeat(MAX_LAID_OUT_DEPTH)}"a": ${'{"a":'.repeat(100_000 - MAX_LAID_OUT_DEPTH)}[1,"x"]${'}'.repeat(100_000 - MAX_LAID_OUT_DEPTH)}`);
  });
});

describe('jsonText', () => {
  it('is JSON.stringify where that works (the native writer: same text, its speed)', () => {
    fc.assert(
      fc.property(value, space, (v, s) => {
        expect(jsonText(v, s)).toBe(JSON.stringify(v, null, s));
      }),
    );
  });

  it('falls back to the stack-safe writer where JSON.stringify overflows the stack', () => {
    const v = { before: 1, deep: deepArray(100_000, 'leaf'), after: [undefined, -0, NaN] };
    expect(() => JSON.stringify(v)).toThrow(RangeError);
    expect(jsonText(v)).toBe(`{"before":1,"deep":${'['.repeat(100_000)}"leaf"${']'.repeat(100_000)},"after":[null,0,null]}`);
    expect((jsonText(v, 2) as string).replace(/\s+/g, '')).toBe(jsonText(v)); // (no white space in its strings)
  });

  it('throws JSON.stringify\'s TypeError as it is (a cycle is no stack overflow)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => jsonText(cyclic)).toThrow(/circular/);
  });
});

// shownJsonHead writes the head of a value's JSON without writing the rest: it must be exactly the head
// JSON.stringify writes, for every value JSON.parse can give and for the things JSON.stringify special-cases
// (toJSON, undefined and functions in objects and arrays, non-finite numbers, boxed primitives, surrogate pairs).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipped, headOf, shownJsonHead } from '../../../src/core/diagnostics/shown.ts';
import { truncate } from '../../../panel/lib/format.ts';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';

const odd = fc.oneof(
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constantFrom(NaN, Infinity, -0),
  fc.string({ unit: 'binary' }).map((s) => new String(s)),
  fc.integer().map((n) => new Number(n)),
  fc.date({ noInvalidDate: true }),
  fc.jsonValue().map((v) => ({ toJSON: (key: string) => ({ key, v }) })),
  fc.constant({ toJSON: () => undefined }),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), odd, fc.array(tie('v')), fc.dictionary(fc.string({ unit: 'binary' }), tie('v'))),
})).v;

describe('shownJsonHead', () => {
  it('is the head of JSON.stringify, at every length', () => {
    fc.assert(
      fc.property(value, fc.nat({ max: 300 }), (v, n) => {
        expect(shownJsonHead(v, n)).toBe(JSON.stringify(v)?.slice(0, n));
      }),
      { seed: 30, numRuns: 3000 },
    );
  });

  it('keeps a surrogate pair whole at the cut, as JSON.stringify of the whole string does', () => {
    const s = `ab😀cd${'\ud800'}e`;
    for (let n = 0; n <= 20; n++) expect(shownJsonHead(s, n)).toBe(JSON.stringify(s).slice(0, n));
  });

  it('writes the head of values too deep or too large to write whole, reading no more of them than the head needs', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(() => JSON.stringify(deep)).toThrow(RangeError); // it overflows the stack
    expect(shownJsonHead(deep, 12)).toBe('[[[[[[[[[[[[');
    // Stops reading where the head ends: of a million properties (getters counting their reads), a 20-character
    // head reads the first few, and of a 50 MB string only its head is escaped.
    let reads = 0;
    const wide: Record<string, number> = {};
    for (let i = 0; i < 1_000_000; i++) Object.defineProperty(wide, `k${i}`, { enumerable: true, get: () => ++reads });
    expect(shownJsonHead(wide, 20)).toBe('{"k0":1,"k1":2,"k2":');
    expect(reads).toBe(3);
    expect(shownJsonHead({ text: 'x'.repeat(50_000_000) }, 20)).toBe('{"text":"xxxxxxxxxxx');
  });

  it('describes what JSON.stringify refuses, cut to the length asked', () => {
    expect(shownJsonHead({ n: 1n }, 100)).toMatch(/not convertible to text/);
    expect(shownJsonHead({ toJSON() { throw new Error('no'); } }, 5)).toBe('{… no');
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(shownJsonHead(cycle, 30)).toBe('{"a":1,"self":{"a":1,"self":{"');
  });
});

describe('headOf, clipped, truncate', () => {
  const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

  it('never split a surrogate pair, and cut no more than that', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat({ max: 50 }), (s, n) => {
        const h = headOf(s, n);
        expect(s.startsWith(h)).toBe(true);
        expect(wellFormed(h)).toBe(true);
        expect(h.length).toBe(Math.min(s.length, n) - (h.length < Math.min(s.length, n) ? 1 : 0));
        const c = clipped(s, n);
        expect(wellFormed(c)).toBe(true);
        expect(c === s || c === `${h}…`).toBe(true);
        if (n >= 1) {
          const t = truncate(s, n);
          expect(wellFormed(t)).toBe(true);
          expect(t.length).toBeLessThanOrEqual(Math.max(n, 1));
        }
      }),
      { seed: 31, numRuns: 2000 },
    );
    expect(clipped('ab😀cd', 3)).toBe('ab…');
    expect(clipped('ab😀cd', 4)).toBe('ab😀…');
    expect(truncate('ab😀cd', 4)).toBe('ab…');
  });

  it('keep the preview of an unparsable event well formed where its 120th character starts an emoji', () => {
    const raw = `{"x": "${'a'.repeat(112)}😀😀😀`; // not JSON: the preview is the text's head
    const body = `data: ${raw}\n\n`;
    const a = new CaptureAnalyzer();
    a.push([
      { kind: 'connection', id: 'c', transport: 'fetch', url: 'http://x/s', method: 'POST', status: 200, startTime: 0,
        responseHeaders: [['content-type', 'text/event-stream']] },
      { kind: 'chunk', conn: 'c', t: 1, bytes: new TextEncoder().encode(body).length, text: body },
    ] as never);
    const preview = a.connections()[0].events[0].preview;
    expect(raw.charCodeAt(119)).toBeGreaterThanOrEqual(0xd800); // the cut falls inside the pair
    expect(preview).toBe(raw.slice(0, 119));
  });
});

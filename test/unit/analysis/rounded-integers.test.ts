import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { hasDigitRun16, roundedIntegers } from '../../../src/core/frames/json-integers.ts';
import { diagnosticDoc } from '../../../src/core/diagnostics/catalog.ts';
import { captureOf, loadCases } from './support.ts';

// Integer literals beyond 2^53 that JSON.parse rounds: found in the event's text (outside strings), with the path
// schema issues would give them, and told once per connection.

/**
 * Whether the double nearest to `b` prints as another integer (the oracle, written apart from the implementation:
 * from toExponential's shortest digits, for every magnitude).
 */
function shownDiffers(b: bigint): boolean {
  const r = Number(b);
  if (!Number.isFinite(r)) return true;
  const [mantissa, exp] = Math.abs(r).toExponential().split('e');
  const [int, frac = ''] = mantissa.split('.');
  const shown = BigInt(int + frac) * 10n ** BigInt(Number(exp) - frac.length);
  return (r < 0 ? -shown : shown) !== b;
}

/** An integer literal and whether JSON.parse changes what it shows. */
const integerLiteral = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }),
  fc.constantFrom(10n ** 16n, 2n ** 60n, 10n ** 400n, -(10n ** 20n) - 1n),
).map((b) => ({ literal: b.toString(), rounded: shownDiffers(b) }));

type Json = { kind: 'int'; literal: string; rounded: boolean } | { kind: 'leaf'; text: string } | { kind: 'arr'; items: Json[] } | { kind: 'obj'; entries: [string, Json][] };

const leaf = fc.oneof(
  integerLiteral.map((x) => ({ kind: 'int' as const, ...x })),
  fc.oneof(fc.string(), fc.constantFrom('12345678901234567890', 'a"b\\"c', '\\', '{"x": 123456789012345678901}'), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))
    .map((v) => ({ kind: 'leaf' as const, text: JSON.stringify(v) })),
);
const json: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }).map((items) => ({ kind: 'arr' as const, items })),
    fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a.b', 'q"uote', '\\')), tie('v')), { maxLength: 4 }).map((entries) => ({ kind: 'obj' as const, entries }))),
})).v;

/** The text (with the given whitespace) and the rounded integers it holds, written while generating it. */
function write(v: Json, ws: string): { text: string; expected: { path: string; literal: string }[] } {
  const expected: { path: string; literal: string }[] = [];
  const go = (x: Json, path: (string | number)[]): string => {
    if (x.kind === 'int') {
      if (x.rounded) expected.push({ path: path.join('.'), literal: x.literal });
      return x.literal;
    }
    if (x.kind === 'leaf') return x.text;
    if (x.kind === 'arr') return `[${ws}${x.items.map((it, i) => go(it, [...path, i])).join(`${ws},${ws}`)}${ws}]`;
    // Duplicate keys: JSON.parse keeps the last value, the text still holds both; each is where it is.
    return `{${ws}${x.entries.map(([k, it]) => `${JSON.stringify(k)}${ws}:${ws}${go(it, [...path, k])}`).join(`${ws},${ws}`)}${ws}}`;
  };
  return { text: go(v, []), expected };
}

describe('hasDigitRun16', () => {
  it('is /\\d{16}/.test, at every length and offset', () => {
    const text = fc.array(fc.oneof(fc.constantFrom('0', '9', '5'), fc.constantFrom('a', '/', ':', '"', ' ')), { maxLength: 80 }).map((a) => a.join(''));
    const runs = fc.tuple(fc.string({ maxLength: 40 }), fc.integer({ min: 12, max: 20 }), fc.string({ maxLength: 40 })).map(([a, k, b]) => `${a}x${'7'.repeat(k)}x${b}`);
    fc.assert(fc.property(fc.oneof(text, runs), (s) => {
      expect(hasDigitRun16(s)).toBe(/\d{16}/.test(s));
    }), { numRuns: 5000 });
  });
  it('finds a run of 15 to 17 digits at every offset', () => {
    for (let offset = 0; offset < 48; offset++) {
      for (const k of [15, 16, 17]) {
        const s = `${'a'.repeat(offset)}${'7'.repeat(k)}"`;
        expect(hasDigitRun16(s), `${k} digits at ${offset}`).toBe(k >= 16);
      }
    }
  });
});

describe('roundedIntegers', () => {
  it('finds exactly the integer literals JSON.parse changes, with their paths, at any whitespace', () => {
    fc.assert(fc.property(json, fc.constantFrom('', ' ', '\n  ', '\t'), (v, ws) => {
      const { text, expected } = write(v, ws);
      JSON.parse(text); // the generator writes valid JSON
      expect(roundedIntegers(text).map(({ path, literal }) => ({ path, literal }))).toEqual(expected);
    }), { numRuns: 2000 });
  });

  it('reports what JSON.parse read', () => {
    expect(roundedIntegers('{"a": [1, {"b": 1234567890123456789}]}')).toEqual([{ path: 'a.1.b', literal: '1234567890123456789', read: 1234567890123456800 }]);
    expect(roundedIntegers('9007199254740993')).toEqual([{ path: '', literal: '9007199254740993', read: 9007199254740992 }]);
    expect(roundedIntegers(`[${'9'.repeat(400)}]`)[0].read).toBe(Infinity);
  });

  it('leaves exact integers, floats, exponents and digits inside strings alone', () => {
    expect(roundedIntegers('[9007199254740992, 10000000000000000, -9007199254740991]')).toEqual([]);
    // Parsed to 70065005125618408, printed as the literal: nothing a frontend shows or sends back differs.
    expect(roundedIntegers('[70065005125618410, 1000000000000000000000]')).toEqual([]);
    expect(roundedIntegers('[1234567890123456789.5, 1234567890123456789e0, 1.234567890123456789]')).toEqual([]);
    expect(roundedIntegers('{"id": "1234567890123456789", "k\\"1234567890123456789": 1}')).toEqual([]);
  });

  it('reads escaped keys and deep nesting', () => {
    expect(roundedIntegers('{"a\\"b": {"\\u0063": 12345678901234567891}}')[0].path).toBe('a"b.c');
    const deep = `${'['.repeat(100_000)}12345678901234567891${']'.repeat(100_000)}`;
    expect(roundedIntegers(deep)[0].path).toBe(Array(100_000).fill(0).join('.'));
  });
});

const BIG = '1234567890123456789';

/** An SSE body of `events`, with every string "@BIG@" written as the bare integer literal BIG. */
function bodyWithBig(events: unknown[]): Uint8Array {
  return new TextEncoder().encode(events.map((e) => `data: ${JSON.stringify(e).replaceAll('"@BIG@"', BIG)}\n\n`).join(''));
}

describe('stream.unsafe-integer', () => {
  it('AgentScope: on the event, its reply and the connection, once per path and value', () => {
    const events = loadCases('agentscope').find((c) => c.name === 'text_plain')!.input.events as Record<string, unknown>[];
    // The same trace id on two events, a second id on the last: told twice, not three times.
    const marked = events.map((e, i) => (i === 1 || i === 2 ? { ...e, metadata: { trace_id: '@BIG@' } } : i === events.length - 1 ? { ...e, metadata: { ids: ['x', '@BIG@'] } } : e));
    const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf([bodyWithBig(marked)]) });
    const told = conn.diagnostics.filter((d) => d.code === 'stream.unsafe-integer');
    expect(told.map((d) => d.index)).toEqual([1, events.length - 1]);
    expect(told[0].severity).toBe('warning');
    expect(told[0].message).toContain(`The integer ${BIG} at metadata.trace_id is beyond 2^53`);
    expect(told[0].message).toContain('1234567890123456800');
    expect(told[0].message).toContain('Python (the reference) keeps it exact');
    expect(told[1].message).toContain('at metadata.ids.1');
    expect(conn.events[1].diagnostics.map((d) => d.code)).toContain('stream.unsafe-integer');
    expect(conn.events[2].diagnostics.map((d) => d.code)).not.toContain('stream.unsafe-integer');
    expect(conn.replies[0].diagnostics.filter((d) => d.code === 'stream.unsafe-integer')).toHaveLength(2);
    // The reconstruction is unchanged by the check (the rounding is JSON.parse's, as before).
    expect(conn.events[1].raw).toMatchObject({ metadata: { trace_id: 1234567890123456800 } });
    expect(diagnosticDoc('stream.unsafe-integer')?.reference).toContain('pydantic keeps the integer exact');
  });

  it('pi: told once though every update carries it', () => {
    const c = loadCases('pi').find((x) => x.name === 'text_basic')!;
    const events = (c.input.events as Record<string, unknown>[]).map((e) => (e.type === 'done' ? { ...e, usage: { ...(e.usage as object), input: '@BIG@' } } : e));
    const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf([bodyWithBig([...events, events.at(-1)])]) });
    expect(conn.dialect).toMatch(/^pi/);
    const told = conn.diagnostics.filter((d) => d.code === 'stream.unsafe-integer');
    expect(told).toHaveLength(1);
    expect(told[0].message).toContain('at usage.input');
    expect(told[0].message).toContain("pi's client");
  });
});

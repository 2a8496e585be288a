// pyB64Concat joins two unpadded base64 strings of whole quads by plain concatenation (the usual DATA_BLOCK_DELTA);
// that must be exactly the reference rule (decode both, concatenate the bytes, re-encode) for every input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCanonicalBase64, pyB64Concat, pyB64Decode, pyB64Encode } from '../../../src/core/agentscope/py-compat.ts';

/** The reference rule, spelled out. */
function reference(existing: string, chunk: string): string {
  const a = existing ? pyB64Decode(existing) : new Uint8Array(0);
  const b = pyB64Decode(chunk);
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return pyB64Encode(joined);
}

const b64 = fc.uint8Array({ maxLength: 40 }).map(pyB64Encode);
const junky = fc.oneof(b64, fc.stringMatching(/^[A-Za-z0-9+/=\s-]{0,12}$/));

describe('pyB64Concat', () => {
  it('equals decode-concat-encode, on canonical chunks (padded or not) and on lenient ones', () => {
    fc.assert(
      fc.property(fc.oneof(b64, junky), fc.oneof(b64, junky), (existing, chunk) => {
        let want: string | Error;
        try {
          want = reference(existing, chunk);
        } catch (err) {
          want = err as Error;
        }
        if (want instanceof Error) expect(() => pyB64Concat(existing, chunk)).toThrow(want.message);
        else expect(pyB64Concat(existing, chunk)).toBe(want);
      }),
      { seed: 5, numRuns: 3000 },
    );
  });

  it('stays exact when blocks grow chunk by chunk, interleaved (the last result is remembered, see lastQuads)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(2), fc.oneof(b64, junky)), { maxLength: 30 }), (steps) => {
        const got = ['', '', ''];
        const want = ['', '', ''];
        for (const [block, chunk] of steps) {
          let next: string;
          try {
            next = reference(want[block], chunk);
          } catch {
            expect(() => pyB64Concat(got[block], chunk)).toThrow();
            continue;
          }
          want[block] = next;
          got[block] = pyB64Concat(got[block], chunk);
          expect(got[block]).toBe(want[block]);
        }
      }),
      { seed: 6, numRuns: 2000 },
    );
  });
});

describe('isCanonicalBase64', () => {
  // The regular expressions it replaces (their repeated group overflowed the backtrack stack on multi-MB chunks).
  const FULL_QUADS = /^(?:[A-Za-z0-9+/]{4})*$/;
  const CANONICAL = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

  it('accepts exactly what the expressions accepted', () => {
    const text = fc.oneof(b64, junky, fc.stringMatching(/^[A-Za-z0-9+/=]{0,13}$/), fc.string({ maxLength: 9 }));
    fc.assert(
      fc.property(text, (s) => {
        expect(isCanonicalBase64(s, false)).toBe(FULL_QUADS.test(s));
        expect(isCanonicalBase64(s, true)).toBe(CANONICAL.test(s));
      }),
      { numRuns: 3000, seed: 4 },
    );
  });

  it('reads a 12 MB chunk, where the expressions overflowed', () => {
    const big = 'QUJD'.repeat(3 * 1024 * 1024);
    expect(() => FULL_QUADS.test(big)).toThrow(RangeError);
    expect(isCanonicalBase64(big, false)).toBe(true);
    expect(isCanonicalBase64(`${big}QQ==`, true)).toBe(true);
    expect(pyB64Concat(big, 'QUJD')).toBe(`${big}QUJD`);
  });
});

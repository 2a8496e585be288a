// pyB64Concat joins two unpadded base64 strings of whole quads by plain concatenation (the usual DATA_BLOCK_DELTA);
// that must be exactly the reference rule (decode both, concatenate the bytes, re-encode) for every input.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pyB64Concat, pyB64Decode, pyB64Encode } from '../../../src/core/agentscope/py-compat.ts';

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

// The relay's fast path for tap batches (relay/tap-batch.ts) must accept nothing tapToRelaySchema refuses, and what
// it accepts must be what zod returns; the batches are generated around the edges of every field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DropCounter, tapToRelaySchema } from '../../../src/extension/messages.ts';
import { acceptTapBatch, isPlainBytesBatch } from '../../../src/extension/relay/tap-batch.ts';

const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, -1, 1.5, 2 ** 53, 2 ** 53 - 1, NaN, Infinity, -Infinity));
const payload = fc.oneof(
  { weight: 6, arbitrary: fc.uint8Array({ maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(new Uint16Array(2), new ArrayBuffer(2), [1, 2], 'abc', null, undefined) },
);
const bytesRecord = fc.record(
  {
    kind: fc.oneof({ weight: 8, arbitrary: fc.constant('bytes') }, { weight: 1, arbitrary: fc.constantFrom('chunk', 'end', 'BYTES') }),
    conn: fc.oneof({ weight: 8, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom<unknown>(1, null) }),
    t: fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0, max: 2e12, noNaN: true }) }, { weight: 1, arbitrary: num }),
    bytes: fc.oneof({ weight: 4, arbitrary: fc.nat(70_000) }, { weight: 1, arbitrary: num }),
    payload,
    extra: fc.constant(1),
  },
  { requiredKeys: [] },
);
// Mostly complete records without the extra key; some with a key missing or the extra one present.
const record = fc.oneof(
  { weight: 6, arbitrary: bytesRecord.map(({ extra: _extra, ...r }) => ({ kind: 'bytes', conn: 'a:1', t: 1, bytes: 1, payload: new Uint8Array(1), ...r })) },
  { weight: 1, arbitrary: bytesRecord },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ kind: 'end', conn: 'a:1', t: 2, state: 'complete' }, null, 'x') },
);
const batch = fc.oneof(
  { weight: 8, arbitrary: fc.array(record, { maxLength: 6 }).map((records) => ({ type: 'records', records })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ type: 'records' }, { type: 'other', records: [] }, { type: 'records', records: [], more: 1 }, null, []) },
);

describe('tap batch fast path', () => {
  it('accepts only what zod accepts, and gives back what zod gives', () => {
    let fast = 0;
    fc.assert(
      fc.property(batch, (data) => {
        const zod = tapToRelaySchema.safeParse(data);
        if (isPlainBytesBatch(data)) {
          fast++;
          expect(zod.success).toBe(true);
          expect(data).toEqual(zod.data);
        }
        const drops = new DropCounter();
        const got = acceptTapBatch(data, drops);
        expect(got === undefined).toBe(!zod.success);
        if (got) expect(got).toEqual(zod.data);
        expect(drops.total()).toBe(zod.success ? 0 : 1);
      }),
      { seed: 11, numRuns: 4000 },
    );
    expect(fast).toBeGreaterThan(500); // the generator does reach the fast path
  });

  it('takes the usual batch (fetch chunks only) without zod, and leaves every other kind to it', () => {
    const chunk = { kind: 'bytes', conn: 'f:1', t: 1700000000000.25, bytes: 3, payload: new Uint8Array([1, 2, 3]) };
    expect(isPlainBytesBatch({ type: 'records', records: [chunk, chunk] })).toBe(true);
    expect(isPlainBytesBatch({ type: 'records', records: [chunk, { kind: 'end', conn: 'f:1', t: 2, state: 'complete' }] })).toBe(false);
    expect(acceptTapBatch({ type: 'records', records: [{ kind: 'end', conn: 'f:1', t: 2, state: 'complete' }] }, new DropCounter())).toBeDefined();
  });
});

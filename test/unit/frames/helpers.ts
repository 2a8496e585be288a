// Shared test helpers: cutting bytes into chunks and turning them into chunk records like the page tap does.
import fc from 'fast-check';
import type { ChunkRecord } from '../../../src/core/capture/model.ts';
import { Utf8ChunkEncoder } from '../../../src/core/frames/utf8-chunks.ts';

/** Splits `bytes` at the given cut points (any order, duplicates and out-of-range ignored). */
export function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.slice(from, p));
    from = p;
  }
  return out.filter((c) => c.length > 0);
}

/** Chunk records for wire chunks, as the tap makes them (chunk k arrives at t0 + k), plus the flush record. */
export function toRecords(chunks: Uint8Array[], conn = 'c1', t0 = 1000): ChunkRecord[] {
  const enc = new Utf8ChunkEncoder();
  const recs: ChunkRecord[] = chunks.map((c, k) => ({ kind: 'chunk', conn, t: t0 + k, ...enc.push(c) }));
  const flush = enc.flush();
  if (flush) recs.push({ kind: 'chunk', conn, t: t0 + chunks.length, ...flush });
  return recs;
}

/** Arbitrary cut points for a body of length n: from none up to every byte (1-byte chunks). */
export function cutsFor(n: number): fc.Arbitrary<number[]> {
  return fc.oneof(
    fc.array(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: Math.min(n, 40) }),
    fc.constant(Array.from({ length: n }, (_, i) => i)),
  );
}

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

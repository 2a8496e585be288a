// The split storage rule (tap splits, reader decodes) against the one-piece encoder it replaces in the tap.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkSplitter, payloadRecord } from '../../../src/core/frames/byte-chunks.ts';
import { recordsToBytes, Utf8ChunkEncoder, type ChunkPayload } from '../../../src/core/frames/utf8-chunks.ts';

function viaSplitter(chunks: Uint8Array[]): ChunkPayload[] {
  const s = new ChunkSplitter();
  const out = chunks.map((c) => payloadRecord(s.push(c)));
  const tail = s.flush();
  if (tail) out.push(payloadRecord(tail));
  return out;
}

function viaEncoder(chunks: Uint8Array[]): ChunkPayload[] {
  const e = new Utf8ChunkEncoder();
  const out = chunks.map((c) => e.push(c));
  const tail = e.flush();
  if (tail) out.push(tail);
  return out;
}

// Bytes biased towards UTF-8 edge cases: multi-byte characters, lone lead/continuation bytes, surrogate encodings, BOM.
const interesting = fc.oneof(
  fc.string({ unit: 'binary' }).map((s) => new TextEncoder().encode(s)),
  fc.constantFrom(
    [0xef, 0xbb, 0xbf], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xed, 0xa0, 0x80], [0xc3], [0x80], [0xff],
    [0xf4, 0x90, 0x80, 0x80], [0xe0, 0x80], [0xf0, 0x8f], [0xc0, 0xaf],
  ).map((b) => new Uint8Array(b)),
  fc.uint8Array({ maxLength: 8 }),
);
const body = fc.array(interesting, { maxLength: 12 }).map((parts) => {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
});

function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    if (c > from) out.push(bytes.slice(from, c));
    from = Math.max(from, c);
  }
  return out;
}

describe('ChunkSplitter + payloadRecord', () => {
  it('give exactly the records Utf8ChunkEncoder gives, for any bytes cut anywhere', () => {
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const chunks = cut(bytes, cuts);
        const got = viaSplitter(chunks);
        expect(got).toEqual(viaEncoder(chunks));
        expect(recordsToBytes(got)).toEqual(bytes);
      }),
      { seed: 20261129, numRuns: 3000 },
    );
  });

  it('never keeps or changes the chunk it was given (the page owns that buffer)', () => {
    const s = new ChunkSplitter();
    const chunk = new TextEncoder().encode('ab€');
    const first = s.push(chunk.subarray(0, 3)); // "ab" + the first byte of "€"
    expect(first.payload.buffer).not.toBe(chunk.buffer);
    chunk.fill(0);
    expect([...first.payload]).toEqual([0x61, 0x62]);
    expect(s.push(new Uint8Array([0x82, 0xac])).payload).toEqual(new Uint8Array([0xe2, 0x82, 0xac]));
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  PageTextDecoder,
  Utf8ChunkEncoder,
  base64ToBytes,
  bytesToBase64,
  recordsToBytes,
  recordsToChunks,
  utf8Length,
} from '../../../src/core/frames/utf8-chunks.ts';
import { cut, cutsFor, toRecords, utf8 } from './helpers.ts';

// Bytes that are mostly UTF-8 text (multi-byte characters included) with occasional invalid bytes mixed in.
const textish = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }).map(utf8) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }) },
    ),
    { maxLength: 12 },
  )
  .map((parts) => {
    const out: number[] = [];
    for (const p of parts) out.push(...p);
    return new Uint8Array(out);
  });

/** Such bytes and where a network might cut them into chunks. */
const bytesAndCuts = textish.chain((b) => fc.tuple(fc.constant(b), cutsFor(b.length)));

describe('base64', () => {
  it('round-trips any bytes and matches Node', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const b64 = bytesToBase64(bytes);
        expect(b64).toBe(Buffer.from(bytes).toString('base64'));
        expect(base64ToBytes(b64)).toEqual(bytes);
      }),
    );
  });
  it('rejects characters outside the alphabet and impossible lengths, saying where', () => {
    expect(() => base64ToBytes('ab-_')).toThrow('invalid base64: character "-" at 2');
    expect(() => base64ToBytes('QU=J')).toThrow('invalid base64: character "=" at 2');
    expect(() => base64ToBytes('QUJDR===')).toThrow('invalid base64: length 8 is not possible');
    expect(() => base64ToBytes('QUJ\u00e9')).toThrow('invalid base64: character "é" at 3');
    expect(base64ToBytes('QUI')).toEqual(new Uint8Array([65, 66])); // padding is optional
  });
  it('still encodes when a page has replaced TextDecoder (the tap runs this in pages)', () => {
    const native = TextDecoder.prototype.decode;
    TextDecoder.prototype.decode = () => {
      throw new Error('page says no');
    };
    try {
      for (const n of [0, 1, 2, 3, 100]) {
        const bytes = new Uint8Array(n).map((_, i) => (i * 131 + 7) & 255);
        expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }
    } finally {
      TextDecoder.prototype.decode = native;
    }
  });
  it('round-trips a 9 MB payload exactly as Node encodes it', () => {
    const bytes = new Uint8Array(9 * 1024 * 1024 + 1).map((_, i) => (i * 2654435761) >>> 24);
    const b64 = bytesToBase64(bytes);
    expect(b64).toBe(Buffer.from(bytes).toString('base64'));
    expect(Buffer.from(base64ToBytes(b64)).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('Utf8ChunkEncoder', () => {
  it('stores a character split across chunks as text in the chunk that completes it', () => {
    const bytes = utf8('a€b'); // € = e2 82 ac
    const recs = toRecords([bytes.slice(0, 2), bytes.slice(2, 4), bytes.slice(4)]);
    expect(recs.map((r) => [r.bytes, r.text, r.base64])).toEqual([
      [2, 'a', undefined],
      [2, '€', undefined],
      [1, 'b', undefined],
    ]);
  });

  it('keeps bytes that are not UTF-8 as base64 (with the carried bytes) and restarts', () => {
    const enc = new Utf8ChunkEncoder();
    expect(enc.push(new Uint8Array([0x61, 0xe2]))).toEqual({ bytes: 2, text: 'a' });
    expect(enc.carriedBytes).toBe(1);
    expect(enc.push(new Uint8Array([0x41, 0x42]))).toEqual({ bytes: 2, base64: bytesToBase64(new Uint8Array([0xe2, 0x41, 0x42])) });
    expect(enc.push(utf8('ok'))).toEqual({ bytes: 2, text: 'ok' });
  });

  it('flushes an unfinished last character as a bytes:0 record', () => {
    const recs = toRecords([new Uint8Array([0x68, 0xf0, 0x9f])]);
    expect(recs).toHaveLength(2);
    expect(recs[1]).toMatchObject({ bytes: 0, base64: bytesToBase64(new Uint8Array([0xf0, 0x9f])) });
    expect(recordsToBytes(recs)).toEqual(new Uint8Array([0x68, 0xf0, 0x9f]));
  });

  it('keeps a BOM in the text (lossless)', () => {
    const recs = toRecords([utf8('\ufeffdata: x\n\n')]);
    expect(recs[0].text?.charCodeAt(0)).toBe(0xfeff);
    expect(recs[0].bytes).toBe(utf8Length(recs[0].text ?? ''));
  });

  it('property: any bytes, any chunking -> records -> the exact bytes and the exact chunks', () => {
    fc.assert(
      fc.property(
        bytesAndCuts,
        ([bytes, cuts]) => {
          const chunks = cut(bytes, cuts);
          const recs = toRecords(chunks);
          expect(recordsToBytes(recs)).toEqual(bytes);
          const back = recordsToChunks(recs);
          expect(back.missingBytes).toBe(0);
          expect(back.chunks).toEqual(chunks);
          // the page's streaming TextDecoder, chunk by chunk, and ours agree exactly
          const page = new TextDecoder('utf-8', { ignoreBOM: true });
          const expected = chunks.map((c) => page.decode(c, { stream: true }));
          const ours = new PageTextDecoder();
          const got = recs.filter((r) => r.bytes > 0).map((r) => ours.push(r));
          const tail = recs.filter((r) => r.bytes === 0).map((r) => ours.push(r)).join('');
          expect(got).toEqual(expected);
          expect(tail + ours.end()).toBe(page.decode());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: another writer\'s base64 records, cut anywhere (mid-character), read as the page read the body', () => {
    fc.assert(
      fc.property(
        bytesAndCuts,
        ([bytes, cuts]) => {
          const chunks = cut(bytes, cuts);
          const ours = new PageTextDecoder();
          const got = chunks.map((c) => ours.push({ bytes: c.length, base64: bytesToBase64(c) })).join('') + ours.end();
          expect(got).toBe(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes));
        },
      ),
      { numRuns: 300 },
    );
    // A text record after an unfinished base64 tail: the tail ends as the page's decoder ends it.
    const d = new PageTextDecoder();
    expect(d.push({ bytes: 3, base64: bytesToBase64(Uint8Array.from([0x61, 0xf0, 0x9f])) })).toBe('a');
    expect(d.push({ bytes: 1, text: 'b' })).toBe('\ufffdb');
  });

  it('reports bytes still in flight when a capture was taken mid-character', () => {
    const enc = new Utf8ChunkEncoder();
    const recs = [enc.push(new Uint8Array([0x61, 0xe2, 0x82]))]; // no flush: still streaming
    expect(recordsToChunks(recs)).toEqual({ chunks: [new Uint8Array([0x61])], missingBytes: 2 });
  });

  it('throws on records holding more bytes than they declare', () => {
    expect(() => recordsToChunks([{ bytes: 1, text: 'abc' }])).toThrow(/hold 3 bytes/);
  });
});

describe('utf8Length', () => {
  it('matches TextEncoder on any string, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udc00', 'é', 'a'), fc.string({ unit: 'binary', maxLength: 1 })) }), (s) => {
        expect(utf8Length(s)).toBe(new TextEncoder().encode(s).length);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NdjsonDecoder, isNdjsonContentType } from '../../../src/core/frames/ndjson.ts';
import { chunkTexts, readNdjson } from '../../../src/core/frames/read-body.ts';
import { cut, cutsFor, toRecords, utf8 } from './helpers.ts';

describe('NDJSON reading', () => {
  it('recognises the JSON-lines content types', () => {
    expect(isNdjsonContentType('application/x-ndjson; charset=utf-8')).toBe(true);
    expect(isNdjsonContentType('application/jsonl')).toBe(true);
    expect(isNdjsonContentType('application/stream+json')).toBe(true);
    expect(isNdjsonContentType('text/event-stream')).toBe(false);
    expect(isNdjsonContentType(undefined)).toBe(false);
  });

  it('yields one frame per line, drops CR of CRLF, skips blank lines, keeps a last line without newline', () => {
    const dec = new NdjsonDecoder();
    dec.push('{"a":1}\r\n\n{"b":', 5);
    dec.push('2}\n{"c":3}', 6);
    expect(dec.frames.map((f) => [f.data, f.t])).toEqual([['{"a":1}', 5], ['{"b":2}', 6]]);
    expect(dec.finish().map((f) => [f.data, f.t, f.unterminated])).toEqual([['{"c":3}', 6, true]]);
  });

  it('property: re-chunking never changes the lines', () => {
    const lineArb = fc.json({ maxDepth: 2 }).map((j) => j.replace(/\n/g, ' '));
    const body = fc.array(fc.tuple(lineArb, fc.constantFrom('\n', '\r\n', '\n\n')), { maxLength: 10 })
      .map((ls) => ls.map(([l, e]) => l + e).join(''));
    fc.assert(
      fc.property(body.chain((b) => fc.tuple(fc.constant(b), cutsFor(utf8(b).length))), ([text, cuts]) => {
        const whole = readNdjson([{ text, t: 0 }], { ended: true }).map((f) => f.data);
        const split = readNdjson(chunkTexts(toRecords(cut(utf8(text), cuts))), { ended: true }).map((f) => f.data);
        expect(split).toEqual(whole);
        expect(whole).toEqual(text.split('\n').map((l) => l.replace(/\r$/, '')).filter((l) => l.trim() !== ''));
      }),
      { numRuns: 200 },
    );
  });
});

// Our parseStreamingJson against the real one of the installed pi-ai (0.73.1), on prefixes of real JSON and on
// hostile text (bad escapes, raw control characters, stray brackets).
import { parseStreamingJson as reference } from '@mariozechner/pi-ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStreamingJson, repairJsonStrings } from '../../../src/core/pi/streaming-json.ts';

const noise = fc.constantFrom('\\', '\\u', '\\u12', '\\uZZZZ', '\\q', '\n', '\t', '\u0001', '"', '{', '}', '[', ']', ',', ':', ' ', 'tr', 'nul', '-', '.5e', 'Infinity', 'NaN');

describe('parseStreamingJson', () => {
  it('matches pi-ai on every prefix of random JSON documents', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 2 }).map((d) => d.slice(0, 120)), (doc) => {
        for (let i = 0; i <= doc.length; i++) {
          const text = doc.slice(0, i);
          expect(parseStreamingJson(text)).toEqual(reference(text));
        }
      }),
      { numRuns: 60, seed: 1 },
    );
  });

  it('matches pi-ai on text mixed with broken escapes and control characters', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(noise, fc.string({ maxLength: 4 })), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(parseStreamingJson(text)).toEqual(reference(text));
        expect(parseStreamingJson(`{"k": "${text}`)).toEqual(reference(`{"k": "${text}`));
      }),
      { numRuns: 400, seed: 2 },
    );
  });

  it('repairs only inside strings', () => {
    expect(repairJsonStrings('{"p": "C:\\Users\\new"}')).toBe('{"p": "C:\\\\Users\\new"}');
    expect(repairJsonStrings('{"t": "a\nb\u0001"}')).toBe('{"t": "a\\nb\\u0001"}');
    expect(repairJsonStrings('{\n"a": 1}')).toBe('{\n"a": 1}');
    expect(parseStreamingJson('')).toEqual({});
    expect(parseStreamingJson('[1, 2')).toEqual([1, 2]);
  });
});

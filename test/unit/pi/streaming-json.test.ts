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

  // The repair as it was written first, one character at a time: the run-copying version must give the same text.
  function repairOneByOne(json: string): string {
    const simple = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u']);
    const control: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    let out = '';
    let inString = false;
    for (let i = 0; i < json.length; i++) {
      const ch = json[i];
      if (!inString) {
        out += ch;
        if (ch === '"') inString = true;
      } else if (ch === '"') {
        out += ch;
        inString = false;
      } else if (ch === '\\') {
        const next = json[i + 1];
        if (next === undefined) out += '\\\\';
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(json.slice(i + 2, i + 6))) {
          out += json.slice(i, i + 6);
          i += 5;
        } else if (simple.has(next)) {
          out += ch + next;
          i += 1;
        } else out += '\\\\';
      } else out += ch.charCodeAt(0) <= 0x1f ? (control[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) : ch;
    }
    return out;
  }

  it('repairs exactly as the one-character-at-a-time version, and returns the text itself when nothing changes', () => {
    const unit = fc.oneof(noise, fc.constantFrom('\\u00e9', '\\uD83D', '\\"', '\\\\', 'é', '🙂', '\u001f'), fc.string({ maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (parts) => {
        const text = parts.join('');
        for (const t of [text, `"${text}`, `{"k": "${text}"}`]) expect(repairJsonStrings(t)).toBe(repairOneByOne(t));
      }),
      { numRuns: 2000, seed: 3 },
    );
    const clean = `{"content": "${'x'.repeat(1000)}\\n"}`;
    expect(repairJsonStrings(clean)).toBe(clean);
  });

  it('repairs only inside strings', () => {
    expect(repairJsonStrings('{"p": "C:\\Users\\new"}')).toBe('{"p": "C:\\\\Users\\new"}');
    expect(repairJsonStrings('{"t": "a\nb\u0001"}')).toBe('{"t": "a\\nb\\u0001"}');
    expect(repairJsonStrings('{\n"a": 1}')).toBe('{\n"a": 1}');
    expect(parseStreamingJson('')).toEqual({});
    expect(parseStreamingJson('[1, 2')).toEqual([1, 2]);
  });
});

// Streamed tool-call arguments are masked as one JSON document: whatever the pieces, the masked pieces put together
// are the JSON of the value with its string values masked (keys kept) — still JSON, where masking each piece as
// text turned "1.10" into "x.xx" and true into "xxxx".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonTextMasker, maskJsonText } from '../../../src/core/capture/redact-json-text.ts';
import { maskText } from '../../../src/core/capture/redact.ts';
import { cutText } from '../../fuzz/agentscope-gen.ts';

/** The reference: string values masked as text, keys and everything else kept. */
function maskStrings(v: unknown): unknown {
  if (typeof v === 'string') return maskText(v);
  if (Array.isArray(v)) return v.map(maskStrings);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskStrings(x)]));
  return v;
}

/** Python's json.dumps: every non-ASCII character as \uXXXX (ensure_ascii), ", " and ": " separators. */
const pyDumps = (v: unknown) => JSON.stringify(v, null, 1).replace(/\n */g, ' ').replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

describe('JsonTextMasker', () => {
  it('masked pieces make the masked document, whatever the cut (JS and Python writers)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (value, cuts, python) => {
        const text = python ? pyDumps(value) : JSON.stringify(value);
        const pieces = cutText(text, cuts);
        const m = new JsonTextMasker();
        const masked = pieces.map((p) => m.mask(p)).join('') + m.flush(); // (a document that ends in a literal)
        expect(JSON.parse(masked)).toEqual(maskStrings(JSON.parse(text)));
      }),
      { seed: 1201, numRuns: 500 },
    );
  });

  it('outside strings keeps only JSON\'s own characters: prose, or a document whose start is unknown, shows nothing', () => {
    expect(maskJsonText('Send the report to alice tomorrow, ok?')).toBe('xxxx xxx xxxxxx xx xxxxx xxxxxxxx, xx?');
    expect(maskJsonText('ull, "b": 1e5, "c": true}')).toBe('xxx, "x": 1e5, "x": true}'); // no literal, and no known keys: masked
    expect(maskJsonText('[… 9 older characters evicted …]lorem", "k": "SECRET"}')).not.toMatch(/lorem|SECRET|older/);
    const m = new JsonTextMasker();
    expect([m.mask('{"ok": tr'), m.mask('ue, "n": nu'), m.mask('ll}')].join('')).toBe('{"ok": true, "n": null}');
  });

  it('keeps what is not a string value, and invalid JSON stays as invalid', () => {
    expect(maskJsonText('{"city": "Paris", "units": 1.10, "ok": true, "n": null, "é": "\\u00e9t\\u00e9 \\u2014"}'))
      .toBe('{"city": "xxxxx", "units": 1.10, "ok": true, "n": null, "é": "\\u0078x\\u0078 \\u2014"}');
    expect(maskJsonText('{"a": "b\\u12"}')).toBe('{"a": "x\\u12"}');
    expect(maskJsonText('{"path": "/home/al')).toBe('{"path": "/xxxx/xx');
  });
});

// A delta's leading and trailing whitespace, which the event list's Data column marks (" Eve" read "Eve").
import { describe, expect, it } from 'vitest';
import { edgeSpaces, spaceGlyph } from '../../../panel/lib/edge-space.ts';

describe('edgeSpaces', () => {
  it('splits off the whitespace at either edge, and only there', () => {
    expect(edgeSpaces(' e ser ')).toEqual({ lead: ' ', body: 'e ser', trail: ' ' });
    expect(edgeSpaces('y: th')).toEqual({ lead: '', body: 'y: th', trail: '' });
    expect(edgeSpaces('\n\t x')).toEqual({ lead: '\n\t ', body: 'x', trail: '' });
  });

  it('a blank text is all lead; an empty one is empty', () => {
    expect(edgeSpaces('\n\n')).toEqual({ lead: '\n\n', body: '', trail: '' });
    expect(edgeSpaces('')).toEqual({ lead: '', body: '', trail: '' });
  });

  it('the three parts are the text', () => {
    for (const t of [' a', 'b ', '  c  d  ', '\u00a0e\u2003']) {
      const { lead, body, trail } = edgeSpaces(t);
      expect(lead + body + trail).toBe(t);
    }
  });
});

describe('spaceGlyph', () => {
  it('a glyph per kind of whitespace, "␣" for the others', () => {
    expect([' ', '\t', '\n', '\r', '\u00a0', '\u2003'].map(spaceGlyph)).toEqual(['␣', '⇥', '↵', '␍', '⍽', '␣']);
  });
});

// A text's leading and trailing whitespace, for the event list's Data column: there a delta " Eve" read "Eve" (the
// cell collapses whitespace at its edges), so where the stream split its words ("e ser" + "y: th") did not show.
// Only the edges: whitespace inside the text reads as it is.

export interface EdgeSpaced {
  lead: string;
  body: string;
  trail: string;
}

/** `text` as its leading whitespace, the rest, and its trailing whitespace (all of a blank text is `lead`). */
export function edgeSpaces(text: string): EdgeSpaced {
  const lead = /^\s*/.exec(text)![0];
  if (lead.length === text.length) return { lead, body: '', trail: '' };
  const trail = /\s*$/.exec(text)![0];
  return { lead, body: text.slice(lead.length, text.length - trail.length), trail };
}

const GLYPHS: Record<string, string> = { ' ': '␣', '\t': '⇥', '\n': '↵', '\r': '␍', '\u00a0': '⍽' };

/** The glyph that shows a whitespace character (another space, e.g. an em space: "␣"). */
export function spaceGlyph(ch: string): string {
  return GLYPHS[ch] ?? '␣';
}

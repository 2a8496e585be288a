// A one-line text whose leading and trailing whitespace is drawn as faint glyphs ("␣", "↵"), for the event list's
// Data column (lib/edge-space.ts says why). Each glyph is CSS content beside its own character, which stays in the
// text, clipped: the cell's text — what a selection copies — is the delta's, spaces included.
import { edgeSpaces, spaceGlyph } from '../lib/edge-space.ts';

function Spaces({ text }: { text: string }) {
  return <>{[...text].map((ch, i) => <span key={i} class="ws" data-ws={spaceGlyph(ch)}>{ch}</span>)}</>;
}

export function EdgeSpacedText({ text }: { text: string }) {
  const { lead, body, trail } = edgeSpaces(text);
  if (!lead && !trail) return <>{text}</>;
  return (
    <>
      <Spaces text={lead} />
      {body}
      <Spaces text={trail} />
    </>
  );
}

// A HAR's `content.text` is the body as the browser's DevTools decoded it, not as the page read it. Chromium decodes a
// text response whose Content-Type names no charset as Windows-1252 (`Network.getResponseBody`, which both Chrome's
// "Save all as HAR" and Playwright's recordHar use): a stream sent as UTF-8 without `; charset=utf-8` — a common
// server default, and the demo's — is saved as "â€”" for "—" and "ðŸ™‚" for "🙂". An EventSource and a fetch read
// through TextDecoder decode UTF-8 whatever the header says, so the page showed "—". Windows-1252 (as WHATWG defines
// it) maps each of the 256 bytes to one character, so the bytes are recovered exactly by mapping back.

/**
 * Character code → byte: U+0080–U+00FF are bytes 0x80–0xFF (ISO-8859-1, which some writers such as mitmproxy use, and
 * Windows-1252 for 0xA0–0xFF and its five unassigned bytes), and Windows-1252's own characters for 0x80–0x9F. Written
 * out because TextDecoder('windows-1252') in Node 20 decodes ISO-8859-1 (0x80 as U+0080, not "€").
 */
const BYTE_OF = (() => {
  const map = new Map<number, number>();
  for (let b = 0x80; b <= 0xff; b++) map.set(b, b);
  const cp1252 = [0x20ac, 0, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0, 0x17d, 0,
    0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0, 0x17e, 0x178];
  cp1252.forEach((c, k) => c && map.set(c, 0x80 + k));
  return map;
})();

/** Whether a Content-Type leads a browser to decode the body as Windows-1252: no charset, or one of its labels. */
function decodedAs1252(contentType: string): boolean {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  if (!m) return true;
  try {
    return new TextDecoder(m[1]).encoding === 'windows-1252'; // iso-8859-1, latin1, us-ascii… are its labels
  } catch {
    return false; // a label no decoder knows: the browser fell back to something we cannot tell
  }
}

/**
 * The bytes of `text` when it is a UTF-8 body a browser stored decoded as Windows-1252, else undefined. Only when the
 * Content-Type lets it be so, every character maps back to a byte, and those bytes are valid UTF-8 with at least one
 * character beyond ASCII: text decoded right (a "é" from C3 A9 maps back to a lone E9) is left as it is. Text of
 * mojibake that the server really sent ("Ã©" as C3 83 C2 A9) maps back to C3 A9 and would be taken for "é" — text
 * that unlikely in a stream is the price of reading the far more common undeclared UTF-8 right, and a note says so.
 */
export function utf8BytesDecodedAs1252(text: string, contentType: string): Uint8Array | undefined {
  if (!/[^\x00-\x7f]/.test(text) || !decodedAs1252(contentType)) return undefined;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes[i] = c;
    else {
      const b = BYTE_OF.get(c);
      if (b === undefined) return undefined; // a character Windows-1252 cannot produce: not its decoding
      bytes[i] = b;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return bytes;
}

export const DECODED_AS_1252_NOTE =
  'This HAR entry\'s body was saved decoded as Windows-1252 (its Content-Type names no charset; Chrome\'s DevTools and ' +
  'Playwright save it so): it was read back to its bytes and decoded as UTF-8, as an EventSource or TextDecoder in the page decodes it.';

// Reading JSON text without parsing it: for scans that need the text as written (number literals, key order).

/**
 * Index of the quote that closes the JSON string whose opening quote is at `open` (a quote preceded by an odd
 * number of backslashes is escaped); `text.length - 1` when the string never closes.
 */
export function jsonStringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  while (q !== -1) {
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === 92 /* \ */; k--) backslashes++;
    if (backslashes % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return text.length - 1;
}

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/**
 * The text of the value of member `key` of the JSON object `text` (top level only; the last one when the key is
 * written twice, as JSON.parse keeps it), or undefined. `text` should be valid JSON; other text gives some answer but
 * never throws. Linear in the text: strings are skipped by their quotes, nested values by their depth.
 */
export function topLevelMemberText(text: string, key: string): string | undefined {
  const n = text.length;
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 123 /* { */) return undefined;
  let found: string | undefined;
  i++;
  for (;;) {
    while (i < n && (isSpace(text.charCodeAt(i)) || text.charCodeAt(i) === 44 /* , */)) i++;
    if (i >= n || text.charCodeAt(i) !== 34 /* " */) return found;
    const keyEnd = jsonStringEnd(text, i);
    const raw = text.slice(i + 1, keyEnd);
    i = text.indexOf(':', keyEnd + 1);
    if (i === -1) return found;
    i++;
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    const start = i;
    let depth = 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) i = jsonStringEnd(text, i);
      else if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        if (depth === 0) break;
        depth--;
      } else if (c === 44 && depth === 0) break;
    }
    let end = i;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (raw === key || (raw.includes('\\') && decodeJsonKey(raw) === key)) found = text.slice(start, end);
    if (i >= n || text.charCodeAt(i) === 125) return found;
  }
}

/** A key as written between its quotes, its escapes read (undefined: no valid JSON string). */
export function decodeJsonKey(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

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

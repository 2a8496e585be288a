// Captured strings can be megabytes long (a 60 MB reply, a 10 MB single-line delta). Laying out such a text node
// takes the browser seconds to minutes — on every seek — so views show a bounded window of a long text and say what
// they left out. Everything here is pure; the components in LongText.tsx render it.
import { truncateDeep } from '../../src/core/diagnostics/shown.ts';

/** Characters of a long text that are shown by default (a quarter from its head, the rest from its tail). */
export const SHOWN_CHARS = 40_000;
/** Strings inside pretty-printed JSON longer than this are shortened to their head and tail. */
export const JSON_STRING_CHARS = 4_000;

export interface ElidedText {
  head: string;
  /** Characters left out between head and tail (0: the whole text is in head). */
  hidden: number;
  tail: string;
}

/**
 * The head and tail of `text` within `shown` characters. The tail gets the larger share: an appended delta, the
 * part a step changes, is at the end. Cuts never split a surrogate pair.
 */
export function elide(text: string, shown = SHOWN_CHARS): ElidedText {
  if (text.length <= shown) return { head: text, hidden: 0, tail: '' };
  let headEnd = Math.floor(shown / 4);
  let tailStart = text.length - (shown - headEnd);
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd--;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return { head: text.slice(0, headEnd), hidden: tailStart - headEnd, tail: text.slice(tailStart) };
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** `text` shortened to `max` characters for one-line use, with the number left out. */
export function elideInline(text: string, max: number): string {
  const e = elide(text, max);
  return e.hidden === 0 ? e.head : `${e.head}… [${e.hidden.toLocaleString('en-US')} chars] …${e.tail}`;
}

/**
 * Pretty JSON of any value, never throwing (cycles or BigInt would otherwise break a render). Strings longer than
 * `maxString` are shortened in place (head … [N chars] … tail) so a megabyte delta does not become a megabyte of
 * layout; pass Infinity for the exact text (copy, export).
 */
export function prettyValue(value: unknown, maxString = JSON_STRING_CHARS): string {
  if (value === undefined) return 'undefined';
  const replacer = Number.isFinite(maxString)
    ? (_key: string, v: unknown) => (typeof v === 'string' && v.length > maxString ? elideInline(v, maxString) : v)
    : undefined;
  try {
    return JSON.stringify(value, replacer, 2) ?? String(value);
  } catch (err) {
    // Nested too deep for JSON.stringify (a stream's value that JSON.parse read): show it down to a depth.
    if (err instanceof RangeError) {
      try {
        return JSON.stringify(truncateDeep(value, PRETTY_DEPTH), replacer, 2) ?? String(value);
      } catch {
        // cyclic below the cut: fall through
      }
    }
    return `<unprintable: ${(err as Error).message}>`;
  }
}

/** Levels of a value `prettyValue` shows when the whole is too deep to print. */
export const PRETTY_DEPTH = 100;

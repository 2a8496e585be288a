// Integer literals in JSON text that JSON.parse cannot hold. A JSON number is a double in JavaScript, so an integer
// literal beyond 2^53 (a 64-bit trace id, a snowflake id) is read as the nearest double: 1234567890123456789 comes
// back as 1234567890123456800. These scans read the text as written — the parsed value has lost the difference.
// Used for event texts (analysis/rounded-integers.ts) and for the JSON a tool call's input streams (both lifecycles).
import { clipped } from '../diagnostics/shown.ts';
import { decodeJsonKey, jsonStringEnd } from './json-text.ts';

export interface RoundedInteger {
  /** Dotted path of the value ('' for a top-level number), as schema issues write paths. */
  path: string;
  /** The literal as the text has it. */
  literal: string;
  /** What JSON.parse made of it (Infinity for a literal beyond the double range). */
  read: number;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * `/\d{16}/.test(text)`, looking at every 16th character first: 16 consecutive characters include exactly one at
 * an index ≡ 15 (mod 16), so only a digit there can be part of such a run. The expression tried every index (~3.5 ns
 * per character here; the look ~0.6 µs for the benchmark capture's non-delta events, the expression ~1 µs).
 */
export function hasDigitRun16(text: string): boolean {
  const n = text.length;
  for (let i = 15; i < n; i += 16) {
    if (!isDigit(text.charCodeAt(i))) continue;
    let start = i;
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--;
    let end = i + 1;
    while (end < n && end - start < 16 && isDigit(text.charCodeAt(end))) end++;
    if (end - start >= 16) return true;
  }
  return false;
}

const INTEGER = /^-?\d+$/;

/**
 * The integer literals of JSON text `text` that JSON.parse does not read back as themselves (the number it makes
 * prints as another integer), in text order. `text` should be valid JSON (the caller parsed it); other text gives
 * some answer but never throws. Iterative: any depth.
 */
export function roundedIntegers(text: string): RoundedInteger[] {
  if (!hasDigitRun16(text)) return [];
  const found: RoundedInteger[] = [];
  const path: (string | number)[] = [];
  const inObject: boolean[] = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = jsonStringEnd(text, i);
      if (expectKey) {
        const raw = text.slice(i + 1, end);
        path[path.length - 1] = raw.indexOf('\\') === -1 ? raw : decodeJsonKey(raw) ?? raw;
        expectKey = false;
      }
      i = end + 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      path.push(c === 123 ? '' : 0);
      inObject.push(c === 123);
      expectKey = c === 123;
      i++;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      path.pop();
      inObject.pop();
      expectKey = false;
      i++;
    } else if (c === 44 /* , */) {
      const top = inObject.length - 1;
      if (top >= 0 && inObject[top]) expectKey = true;
      else if (top >= 0) (path[top] as number)++;
      i++;
    } else if (c === 45 /* - */ || isDigit(c)) {
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (!(isDigit(d) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45)) break;
      }
      if (j - i >= 16) {
        const literal = text.slice(i, j);
        if (INTEGER.test(literal)) {
          const read = Number(literal);
          if (!Number.isFinite(read) || printedValue(read) !== BigInt(literal)) found.push({ path: path.join('.'), literal, read });
        }
      }
      i = j;
    } else i++; // whitespace, ':', the letters of true/false/null
  }
  return found;
}

/**
 * The exact value of what JavaScript prints for integer-valued `read` (String(), JSON.stringify: the shortest decimal
 * that reads back as the same double). That, not the double's own binary value, is what a frontend shows and sends
 * back: 70065005125618410 parses to 70065005125618408 but prints as 70065005125618410, so nothing visible is lost.
 */
function printedValue(read: number): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e\+(\d+))?$/.exec(String(read)) as RegExpExecArray;
  const fraction = m[3] ?? '';
  const v = BigInt(m[2] + fraction) * 10n ** BigInt(Number(m[4] ?? 0) - fraction.length);
  return m[1] === '-' ? -v : v;
}


/** Integer literals shown in a message: a 5,000-digit one would otherwise be the whole message. */
const LITERAL_SHOWN = 40;

/**
 * What a diagnostic tells of `found` (non-empty): the first literal with its path ("123… at a.b"), what JSON.parse
 * reads, and " (and N more<where>)" for the others.
 */
export function describeRounded(found: readonly RoundedInteger[], where = ''): { literal: string; read: string; more: string } {
  const first = found[0];
  const at = first.path === '' ? '' : ` at ${clipped(first.path, 80)}`;
  return {
    literal: `${clipped(first.literal, LITERAL_SHOWN)}${at}`,
    read: clipped(String(first.read), LITERAL_SHOWN),
    more: found.length > 1 ? ` (and ${found.length - 1} more${where})` : '',
  };
}

// Tool-call input arrives as raw JSON text, streamed in pieces. While it streams we show the best-effort parse
// (pretty-printed) and say that it is partial; when it does not parse even partially, the raw text is shown.
// Complete input is re-indented token by token, not parsed and printed again: what the model wrote is what the
// developer must see — 1234567890123456789 (JSON.parse: ...800), 1.10, "\u00e9" and a key given twice included.
import { Allow, parse } from 'partial-json';
import { jsonStringEnd } from '../../src/core/frames/json-text.ts';

export interface PrettyJson {
  text: string;
  state: 'complete' | 'partial' | 'invalid' | 'empty' | 'unformatted';
}

/** Tool input longer than this is shown raw instead of parsed and re-printed. */
export const MAX_FORMATTED_CHARS = 1_000_000;

export function prettyJsonText(raw: string): PrettyJson {
  if (raw.trim() === '') return { text: '', state: 'empty' };
  // Parsing (worse: partially parsing) megabytes on every seek would stall the panel; such input is shown as it is.
  if (raw.length > MAX_FORMATTED_CHARS) return { text: raw, state: 'unformatted' };
  let complete = true;
  try {
    JSON.parse(raw); // is it complete, valid JSON? (then it can be re-indented as it is)
  } catch {
    complete = false; // on to the partial reading
  }
  if (complete) {
    const text = reindentJson(raw);
    return text === undefined ? { text: raw, state: 'unformatted' } : { text, state: 'complete' };
  }
  try {
    const value: unknown = parse(raw, Allow.ALL);
    return { text: JSON.stringify(value, null, 2) ?? raw, state: 'partial' };
  } catch {
    return { text: raw, state: 'invalid' };
  }
}

const WHITESPACE = new Set([0x20, 0x0a, 0x0d, 0x09]);

/**
 * Valid JSON text `raw` laid out as `JSON.stringify(JSON.parse(raw), null, 2)` lays it out, with every string and
 * number token kept as written and every key where it was. Undefined when the layout would be far larger than the
 * text (nesting thousands deep: its indentation grows with the square of the depth).
 */
export function reindentJson(raw: string): string | undefined {
  const limit = raw.length * 4 + 100_000;
  const parts: string[] = [];
  let size = 0;
  let depth = 0;
  const push = (s: string) => {
    parts.push(s);
    size += s.length;
  };
  const newline = () => push(`\n${'  '.repeat(depth)}`);
  const n = raw.length;
  let i = 0;
  while (i < n) {
    if (size > limit) return undefined;
    const c = raw.charCodeAt(i);
    if (WHITESPACE.has(c)) i++;
    else if (c === 34 /* " */) {
      const end = jsonStringEnd(raw, i);
      push(raw.slice(i, end + 1));
      i = end + 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      let k = i + 1;
      while (k < n && WHITESPACE.has(raw.charCodeAt(k))) k++;
      if (raw.charCodeAt(k) === c + 2 /* } or ] */) {
        push(c === 123 ? '{}' : '[]');
        i = k + 1;
      } else {
        push(raw[i]);
        depth++;
        newline();
        i++;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      newline();
      push(raw[i]);
      i++;
    } else if (c === 44 /* , */) {
      push(',');
      newline();
      i++;
    } else if (c === 58 /* : */) {
      push(': ');
      i++;
    } else {
      // A number, true, false or null: up to the next structural character or whitespace, as written.
      let j = i + 1;
      while (j < n) {
        const d = raw.charCodeAt(j);
        if (WHITESPACE.has(d) || d === 44 || d === 58 || d === 93 || d === 125) break;
        j++;
      }
      push(raw.slice(i, j));
      i = j;
    }
  }
  return parts.join('');
}

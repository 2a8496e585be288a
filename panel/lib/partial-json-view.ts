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

const isWhitespace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Line breaks with the indentation of each depth up to 64, made once (deeper ones are made when needed). */
const indents = Array.from({ length: 65 }, (_, d) => `\n${'  '.repeat(d)}`);
const indent = (depth: number) => (depth < indents.length ? indents[depth] : `\n${'  '.repeat(depth)}`);

/**
 * Valid JSON text `raw` laid out as `JSON.stringify(JSON.parse(raw), null, 2)` lays it out, with every string and
 * number token kept as written and every key where it was. Undefined when the layout would be far larger than the
 * text (nesting thousands deep: its indentation grows with the square of the depth).
 */
export function reindentJson(raw: string): string | undefined {
  const limit = raw.length * 4 + 100_000;
  let out = '';
  let depth = 0;
  const n = raw.length;
  let i = 0;
  while (i < n) {
    if (out.length > limit) return undefined;
    const c = raw.charCodeAt(i);
    if (isWhitespace(c)) i++;
    else if (c === 34 /* " */) {
      const end = jsonStringEnd(raw, i);
      out += raw.slice(i, end + 1);
      i = end + 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      let k = i + 1;
      while (k < n && isWhitespace(raw.charCodeAt(k))) k++;
      if (raw.charCodeAt(k) === c + 2 /* } or ] */) {
        out += c === 123 ? '{}' : '[]';
        i = k + 1;
      } else {
        out += (c === 123 ? '{' : '[') + indent(++depth);
        i++;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      out += indent(--depth) + (c === 125 ? '}' : ']');
      i++;
    } else if (c === 44 /* , */) {
      out += `,${indent(depth)}`;
      i++;
    } else if (c === 58 /* : */) {
      out += ': ';
      i++;
    } else {
      // A number, true, false or null: up to the next structural character or whitespace, as written.
      let j = i + 1;
      while (j < n) {
        const d = raw.charCodeAt(j);
        if (isWhitespace(d) || d === 44 || d === 58 || d === 93 || d === 125) break;
        j++;
      }
      out += raw.slice(i, j);
      i = j;
    }
  }
  return out;
}

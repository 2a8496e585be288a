// Best-effort parsing of streamed tool-call arguments, behaving like pi-ai 0.73.1's `parseStreamingJson`
// (utils/json-parse.js). The client re-parses the whole accumulated `partialJson` after every delta, so what a
// frontend shows mid-stream is exactly what this function returns. Own implementation of the documented behaviour:
//   1. strict JSON.parse; if that fails and a "string repair" changes the text, strict parse of the repaired text
//      (an error there propagates to step 2);
//   2. the `partial-json` package on the raw text (null/undefined → {});
//   3. the `partial-json` package on the repaired text;
//   4. otherwise {}.
import { parse as parsePartialJson } from 'partial-json';

/** Character codes JSON accepts after a backslash: the quote, backslash, slash, b f n r t, and u (checked further). */
const SIMPLE_ESCAPES = new Set([34, 92, 47, 98, 102, 110, 114, 116, 117]);

const CONTROL_ESCAPES: Record<string, string> = {
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

function escapeControl(ch: string): string {
  return CONTROL_ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * Repairs string literals the way pi-ai does: inside strings, raw control characters (U+0000–U+001F) become
 * escapes and a backslash that does not start a valid escape is doubled (so `C:\Users` survives). A `\u` followed
 * by four hex digits is kept; a `\u` without them is treated as an invalid escape (backslash doubled). Text
 * outside strings is copied unchanged.
 * The text is copied in runs between the characters that change, and not at all when none does: appending one
 * character at a time made a multi-megabyte tool-call argument cost seconds per parse, most of it in the GC.
 */
export function repairJsonStrings(json: string): string {
  const parts: string[] = [];
  let copied = 0; // json[copied, i) is unchanged text not yet in `parts`
  let inString = false;
  const n = json.length;
  for (let i = 0; i < n; i++) {
    const c = json.charCodeAt(i);
    if (!inString) {
      if (c === 34 /* " */) inString = true;
      continue;
    }
    if (c === 34) {
      inString = false;
      continue;
    }
    if (c === 92 /* \ */) {
      if (i + 1 < n) {
        const next = json.charCodeAt(i + 1);
        if (next === 117 /* u */ && i + 6 <= n && isHex(json.charCodeAt(i + 2)) && isHex(json.charCodeAt(i + 3)) && isHex(json.charCodeAt(i + 4)) && isHex(json.charCodeAt(i + 5))) {
          i += 5;
          continue;
        }
        // `u` is in the set too: an incomplete \u escape keeps its backslash here (JSON.parse then rejects it).
        if (SIMPLE_ESCAPES.has(next)) {
          i += 1;
          continue;
        }
      }
      // An invalid escape (or a backslash at the end): the backslash is doubled, the next character read as usual.
      parts.push(json.slice(copied, i), '\\\\');
      copied = i + 1;
      continue;
    }
    if (c <= 0x1f) {
      parts.push(json.slice(copied, i), escapeControl(json[i]));
      copied = i + 1;
    }
  }
  if (parts.length === 0) return json;
  parts.push(json.slice(copied));
  return parts.join('');
}

/** Strict parse, retried once on the repaired text when the repair changes anything. */
function parseStrictWithRepair(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch (error) {
    const repaired = repairJsonStrings(json);
    if (repaired !== json) return JSON.parse(repaired);
    throw error;
  }
}

/**
 * What pi's client stores as a tool call's `arguments` for the accumulated `partialJson`. May be any JSON value
 * (array, string, number…) when the text is one; `{}` when nothing can be salvaged. Never throws.
 */
export function parseStreamingJson(partialJson: string): unknown {
  if (!partialJson || partialJson.trim() === '') return {};
  try {
    return parseStrictWithRepair(partialJson);
  } catch {
    try {
      return parsePartialJson(partialJson) ?? {};
    } catch {
      try {
        return parsePartialJson(repairJsonStrings(partialJson)) ?? {};
      } catch {
        return {};
      }
    }
  }
}

/**
 * A tool call's `arguments` as the client holds them after a delta — `parseStreamingJson(partialJson) || {}` — parsed
 * when first read: `JSON.stringify` (every snapshot of the message goes through it) reads it via `toJSON`.
 * Why lazy: the client re-parses the whole text after every delta, which is quadratic in the arguments' length. A
 * 19 KB file written through a tool call in 5,000 deltas took the analysis 2.4 s, a seek replayed up to 15 such
 * parses (2 ms median), and each checkpoint kept its own parsed copy (29× the body). Only the states someone looks
 * at need the value; the text is shared with the block's `partialJson`.
 */
export class StreamedArguments {
  private parsed: unknown;
  private done = false;
  constructor(readonly partialJson: string) {}

  toJSON(): unknown {
    if (!this.done) {
      this.parsed = parseStreamingJson(this.partialJson) || {};
      this.done = true;
    }
    return this.parsed;
  }
}

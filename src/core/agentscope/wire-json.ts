// Parsing event text the way the reference's JSON parser (pydantic-core / jiter) does, not the way JSON.parse does.
//
// Why this matters: an inspector must say which events the Python side would have rejected. Two differences are
// observable on real streams:
//  - jiter rejects a `\uXXXX` escape that is a lone UTF-16 surrogate half (a high half not followed by a `\u` low
//    half, or a low half on its own). JSON.parse accepts both and even re-joins a pair split across two events.
//  - jiter accepts the non-standard literals `NaN`, `Infinity`, `-Infinity` (pydantic then rejects them where an
//    int is expected, and serialises them as null elsewhere). JSON.parse rejects the whole text.
// JSON.parse stays the workhorse (fast in V8); the extra passes only run when the text can contain these cases.

export type WireJsonResult = { ok: true; value: unknown } | { ok: false; message: string };

/** Parse `text` as the reference's JSON parser would. */
export function parseWireJson(text: string): WireJsonResult {
  const surrogate = findLoneSurrogate(text);
  if (surrogate) return { ok: false, message: surrogate };
  const tooDeep = findRecursionLimit(text);
  if (tooDeep) return { ok: false, message: tooDeep };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    if (/NaN|Infinity/.test(text)) {
      const replaced = replaceNonFiniteLiterals(text);
      if (replaced !== text) {
        try {
          return { ok: true, value: JSON.parse(replaced) };
        } catch {
          /* fall through to the original error */
        }
      }
    }
    return { ok: false, message: `Invalid JSON: ${(err as Error).message}` };
  }
}

/** jiter's nesting limit: 200 containers deep parse, the 201st is "recursion limit exceeded" (checked on pydantic 2.13). */
export const WIRE_RECURSION_LIMIT = 200;

/**
 * The reference's JSON parser refuses documents nested deeper than WIRE_RECURSION_LIMIT; JSON.parse does not.
 * Returns pydantic's message (with its 1-based column) or null. Texts too short to nest that deep are skipped.
 */
export function findRecursionLimit(text: string): string | null {
  if (text.length <= WIRE_RECURSION_LIMIT * 2) return null;
  // Nesting deeper than the limit needs more than that many `{` / `[` in the text: counting them (native indexOf)
  // spares the character loop below on long ordinary events (base64 chunks, tool output), a per-event cost.
  let opens = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i !== -1 && opens <= WIRE_RECURSION_LIMIT; i = text.indexOf(open, i + 1)) opens++;
  }
  if (opens <= WIRE_RECURSION_LIMIT) return null;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > WIRE_RECURSION_LIMIT) {
        const before = text.slice(0, i);
        const line = before.split('\n').length;
        const column = i - before.lastIndexOf('\n');
        return `Invalid JSON: recursion limit exceeded at line ${line} column ${column}`;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function readHex4(text: string, at: number): number {
  const hex = text.slice(at, at + 4);
  return /^[0-9a-fA-F]{4}$/.test(hex) ? parseInt(hex, 16) : -1;
}

/**
 * Scan the string literals of `text` for surrogate escapes that do not form a pair, and for raw (unescaped) lone
 * surrogates (which cannot come from UTF-8 bytes, but can from a JS string handed to us). Returns a message or null.
 */
export function findLoneSurrogate(text: string): string | null {
  // Cheap exit: no escape and no raw surrogate code unit at all.
  if (!text.includes('\\u') && !/[\ud800-\udfff]/.test(text)) return null;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!inString) {
      if (code === 0x22) inString = true;
      continue;
    }
    if (code === 0x22) {
      inString = false;
    } else if (code === 0x5c) {
      const next = text[i + 1];
      if (next !== 'u') {
        i++; // skip the escaped character (\" \\ \n …)
        continue;
      }
      const unit = readHex4(text, i + 2);
      if (unit < 0) return null; // malformed escape: JSON.parse reports it
      if (isLow(unit)) return `Invalid JSON: lone leading surrogate in hex escape at char ${i}`;
      if (isHigh(unit)) {
        const low = text.slice(i + 6, i + 8) === '\\u' ? readHex4(text, i + 8) : -1;
        if (!isLow(low)) return `Invalid JSON: unexpected end of hex escape at char ${i + 6}`;
        i += 11;
      } else {
        i += 5;
      }
    } else if (isHigh(code)) {
      if (!isLow(text.charCodeAt(i + 1))) return `Invalid JSON: lone surrogate in string at char ${i}`;
      i++;
    } else if (isLow(code)) {
      return `Invalid JSON: lone surrogate in string at char ${i}`;
    }
  }
  return null;
}

/** Replace NaN / Infinity / -Infinity outside string literals by null (what pydantic serialises them as). */
function replaceNonFiniteLiterals(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const rest = text.startsWith('-Infinity', i) ? 9 : text.startsWith('Infinity', i) ? 8 : text.startsWith('NaN', i) ? 3 : 0;
    if (rest) {
      out += 'null';
      i += rest - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

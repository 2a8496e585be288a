// Credentials masked where they are recorded: header values named for a secret, a URL's userinfo, the string values of
// credential keys in a JSON request body (whole, or the head of one cut at a cap) or a WebSocket message the page sent.
// The tap masks them as it captures (extension/tap/request-info.ts, websocket-tap.ts, emitter.ts), and the HAR import
// masks a browser's HAR alike (har-import-mask.ts): a capture log or HAR exported without Redact holds none in clear.
// Dependency-free (the tap bundles it into the page's MAIN world): every caller passes the JSON functions — the tap
// the ones it took at install (a page may replace JSON.parse, which would then see every body), anywhere else the
// global JSON; none is taken by default, so a caller in the page cannot use the page's JSON unawares. The key cache is
// an object of no prototype rather than the global Map. Every other built-in called here is looked up live, as the
// tap's copy of this code did: Array.isArray and the array methods (map, push, some), Object.entries,
// Set.prototype.has and add, RegExp.prototype.test, and the string methods (replace, indexOf, slice, charCodeAt…).
import { isJsonSpace, stringEnd } from './stream-request.ts';

export const MASK = '•••';

/** The JSON functions the masking calls, passed by every caller: the tap's own (natives.ts), anywhere else the global JSON. */
export interface JsonFunctions {
  parse(text: string): unknown;
  stringify(value: unknown): string | undefined;
}

/** Headers whose values are credentials: the name is kept (it matters for debugging), the value is not. */
const SECRET_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization', 'set-cookie', 'x-api-key', 'api-key']);
/**
 * Header names that carry credentials by their name: any *-api-key, *-token, *-secret, *-auth*, *-session*,
 * *-password, *-signature, *-credential(s) (x-goog-api-key, anthropic-api-key, x-auth-token, x-csrf-token,
 * x-amz-security-token…): the fixed list above missed them, and they were stored and exported in clear.
 */
const SECRET_HEADER_NAME = /(^|[-_])(api[-_]?key|key|token|secret|auth\w*|session\w*|password|passwd|signature|credentials?|organization)($|[-_])/i;

export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || SECRET_HEADER_NAME.test(lower);
}

export function maskHeaders(pairs: Iterable<[string, string]>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of pairs) out.push([name, isSecretHeader(name) ? MASK : value]);
  return out;
}

/** `url` without the credentials of its userinfo (`https://user:pass@host/` → `https://•••@host/`). */
export function maskUrlUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${MASK}@`); // userinfo: before the first / ? or #
}

/** JSON keys that name a credential (camelCase read as words): apiKey, api_key, accessToken, client_secret, password… */
const SECRET_KEY = /(^|-)(api-?key|key|token|secret|password|passwd|credentials?|authorization)($|-)/;
const isSecretKey = (key: string): boolean => SECRET_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/_/g, '-').toLowerCase());

/**
 * A JSON request body with the string values of credential keys masked (pi's proxy request can carry
 * `options.apiKey`; it was stored and exported in clear) — strings in an array under such a key too
 * (`"credentials": ["sk-…"]`). Other text, and JSON without such keys, as it is — but for a credential key written
 * twice: JSON.parse keeps the last value, so the text would keep the first in clear (`{"token":"sk-…","token":null}`):
 * such a body is written anew from what JSON.parse read. A text that starts as a JSON object or array and does not
 * parse is masked by its head (maskSecretsInJsonHead), as written: a body cut with nothing saying so (a HAR whose
 * bodySize is -1 or missing), or one that is not quite JSON (a trailing comma, NDJSON lines) — kept as it was, its
 * "apiKey":"sk-…" was shown and exported in clear — and so is one nested too deep to walk. `maskedKeys` is given the keys whose values were masked (or
 * dropped: a key written twice).
 */
export function maskSecretsInJson(text: string, json: JsonFunctions, maskedKeys?: Set<string>): string {
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[') return text;
  let value: unknown;
  try {
    value = json.parse(text);
  } catch {
    return maskSecretsInJsonHead(text, json, maskedKeys);
  }
  let masked = false;
  const secretKeysSeen: string[] = [];
  const maskStrings = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => maskStrings(x, key));
    if (typeof v !== 'string' || v === '') return walk(v);
    masked = true;
    maskedKeys?.add(key);
    return MASK;
  };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    // No prototype: a `__proto__` member is a member like any other (on a plain object it set the prototype, and
    // the member was lost from the text written).
    const out: Record<string, unknown> = { __proto__: null } as unknown as Record<string, unknown>;
    for (const [k, x] of Object.entries(v)) {
      if (!isSecretKey(k)) out[k] = walk(x);
      else {
        secretKeysSeen.push(k);
        out[k] = typeof x === 'string' || Array.isArray(x) ? maskStrings(x, k) : walk(x);
      }
    }
    return out;
  };
  try {
    const result = walk(value);
    if (!masked && !secretKeysSeen.some((k) => writtenTwice(text, k, json))) return text;
    if (maskedKeys) for (const k of secretKeysSeen) if (writtenTwice(text, k, json)) maskedKeys.add(k);
    return json.stringify(result) as string;
  } catch {
    // A value nested too deep for the walk or for stringify (100,000 levels: JSON.parse reads it) overflowed the
    // stack, out of the tap: masked by its head instead, as a text that does not parse is (each credential value
    // as written, every time its key is).
    return maskSecretsInJsonHead(text, json, maskedKeys);
  }
}

/** Whether `key`, quoted as JSON writes it, occurs more than once in `text` (a member written twice, or nested). */
function writtenTwice(text: string, key: string, json: JsonFunctions): boolean {
  const quoted = json.stringify(key) as string;
  const at = text.indexOf(quoted);
  return at !== -1 && text.indexOf(quoted, at + quoted.length) !== -1;
}

/**
 * The head of a JSON body a cap cut, with credentials masked as maskSecretsInJson masks them in the whole body. That
 * one parses, and a cut text does not parse: a body read as bytes (a Request, a buffer or typed array, a Blob) is cut
 * first — only its head is read, or copied: the whole text is never there to mask — and its api_key, token,
 * password… were kept, and exported, in clear. This reads the head as the start of a JSON text, in one pass, by
 * its strings and brackets: a string that is a member's value in an object, under a key isSecretKey names (read as
 * JSON.parse reads it, escapes and all), becomes MASK — one the cut ends too (`"apiKey":"sk-12` → `"apiKey":"•••`, no
 * closing quote) — and an empty one stays, as the whole-body masking has it (and so does a `"` the cut ends with: the
 * head masked is the start of the body masked, however it is cut). A string in an array under such a key, a
 * number, an object (its own members are read) stay, as there. A key written twice is masked each time (JSON.parse
 * keeps the last, which may lie past the cut). Everything else is kept as written — whitespace, key order (a whole
 * body is written anew by JSON.stringify when it had a credential) — and a text that is no JSON is not checked: at
 * worst a quoted string after a credential's name in it is masked. O(head): strings are passed with indexOf.
 */
export function maskSecretsInJsonHead(text: string, json: JsonFunctions, maskedKeys?: Set<string>): string {
  return maskJsonHead(text, json, maskedKeys)[0];
}

/** maskSecretsInJsonHead, and how many UTF-8 bytes longer its masks made the text (MASK for a shorter secret). */
export function maskJsonHead(text: string, json: JsonFunctions, maskedKeys?: Set<string>): [masked: string, grownBytes: number] {
  let out = '';
  let grown = 0;
  let from = 0; // text before `from` is in `out`
  // isSecretKey of the keys seen (a body repeats a few keys many times); no prototype, as a Map the page cannot replace.
  const secretKeys = { __proto__: null } as unknown as Record<string, boolean | undefined>;
  const inObject: boolean[] = [];
  let depth = 0;
  let expectKey = false; // in an object, after `{` or `,`: the next string is a key
  let key: string | undefined; // the key just read, until its `:`
  let secretValueOf: string | undefined; // after a credential key's `:`, that key: the next string is masked
  const secretArrayOf: (string | undefined)[] = []; // by depth: the credential key an array is under (or in one): its strings are masked
  const secretArrayKey = (): string | undefined => (depth > 0 && !inObject[depth - 1] ? secretArrayOf[depth - 1] : undefined);
  let i = 0;
  while (isJsonSpace(text.charCodeAt(i))) i++;
  if (text[i] !== '{' && text[i] !== '[') return [text, 0]; // no JSON object or array: as it is (maskSecretsInJson too)
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isJsonSpace(c)) continue;
    if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      if (expectKey) {
        if (end < 0) break; // the cut is in a key
        key = keyOf(text.slice(i, end), json);
        expectKey = false;
        i = end - 1;
        continue;
      }
      const secretOf = secretValueOf ?? secretArrayKey();
      if (secretOf !== undefined && (end < 0 ? text.length > i + 1 : end > i + 2)) {
        out += text.slice(from, i + 1) + MASK;
        from = end < 0 ? text.length : end - 1; // the closing quote stays
        grown += MASK_BYTES - utf8Length(text, i + 1, from);
        maskedKeys?.add(secretOf);
      }
      secretValueOf = undefined;
      key = undefined;
      if (end < 0) break;
      i = end - 1;
      continue;
    }
    if (c === 0x3a /* : */) {
      if (key !== undefined) {
        let secret = secretKeys[key];
        if (secret === undefined) secretKeys[key] = secret = isSecretKey(key);
        secretValueOf = secret ? key : undefined;
      }
      key = undefined;
      continue;
    }
    const secretArrayOpens = c === 0x5b ? secretValueOf ?? secretArrayKey() : undefined;
    secretValueOf = undefined;
    key = undefined;
    if (c === 0x7b || c === 0x5b) {
      secretArrayOf[depth] = secretArrayOpens;
      inObject[depth++] = c === 0x7b;
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
      expectKey = false;
    } else if (c === 0x2c /* , */) expectKey = depth > 0 && inObject[depth - 1];
    // Anything else (numbers, literals): passed over.
  }
  return [from === 0 ? text : out + text.slice(from), grown];
}

const MASK_BYTES = 9; // '•••' in UTF-8

/** The UTF-8 length of text[from, to) (a surrogate pair: 4 bytes, 2 for each half). */
function utf8Length(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return n;
}

/** A key as JSON.parse reads it (`"api\u005fkey"` is api_key); as written when it is no JSON string. */
function keyOf(quoted: string, json: JsonFunctions): string {
  if (quoted.indexOf('\\') < 0) return quoted.slice(1, -1);
  try {
    return json.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

// What the tap keeps about a request: which responses count as agent streams, headers with secrets masked,
// and the request body (the prompt, pi's `model`) up to a cap. Dependency-free (runs in the page's MAIN world).
import type { BodyRecord } from '../../core/capture/model.ts';
import { bytesToBase64 } from '../../core/frames/utf8-chunks.ts';
import { acceptsStreamType, isJsonSpace, isPiProxyRequest, stringEnd } from '../../core/capture/stream-request.ts';
import { natives } from './natives.ts';

export const STREAM_CONTENT_TYPES = new Set([
  'text/event-stream',
  'application/x-ndjson',
  'application/jsonl',
  'application/stream+json',
]);

export const REQUEST_BODY_CAP = 1024 * 1024;
export const MASK = '•••';

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

/** Media type without parameters, lower-cased ("Text/Event-Stream; charset=utf-8" → "text/event-stream"). */
export function mediaType(contentType: string | null | undefined): string {
  if (!contentType) return '';
  return contentType.split(';')[0].trim().toLowerCase();
}

/** Include-list pattern: `*` matches any run of characters; a pattern without `*` matches as a substring. */
export function urlMatches(url: string, patterns: readonly string[]): boolean {
  for (const pattern of patterns) {
    if (!pattern) continue;
    if (!pattern.includes('*')) {
      if (url.includes(pattern)) return true;
      continue;
    }
    const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    if (new RegExp(`^${parts.join('.*')}$`).test(url)) return true;
  }
  return false;
}

/** The request asked for a stream in its Accept header (core/capture/stream-request.ts). */
export function acceptsStream(headers: readonly [string, string][]): boolean {
  for (const [name, value] of headers) if (name.toLowerCase() === 'accept' && acceptsStreamType(value)) return true;
  return false;
}

/**
 * A request body pi-agent-core's streamProxy sends: it asks for a stream, without Accept (parsed with the native
 * JSON.parse). One the cap cut (a long conversation) is told by its head: its model, then the context starting.
 */
export function isPiProxyRequestBody(body: BodyRecord | undefined): boolean {
  return isPiProxyRequest(body, natives.jsonParse);
}

export function isStreamResponse(contentType: string | null, url: string, includeUrls: readonly string[]): boolean {
  return STREAM_CONTENT_TYPES.has(mediaType(contentType)) || urlMatches(url, includeUrls);
}

export function maskHeaders(pairs: Iterable<[string, string]>): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of pairs) out.push([name, isSecretHeader(name) ? MASK : value]);
  return out;
}

/** Header pairs from anything `fetch` accepts as `headers` (Headers, array of pairs, record). */
export function headerPairs(init: HeadersInit | undefined | null): [string, string][] {
  if (!init) return [];
  try {
    const out: [string, string][] = [];
    new natives.Headers(init).forEach((value, name) => out.push([name, value]));
    return out;
  } catch {
    return [];
  }
}

/** JSON keys that name a credential (camelCase read as words): apiKey, api_key, accessToken, client_secret, password… */
const SECRET_KEY = /(^|-)(api-?key|key|token|secret|password|passwd|credentials?|authorization)($|-)/;
const isSecretKey = (key: string): boolean => SECRET_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/_/g, '-').toLowerCase());

/**
 * A JSON request body with the string values of credential keys masked (pi's proxy request can carry
 * `options.apiKey`; it was stored and exported in clear) — strings in an array under such a key too
 * (`"credentials": ["sk-…"]`). Other text, and JSON without such keys, as it is — but for a credential key written
 * twice: JSON.parse keeps the last value, so the text would keep the first in clear (`{"token":"sk-…","token":null}`):
 * such a body is written anew from what JSON.parse read.
 */
export function maskSecretsInJson(text: string): string {
  const head = text.trimStart()[0];
  if (head !== '{' && head !== '[') return text;
  let value: unknown;
  try {
    value = natives.jsonParse(text);
  } catch {
    return text;
  }
  let masked = false;
  const secretKeysSeen: string[] = [];
  const maskStrings = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(maskStrings);
    if (typeof v !== 'string' || v === '') return walk(v);
    masked = true;
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
        out[k] = typeof x === 'string' || Array.isArray(x) ? maskStrings(x) : walk(x);
      }
    }
    return out;
  };
  const result = walk(value);
  return masked || secretKeysSeen.some((k) => writtenTwice(text, k)) ? (natives.jsonStringify(result) as string) : text;
}

/** Whether `key`, quoted as JSON writes it, occurs more than once in `text` (a member written twice, or nested). */
function writtenTwice(text: string, key: string): boolean {
  const quoted = natives.jsonStringify(key) as string;
  const at = text.indexOf(quoted);
  return at !== -1 && text.indexOf(quoted, at + quoted.length) !== -1;
}

/**
 * The head of a JSON body the cap cut, with credentials masked as maskSecretsInJson masks them in the whole body. That
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
export function maskSecretsInJsonHead(text: string): string {
  return maskJsonHead(text)[0];
}

/** maskSecretsInJsonHead, and how many UTF-8 bytes longer its masks made the text (MASK for a shorter secret). */
function maskJsonHead(text: string): [masked: string, grownBytes: number] {
  let out = '';
  let grown = 0;
  let from = 0; // text before `from` is in `out`
  const secretKeys = new natives.Map<string, boolean>(); // isSecretKey of the keys seen: a body repeats a few keys many times
  const inObject: boolean[] = [];
  let depth = 0;
  let expectKey = false; // in an object, after `{` or `,`: the next string is a key
  let key: string | undefined; // the key just read, until its `:`
  let secretValue = false; // after a credential key's `:`: the next string is masked
  const secretArray: boolean[] = []; // by depth: an array under a credential key (or in one): its strings are masked
  const inSecretArray = (): boolean => depth > 0 && !inObject[depth - 1] && secretArray[depth - 1];
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
        key = keyOf(text.slice(i, end));
        expectKey = false;
        i = end - 1;
        continue;
      }
      if ((secretValue || inSecretArray()) && (end < 0 ? text.length > i + 1 : end > i + 2)) {
        out += text.slice(from, i + 1) + MASK;
        from = end < 0 ? text.length : end - 1; // the closing quote stays
        grown += MASK_BYTES - utf8Length(text, i + 1, from);
      }
      secretValue = false;
      key = undefined;
      if (end < 0) break;
      i = end - 1;
      continue;
    }
    if (c === 0x3a /* : */) {
      if (key !== undefined) {
        let secret = secretKeys.get(key);
        if (secret === undefined) secretKeys.set(key, (secret = isSecretKey(key)));
        secretValue = secret;
      }
      key = undefined;
      continue;
    }
    const secretArrayOpens = c === 0x5b && (secretValue || inSecretArray());
    secretValue = false;
    key = undefined;
    if (c === 0x7b || c === 0x5b) {
      secretArray[depth] = secretArrayOpens;
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
function keyOf(quoted: string): string {
  if (quoted.indexOf('\\') < 0) return quoted.slice(1, -1);
  try {
    return natives.jsonParse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

function textBody(raw: string): BodyRecord {
  const size = new natives.TextEncoder().encode(raw).length;
  const text = maskSecretsInJson(raw);
  if (size <= REQUEST_BODY_CAP) return { text, size };
  // Cut at a character boundary below the cap (UTF-16 index ≈ bytes / 3 is always below it).
  let cut = text.slice(0, REQUEST_BODY_CAP);
  while (new natives.TextEncoder().encode(cut).length > REQUEST_BODY_CAP) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return { text: cut, size, truncated: true };
}

/** The text of UTF-8 bytes, or undefined when they are not UTF-8. */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new natives.TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * `bytes` without the character the cap cut through at their end (a lead byte and fewer continuation bytes than it
 * announces), or as they are. Cut text is kept as text, as a string body is (cut at a character boundary below the
 * cap): as base64 nothing could be read of it — a pi proxy request posted as a Request or a buffer was no longer
 * told by its head (core/capture/stream-request.ts).
 */
function withoutCutCharacter(bytes: Uint8Array): Uint8Array {
  let lead = bytes.length - 1;
  while (lead >= 0 && bytes.length - lead < 4 && (bytes[lead] & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes;
  const b = bytes[lead];
  const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return length > bytes.length - lead ? bytes.subarray(0, lead) : bytes;
}

/**
 * The text of a cut body's head (`bytes` long in UTF-8) with its credentials masked (maskSecretsInJsonHead), within
 * the cap: MASK is longer than a short secret (9 bytes), so a head that grew past it loses as many characters at its
 * end (the start of the masked text, at a character boundary below the cap; nothing is encoded again).
 */
function maskedHead(text: string, bytes: number): string {
  const [masked, grown] = maskJsonHead(text);
  let over = bytes + grown - REQUEST_BODY_CAP;
  let end = masked.length;
  while (over > 0 && end > 0) {
    const c = masked.charCodeAt(end - 1);
    const pair = c >= 0xdc00 && c <= 0xdfff && end > 1 && masked.charCodeAt(end - 2) >= 0xd800 && masked.charCodeAt(end - 2) <= 0xdbff;
    over -= pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    end -= pair ? 2 : 1;
  }
  return end === masked.length ? masked : masked.slice(0, end);
}

/** A body record of `bytes` (the first cap of them); `cut`: they are already only the head of a larger body. */
export function bytesBody(bytes: Uint8Array, cut = false): BodyRecord {
  const size = bytes.length;
  const kept = size > REQUEST_BODY_CAP ? bytes.subarray(0, REQUEST_BODY_CAP) : bytes;
  const truncated = cut || kept !== bytes;
  // Genuinely binary, or not UTF-8 before the cut: the raw bytes.
  let textBytes = kept;
  let text = utf8Text(kept);
  if (text === undefined && truncated) text = utf8Text((textBytes = withoutCutCharacter(kept)));
  // A cut body is masked by its head: the whole text is not there (see maskSecretsInJsonHead).
  const record: BodyRecord = text === undefined ? { base64: bytesToBase64(kept), size }
    : { text: truncated ? maskedHead(text, textBytes.length) : maskSecretsInJson(text), size };
  if (truncated) record.truncated = true;
  return record;
}

/**
 * Captures a request body synchronously where that is free (strings, buffers, URLSearchParams) and asynchronously
 * for Blobs/FormData/Request bodies. Streams are not read (that would consume the upload): they are reported as such.
 */
export function captureBody(body: unknown): BodyRecord | Promise<BodyRecord | undefined> | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return textBody(body);
  if (body instanceof URLSearchParams) return textBody(body.toString());
  if (body instanceof ArrayBuffer) {
    return withSize(body.byteLength, new Uint8Array(body, 0, Math.min(body.byteLength, REQUEST_BODY_CAP)).slice());
  }
  if (ArrayBuffer.isView(body)) {
    const view = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return withSize(view.length, view.subarray(0, REQUEST_BODY_CAP).slice());
  }
  if (typeof Blob !== 'undefined' && body instanceof Blob) {
    return body.slice(0, REQUEST_BODY_CAP).arrayBuffer().then((buf) => withSize(body.size, new Uint8Array(buf)));
  }
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const lines: string[] = [];
    body.forEach((value, name) => {
      lines.push(typeof value === 'string' ? `${name}=${value}` : `${name}=<file ${value.name || 'blob'}, ${value.size} bytes>`);
    });
    return textBody(lines.join('\n'));
  }
  if (body instanceof natives.ReadableStream) return { text: '<ReadableStream body: not captured>', size: 0, truncated: true };
  return undefined;
}

/** A body record for `kept` bytes out of `size` in total. */
function withSize(size: number, kept: Uint8Array): BodyRecord {
  const record = bytesBody(kept, size > kept.length);
  record.size = size;
  return record;
}

/** A request body, worked out only if the response turns out to be a stream (most requests never need it). */
export type DeferredBody = () => BodyRecord | Promise<BodyRecord | undefined> | undefined;

/**
 * Takes now only what cannot wait — a copy of the first MiB of a buffer the page may reuse — and leaves the rest
 * (encoding, size, reading Blobs) for later. Strings, Blobs and URLSearchParams are immutable.
 */
export function deferBody(body: unknown): DeferredBody | undefined {
  if (body === undefined || body === null) return undefined;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    const view = body instanceof ArrayBuffer ? new Uint8Array(body) : new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    const size = view.length;
    const head = view.slice(0, REQUEST_BODY_CAP);
    return () => withSize(size, head);
  }
  return () => captureBody(body);
}

/** The body of a Request object: a clone must be taken before the request is sent; it is read only if needed. */
export function deferRequestBody(request: Request): DeferredBody | undefined {
  if (request.body === null || request.bodyUsed) return undefined;
  let copy: Request;
  try {
    copy = request.clone();
  } catch {
    return undefined;
  }
  return () =>
    copy.arrayBuffer().then(
      (buf) => withSize(buf.byteLength, new Uint8Array(buf, 0, Math.min(buf.byteLength, REQUEST_BODY_CAP))),
      () => undefined,
    );
}

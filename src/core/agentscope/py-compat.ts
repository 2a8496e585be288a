// Small re-implementations of Python / pydantic behaviour that the reference's append_event depends on.
// Each one is observable in the reconstructed message, so "close enough" is not good enough.
import { B64_VALUE, bytesToBase64 } from '../frames/utf8-chunks.ts';

/** Error raised where the Python reference raises; `pyType` is the Python exception class name. */
export class PyError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
    this.name = 'PyError';
  }
  /** `Type: message`, as the conformance `errors` list spells it. */
  get text(): string {
    return `${this.pyType}: ${this.message}`;
  }
}

/**
 * `base64.b64decode(s)` of CPython 3.11+ (non-validating `binascii.a2b_base64`): characters outside the alphabet are
 * skipped, `=` before the third character of a quad is ignored, a complete pad sequence ends decoding (later data
 * is dropped), and a dangling quad raises. Throws PyError where Python raises.
 */
export function pyB64Decode(s: string): Uint8Array {
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) > 0x7f) throw new PyError('ValueError', 'string argument should contain only ASCII characters');
  }
  const out: number[] = [];
  let quadPos = 0;
  let left = 0;
  let pads = 0;
  let done = false;
  for (let i = 0; i < s.length && !done; i++) {
    const code = s.charCodeAt(i);
    if (code === 0x3d /* = */) {
      // Only counts once two data characters of the quad are in; then 4 - quadPos pads end the input.
      if (quadPos >= 2 && quadPos + ++pads >= 4) done = true;
      continue;
    }
    const v = B64_VALUE[code];
    if (v < 0) continue; // junk and whitespace are discarded
    pads = 0;
    switch (quadPos) {
      case 0:
        quadPos = 1;
        left = v;
        break;
      case 1:
        quadPos = 2;
        out.push(((left << 2) | (v >> 4)) & 0xff);
        left = v & 0x0f;
        break;
      case 2:
        quadPos = 3;
        out.push(((left << 4) | (v >> 2)) & 0xff);
        left = v & 0x03;
        break;
      default:
        quadPos = 0;
        out.push(((left << 6) | v) & 0xff);
        left = 0;
    }
  }
  if (!done && quadPos !== 0) {
    if (quadPos === 1) {
      const chars = Math.floor(out.length / 3) * 4 + 1;
      throw new PyError(
        'binascii.Error',
        `Invalid base64-encoded string: number of data characters (${chars}) cannot be 1 more than a multiple of 4`,
      );
    }
    throw new PyError('binascii.Error', 'Incorrect padding');
  }
  return Uint8Array.from(out);
}

/** `base64.b64encode(b).decode('ascii')`: canonical alphabet and padding (the capture format's own encoding). */
export const pyB64Encode: (bytes: Uint8Array) => string = bytesToBase64;

/**
 * `s` is canonical standard base64: whole quads of the alphabet, the last one padded (`XX==`, `XXX=`) only when
 * `padded`. A loop, not a regular expression: `(?:[A-Za-z0-9+/]{4})*` takes room on the expression's backtrack stack
 * per quad, and an 8 MB chunk overflowed it (found by the protocol fuzz).
 */
export function isCanonicalBase64(s: string, padded: boolean): boolean {
  if (s.length % 4 !== 0) return false;
  let end = s.length;
  if (padded && end > 0 && s.charCodeAt(end - 1) === 61 /* = */) end -= s.charCodeAt(end - 2) === 61 ? 2 : 1;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || B64_VALUE[c] < 0) return false;
  }
  return true;
}

/**
 * The last plain concatenation below, which is whole quads: a block's data is usually the previous call's result, so
 * comparing with it (the same string: O(1)) spares testing — and flattening — everything so far on every chunk, which
 * made a data block's reduction quadratic in its size. (One string is kept: the last block's data.)
 */
let lastQuads = '';

/** The DATA_BLOCK_DELTA rule: decode both, concatenate the bytes, re-encode. Throws PyError like the reference. */
export function pyB64Concat(existing: string, chunk: string): string {
  // Whole unpadded quads are a bijection with 3-byte groups, so decode-concat-encode of two of them is their plain
  // concatenation: the usual case (a block's data grows chunk by chunk), spared a decode of everything so far.
  if (isCanonicalBase64(chunk, false) && (existing === lastQuads || isCanonicalBase64(existing, false))) {
    lastQuads = existing + chunk;
    return lastQuads;
  }
  const a = existing ? pyB64Decode(existing) : new Uint8Array(0);
  const b = pyB64Decode(chunk);
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return pyB64Encode(joined);
}

export type UrlResult = { ok: true; url: string } | { ok: false; message: string };

/**
 * pydantic `AnyUrl` validation + `str(url)`. pydantic-core parses with the Rust `url` crate, which implements the
 * WHATWG URL standard — the same standard as the platform `URL` class — so `href` gives the same normalisation
 * (lower-cased scheme/host, `/` on bare special origins, default port dropped, percent-encoding, IDNA to punycode).
 * Any scheme is allowed and no host is required (AnyUrl), but a relative reference is an error.
 */
export function pyAnyUrl(input: string): UrlResult {
  if (input.length === 0) return { ok: false, message: 'Input should be a valid URL, input is empty' };
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    const trimmed = input.trim();
    const looksAbsolute = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(trimmed);
    return {
      ok: false,
      message: looksAbsolute
        ? 'Input should be a valid URL, invalid URL'
        : trimmed.length === 0
          ? 'Input should be a valid URL, input is empty'
          : 'Input should be a valid URL, relative URL without a base',
    };
  }
  return { ok: true, url: parsed.href };
}

/** Python's `repr()` of a str, as the reference's log lines print ids with `%r`. */
export function pyRepr(s: string): string {
  const useDouble = s.includes("'") && !s.includes('"');
  const quote = useDouble ? '"' : "'";
  let body = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') body += '\\\\';
    else if (ch === quote) body += '\\' + quote;
    else if (ch === '\n') body += '\\n';
    else if (ch === '\r') body += '\\r';
    else if (ch === '\t') body += '\\t';
    else if (code < 0x20 || code === 0x7f) body += '\\x' + code.toString(16).padStart(2, '0');
    else body += ch;
  }
  return quote + body + quote;
}

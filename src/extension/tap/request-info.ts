// What the tap keeps about a request: which responses count as agent streams, headers with secrets masked,
// and the request body (the prompt, pi's `model`) up to a cap. Dependency-free (runs in the page's MAIN world).
import type { BodyRecord } from '../../core/capture/model.ts';
import { bytesToBase64 } from '../../core/frames/utf8-chunks.ts';
import { maskJsonHead, maskSecretsInJson } from '../../core/capture/credential-mask.ts';
import { acceptsStreamType, isPiProxyRequest } from '../../core/capture/stream-request.ts';
import { natives, nativeJson } from './natives.ts';

export const STREAM_CONTENT_TYPES = new Set([
  'text/event-stream',
  'application/x-ndjson',
  'application/jsonl',
  'application/stream+json',
]);

export const REQUEST_BODY_CAP = 1024 * 1024;

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

function textBody(raw: string): BodyRecord {
  const size = new natives.TextEncoder().encode(raw).length;
  const text = maskSecretsInJson(raw, nativeJson);
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
 * The text of a cut body's head (`bytes` long in UTF-8) with its credentials masked (maskSecretsInJsonHead in
 * core/capture/credential-mask.ts), within
 * the cap: MASK is longer than a short secret (9 bytes), so a head that grew past it loses as many characters at its
 * end (the start of the masked text, at a character boundary below the cap; nothing is encoded again).
 */
function maskedHead(text: string, bytes: number): string {
  const [masked, grown] = maskJsonHead(text, nativeJson);
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
    : { text: truncated ? maskedHead(text, textBytes.length) : maskSecretsInJson(text, nativeJson), size };
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

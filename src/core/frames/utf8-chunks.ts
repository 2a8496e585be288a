// Raw body bytes <-> ChunkRecord payloads, losslessly. Dependency-free: the page tap (a classic script) bundles this.
//
// Storage rule (the contract of ChunkRecord in capture/model.ts, made precise):
// - `bytes` is always the wire length of the chunk the page's reader got.
// - A record's *payload* is the UTF-8 encoding of `text`, or the base64-decoded `base64`.
// - The whole body is the concatenation of all payloads, in order. Wire chunk k is the slice of that body given by
//   the running sum of `bytes`. Payload and wire chunk differ only around a character split across chunks:
//   * a text record holds exactly what a *fatal* streaming TextDecoder returned for the chunk: the trailing bytes of
//     an unfinished character are left out of it ("carried") and appear in the payload of the next record, the one
//     that completes the character (so that record's payload is longer than its `bytes`);
//   * when a chunk (together with the carried bytes) is not valid UTF-8, the record is base64 of carried bytes +
//     the chunk's bytes, except an unfinished character at its end, which is carried on as above (the page's
//     decoder holds those bytes too);
//   * when the stream ends with carried bytes, `flush()` returns one extra record with `bytes: 0` whose base64 holds
//     them. A `bytes: 0` record is only ever such a flush record (zero-length reads are not recorded).
// Thus the round trip records -> bytes is exact, and records -> wire chunks is exact.

export interface ChunkPayload {
  bytes: number;
  text?: string;
  base64?: string;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each base64 digit's value by character code (-1: not a digit). */
export const B64_VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_VALUE[B64.charCodeAt(i)] = i;
const B64_CODE = new Uint8Array(64);
for (let i = 0; i < B64.length; i++) B64_CODE[i] = B64.charCodeAt(i);
let ascii: TextDecoder | undefined;

/**
 * Standard base64 with padding (no dependency on btoa/Buffer, which differ between page, worker and Node). The digits
 * are written as character codes and made a string once: appending four characters per three bytes cost ~1 s per
 * 8 MB (a binary chunk in the panel, a HAR export), most of it in the GC; this takes ~0.05–0.1 s.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = B64_CODE[n >> 18];
    out[o++] = B64_CODE[(n >> 12) & 63];
    out[o++] = B64_CODE[(n >> 6) & 63];
    out[o++] = B64_CODE[n & 63];
  }
  const rest = bytes.length - i;
  if (rest > 0) {
    const n = (bytes[i] << 16) | (rest === 2 ? bytes[i + 1] << 8 : 0);
    out[o++] = B64_CODE[n >> 18];
    out[o++] = B64_CODE[(n >> 12) & 63];
    out[o++] = rest === 2 ? B64_CODE[(n >> 6) & 63] : 61; // '='
    out[o++] = 61;
  }
  try {
    ascii ??= new TextDecoder();
    return ascii.decode(out); // ASCII only: one character per byte
  } catch {
    // The tap runs this in pages, and a page can replace TextDecoder: the capture must not throw into the page.
    let text = '';
    for (let j = 0; j < o; j++) text += B64[B64_VALUE[out[j]]] ?? '=';
    return text;
  }
}

/** Strict base64 decoding (standard alphabet, padding optional); throws on any other character. */
export function base64ToBytes(b64: string): Uint8Array {
  let end = b64.length;
  while (end > 0 && b64.charCodeAt(end - 1) === 61 /* = */) end--;
  if (end % 4 === 1) throw new Error(`invalid base64: length ${b64.length} is not possible`);
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = b64.charCodeAt(i);
    const v = c < 128 ? B64_VALUE[c] : -1;
    if (v < 0) throw new Error(`invalid base64: character ${JSON.stringify(b64[i])} at ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** UTF-8 byte length of a string as TextEncoder encodes it (a lone surrogate becomes U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Turns the chunks of one body into ChunkRecord payloads; one instance per connection. */
export class Utf8ChunkEncoder {
  private decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private carried: Uint8Array = new Uint8Array(0);

  /** Bytes of an unfinished character held back from the last text record. */
  get carriedBytes(): number {
    return this.carried.length;
  }

  push(chunk: Uint8Array): ChunkPayload {
    const input = this.carried.length ? concatBytes([this.carried, chunk]) : chunk;
    try {
      const text = this.decoder.decode(chunk, { stream: true });
      // The decoder accepted everything, so what it holds back is exactly the unfinished character at the end (at
      // most 3 bytes). Finding it from the end is O(1); measuring the decoded text (utf8Length) was O(chunk) and, in
      // the page tap, the largest single cost the extension added to the page's main thread.
      this.carried = incompleteTail(input);
      return { bytes: chunk.length, text };
    } catch {
      // Not UTF-8 even given the carried bytes: keep the raw bytes, except an unfinished character at the end, which
      // the page's decoder now holds too — carry it, so our decoder state stays the page's (see PageTextDecoder).
      const tail = incompleteTail(input);
      this.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
      if (tail.length) this.decoder.decode(tail, { stream: true });
      this.carried = tail;
      return { bytes: chunk.length, base64: bytesToBase64(input.subarray(0, input.length - tail.length)) };
    }
  }

  /** End of body: the carried bytes of a character that never finished, as a `bytes: 0` record (or undefined). */
  flush(): ChunkPayload | undefined {
    const carried = this.carried;
    this.carried = new Uint8Array(0);
    this.decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    return carried.length ? { bytes: 0, base64: bytesToBase64(carried) } : undefined;
  }
}

/** The bytes a record stores (see the storage rule above). */
export function payloadBytes(rec: ChunkPayload): Uint8Array {
  if (rec.base64 !== undefined) return base64ToBytes(rec.base64);
  return new TextEncoder().encode(rec.text ?? '');
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The whole body, exactly. */
export function recordsToBytes(records: readonly ChunkPayload[]): Uint8Array {
  return concatBytes(records.map(payloadBytes));
}

/**
 * The wire chunks, exactly, split by `bytes` (flush records yield no chunk). When the payloads hold fewer bytes than
 * the `bytes` fields promise (a capture taken while a character was still in flight), the last chunks come out short
 * and `missingBytes` says by how much; more payload than promised is an inconsistent record set and throws.
 */
export function recordsToChunks(records: readonly ChunkPayload[]): { chunks: Uint8Array[]; missingBytes: number } {
  const body = recordsToBytes(records);
  const chunks: Uint8Array[] = [];
  let offset = 0;
  let promised = 0;
  for (const rec of records) {
    if (rec.bytes === 0) continue;
    promised += rec.bytes;
    chunks.push(body.slice(offset, Math.min(body.length, offset + rec.bytes)));
    offset = Math.min(body.length, offset + rec.bytes);
  }
  if (body.length > promised) {
    throw new Error(`chunk records hold ${body.length} bytes but their byte counts add up to ${promised}`);
  }
  return { chunks, missingBytes: promised - body.length };
}

/**
 * What the page's own (non-fatal) streaming TextDecoder produced for each record's wire chunk, exactly.
 * The encoder keeps its decoder state equal to the page decoder's, so:
 * - a text record's text *is* the page's output for that chunk;
 * - a base64 record's payload is (state before the chunk) + (chunk) - (state after it). Decoding it on its own and
 *   flushed gives the page's output: bytes the page resolved in this chunk are all there, and a sequence left
 *   unfinished at the end of the payload was necessarily ended by the next byte, a lead byte (one U+FFFD);
 * - a flush record's payload is the unfinished character at end of body: the page's final decode() gives U+FFFD.
 * A leading BOM is kept (the frame readers strip it the way their client does).
 */
export class PageTextDecoder {
  /**
   * The unfinished character at the end of a base64 payload from another writer. This tool's writer never leaves one
   * for the next record's payload to complete — it moves those bytes into that record (the rule above), and a payload
   * it wrote is read on its own — but a capture log from another writer may hold the whole body as base64 cut
   * anywhere (every record exactly its wire chunk): read record by record, a character cut in two became two U+FFFD.
   * Held here, the next record completes it, as the page's streaming decoder did.
   */
  private held: Uint8Array | undefined;
  /** Every record so far was base64 (this tool writes text wherever a chunk is UTF-8). */
  private allBase64 = true;
  /** Σ wire bytes − Σ payload bytes of those records: bytes the rule carried into the next record (0: none). */
  private inFlight = 0;

  push(rec: ChunkPayload): string {
    if (rec.base64 === undefined) {
      this.allBase64 = false;
      return this.held ? this.release() + (rec.text ?? '') : rec.text ?? '';
    }
    let bytes = base64ToBytes(rec.base64);
    const own = bytes.length;
    const carriedIn = this.inFlight;
    this.inFlight += rec.bytes - own;
    if (this.held) {
      const joined = new Uint8Array(this.held.length + bytes.length);
      joined.set(this.held, 0);
      joined.set(bytes, this.held.length);
      bytes = joined;
      this.held = undefined;
    }
    // Held only where the rule cannot be at work: all base64, nothing carried in, the payload exactly its chunk (under
    // the rule such a payload never ends mid-character). A flush record (bytes 0) ends the body: read as it is.
    if (this.allBase64 && carriedIn === 0 && own === rec.bytes && rec.bytes > 0) {
      const tail = incompleteTail(bytes);
      if (tail.length > 0) {
        this.held = tail;
        bytes = bytes.subarray(0, bytes.length - tail.length);
      }
    }
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  }

  /** End of body: an unfinished character still held, as the page's final decode() gives it (U+FFFD). */
  end(): string {
    return this.held ? this.release() : '';
  }

  private release(): string {
    const held = this.held as Uint8Array;
    this.held = undefined;
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(held);
  }
}

/** Bytes of the UTF-8 sequence a lead byte begins (2–4; 0 for a byte no well-formed sequence begins with). */
export function utf8SequenceBytes(lead: number): number {
  return lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
}

/** The least second byte of a lead's sequence (WHATWG: no overlong form after E0, nothing below U+10000 after F0). */
export const utf8SecondLow = (lead: number): number => (lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80);
/** The greatest second byte of a lead's sequence (WHATWG: no surrogate after ED, nothing past U+10FFFF after F4). */
export const utf8SecondHigh = (lead: number): number => (lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf);

/**
 * The bytes a streaming UTF-8 decoder still holds after `bytes`: the last lead byte (within the last 3 bytes) when
 * its sequence is unfinished and valid so far (WHATWG second-byte ranges for E0/ED/F0/F4), else nothing.
 */
export function incompleteTail(bytes: Uint8Array): Uint8Array {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
    const b = bytes[i];
    if (b >= 0x80 && b <= 0xbf) continue; // continuation byte: keep looking for its lead
    const need = utf8SequenceBytes(b);
    if (need === 0 || bytes.length - i >= need) return new Uint8Array(0);
    if (i + 1 < bytes.length) {
      const b2 = bytes[i + 1];
      if (b2 < utf8SecondLow(b) || b2 > utf8SecondHigh(b)) return new Uint8Array(0);
    }
    return bytes.slice(i);
  }
  return new Uint8Array(0);
}

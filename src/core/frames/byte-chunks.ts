// The chunk storage rule of utf8-chunks.ts, split in two so that the page's main thread does no decoding:
//
// - `ChunkSplitter` (runs in the page tap): cuts the body into *payloads* on character boundaries — carried bytes of
//   an unfinished character from the previous chunk + this chunk, minus an unfinished character at its end. O(1)
//   per chunk besides the copy the tap has to make anyway (the page's buffer is transferred to the page).
// - `payloadRecord` (runs wherever the bytes are read — panel, service worker, eviction digest): turns one payload
//   into a ChunkRecord's `text` (it is UTF-8) or `base64` (it is not).
//
// Together they give exactly what Utf8ChunkEncoder gives (a property test holds them equal): its decoder is fatal
// and streaming, so it accepts a chunk iff carried + chunk, less the unfinished tail, is valid UTF-8 — which is what
// decoding the payload on its own checks — and in either case it carries `incompleteTail(carried + chunk)`.
// Dependency-free: the page tap (a classic script) bundles this.
import { bytesToBase64, incompleteTail, type ChunkPayload } from './utf8-chunks.ts';

export interface BytePayload {
  /** Wire length of the chunk the page's reader got (0 only for the end-of-body flush). */
  bytes: number;
  /**
   * Bytes that complete characters: the record's payload (see utf8-chunks.ts). A fresh copy, safe to transfer; it
   * may be a view on a buffer that holds up to 3 bytes more (the tail the next chunk completes).
   */
  payload: Uint8Array;
}

export class ChunkSplitter {
  private carried: Uint8Array = new Uint8Array(0);

  /** `chunk` is not kept or modified; the payload is a new buffer. */
  push(chunk: Uint8Array): BytePayload {
    return this.commit(this.prepare(chunk), chunk.length);
  }

  /**
   * The copy `push` makes of `chunk` (the bytes carried from the previous chunk, then the chunk), in a new buffer,
   * without changing any state: the tap makes it before the page gets the chunk, and may drop it (body-tap.ts).
   */
  prepare(chunk: Uint8Array): Uint8Array {
    if (this.carried.length === 0) return chunk.slice();
    const input = new Uint8Array(this.carried.length + chunk.length);
    input.set(this.carried, 0);
    input.set(chunk, this.carried.length);
    return input;
  }

  /**
   * The payload of a chunk of `bytes` wire bytes, from what `prepare` made of it (taken over, not copied: with an
   * unfinished character at its end, the payload is a view that leaves out those ≤ 3 bytes; incompleteTail copies them).
   */
  commit(input: Uint8Array, bytes: number): BytePayload {
    const tail = incompleteTail(input);
    this.carried = tail;
    return { bytes, payload: tail.length ? input.subarray(0, input.length - tail.length) : input };
  }

  /** End of body: the bytes of a character that never finished, as a `bytes: 0` payload (or undefined). */
  flush(): BytePayload | undefined {
    const carried = this.carried;
    this.carried = new Uint8Array(0);
    return carried.length ? { bytes: 0, payload: carried } : undefined;
  }
}

let fatal: TextDecoder | undefined;

/** A payload as ChunkRecord fields: text when it is UTF-8, else base64; a flush payload is always base64. */
export function payloadRecord(p: BytePayload): ChunkPayload {
  if (p.bytes > 0) {
    fatal ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    try {
      return { bytes: p.bytes, text: fatal.decode(p.payload) };
    } catch {
      // not UTF-8: kept as bytes
    }
  }
  return { bytes: p.bytes, base64: bytesToBase64(p.payload) };
}

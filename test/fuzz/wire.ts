// Turning generated event streams into wire bytes and capture records: SSE framing with the variations real servers
// produce (LF/CRLF, comments, heartbeats, empty frames, multi-line data), random chunking down to single bytes (so
// UTF-8 characters and CRLF pairs split across chunks), and the records the page tap would write for them.
import fc from 'fast-check';
import type { CaptureRecord, ConnectionRecord, EndState } from '../../src/core/capture/model.ts';
import { Utf8ChunkEncoder, concatBytes } from '../../src/core/frames/utf8-chunks.ts';

/** One SSE frame before encoding: an event (JSON value or exact wire text) or framing noise. */
export type Frame =
  | { kind: 'event'; value: unknown }
  /** Wire text after "data: " exactly as given (hostile: not JSON, lone surrogates, huge lines…). */
  | { kind: 'text'; text: string }
  /** Raw bytes spliced into the body as is (binary junk, invalid UTF-8). */
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'comment'; text: string }
  | { kind: 'empty' };

/** Line ends a reading client still splits on "\n" (so reconstruction must not change). */
export type SafeEol = '\n' | '\r\n';

export interface Framing {
  eol: SafeEol;
  /** Occasionally write "event: message" / "id: N" lines before the data line (the clients ignore them). */
  extraFields: boolean;
}

export const framingArb: fc.Arbitrary<Framing> = fc.record({
  eol: fc.constantFrom<SafeEol>('\n', '\n', '\r\n'),
  extraFields: fc.boolean(),
});

const enc = new TextEncoder();

/** Encode frames as one SSE body. `eolOf(i)` lets hostile streams vary the line ending per frame (CR-only too). */
export function encodeFrames(frames: readonly Frame[], framing: Framing, eolOf?: (i: number) => string): Uint8Array {
  const parts: Uint8Array[] = [];
  frames.forEach((f, i) => {
    const eol = eolOf?.(i) ?? framing.eol;
    switch (f.kind) {
      case 'event':
      case 'text': {
        const data = f.kind === 'event' ? JSON.stringify(f.value) : f.text;
        const fields = framing.extraFields && i % 3 === 0 ? `event: message${eol}id: ${i}${eol}` : '';
        parts.push(enc.encode(`${fields}data: ${data}${eol}${eol}`));
        break;
      }
      case 'bytes':
        parts.push(f.bytes);
        break;
      case 'comment':
        parts.push(enc.encode(`:${f.text}${eol}${eol}`));
        break;
      case 'empty':
        parts.push(enc.encode(eol));
        break;
    }
  });
  return concat(parts);
}

/** Concatenation of byte arrays (the core's own). */
export const concat = (parts: readonly Uint8Array[]): Uint8Array => concatBytes([...parts]);

/** How a body is cut into network chunks. Cut points are fractions so one chunking applies to any body length. */
export type Chunking =
  | { kind: 'whole' }
  | { kind: 'bytes'; size: number }
  | { kind: 'random'; cuts: number[] };

export const chunkingArb: fc.Arbitrary<Chunking> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Chunking>({ kind: 'whole' }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }).map((size): Chunking => ({ kind: 'bytes', size })) },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 })
      .map((cuts): Chunking => ({ kind: 'random', cuts })),
  },
);

/** Cuts `body`; single-byte chunking of very long bodies is capped at 20,000 chunks to keep runs fast. */
export function cutBody(body: Uint8Array, chunking: Chunking): Uint8Array[] {
  if (body.length === 0) return [];
  if (chunking.kind === 'whole') return [body];
  let points: number[];
  if (chunking.kind === 'bytes') {
    const size = Math.max(chunking.size, Math.ceil(body.length / 20_000));
    points = [];
    for (let p = size; p < body.length; p += size) points.push(p);
  } else {
    points = [...new Set(chunking.cuts.map((c) => Math.floor(c * body.length)))].filter((p) => p > 0 && p < body.length);
    points.sort((a, b) => a - b);
  }
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    out.push(body.subarray(from, p));
    from = p;
  }
  out.push(body.subarray(from));
  return out;
}

export interface ConnectionSpec {
  id?: string;
  contentType: string;
  requestBody?: string;
  status?: number;
  endState: EndState;
  error?: string;
}

/** The records the tap writes for one fetch whose body arrived in `chunks` (arrival times 1 ms apart). */
export function recordsFor(chunks: readonly Uint8Array[], spec: ConnectionSpec): CaptureRecord[] {
  const id = spec.id ?? 'fuzz:1';
  const conn: ConnectionRecord = {
    kind: 'connection', id, transport: 'fetch', frameUrl: 'http://127.0.0.1/app', method: spec.requestBody ? 'POST' : 'GET',
    url: 'http://127.0.0.1/stream', requestHeaders: [],
    ...(spec.requestBody !== undefined ? { requestBody: { text: spec.requestBody, size: enc.encode(spec.requestBody).length } } : {}),
    status: spec.status ?? 200, responseHeaders: [['content-type', spec.contentType]], startTime: 1_000, responseTime: 1_000,
  };
  const records: CaptureRecord[] = [conn];
  const encoder = new Utf8ChunkEncoder();
  chunks.forEach((c, i) => records.push({ kind: 'chunk', conn: id, t: 1_001 + i, ...encoder.push(c) }));
  const tail = encoder.flush();
  if (tail) records.push({ kind: 'chunk', conn: id, t: 1_001 + chunks.length, ...tail });
  if (spec.endState !== 'open') {
    records.push({ kind: 'end', conn: id, t: 2_000 + chunks.length, state: spec.endState, ...(spec.error ? { error: spec.error } : {}) });
  }
  return records;
}

// Random streams for the passthrough fuzz (test/e2e/robust-passthrough.spec.ts): what a loopback server sends
// (body bytes, write sizes down to 1 byte, drips, gzip, a close mid-frame) and how the page reads it (reader loop,
// text(), json(), arrayBuffer(), response.clone() read twice, slow reads, an abort or cancel at a random point).
import fc from 'fast-check';

export type ReadMode = 'reader' | 'text' | 'json' | 'arrayBuffer' | 'clone-reader' | 'clone-text';

export interface PassthroughSpec {
  /** Uncompressed body the server means to send. */
  body: Uint8Array;
  /** Sizes of the server's writes (the last one takes the rest). */
  pieces: number[];
  /** Milliseconds to wait before each write (mostly 0: a slow drip when not). */
  delays: number[];
  gzip: boolean;
  /** The server destroys the socket after writing this many body bytes (mid-frame, usually). */
  closeAfter?: number;
  read: ReadMode;
  /** Milliseconds the page waits between reads (reader modes). */
  slowRead: number;
  /** The page aborts (AbortController) once it has at least this many bytes (reader modes). */
  abortAfter?: number;
  /** The page cancels its reader once it has at least this many bytes (reader modes). */
  cancelAfter?: number;
}

const enc = new TextEncoder();

/** Body text pieces: SSE lines with every line-end style, multi-byte characters, empty frames, comments. */
const linePiece = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('\n', '\r\n', '\r', '\n\n', '\r\n\r\n')).map(([s, eol]) => `data: ${s}${eol}`) },
  { weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', ': ping\n\n', 'event: x\n', 'id: 7\r', 'retry: 10\n', 'data:\n\n') },
  { weight: 2, arbitrary: fc.constantFrom('😀', 'é', '中文', '\u2028', '\ufeff', '👩‍👩‍👧', 'data: {"type":"TEXT_BLOCK_DELTA","delta":"ü"}\n\n') },
);

const textBody = fc.array(linePiece, { maxLength: 150 }).map((p) => enc.encode(p.join('')));
const binaryBody = fc.uint8Array({ maxLength: 3000 });
/** One long line (up to 8 MB) — rare, they cost seconds. */
const longLineBody = fc.constantFrom(64 << 10, 1 << 20, 8 << 20).map((n) => {
  const line = new Uint8Array(n + 8);
  line.set(enc.encode('data: '));
  line.fill(0x61, 6, n + 6); // 'a'
  line.set(enc.encode('\n\n'), n + 6);
  return line;
});
const jsonBody = fc.jsonValue({ maxDepth: 3 }).map((v) => enc.encode(JSON.stringify(v)));

function split(total: number, raw: number[]): number[] {
  const pieces: number[] = [];
  let left = total;
  for (const r of raw) {
    if (left <= 0) break;
    const n = Math.min(left, r);
    pieces.push(n);
    left -= n;
  }
  if (left > 0) pieces.push(left);
  return pieces;
}

export const passthroughSpecArb: fc.Arbitrary<PassthroughSpec> = fc
  .record({
    read: fc.constantFrom<ReadMode>('reader', 'reader', 'reader', 'text', 'json', 'arrayBuffer', 'clone-reader', 'clone-text'),
    textBody, binaryBody, jsonBody, long: longLineBody,
    kind: fc.constantFrom('text', 'text', 'text', 'text', 'binary', 'long-or-text'),
    longChance: fc.integer({ min: 0, max: 99 }),
    sizes: fc.array(fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 4096 })), { maxLength: 40 }),
    delays: fc.array(fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 25 }) }), { maxLength: 40 }),
    gzip: fc.boolean(),
    fault: fc.constantFrom('none', 'none', 'none', 'close', 'abort', 'cancel'),
    faultAt: fc.double({ min: 0, max: 1, noNaN: true }),
    slowRead: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 15 }) }),
  })
  .map((r): PassthroughSpec => {
    const body = r.read === 'json' ? r.jsonBody
      : r.kind === 'binary' ? r.binaryBody
      : r.kind === 'long-or-text' && r.longChance < 4 ? r.long
      : r.textBody;
    // Long bodies go in big writes: one byte per write of 8 MB would be a different (and very slow) test.
    const pieces = body.length > 100_000 ? split(body.length, Array(Math.ceil(body.length / 65_536)).fill(65_536)) : split(body.length, r.sizes);
    const at = Math.floor(r.faultAt * body.length);
    const readerMode = r.read === 'reader' || r.read === 'clone-reader';
    return {
      body, pieces, delays: body.length > 100_000 ? [] : r.delays, gzip: r.gzip, read: r.read,
      slowRead: readerMode ? r.slowRead : 0,
      ...(r.fault === 'close' && body.length > 0 ? { closeAfter: at } : {}),
      ...(r.fault === 'abort' && readerMode && body.length > 0 ? { abortAfter: Math.max(1, at) } : {}),
      ...(r.fault === 'cancel' && readerMode && body.length > 0 ? { cancelAfter: Math.max(1, at) } : {}),
    };
  });

export function passthroughSpecs(seed: number, runs: number): PassthroughSpec[] {
  return fc.sample(passthroughSpecArb, { seed, numRuns: runs });
}

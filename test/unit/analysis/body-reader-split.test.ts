// BodyReader splits a CR-free chunk once for both of its readers (spec and client) instead of letting each split it
// (body-reader.ts `splitOnce`). This checks that the shortcut changes nothing: for random SSE bodies — every line
// kind either reader treats specially, CR / LF / CRLF line ends, a BOM, multi-byte characters — cut into random
// chunks, the frames, events, client lines and diagnostics are the same as when each reader splits every chunk.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { BodyReader, type RawEvent } from '../../../src/core/analysis/body-reader.ts';
import { AgentScopeClientReader } from '../../../src/core/frames/client-reading.ts';
import { SseSpecDecoder } from '../../../src/core/frames/sse-spec.ts';
import { cut, cutsFor, toRecords, utf8 } from '../frames/helpers.ts';

const lineArb = fc.oneof(
  fc.constantFrom('data: {"type":"TEXT_BLOCK_DELTA","delta":"é 🙂"}', 'data: {"a":1}  ', 'data:  {"a":2}', 'data:{"a":3}',
    'data: ', 'data:', 'data', 'data: not json', ': ping', ':', 'event: update', 'id: 7', 'retry: 10', 'retry: x',
    'bogus: field', '', '', '', 'data: \u00a0{"b":1}\u00a0', 'data: {"x":"\u2028"}'),
  fc.string({ maxLength: 12 }).map((s) => `data: ${JSON.stringify({ s })}`),
);
const endArb = fc.oneof({ weight: 8, arbitrary: fc.constant('\n') }, { weight: 1, arbitrary: fc.constantFrom('\r\n', '\r') });
const bodyArb = fc.tuple(fc.boolean(), fc.array(fc.tuple(lineArb, endArb), { maxLength: 30 }), fc.string({ maxLength: 8 }))
  .map(([bom, lines, tail]) => (bom ? '\ufeff' : '') + lines.map(([l, e]) => l + e).join('') + tail);

function read(body: string, cuts: number[], splitOnce: boolean) {
  const reader = new BodyReader('sse', { splitOnce });
  const events: RawEvent[] = [];
  for (const r of toRecords(cut(utf8(body), cuts))) events.push(...reader.pushChunk(r));
  const mid = reader.frameDiagnostics(false);
  events.push(...reader.end());
  const resolved = new Map(reader.takeResolved().map((e) => [e.seq, e.frameIndex]));
  return {
    frames: reader.frames.map((f) => ({ ...f })),
    events: events.map((e) => ({ seq: e.seq, frameIndex: resolved.get(e.seq) ?? e.frameIndex, t: e.t, rawText: e.rawText, raw: e.raw, parseError: e.parseError })),
    mid,
    end: reader.frameDiagnostics(true),
  };
}

describe('BodyReader: one split for both readers', () => {
  it('reads every body exactly as two separate splits do, any chunking', () => {
    fc.assert(
      fc.property(bodyArb.chain((body) => fc.tuple(fc.constant(body), cutsFor(utf8(body).length))), ([body, cuts]) => {
        expect(read(body, cuts, true)).toEqual(read(body, cuts, false));
      }),
      { numRuns: 600, seed: 0x5e11 },
    );
  });

  it('takes the shortcut after the first chunk of an ordinary stream (the readers split nothing themselves)', () => {
    const specRead = vi.spyOn(SseSpecDecoder.prototype, 'read');
    const clientRead = vi.spyOn(AgentScopeClientReader.prototype, 'read');
    try {
      const reader = new BodyReader('sse');
      const chunks = [utf8('data: {"x":0}\n\n'), utf8('data: {"a":1}\n\n: ping\n\nda'), utf8('ta: {"b":2}\n\n')];
      const events = toRecords(chunks).flatMap((r) => reader.pushChunk(r));
      expect(events.map((e) => e.rawText)).toEqual(['{"x":0}', '{"a":1}', '{"b":2}']);
      expect(reader.frames.map((f) => f.kind)).toEqual(['data', 'data', 'comment', 'data']);
      // Only the first chunk (where a BOM may be stripped) is read by each reader alone.
      expect([specRead.mock.calls.length, clientRead.mock.calls.length]).toEqual([1, 1]);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createParser } from 'eventsource-parser';
import { SseSpecDecoder, type SpecFrame } from '../../../src/core/frames/sse-spec.ts';
import { chunkTexts, readSse } from '../../../src/core/frames/read-body.ts';
import { cut, cutsFor, toRecords, utf8 } from './helpers.ts';

function readWhole(text: string) {
  return readSse([{ text, t: 1 }], { ended: true });
}
const strip = (f: SpecFrame) => ({ kind: f.kind, data: f.data, event: f.event, id: f.id, heartbeat: f.heartbeat, start: f.start, end: f.end });

describe('SSE spec reading', () => {
  it('reads data, multi-line data, event/id/retry fields and comments', () => {
    const r = readWhole(': hello\n\nevent: delta\nid: 7\nretry: 1500\ndata: {"a":\ndata:1}\n\ndata:\n\n');
    expect(r.frames.map((f) => [f.kind, f.data, f.event, f.id, f.heartbeat])).toEqual([
      ['comment', 'hello', undefined, undefined, true],
      ['data', '{"a":\n1}', 'delta', '7', false],
      ['data', '', undefined, undefined, true],
    ]);
    expect(r.retries).toEqual([{ t: 1, ms: 1500 }]);
  });

  it('treats CR, LF and CRLF alike and strips one leading BOM', () => {
    const frames = ['\ufeffdata: x\n\n', 'data: x\r\r', 'data: x\r\n\r\n'].map((b) => readWhole(b).frames.map((f) => f.data));
    expect(frames).toEqual([['x'], ['x'], ['x']]);
  });

  it('reports ignored lines and discards an unfinished last event', () => {
    const r = readWhole('date: oops\n\ndata: kept\n\ndata: lost\n');
    expect(r.frames.map((f) => f.data)).toEqual(['kept']);
    expect(r.problems[0].message).toMatch(/Unknown field "date"/);
    expect(r.tail).toMatchObject({ pendingData: true, pendingText: 'data: lost\n' });
    expect(r.diagnostics.map((d) => d.code)).toContain('sse.ignored-line');
  });

  it('credits a frame to the chunk whose CR ended it, even when its LF comes later', () => {
    const dec = new SseSpecDecoder();
    expect(dec.push('data: a\r\n\r', 10)).toHaveLength(1);
    expect(dec.push('\ndata: b\n\n', 20).map((f) => [f.data, f.t])).toEqual([['b', 20]]);
    expect(dec.frames.t(0)).toBe(10);
  });

  // Random SSE bodies: field lines of every kind, any line ending, unicode values.
  const value = fc.string({ unit: 'grapheme', maxLength: 10 }).map((s) => s.replace(/[\r\n]/g, ''));
  const line = fc.oneof(
    value.map((v) => `data: ${v}`),
    value.map((v) => `data:${v}`),
    fc.constant('data'),
    value.map((v) => `event: ${v}`),
    fc.constantFrom('id: 42', 'id:', 'retry: 250', 'retry: x', ': keep-alive', ':', 'other: y'),
    fc.constant(''),
  );
  const eol = fc.constantFrom('\n', '\r', '\r\n');
  const body = fc
    .array(fc.tuple(line, eol), { maxLength: 16 })
    .map((ls) => ls.map(([l, e]) => l + e).join('') + '\n\n');

  it('property: any re-chunking (1-byte chunks, inside UTF-8 sequences, between CR and LF) gives the same frames', () => {
    fc.assert(
      fc.property(
        body.chain((b) => fc.tuple(fc.constant(b), cutsFor(utf8(b).length))),
        ([text, cuts]) => {
          const whole = readWhole(text);
          const chunks = cut(utf8(text), cuts);
          const texts = chunkTexts(toRecords(chunks));
          const split = readSse(texts, { ended: true });
          expect(split.frames.map(strip)).toEqual(whole.frames.map(strip));
          expect(split.retries.map((r) => r.ms)).toEqual(whole.retries.map((r) => r.ms));
          expect(split.problems.map((p) => p.line)).toEqual(whole.problems.map((p) => p.line));
          // each frame carries the time of the chunk holding the line end that completed it
          const bounds: number[] = [];
          let acc = 0;
          for (const t of texts) bounds.push((acc += t.text.length));
          for (const f of split.frames) {
            const k = bounds.findIndex((b) => b >= f.end);
            expect(f.t).toBe(texts[k].t);
          }
          // field interpretation agrees with eventsource-parser fed the whole body at once
          const oracle: string[] = [];
          const p = createParser({ onEvent: (e) => oracle.push(`${e.event}|${e.id}|${e.data}`), onComment: (c) => oracle.push(`:${c}`) });
          p.feed(text);
          expect(whole.frames.map((f) => (f.kind === 'comment' ? `:${f.data}` : `${f.event}|${f.id}|${f.data}`))).toEqual(oracle);
        },
      ),
      { numRuns: 300 },
    );
  });
});

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

  it('an id on a frame without data moves the last event ID: kept beside the frames, never as one', () => {
    // The spec's "dispatch the event" sets the last event ID before it returns on an empty data buffer (Chromium's
    // EventSourceParser likewise, at every blank line); eventsource-parser 3.1 drops such a frame whole.
    const body = 'id: a\ndata: 1\n\n: ping\n\nid: b\n\ndata: 2\n\nid: c\nevent: x\n: inside\n\nid:\n\nid: d\n';
    const dec = new SseSpecDecoder();
    dec.push(body.slice(0, 20), 1);
    dec.push(body.slice(20), 2);
    // The frames are what they were without those ids: two events and the comments.
    expect(dec.frames.toArray().map((f) => [f.kind, f.data, f.id])).toEqual([
      ['data', '1', 'a'], ['comment', 'ping', undefined], ['data', '2', undefined], ['comment', 'inside', undefined],
    ]);
    const at = (s: string) => body.indexOf(s);
    expect(dec.frames.idOnlyFrames()).toEqual([
      { id: 'b', before: 2, start: at('id: b'), end: at('data: 2'), t: 2 },
      { id: 'c', before: 4, start: at('id: c'), end: at('id:\n'), t: 2 },
      { id: '', before: 4, start: at('id:\n'), end: at('id: d'), t: 2 }, // an empty id resets it (still a change)
    ]);
    expect(dec.frames.lastId()).toBe(''); // "id: d" has no blank line yet: not dispatched
    expect(dec.pendingId).toBe('d');
  });

  it('property: the last event ID changes as the spec sets it, frame ids and id-only frames in order, however chunked', () => {
    // The spec's reading of the last event ID, line by line: each dispatched frame that had an `id:` field sets it.
    const specIds = (text: string) => {
      const out: string[] = [];
      let id: string | undefined;
      for (const line of text.split(/\r\n|\r|\n/).slice(0, -1)) {
        if (line === '') {
          if (id !== undefined) out.push(id);
          id = undefined;
        } else if (!line.startsWith(':')) {
          const colon = line.indexOf(':');
          const value = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
          if ((colon === -1 ? line : line.slice(0, colon)) === 'id' && !value.includes('\0')) id = value;
        }
      }
      return out;
    };
    const readerIds = (dec: SseSpecDecoder) => {
      const only = dec.frames.idOnlyFrames();
      const out: string[] = [];
      let k = 0;
      for (let i = 0; i <= dec.frames.length; i++) {
        while (k < only.length && only[k].before <= i) out.push(only[k++].id);
        const id = i < dec.frames.length ? dec.frames.id(i) : undefined;
        if (id !== undefined) out.push(id);
      }
      return out;
    };
    fc.assert(
      fc.property(
        body.chain((b) => fc.tuple(fc.constant(b), cutsFor(utf8(b).length))),
        ([text, cuts]) => {
          const whole = new SseSpecDecoder();
          whole.push(text, 1);
          expect(readerIds(whole)).toEqual(specIds(text));
          const split = new SseSpecDecoder();
          for (const c of chunkTexts(toRecords(cut(utf8(text), cuts)))) split.push(c.text, 1);
          expect(split.frames.idOnlyFrames()).toEqual(whole.frames.idOnlyFrames());
        },
      ),
      { numRuns: 300 },
    );
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

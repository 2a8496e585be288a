// What an eviction digest keeps of an SSE body's spec reading at the cut (EvictionDerived.sse): whether a frame read
// from there is a whole event, and the last event ID. Held to the spec reader itself: what it says is what
// SseSpecDecoder reads of the evicted text followed by one more frame. It may say "not known" (a line given up), never
// something else.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EvictionDigest, MAX_DERIVED_CHARS } from '../../../src/core/analysis/eviction-digest.ts';
import { SseSpecDecoder } from '../../../src/core/frames/sse-spec.ts';
import type { ConnectionRecord } from '../../../src/core/capture/model.ts';

const conn = (type = 'text/event-stream'): ConnectionRecord => ({
  kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'https://a.test/', method: 'GET', url: 'https://a.test/s',
  requestHeaders: [], responseHeaders: [['content-type', type]], startTime: 1,
});

function derivedOf(evicted: string[], type?: string) {
  const digest = new EvictionDigest(conn(type));
  for (const text of evicted) digest.push({ kind: 'chunk', conn: 'c', t: 2, bytes: new TextEncoder().encode(text).length, text });
  return digest.derived();
}

/** The spec's reading of `text` then a frame of its own: its event name, data and last event ID. */
function nextFrame(text: string) {
  const spec = new SseSpecDecoder();
  spec.push(`${text}data: NEXT\n\n`, 3);
  const f = spec.frames.at(-1);
  return { event: f?.event, data: f?.data, lastEventId: spec.frames.lastId() ?? '' };
}

const line = fc.constantFrom('data: {"a":1}', 'data:2', 'data', 'event: delta', 'event:', 'event', 'id: 7', 'id:8', 'id', 'id: 9\u0000',
  ': hb', '', 'retry: 5', 'foo: x', '\u00ef\u00bb\u00bfid: 3');
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');

describe('EvictionDigest: the SSE reading at the cut', () => {
  it('says what the spec reads next: a whole event where it says so, the last event ID where it knows it', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(line, lineEnd), { maxLength: 12 }), fc.string({ maxLength: 4 }).filter((s) => !/[\r\n]/.test(s)), ([...lines], carry) => {
        // The cut after a "\n" (the client's line end) and then an unfinished line: the state is the one at its start.
        let text = lines.map(([l, e]) => l + e).join('');
        if (!text.endsWith('\n')) text += '\n';
        const d = derivedOf([text + carry]);
        expect(d.carry).toBe(carry);
        const next = nextFrame(text);
        expect(d.sse?.lastEventId).toBe(next.lastEventId);
        if (d.sse?.frameStart) expect([next.event, next.data]).toEqual([undefined, 'NEXT']);
        else expect([next.event, next.data]).not.toEqual([undefined, 'NEXT']);
      }),
      { numRuns: 2000 },
    );
  });

  it('a line given up (too long to keep) makes both not known until a blank line or an id: line says again', () => {
    const long = `data: ${'x'.repeat(MAX_DERIVED_CHARS + 10)}`;
    // (A line is given up when a record ends inside it: one a record holds whole is read.)
    expect(derivedOf(['id: 1\n\n', `${long}\n`]).sse).toEqual({ frameStart: false, lastEventId: '1' });
    expect(derivedOf(['id: 1\n\n', long]).sse).toEqual({ frameStart: false }); // the cut inside it
    expect(derivedOf(['id: 1\n\n', long, '\n']).sse).toEqual({ frameStart: false });
    expect(derivedOf(['id: 1\n\n', long, '\n\n']).sse).toEqual({ frameStart: true });
    expect(derivedOf(['id: 1\n\n', long, '\nid: 2\n\n']).sse).toEqual({ frameStart: true, lastEventId: '2' });
  });

  it('is kept for an SSE body only', () => {
    expect(derivedOf(['{"a":1}\n'], 'application/x-ndjson').sse).toBeUndefined();
    expect(derivedOf(['data: {"a":1}\n\n']).sse).toEqual({ frameStart: true, lastEventId: '' });
  });
});

// harParts writes the HAR as it is made (bodies never whole, pausing in its loops); its text must be exactly what
// writeHar makes from exportHar's object, the reference — on random captures (multi-byte text, bytes that are not
// UTF-8, bodies from another writer's base64, evictions, navigations, EventSource and WebSocket connections), on
// captures of several pages, and on a generated session.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { harParts } from '../../../src/core/capture/har-parts.ts';
import { writeHar } from '../../../src/core/capture/har.ts';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import type { Capture, ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { bytesToBase64 } from '../../../src/core/frames/utf8-chunks.ts';
import { generateCapture } from '../../../bench/capture-gen.ts';
import { captureArb, pagedCaptureArb } from './arbitraries.ts';
import { cut, utf8 } from '../frames/helpers.ts';

const written = (capture: Capture) => [...harParts(capture)].join('');

const conn = (id: string, contentType: string): ConnectionRecord => ({
  kind: 'connection', id, transport: 'fetch', frameUrl: '', method: 'GET', url: `https://x.example/${id}`, requestHeaders: [],
  status: 200, responseHeaders: [['content-type', contentType]], startTime: 1000, responseTime: 1001,
});

/** A body as another writer may store it: every record its wire chunk in base64, characters cut anywhere. */
function base64Records(id: string, bytes: Uint8Array, cuts: number[]): ChunkRecord[] {
  return cut(bytes, cuts).map((c, k) => ({ kind: 'chunk', conn: id, t: 1002 + k, bytes: c.length, base64: bytesToBase64(c) }));
}

describe('harParts', () => {
  it('property: its text is writeHar’s, whatever the capture', () => {
    fc.assert(fc.property(captureArb, (capture) => {
      expect(written(capture)).toBe(writeHar(capture));
    }), { numRuns: 400 });
  });

  it('property: a capture of several pages (log.pages, each entry\'s pageref) is written as writeHar writes it', () => {
    fc.assert(fc.property(pagedCaptureArb, (capture) => {
      expect(written(capture)).toBe(writeHar(capture));
    }), { numRuns: 200 });
  });

  it('property: a body stored as base64 cut anywhere (UTF-8 or not, a character cut in two) is written as writeHar writes it', () => {
    const body = fc.array(fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 8 }).map((s) => utf8(`data: ${JSON.stringify(s)}\n\n`)),
      fc.uint8Array({ minLength: 1, maxLength: 4 }),
    ), { maxLength: 6 }).map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));
    fc.assert(fc.property(body, fc.array(fc.nat(), { maxLength: 10 }), fc.constantFrom('text/event-stream', 'application/octet-stream'), (bytes, cuts, type) => {
      const capture: Capture = {
        header: makeHeader('t', { created: '2026-12-01T00:00:00.000Z' }),
        records: [conn('c', type), ...base64Records('c', bytes, cuts), { kind: 'end', conn: 'c', t: 2000, state: 'complete' }],
      };
      expect(written(capture)).toBe(writeHar(capture));
    }), { numRuns: 400 });
  });

  it('text records with a lone surrogate (an imported log may hold one) are written as their bytes decode', () => {
    const capture: Capture = {
      header: makeHeader('t', { created: '2026-12-01T00:00:00.000Z' }),
      records: [conn('c', 'text/plain'), { kind: 'chunk', conn: 'c', t: 1, bytes: 3, text: 'a\ud83d' }, { kind: 'chunk', conn: 'c', t: 2, bytes: 3, text: '\ude42b' }],
    };
    expect(written(capture)).toBe(writeHar(capture));
    expect(written(capture)).toContain('"text": "a\ufffd\ufffdb"');
  });

  it('a generated session of 20,000 events (multi-byte text, base64 images, heartbeats) is written as writeHar writes it, with pauses', () => {
    const g = generateCapture({ events: 20_000, seed: 7 });
    const capture: Capture = {
      header: makeHeader('bench', { created: '2026-03-01T00:00:00.000Z' }),
      records: [...g.records, { kind: 'evicted', conn: g.records[0].kind === 'connection' ? g.records[0].id : '', t: 1, chunks: 3, messages: 0, bytes: 99 }],
    };
    const progress = { done: 0, total: 0 };
    let pauses = 0;
    let longest = 0;
    const parts: string[] = [];
    for (const p of harParts(capture, progress)) {
      if (p === '') pauses++;
      longest = Math.max(longest, p.length);
      parts.push(p);
    }
    expect(parts.join('')).toBe(writeHar(capture));
    expect(pauses).toBeGreaterThan(1000);
    expect(progress.done).toBe(progress.total);
    expect(progress.total).toBeGreaterThan(capture.records.length);
  });
});

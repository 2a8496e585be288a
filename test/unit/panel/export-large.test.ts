// Exports larger than one JavaScript string (V8: 2^29 − 24 UTF-16 units, ~512 MiB): the HAR of a capture of ~150 MB
// and more. Written as one string they failed with "Invalid string length"; now they are parts, saved as a Blob.
import { describe, expect, it } from 'vitest';
import { buildExport } from '../../../panel/store/export.ts';
import { writeExportBlob } from '../../../panel/store/export-writer.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import type { Capture } from '../../../src/core/capture/model.ts';

const MAX_STRING = 2 ** 29 - 24;
const none = {};

describe('exports larger than a string', () => {
  it('a HAR of more than 512 MiB of text is written in parts, none of them long', () => {
    // One chunk of 140 M quotes: in the HAR the body and our raw record each escape it to 280 M characters.
    const n = 140_000_000;
    const capture: Capture = {
      header: makeHeader('t', { created: '2026-12-01T00:00:00.000Z' }),
      records: [
        { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'GET', url: 'http://x/s', requestHeaders: [], status: 200, responseHeaders: [['content-type', 'application/x-ndjson']], startTime: 1, responseTime: 2 },
        { kind: 'chunk', conn: 'c', t: 3, bytes: n, text: '"'.repeat(n) },
        { kind: 'end', conn: 'c', t: 4, state: 'complete' },
      ],
    };
    const file = buildExport(capture, { kind: 'har', redaction: none });
    let total = 0;
    let longest = 0;
    let head = '';
    let tail = '';
    for (const part of file.parts()) {
      total += part.length;
      longest = Math.max(longest, part.length);
      if (head.length < 100) head += part;
      tail = (tail + part).slice(-100);
    }
    expect(total).toBeGreaterThan(MAX_STRING);
    expect(longest).toBeLessThan(8 << 20);
    expect(head).toMatch(/^\{\n {2}"log": \{\n {4}"version": "1\.2"/);
    expect(tail).toMatch(/\n {2}\}\n\}$/);
  });

  it('a HAR of a connection whose body is longer than a string: the body is written in pieces, never one string', () => {
    // 540 chunks of 1 Mi characters (one string, shared: little memory). Made at once, the body was decoded into one
    // string: Node throws, and Chromium's TextDecoder returns "" past its longest string — the HAR said the body's
    // size and held an empty text.
    const mi = 'a'.repeat(2 ** 20);
    const n = 540;
    const capture: Capture = {
      header: makeHeader('t', { created: '2026-12-01T00:00:00.000Z' }),
      records: [
        { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'GET', url: 'http://x/s', requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/plain']], startTime: 1, responseTime: 2 },
        ...Array.from({ length: n }, (_, i) => ({ kind: 'chunk' as const, conn: 'c', t: 3 + i, bytes: mi.length, text: mi })),
        { kind: 'end', conn: 'c', t: 4 + n, state: 'complete' },
      ],
    };
    const file = buildExport(capture, { kind: 'har', redaction: none });
    // The body's text: the parts between the opening quote that follows the content's "text" key and the closing one.
    let state: 'before' | 'key' | 'text' | 'after' = 'before';
    let textChars = 0;
    let longest = 0;
    for (const part of file.parts()) {
      longest = Math.max(longest, part.length);
      if (state === 'before' && part.endsWith('"text": ')) state = 'key';
      else if (state === 'key') state = part === '"' ? 'text' : 'before';
      else if (state === 'text' && part === '"') state = 'after';
      else if (state === 'text') textChars += part.length;
    }
    expect(state).toBe('after');
    expect(textChars).toBe(n * 2 ** 20);
    expect(textChars).toBeGreaterThan(MAX_STRING);
    expect(longest).toBeLessThan(8 << 20);
  });

  it('the Blob of a file is its text, byte for byte, in every format', async () => {
    const sample = sampleCapture();
    for (const kind of ['capture-log', 'har', 'messages', 'diagnostics'] as const) {
      const file = buildExport(sample, { kind, redaction: none });
      const blob = await writeExportBlob(file);
      expect(blob.type).toBe(file.mime);
      expect(await blob.text()).toBe(file.text);
    }
  });
});

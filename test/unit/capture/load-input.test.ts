import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { InputError, loadInput } from '../../../src/core/capture/load-input.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { writeHar } from '../../../src/core/capture/har.ts';
import type { Capture, ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { chunkTexts, readNdjson, readSse } from '../../../src/core/frames/read-body.ts';
import { recordsToBytes } from '../../../src/core/frames/utf8-chunks.ts';
import fc from 'fast-check';
import { captureArb } from './arbitraries.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const conformance = path.resolve(repoRoot, '../shared/conformance');

const events = [
  { type: 'REPLY_START', id: 'e1', created_at: '2026-03-01T09:00:01', reply_id: 'r1', name: 'Friday' },
  { type: 'TEXT_BLOCK_DELTA', id: 'e2', created_at: '2026-03-01T09:00:02.5', reply_id: 'r1', block_id: 'b', delta: 'hé\nllo' },
];
const chunks = (c: Capture) => c.records.filter((r): r is ChunkRecord => r.kind === 'chunk');
const conn = (c: Capture) => c.records[0] as ConnectionRecord;
const sseData = (c: Capture) => readSse(chunkTexts(chunks(c)), { ended: true }).frames.filter((f) => f.kind === 'data');

describe('loadInput', () => {
  it('reads a JSON array of events into a synthesised SSE connection timed by created_at', () => {
    const cap = loadInput(JSON.stringify(events), 'events.json');
    expect(conn(cap)).toMatchObject({ transport: 'import', url: 'events.json', startTime: Date.parse('2026-03-01T09:00:01Z') });
    // The file holds no request or response head: none is made up (the panel showed GET and 200).
    expect(conn(cap).method).toBe('');
    expect(conn(cap).status).toBeUndefined();
    expect(sseData(cap).map((f) => [JSON.parse(f.data), f.t])).toEqual([
      [events[0], Date.parse('2026-03-01T09:00:01Z')],
      [events[1], Date.parse('2026-03-01T09:00:02.5Z')],
    ]);
    expect(cap.records.at(-1)).toMatchObject({ kind: 'end', state: 'complete' });
  });

  it('reads {"events": [...]}, as bytes too, and uses NaN times when events have none', () => {
    const bare = events.map(({ created_at: _c, ...e }) => e);
    const cap = loadInput(new TextEncoder().encode(JSON.stringify({ events: bare })));
    expect(Number.isNaN(conn(cap).startTime)).toBe(true);
    expect(sseData(cap).map((f) => JSON.parse(f.data))).toEqual(bare);
  });

  it('reads NDJSON keeping the text exactly', () => {
    const text = events.map((e) => JSON.stringify(e)).join('\r\n') + '\n';
    const cap = loadInput(text, 'log.ndjson');
    expect(new TextDecoder().decode(recordsToBytes(chunks(cap)))).toBe(text);
    expect(conn(cap).responseHeaders).toEqual([['content-type', 'application/x-ndjson']]);
    expect(readNdjson(chunkTexts(chunks(cap)), { ended: true }).map((f) => [JSON.parse(f.data).id, f.t])).toEqual([
      ['e1', Date.parse('2026-03-01T09:00:01Z')],
      ['e2', Date.parse('2026-03-01T09:00:02.5Z')],
    ]);
  });

  it('reads an events file of 300,000 events (NDJSON and a JSON array), timed from its first to its last event', () => {
    // Their times were spread into Math.min/Math.max as arguments: past ~120,000 the stack overflowed and the file
    // was refused ("could not read the input: Maximum call stack size exceeded").
    const n = 300_000;
    const lines = Array.from({ length: n }, (_, i) => `{"type":"TEXT_BLOCK_DELTA","created_at":${1_772_355_600 + i}}`);
    for (const [name, text] of [['big.ndjson', lines.join('\n') + '\n'], ['big.json', `[${lines.join(',')}]`]]) {
      const cap = loadInput(text, name);
      const end = cap.records.at(-1);
      expect(conn(cap).startTime).toBe(1_772_355_600_000);
      expect(end).toMatchObject({ kind: 'end', t: (1_772_355_600 + n - 1) * 1000 });
      expect(chunks(cap).length).toBe(n);
    }
  });

  it('a file past the longest string is refused as too large, not as empty', () => {
    // Chromium's TextDecoder returns "" for more than a string holds: a 1 GB HAR was "the input is empty". Only the
    // length is read before the refusal, so a stand-in of that length does.
    const huge = { length: 1018 * 2 ** 20 } as Uint8Array;
    expect(() => loadInput(huge, 'big.har')).toThrow(/^big\.har: the file is 1018 MiB: more than an import can read \(512 MiB, .*of anything but a capture log, which is read at any size .*export that instead; split an SSE body at a blank line$/);
  });

  it('reads raw SSE bytes exactly, even when they are not UTF-8', () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(': hi\n\ndata: {"a":1}\n\ndata: '), 0xff, 0x0a, 0x0a]);
    const cap = loadInput(bytes, 'dump.sse');
    expect(recordsToBytes(chunks(cap))).toEqual(bytes);
    expect(sseData(cap).map((f) => f.data)).toEqual(['{"a":1}', '\ufffd']);
  });

  it('reads capture logs and HAR files (property: loadInput = the format reader)', () => {
    fc.assert(
      fc.property(captureArb, (capture) => {
        expect(loadInput(writeCaptureLog(capture))).toEqual(capture);
        expect(loadInput(writeHar(capture))).toEqual(capture);
      }),
      { numRuns: 30 },
    );
  });

  it('reads a HAR written on one line even when it mentions a capture log (it is no capture log header)', () => {
    fc.assert(
      fc.property(captureArb, (capture) => {
        const compact = JSON.stringify({ ...JSON.parse(writeHar(capture)), comment: '{"kind":"header","format":"replyscope-capture"}' });
        expect(loadInput(compact)).toEqual(capture);
      }),
      { numRuns: 30 },
    );
    // A damaged header line is still read as one, so the error names what is wrong with it.
    expect(() => loadInput('{"kind":"header","format":"replyscope-capture","version":1,\n{"kind":"chunk"}')).toThrow(/capture log line 1/);
  });

  it('reads a capture log whose header is longer than the sniffing window (a 70,000-character page URL)', () => {
    fc.assert(
      fc.property(captureArb, (capture) => {
        const long = { ...capture, header: { ...capture.header, pageUrl: `https://a.test/?q=${'x'.repeat(70_000)}` } };
        expect(loadInput(writeCaptureLog(long))).toEqual(long);
      }),
      { numRuns: 10 },
    );
  });

  it('a capture log whose header is missing, misspelt or written in another key order is read as one (not as events)', () => {
    const log = writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-01-01T00:00:00Z' }, records: [
      { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'GET', url: 'u', requestHeaders: [], startTime: 1 },
      { kind: 'chunk', conn: 'c', t: 2, bytes: 4, text: 'data' },
    ] });
    const [head, ...rest] = log.split('\n');
    expect(() => loadInput(rest.join('\n'))).toThrow(/capture log line 1: a connection record where the header belongs/);
    expect(() => loadInput(log.replace('"replyscope-capture"', '"replyscope_capture"'))).toThrow(/capture log line 1: expected a header with "format": "replyscope-capture"/);
    const reordered = JSON.stringify({ format: 'replyscope-capture', ...JSON.parse(head), pageUrl: `https://a.test/?q=${'x'.repeat(70_000)}` });
    expect(loadInput([reordered, ...rest].join('\n')).records).toEqual(loadInput(log).records);
  });

  it('reads UTF-16 files (PowerShell writes them) and says what a compressed file or broken JSON is', () => {
    const sse = 'data: {"type":"REPLY_START","reply_id":"r","session_id":"s","name":"Friday ✓ 🌍"}\n\n';
    const utf8 = loadInput(new TextEncoder().encode(sse), 'a.sse');
    const le = Uint8Array.from([0xff, 0xfe, ...Buffer.from(sse, 'utf16le')]);
    const be = Uint8Array.from([0xfe, 0xff, ...Buffer.from(sse, 'utf16le').swap16()]);
    for (const wide of [le, be]) expect(loadInput(wide, 'a.sse')).toEqual(utf8);
    expect(() => loadInput(Uint8Array.from([0x1f, 0x8b, 8, 0, 0]), 'a.sse.gz')).toThrow('a.sse.gz: the file is gzip-compressed: decompress it first (gunzip)');
    expect(() => loadInput(Uint8Array.from([0x50, 0x4b, 3, 4, 0]), 'a.zip')).toThrow('a.zip: the file is a zip archive');
    // mitmproxy's .zhar: a zlib stream (level 9), no text — it was read as such ("found text starting "x\u00da…").
    expect(() => loadInput(Uint8Array.from(deflateSync('{"log":{"entries":[]}}', { level: 9 })), 'flows.zhar')).toThrow(/^flows\.zhar: the file is zlib-compressed \(mitmproxy writes a \.zhar HAR so\): decompress it first/);
    expect(() => loadInput(Uint8Array.from(deflateSync('{"log":{"entries":[]}}')), 'flows.zhar')).toThrow(/zlib-compressed/);
    // A pretty-printed document with a typo, a HAR cut short (one line): the JSON error, with its line.
    expect(() => loadInput('[\n  {"type": "REPLY_START"},\n  {"type" "x"}\n]', 'e.json')).toThrow(/^e\.json: not valid JSON: .* \(line 3, column 11\)$/);
    expect(() => loadInput('[\n  {"type": "REPLY_START"},,\n  {}\n]', 'e.json')).toThrow(/^e\.json: not valid JSON: Unexpected token ',', [^\n]*$/);
    expect(() => loadInput('{\n  "log": {\n    "entries": [\n', 'x.har')).toThrow(/^x\.har: not valid JSON: /);
    expect(() => loadInput('{"log":{"version":"1.2","entries":[{"request":', 'y.har')).toThrow(/^y\.har: not valid JSON: /);
    // NDJSON still reads, and a bad line of it is named as before.
    expect(() => loadInput('{"type":"a"}\n{"type":\n', 'n.ndjson')).toThrow(/^n\.ndjson: line 2: expected one JSON event per line/);
    // The parse was of that line alone: its position is a column of line 2 (Chromium added "(line 1 column 13)").
    expect(() => loadInput('{"type":"a"}\n{"type":"b" "x":1}\n', 'n.ndjson')).toThrow(/line 2: .* at column 13\)$/);
  });

  it('reads every published conformance case (events or raw chunks; pi client -> request body)', () => {
    for (const dir of ['agentscope', 'pi']) {
      const casesDir = path.join(conformance, dir, 'cases');
      for (const file of readdirSync(casesDir)) {
        const json = JSON.parse(readFileSync(path.join(casesDir, file), 'utf8'));
        if (json.http || !(json.events || json.raw)) continue; // non-SSE answers are not bodies of events
        const cap = loadInput(readFileSync(path.join(casesDir, file)), file);
        const body = new TextDecoder().decode(recordsToBytes(chunks(cap)));
        if (json.raw) expect(body, file).toBe(json.raw.join(''));
        else expect(sseData(cap).map((f) => JSON.parse(f.data)), file).toEqual(json.events);
        if (json.client) expect(JSON.parse(conn(cap).requestBody?.text ?? '')).toEqual(json.client);
      }
    }
  });

  it('an element that is no object among events is an invalid event, as on an NDJSON line (not bad input)', () => {
    const odd = [events[0], [1, 2], 'str', null, events[1]];
    const fromArray = analyzeCapture(loadInput(JSON.stringify(odd), 'odd.json'))[0];
    const fromLines = analyzeCapture(loadInput(odd.map((e) => JSON.stringify(e)).join('\n'), 'odd.ndjson'))[0];
    expect(fromArray.events.map((e) => e.valid)).toEqual(fromLines.events.map((e) => e.valid));
    expect(fromArray.events.slice(1, 4).map((e) => e.valid)).toEqual([false, false, false]);
    expect(fromArray.diagnostics.map((d) => d.code).sort()).toEqual(fromLines.diagnostics.map((d) => d.code).sort());
  });

  it('an NDJSON file keeps its own bytes: bytes that are not UTF-8 are told, as in an SSE file, not mended into U+FFFD', () => {
    const enc = new TextEncoder();
    const lines = events.slice(0, 2).map((e) => enc.encode(`${JSON.stringify(e)}\n`));
    const bad = Uint8Array.from([...enc.encode('{"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"b1","delta":"h'), 0xc3, ...enc.encode('i"}\n')]);
    for (const bom of [[], [0xef, 0xbb, 0xbf]]) {
      const file = Uint8Array.from([...bom, ...lines[0], ...lines[1], ...bad]);
      const cap = loadInput(file, 'bad.ndjson');
      const body = recordsToBytes(cap.records.filter((r): r is ChunkRecord => r.kind === 'chunk'));
      expect(Buffer.from(body).equals(Buffer.from(file.subarray(bom.length)))).toBe(true);
      const [analysed] = analyzeCapture(cap);
      expect(analysed.events).toHaveLength(3);
      expect(analysed.diagnostics.map((d) => d.code)).toContain('stream.invalid-utf8');
    }
  });

  it('NDJSON whose first line is a JSON value but no object (a keep-alive 1) is read: that line is an invalid event, as further down', () => {
    const text = ['1', ...events.slice(0, 2).map((e) => JSON.stringify(e))].join('\n');
    const [analysed] = analyzeCapture(loadInput(text, 'k.ndjson'));
    const [without] = analyzeCapture(loadInput(text.slice(2), 'n.ndjson'));
    expect(analysed.events.map((e) => e.valid)).toEqual([false, ...without.events.map((e) => e.valid)]);
    expect(analysed.diagnostics.filter((d) => d.index === 0).map((d) => d.code)).toContain('as.invalid-event');
    // A file of numbers alone is no events, and a first line that is no JSON no NDJSON.
    expect(() => loadInput('1\n2\n', 'n.ndjson')).toThrow(/expected a capture log, a HAR file, JSON events, NDJSON or SSE text/);
    expect(() => loadInput(`hello\n${JSON.stringify(events[0])}\n`, 'h.ndjson')).toThrow(/expected a capture log/);
  });

  it.each([
    ['', /input is empty/],
    ['   \n', /input is empty/],
    ['hello world', /expected a capture log, a HAR file, JSON events, NDJSON or SSE text; found text starting "hello world"/],
    ['{"foo": 1}', /found an object with keys foo/],
    ['42', /found text starting "42"/],
    ['[1, 2]', /event 0 is 1, and no element is a JSON object: expected events/],
    ['{"a":1}\n{"b":', /line 2: expected one JSON event per line \(NDJSON\)/],
    ['{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"x"}\n{"kind":"chunk"}', /capture log line 2: unknown record kind|capture log line 2: chunk/],
    ['{"log": {"entries": [{"response": {"content": {"mimeType": "text/event-stream", "encoding": "base64", "text": "@@"}}}]}}', /HAR entry 0 .*not valid base64/],
  ])('rejects garbage with a one-line InputError: %#', (input, re) => {
    try {
      loadInput(input, 'in.txt');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(re);
      expect((e as Error).message.startsWith('in.txt: ')).toBe(true);
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CaptureLogError, readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { captureLogJsonSchema } from '../../../src/core/capture/schemas.ts';
import type { ChunkRecord } from '../../../src/core/capture/model.ts';
import { recordsToBytes } from '../../../src/core/frames/utf8-chunks.ts';
import { captureArb } from './arbitraries.ts';
import { validate } from './mini-json-schema.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const schemaFile = path.resolve(here, '../../../src/core/capture/capture-log.schema.json');

const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"u","requestHeaders":[],"startTime":1}';

describe('capture log', () => {
  it('property: write -> read is lossless (records, NaN times, exact body bytes)', () => {
    fc.assert(
      fc.property(captureArb, (capture) => {
        const text = writeCaptureLog(capture);
        const back = readCaptureLog(text);
        expect(back).toEqual(capture);
        for (const id of ['t1:1', 't1:2']) {
          const chunks = (c: typeof capture) => c.records.filter((r): r is ChunkRecord => r.kind === 'chunk' && r.conn === id);
          expect(recordsToBytes(chunks(back))).toEqual(recordsToBytes(chunks(capture)));
        }
        expect(writeCaptureLog(back)).toBe(text);
      }),
      { numRuns: 150 },
    );
  });

  it('writes NaN times as null and reads them back as NaN', () => {
    const text = `${header}\n${conn.replace('"startTime":1', '"startTime":null')}\n`;
    expect(Number.isNaN((readCaptureLog(text).records[0] as { startTime: number }).startTime)).toBe(true);
  });

  it.each([
    ['', /line 1: the file is empty/],
    ['{"kind":"header"}', /line 1: expected a header with "format": "replyscope-capture"/],
    [header.replace('"version":1', '"version":2'), /line 1: unsupported capture log version 2/],
    [`${header}\n${conn}\nnot json\n`, /line 3: not JSON/],
    [`${header}\n${conn}\nnot json\n${conn}`, /line 3: not JSON/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":-1,"text":"x"}`, /line 3: chunk\.bytes: .*>=0/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":1}`, /line 3: chunk: a chunk needs exactly one of "text" and "base64"/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":1,"text":"x","extra":1}`, /line 3: chunk: Unrecognized key.*extra/],
    [`${header}\n{"kind":"chunk","conn":"zz","t":1,"bytes":1,"text":"x"}`, /line 2: chunk record for connection "zz", which no earlier line declares/],
    [`${header}\n${conn}\n${conn}`, /line 3: connection id "c" appears twice/],
    [`${header}\n{"kind":null}`, /line 2: unknown record kind null/],
    [`${header}\n42`, /line 2: not a JSON object \(found "42"\)/],
    [`${header}\n${conn}\n${header}`, /line 3: a second header line: two capture logs joined into one file\?/],
    [conn, /line 1: a connection record where the header belongs: a capture log starts with \{"kind":"header"/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":3,"base64":"QUJDR"}`, /line 3: chunk\.base64: expected standard base64 .*never 4n\+1/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":9999,"text":"abc"}`, /line 3: chunk\.bytes: 9999, but its text holds 3 bytes/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":1,"text":"abc"}`, /line 3: chunk\.bytes: 1, but its text holds 3 bytes .*fewer bytes than its payload/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":3,"text":"a\\ud800b"}`, /line 3: chunk\.text holds a lone surrogate \(U\+D800 at character 1\)/],
    [`${header}\n${conn}\n{"kind":"message","conn":"c","t":1,"type":"message","data":"{}","lastEventId":""}`, /line 3: a message record on a connection whose body is a byte stream/],
    [`${header}\n${conn.replace('"fetch"', '"eventsource"')}\n{"kind":"chunk","conn":"c","t":1,"bytes":1,"text":"x"}`, /line 3: a chunk record on an eventsource or websocket connection/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":1,"text":"x","future":1}`, /line 3: chunk: Unrecognized key.*future.* — a field this version does not know \(a log from a newer Replyscope\?\)/],
  ])('rejects bad input with a one-line error naming the line: %#', (text, re) => {
    try {
      readCaptureLog(text);
      expect.unreachable('should have thrown');
    } catch (e) {
      expect(e).toBeInstanceOf(CaptureLogError);
      expect((e as Error).message).toMatch(re);
      expect((e as Error).message).not.toContain('\n');
    }
  });

  describe('damage that leaves the rest sound is read, with a note saying what happened', () => {
    const chunk = (text: string, bytes = new TextEncoder().encode(text).length) => JSON.stringify({ kind: 'chunk', conn: 'c', t: 1, bytes, text });
    const notes = (text: string) => readCaptureLog(text).records.filter((r) => r.kind === 'notice').map((r) => [r.conn, r.text]);

    it('a last line cut off mid-record (a truncated file): the records before it, and a note', () => {
      const whole = `${header}\n${conn}\n${chunk('data: {}\n\n')}\n${chunk('data: [1]\n\n')}\n`;
      const cut = whole.slice(0, -12);
      const back = readCaptureLog(cut);
      expect(back.records.filter((r) => r.kind === 'chunk')).toHaveLength(1);
      expect(notes(cut)).toEqual([['c', expect.stringMatching(/^The capture log ends in the middle of line 4 \(\d+ characters, not a whole record\): the file was cut short\. This connection has no end record before it: its data may go on past the cut\.$/)]]);
      // Every connection had ended: the note is the file's.
      const ended = `${header}\n${conn}\n${JSON.stringify({ kind: 'end', conn: 'c', t: 2, state: 'complete' })}\n{"kind":"not`;
      expect(notes(ended)).toEqual([[undefined, 'The capture log ends in the middle of line 4 (12 characters, not a whole record): the file was cut short. The records before it are shown.']]);
    });

    it('blank lines (between records, several at the end) are skipped', () => {
      const text = `${header}\n\n${conn}\r\n\n${chunk('x')}\n\n\n`;
      expect(readCaptureLog(text).records.map((r) => r.kind)).toEqual(['connection', 'chunk']);
    });

    it('records of a kind this version does not know are skipped and counted, the rest kept', () => {
      const text = `${header}\n${conn}\n{"kind":"bookmark","at":3}\n${chunk('x')}\n{"kind":"bookmark"}\n`;
      expect(readCaptureLog(text).records.filter((r) => r.kind !== 'notice').map((r) => r.kind)).toEqual(['connection', 'chunk']);
      expect(notes(text)).toEqual([[undefined, '2 records of a kind this version does not know ("bookmark") skipped — a log from a newer Replyscope? This one reads version 1 records (connection, chunk, message, end, evicted, notice, navigation).']]);
    });

    it('records after the connection\'s end are kept and noted once; a second end too', () => {
      const end = (state: string) => JSON.stringify({ kind: 'end', conn: 'c', t: 2, state });
      const late = `${header}\n${conn}\n${end('complete')}\n${chunk('x')}\n${chunk('y')}\n`;
      expect(readCaptureLog(late).records.filter((r) => r.kind === 'chunk')).toHaveLength(2);
      expect(notes(late)).toEqual([['c', "Capture log line 4: a chunk record after this connection's end record (line 3, complete) — the log's records are out of order; they are read as they stand."]]);
      const twice = `${header}\n${conn}\n${end('complete')}\n${end('error')}\n`;
      expect(notes(twice)).toEqual([['c', "Capture log line 4: a second end record (error) after this connection's end record (line 3, complete) — the log's records are out of order; they are read as they stand (the last end counts)."]]);
      // Written and read again, the note is not added a second time.
      expect(notes(writeCaptureLog(readCaptureLog(late)))).toHaveLength(1);
    });

    it('a 16 MB base64 chunk is read (a pattern of 4-character groups overflowed the regexp stack on it)', () => {
      const b64 = 'QUJD'.repeat(4 * 1024 * 1024);
      const text = `${header}\n${conn}\n${JSON.stringify({ kind: 'chunk', conn: 'c', t: 1, bytes: 12 * 1024 * 1024, base64: b64 })}\n`;
      expect(readCaptureLog(text).records).toHaveLength(2);
    });

    it('byte counts: a character split across records is carried by at most its rest; after an eviction the first record kept may hold more', () => {
      // "é" (2 bytes) split across two wire chunks of 1 byte each: the first record holds nothing, the second both bytes.
      expect(() => readCaptureLog(`${header}\n${conn}\n${chunk('', 1)}\n${chunk('é', 1)}\n`)).not.toThrow();
      // A capture taken while a character was in flight: the count promises a byte the payload does not hold yet.
      expect(() => readCaptureLog(`${header}\n${conn}\n${chunk('ab', 3)}\n`)).not.toThrow();
      expect(() => readCaptureLog(`${header}\n${conn}\n${chunk('ab', 6)}\n`)).toThrow(/chunk\.bytes: 6, but its text holds 2 bytes/);
      const evicted = JSON.stringify({ kind: 'evicted', conn: 'c', t: 1, chunks: 1, messages: 0, bytes: 1 });
      expect(() => readCaptureLog(`${header}\n${conn}\n${evicted}\n${chunk('é', 1)}\n`)).not.toThrow();
      expect(() => readCaptureLog(`${header}\n${conn}\n${chunk('é', 1)}\n`)).toThrow(/^capture log line 3: chunk\.bytes: 1, .*fewer bytes than its payload/);
      // A live panel's log holds the eviction where it arrived: after the chunks, even after the end — no note either.
      const end = JSON.stringify({ kind: 'end', conn: 'c', t: 2, state: 'complete' });
      const late = readCaptureLog(`${header}\n${conn}\n${chunk('é', 1)}\n${end}\n${evicted}\n`);
      expect(late.records.filter((r) => r.kind === 'notice')).toEqual([]);
      // base64: the decoded length counts (padded or not).
      expect(() => readCaptureLog(`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":4,"base64":"//79/A=="}\n`)).not.toThrow();
      expect(() => readCaptureLog(`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":5,"base64":"QUJDRA"}\n`)).not.toThrow();
      expect(() => readCaptureLog(`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":11,"base64":"QUJDRA"}\n`)).toThrow(/chunk\.bytes: 11, but its base64 holds 4 bytes/);
    });
  });

  it('the checked-in JSON Schema is the one derived from the zod schemas', () => {
    const regenerate = 'out of date; regenerate: node --import tsx -e "import(\'./src/core/capture/schemas.ts\').then(m => ' +
      'require(\'fs\').writeFileSync(\'src/core/capture/capture-log.schema.json\', JSON.stringify(m.captureLogJsonSchema(), null, 2) + \'\\n\'))"';
    expect(JSON.parse(readFileSync(schemaFile, 'utf8')), regenerate).toEqual(captureLogJsonSchema());
  });

  it('every line of real written logs validates against the JSON Schema, and broken lines do not', () => {
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
    fc.assert(
      fc.property(captureArb, (capture) => {
        for (const line of writeCaptureLog(capture).trimEnd().split('\n')) {
          expect(validate(schema, JSON.parse(line)), line).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
    expect(validate(schema, { kind: 'chunk', conn: 'c', t: 1, bytes: 1.5, text: 'x' })).not.toEqual([]);
    expect(validate(schema, { kind: 'end', conn: 'c', t: 1, state: 'done' })).not.toEqual([]);
  });

  describe('the JSON Schema takes a line where the reader reads it, and only there', () => {
    const schema = JSON.parse(readFileSync(schemaFile, 'utf8'));
    /** Whether the reader reads `line` after a header and a connection "c" (skipping it counts: a later version's kind). */
    const reads = (line: unknown) => {
      try {
        readCaptureLog(`${header}\n${conn}\n${JSON.stringify(line)}\n`);
        return true;
      } catch (e) {
        if (!(e instanceof CaptureLogError)) throw e;
        return false;
      }
    };
    const schemaTakes = (line: unknown) => validate(schema, line).length === 0;

    it.each([
      [{ kind: 'bookmark', at: 3 }, true], // a later version's kind: skipped with a note (the schema refused it)
      [{ kind: 'future' }, true],
      [{ kind: 'chunk', conn: 'c', t: 1, bytes: 1, text: 'x' }, true],
      [{ kind: 'chunk', conn: 'c', t: 1, bytes: 1.5, text: 'x' }, false], // a known kind is held to its schema
      [{ kind: 'navigation', t: 1 }, false],
      [{ kind: '' }, false],
      [{ kind: null }, false],
      [{ kind: 7 }, false],
      [{}, false],
      [[1], false],
      [42, false],
    ])('%j: %s', (line, read) => {
      expect(reads(line)).toBe(read);
      expect(schemaTakes(line)).toBe(read);
    });

    it('property: any kind, any other fields — the schema and the reader agree on a record of a kind this version does not know', () => {
      fc.assert(fc.property(fc.string(), fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== 'kind'), fc.jsonValue()), (kind, rest) => {
        if (kind === 'header' || kind === 'connection') return; // (position and ids: the reader's, see above)
        const line = { ...rest, kind };
        expect(schemaTakes(line)).toBe(reads(line));
      }), { numRuns: 500 });
    });
  });
});

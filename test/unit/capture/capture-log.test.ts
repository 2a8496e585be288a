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
    [`${header}\n${conn}\nnot json`, /line 3: not JSON/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":-1,"text":"x"}`, /line 3: chunk\.bytes: .*>=0/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":1}`, /line 3: chunk: a chunk needs exactly one of "text" and "base64"/],
    [`${header}\n${conn}\n{"kind":"chunk","conn":"c","t":1,"bytes":1,"text":"x","extra":1}`, /line 3: chunk: Unrecognized key.*extra/],
    [`${header}\n{"kind":"chunk","conn":"zz","t":1,"bytes":1,"text":"x"}`, /line 2: chunk record for connection "zz", which no earlier line declares/],
    [`${header}\n${conn}\n${conn}`, /line 3: connection id "c" appears twice/],
    [`${header}\n{"kind":"bogus"}`, /line 2: unknown record kind "bogus"/],
    [`${header}\n\n${conn}`, /line 2: empty line/],
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
});

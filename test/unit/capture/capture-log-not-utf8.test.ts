// A capture log whose bytes are not all UTF-8 (the format is UTF-8 text: a file re-encoded or corrupted after it was
// written): each such line is read as decoded, with U+FFFD for those bytes, and a warning names the line, the first
// such byte and its offset — read whole (loadInput) or in slices (CaptureLogStream), alike. They were mended into
// U+FFFD without a word (or refused as a byte count the payload "cannot have").
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CaptureLogStream } from '../../../src/core/capture/capture-log-stream.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';
import { firstNotUtf8 } from '../../../src/core/capture/utf8-lines.ts';
import type { Capture } from '../../../src/core/capture/model.ts';
import { captureArb } from './arbitraries.ts';
import { cut } from '../frames/helpers.ts';

const enc = new TextEncoder();
const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"u","requestHeaders":[],"startTime":1}';
/** A chunk of "café" as the page read it (5 bytes), the "é" written as Latin-1's one byte 0xE9. */
const latin1Chunk = Uint8Array.from([...enc.encode('{"kind":"chunk","conn":"c","t":1,"bytes":5,"text":"caf'), 0xe9, ...enc.encode('"}')]);
const end = '{"kind":"end","conn":"c","t":2,"state":"complete"}';

/** The lines joined by "\n" (each a string or bytes), ended by one. */
function file(...lines: (string | Uint8Array)[]): Uint8Array {
  const parts = lines.map((l) => (typeof l === 'string' ? enc.encode(l) : l));
  return Uint8Array.from(parts.flatMap((p) => [...p, 0x0a]));
}

const notes = (c: Capture) => c.records.filter((r) => r.kind === 'notice').map((r) => [r.conn, r.text]);

function outcome(read: () => Capture): unknown {
  try {
    return { capture: read() };
  } catch (e) {
    return { error: (e as Error).message, line: (e as { line?: number }).line };
  }
}

function inSlices(bytes: Uint8Array, cuts: number[]): unknown {
  return outcome(() => {
    const stream = new CaptureLogStream('log.ndjson');
    for (const slice of cut(bytes, cuts)) stream.push(slice);
    return stream.end();
  });
}

describe('a capture log with bytes that are not UTF-8', () => {
  it('a chunk\'s byte that is not UTF-8: read as U+FFFD, with a warning on its connection naming the line, the byte and its offset', () => {
    const bytes = file(header, conn, latin1Chunk, end);
    const capture = loadInput(bytes, 'log.ndjson');
    const offset = enc.encode(`${header}\n${conn}\n`).length + latin1Chunk.indexOf(0xe9);
    expect(capture.records.map((r) => r.kind)).toEqual(['connection', 'chunk', 'notice', 'end']); // right after it
    expect(capture.records[1]).toMatchObject({ text: 'caf\ufffd' });
    expect(notes(capture)).toEqual([['c', `Capture log line 3 holds bytes that are not UTF-8 (the first: 0xE9, byte ${latin1Chunk.indexOf(0xe9) + 1} of the line, ` +
      `file offset ${offset}): they were read as U+FFFD (\ufffd), and what they were is lost. A capture log is UTF-8 text: the file was damaged, or saved in another encoding, after it was written.`]]);
    expect(capture.records[2]).toMatchObject({ level: 'warning' });
    // Read in slices (the panel's import), the same — a slice cut right after the bad byte too.
    expect(inSlices(bytes, [offset + 1])).toEqual(outcome(() => loadInput(bytes, 'log.ndjson')));
  });

  it('the header\'s: a note above the connections; several lines of one connection: one note that counts them', () => {
    const badHeader = Uint8Array.from([...enc.encode(header.slice(0, -1)), ...enc.encode(',"pageUrl":"http://x/'), 0xff, ...enc.encode('"}')]);
    const capture = loadInput(file(badHeader, conn, latin1Chunk, latin1Chunk, latin1Chunk, end), 'log.ndjson');
    const said = notes(capture);
    expect(said).toHaveLength(2);
    expect(said[0]).toEqual(['c', expect.stringMatching(/^Capture log line 3 holds bytes that are not UTF-8 .*is lost\. 2 more lines of this connection hold such bytes too\. /)]);
    expect(said[1]).toEqual([undefined, expect.stringMatching(/^Capture log line 1 holds bytes that are not UTF-8 \(the first: 0xFF, byte \d+ of the line, file offset \d+\)/)]);
    expect(capture.header.pageUrl).toBe('http://x/\ufffd');
  });

  it('a line such bytes make unreadable is an error that says they are there', () => {
    const notJson = Uint8Array.from([...enc.encode('{"kind":"chunk",'), 0xe9, ...enc.encode('"conn":"c"}')]);
    expect(() => loadInput(file(header, conn, notJson, end), 'log.ndjson')).toThrow(/^log\.ndjson: capture log line 3: not JSON \(.*\) — the line holds bytes that are not UTF-8 \(the first: 0xE9, byte 17 of the line, file offset \d+\)$/);
    const badBase64 = Uint8Array.from([...enc.encode('{"kind":"chunk","conn":"c","t":1,"bytes":3,"base64":"QU'), 0x80, ...enc.encode('J"}')]);
    expect(() => loadInput(file(header, conn, badBase64), 'log.ndjson')).toThrow(/line 3: chunk\.base64: expected standard base64 .* — the line holds bytes that are not UTF-8, read as U\+FFFD \(the first: 0x80, /);
  });

  it('no note where nothing is lost: U+FFFD written as UTF-8, a record of a kind skipped, a last line cut inside a character', () => {
    const fffd = JSON.stringify({ kind: 'chunk', conn: 'c', t: 1, bytes: 3, text: '\ufffd' });
    expect(notes(loadInput(file(header, conn, fffd, end), 'log.ndjson'))).toEqual([]);
    const future = Uint8Array.from([...enc.encode('{"kind":"bookmark","x":"'), 0xe9, ...enc.encode('"}')]);
    expect(notes(loadInput(file(header, conn, future, end), 'log.ndjson'))).toEqual([[undefined, expect.stringMatching(/^1 record of a kind this version does not know/)]]);
    const whole = file(header, conn, JSON.stringify({ kind: 'chunk', conn: 'c', t: 1, bytes: 2, text: 'é' }));
    const cutInCharacter = whole.subarray(0, whole.indexOf(0xc3) + 1); // the file ends after é's first byte
    expect(notes(loadInput(cutInCharacter, 'log.ndjson'))).toEqual([['c', expect.stringMatching(/^The capture log ends in the middle of line 3 /)]]);
  });

  it('property: read whole or in slices, the same capture or error, wherever a byte that is not UTF-8 falls', () => {
    fc.assert(fc.property(captureArb, fc.nat(), fc.integer({ min: 0x80, max: 0xff }), fc.array(fc.nat(), { maxLength: 20 }), (capture, at, value, cuts) => {
      const good = enc.encode(writeCaptureLog(capture));
      const i = at % good.length;
      const bytes = Uint8Array.from([...good.subarray(0, i), value, ...good.subarray(i)]);
      expect(inSlices(bytes, cuts.map((c) => c % (bytes.length + 1)))).toEqual(outcome(() => loadInput(bytes, 'log.ndjson')));
    }), { numRuns: 300 });
  });

  it('firstNotUtf8 finds what TextDecoder replaces', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 12 }), (b) => {
      let valid = true;
      try {
        new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b);
      } catch {
        valid = false;
      }
      expect(firstNotUtf8(b) === -1).toBe(valid);
    }), { numRuns: 3000 });
    expect(firstNotUtf8(Uint8Array.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1); // a surrogate's encoding
    expect(firstNotUtf8(Uint8Array.from([0x61, 0xe2, 0x82]))).toBe(1); // cut short
  });
});

// One JSON document read whole (a HAR, events) is decoded whole: bytes there that are not UTF-8 were mended into
// U+FFFD without a word too. (An SSE or NDJSON body keeps its bytes: stream.invalid-utf8 tells them.)
describe('a HAR or JSON events file with bytes that are not UTF-8', () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
  const pageNotes = (c: Capture) => c.records.filter((r) => r.kind === 'notice' && r.conn === undefined).map((r) => r.kind === 'notice' && r.text);

  it('is read with a warning above the connections, naming the first such byte', () => {
    const events = latin1('[{"type":"REPLY_START","name":"café"}]');
    expect(pageNotes(loadInput(events, 'events.json'))).toEqual(['This JSON file holds bytes that are not UTF-8 (the first, on line 1: 0xE9, byte 35 of the line, file offset 34): ' +
      'they were read as U+FFFD (\ufffd), and what they were is lost. JSON is UTF-8 text: the file was damaged, or saved in another encoding, after it was written.']);
    const body = 'data: {"type":"x","name":"café"}\n\n';
    const har = latin1(JSON.stringify({ log: { version: '1.2', entries: [{ startedDateTime: '2026-01-01T00:00:00Z', time: 1,
      request: { method: 'GET', url: 'https://a.test/s', headers: [] },
      response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream; charset=utf-8' }], content: { size: 34, mimeType: 'text/event-stream', text: body } } }] } }, null, 1));
    expect(pageNotes(loadInput(har, 'x.har'))).toEqual([expect.stringMatching(/^This HAR file holds bytes that are not UTF-8 \(the first, on line 24: 0xE9, byte 52 of the line, file offset 499\)/)]);
    expect(pageNotes(loadInput(enc.encode(JSON.stringify([{ type: 'x', name: 'café' }])), 'ok.json'))).toEqual([]); // UTF-8: nothing to say
  });
});

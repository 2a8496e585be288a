// A capture log read in slices (CaptureLogStream: bytes decoded as they come, cut into lines) gives what loadInput
// gives for the whole file — the capture, or the same error on the same line — wherever the slices are cut (inside a
// character, between a CR and its LF), and for the damage the reader forgives or names: a BOM, CRLF line ends, blank
// lines, a last line cut short, an unknown record kind, a line that is not JSON, a blank first line.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CaptureLogStream, startsAsCaptureLog } from '../../../src/core/capture/capture-log-stream.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';
import { captureArb } from './arbitraries.ts';
import { cut, utf8 } from '../frames/helpers.ts';

/** What reading gives: the capture, or the error's message and line. */
function outcome(read: () => unknown): unknown {
  try {
    return { capture: read() };
  } catch (e) {
    return { error: (e as Error).message, line: (e as { line?: number }).line, name: (e as Error).name };
  }
}

function inSlices(bytes: Uint8Array, cuts: number[]): unknown {
  return outcome(() => {
    const stream = new CaptureLogStream('log.ndjson');
    for (const slice of cut(bytes, cuts)) stream.push(slice);
    return stream.end();
  });
}

/** Ways a file of ours gets damaged or rewritten on its way (an editor, Windows, a cut download, a newer writer). */
const damage = fc.constantFrom<(text: string, at: number) => string>(
  (t) => t,
  (t) => t.replace(/\n/g, '\r\n'),
  (t) => `\ufeff${t}`,
  (t) => `\ufeff\ufeff${t}`,
  (t) => `${t}\n\n  \n`,
  (t) => t.trimEnd(),
  (t, at) => t.slice(0, Math.max(1, at % t.length)), // cut anywhere (a download broken off)
  (t, at) => `${t.slice(0, Math.max(1, at % t.length))}\n`,
  (t, at) => { const lines = t.split('\n'); lines.splice(1 + (at % lines.length), 0, ''); return lines.join('\n'); },
  (t, at) => { const lines = t.split('\n'); lines.splice(1 + (at % lines.length), 0, '{"kind":"future","x":1}'); return lines.join('\n'); },
  (t, at) => { const lines = t.split('\n'); lines.splice(1 + (at % lines.length), 0, '{not json'); return lines.join('\n'); },
  (t) => `\n${t}`,
  (t) => `${t}{not json\n   `, // a last line that is not JSON, ended: an error, not a cut
  (t) => `${t}{"kind":"header","format":"replyscope-capture","version":1,"tool":"x","created":"2026-01-01T00:00:00Z"}\n`,
);

describe('a capture log read in slices', () => {
  it('property: gives what loadInput gives for the whole file — capture or error — wherever the slices are cut', () => {
    fc.assert(fc.property(captureArb, damage, fc.nat(), fc.array(fc.nat(), { maxLength: 30 }), (capture, hurt, at, cuts) => {
      const bytes = utf8(hurt(writeCaptureLog(capture), at));
      if (!startsAsCaptureLog(bytes)) return; // (read whole by the panel: not a capture log's start)
      expect(inSlices(bytes, cuts.map((c) => c % (bytes.length + 1)))).toEqual(outcome(() => loadInput(bytes, 'log.ndjson')));
    }), { numRuns: 1500 });
  });

  it('one byte at a time: a character, a CRLF and the BOM all cut in two', () => {
    const text = `\ufeff${writeCaptureLog({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-01-01T00:00:00.000Z' },
      records: [
        { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'GET', url: 'https://x.example/é', requestHeaders: [], startTime: 1 },
        { kind: 'chunk', conn: 'c', t: 2, bytes: 11, text: 'data: 🙂\n' },
      ],
    }).replace(/\n/g, '\r\n')}`;
    const bytes = utf8(text);
    const every = Array.from({ length: bytes.length }, (_, i) => i);
    expect(inSlices(bytes, every)).toEqual(outcome(() => loadInput(bytes, 'log.ndjson')));
    expect((inSlices(bytes, every) as { capture: { records: unknown[] } }).capture.records).toHaveLength(2);
  });

  it('a last line that is not JSON is a cut only when the file does not end in a line end — also when that end comes in a slice of its own', () => {
    const log = writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-01-01T00:00:00.000Z' }, records: [] });
    const ended = utf8(`${log}{"kind":"conn\n  `);
    const tail = ended.length - 3; // the slices: everything up to the line end, then "\n  " alone
    expect(inSlices(ended, [tail])).toEqual(outcome(() => loadInput(ended, 'log.ndjson')));
    expect(inSlices(ended, [tail])).toMatchObject({ error: expect.stringMatching(/^log\.ndjson: capture log line 2: not JSON/) });
    const cutShort = utf8(`${log}{"kind":"conn`);
    expect(inSlices(cutShort, [cutShort.length - 2])).toMatchObject({ capture: { records: [expect.objectContaining({ kind: 'notice', text: expect.stringMatching(/cut short/) })] } });
  });

  it('what is not a capture log at its start is left to loadInput: other JSON, SSE, UTF-16, gzip, blank text', () => {
    const log = writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-01-01T00:00:00.000Z' }, records: [] });
    expect(startsAsCaptureLog(utf8(log))).toBe(true);
    expect(startsAsCaptureLog(utf8(`{"log":{"version":"1.2","entries":[]}}`))).toBe(false);
    expect(startsAsCaptureLog(utf8('data: {"type":"x"}\n\n'))).toBe(false);
    expect(startsAsCaptureLog(Uint8Array.from([0xff, 0xfe, ...[...log].flatMap((c) => [c.charCodeAt(0), 0])]))).toBe(false);
    expect(startsAsCaptureLog(Uint8Array.from([0x1f, 0x8b, ...utf8(log)]))).toBe(false);
    expect(startsAsCaptureLog(utf8('  \n\n'))).toBe(false);
    // A head cut inside a character still reads as the capture log it starts.
    expect(startsAsCaptureLog(utf8(`${log.trimEnd().slice(0, -2)}é"}\n`).subarray(0, utf8(log).length))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { PiByteReader, classifyPiLine, initialPiReader, piHttpFailure, readPiText } from '../../../src/core/pi/client-reading.ts';

describe('pi client reading', () => {
  it('splits on \\n only, keeps the unfinished tail, and only takes "data: " lines', () => {
    let state = initialPiReader;
    const r1 = readPiText(state, 'data: {"a":1}\r\n\r\ndata:{"b":2}\nevent: x\ndata:  ');
    state = r1.state;
    expect(r1.lines.map((l) => [l.data, l.ignored, l.specDataWithoutSpace])).toEqual([
      ['{"a":1}', undefined, undefined],
      [undefined, 'not-data', undefined],
      [undefined, 'not-data', true],
      [undefined, 'not-data', undefined],
    ]);
    expect(state.buffer).toBe('data:  ');
    const r2 = readPiText(state, '\ndata: {"c":3}');
    expect(r2.lines.map((l) => l.ignored)).toEqual(['empty-data']);
    expect(r2.state.buffer).toBe('data: {"c":3}');
    expect(r2.lines[0].index).toBe(4);
  });

  it('treats upper-case and indented fields as non-data, trims the payload', () => {
    expect(classifyPiLine('DATA: {}', 0).ignored).toBe('not-data');
    expect(classifyPiLine(' data: {}', 0).ignored).toBe('not-data');
    expect(classifyPiLine('data:   {} \t\r', 0).data).toBe('{}');
  });

  it('decodes multi-byte characters split across chunks and drops a leading BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFFdata: {"d":"é😀"}\n');
    const reader = new PiByteReader();
    const lines = [...bytes].flatMap((b) => reader.push(Uint8Array.of(b)));
    expect(lines.map((l) => l.data)).toEqual(['{"d":"é😀"}']);
    expect(reader.pending).toBe('');
  });

  it('builds the reference HTTP error messages', () => {
    expect(piHttpFailure({ status: 200 })).toBeUndefined();
    expect(piHttpFailure({ status: 502, statusText: 'Bad Gateway', bodyText: '{"error":"boom"}' })).toBe('Proxy error: boom');
    expect(piHttpFailure({ status: 500, statusText: 'Internal Server Error', bodyText: 'kaboom' })).toBe(
      'Proxy error: 500 Internal Server Error',
    );
    expect(piHttpFailure({ status: 400, statusText: '', bodyText: 'null' })).toBe('Proxy error: 400 ');
    expect(piHttpFailure({ status: 401, statusText: 'Unauthorized', bodyText: '{"error":""}' })).toBe(
      'Proxy error: 401 Unauthorized',
    );
    expect(piHttpFailure({ status: 204 })).toMatch(/getReader/);
  });
});

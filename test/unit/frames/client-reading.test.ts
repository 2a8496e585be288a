import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AgentScopeClientReader } from '../../../src/core/frames/client-reading.ts';
import { FRAME_DIAGNOSTIC_DOCS } from '../../../src/core/frames/diagnostic-docs.ts';
import { chunkTexts, readSse } from '../../../src/core/frames/read-body.ts';
import { cut, cutsFor, toRecords, utf8 } from './helpers.ts';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const conformance = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..', '../shared/conformance');

const read = (text: string) => readSse([{ text, t: 1 }], { ended: true, client: 'agentscope' });
const codes = (text: string) => read(text).diagnostics.map((d) => [d.code, d.index]);

describe('AgentScope client reading', () => {
  it('yields one JSON event per "data: " line, trimmed, skipping everything else', () => {
    const c = new AgentScopeClientReader();
    c.push(': ping\nevent: x\ndata:  {"a":1}  \r\ndata:{"b":2}\ndata: \ndata: {"c"', 1);
    c.push(':3}\n', 2);
    expect(c.lines.filter((l) => l.kind === 'event').map((l) => [l.json, l.t])).toEqual([
      ['{"a":1}', 1],
      ['{"c":3}', 2],
    ]);
    expect(c.lines.map((l) => l.kind)).toEqual(['event', 'data-no-space', 'empty-data', 'event']);
    c.push('data: {"d":4}', 3);
    expect(c.finish()).toEqual({ unread: 'data: {"d":4}', start: expect.any(Number) });
  });

  it('reads the raw pi conformance bodies as the real pi streamProxy did (same line reading)', () => {
    const dir = path.join(conformance, 'pi');
    const raw = readdirSync(path.join(dir, 'cases')).filter((f) => JSON.parse(readFileSync(path.join(dir, 'cases', f), 'utf8')).raw);
    expect(raw.length).toBeGreaterThanOrEqual(3);
    for (const file of raw) {
      const c = JSON.parse(readFileSync(path.join(dir, 'cases', file), 'utf8'));
      const expected: string[] = JSON.parse(readFileSync(path.join(dir, 'expected', file), 'utf8')).events;
      const reader = new AgentScopeClientReader();
      (c.raw as string[]).forEach((chunk, k) => reader.push(chunk, k));
      const yielded = reader.lines.filter((l) => l.kind === 'event');
      const read = reader.stoppedAt === undefined ? yielded : yielded.filter((l) => l.start < reader.lines[reader.stoppedAt as number].start);
      const types = read.map((l) => JSON.parse(l.json as string).type);
      // a JSON.parse failure ends the real client with one 'error' event
      expect(reader.stoppedAt === undefined ? types : [...types, 'error'], file).toEqual(expected);
    }
  });

  it('agrees with the spec on ordinary streams (LF and CRLF, heartbeats, ids)', () => {
    expect(codes(': hb\n\nid: 1\ndata: {"a":1}\n\ndata: {"b":2}\r\n\r\ndata:\n\n')).toEqual([]);
  });

  it('flags every kind of disagreement on the frame it concerns', () => {
    expect(codes('data:{"a":1}\n\n')).toEqual([['sse.client-drops-frame', 0]]);
    expect(codes('data: {"a":1}\ndata: {"b":2}\n\n')).toEqual([['sse.client-splits-multiline-data', 0]]);
    expect(codes('data: {"a":\ndata: 1}\n\n')[0]).toEqual(['sse.client-json-error', 0]);
    expect(codes('data: {"a":1}\ndata:{"b":2}\n\n')).toEqual([['sse.client-misreads-frame', 0]]);
    expect(codes('event: ping\ndata: {"a":1}\n\n')).toEqual([['sse.client-ignores-event-name', 0]]);
    expect(codes('data: {"a":1}\r\rdata: {"b":2}\r\r')).toEqual([['sse.client-cr-line-endings', 0], ['sse.client-cr-line-endings', 1]]);
    expect(codes('data: {"a":1}\n\ndata: {"b":2}\n')).toEqual([['sse.client-reads-unterminated-frame', 1]]);
    expect(codes('data: {"a":1}\n\ndata: {"b":2}')).toEqual([['sse.unterminated-final-line', 1]]);
  });

  it('stops reading after a JSON.parse failure, and notes the frames it never reads', () => {
    const r = read('data: nope\n\ndata: {"a":1}\n\ndata:{"b":2}\n\n');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['sse.client-json-error']);
    expect(r.frames.map((f) => f.clientNote ?? '')).toEqual([
      'client: JSON.parse throws here, reading stops',
      'never read: the client stopped at frame 0 (JSON.parse threw)',
      'never read: the client stopped at frame 0 (JSON.parse threw)',
    ]);
  });

  it('documents every code it can emit', () => {
    const documented = new Set(FRAME_DIAGNOSTIC_DOCS.map((d) => d.code));
    const emitted = new Set<string>();
    for (const body of ['data:{"a":1}\n\n', 'data: {"a":1}\ndata: {"b":2}\n\n', 'data: x\n\n', 'data: {"a":1}\ndata:{"b":2}\n\n',
      'event: e\ndata: {"a":1}\n\n', 'data: {"a":1}\r\r', 'data: {"a":1}\n', 'data: {"a":1}\n\ndata: 1', 'daat: 1\n\n']) {
      for (const d of read(body).diagnostics) emitted.add(d.code);
    }
    for (const code of emitted) expect(documented.has(code), code).toBe(true);
    for (const doc of FRAME_DIAGNOSTIC_DOCS) {
      expect(doc.code.startsWith('sse.')).toBe(true);
      expect(emitted.has(doc.code), `${doc.code} is documented but never emitted`).toBe(true);
    }
  });

  it('property: the comparison does not depend on chunking', () => {
    const value = fc.constantFrom('{"a":1}', '{"t":"é😀"}', 'oops', '', ' {"b":[1,2]} ');
    const line = fc.oneof(value.map((v) => `data: ${v}`), value.map((v) => `data:${v}`), fc.constantFrom('event: x', ': c', 'id: 1', ''));
    const body = fc.tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n', '\r')), { maxLength: 10 }), fc.constantFrom('', '\n', '\n\n'))
      .map(([ls, end]) => ls.map(([l, e]) => l + e).join('') + end);
    fc.assert(
      fc.property(body.chain((b) => fc.tuple(fc.constant(b), cutsFor(utf8(b).length))), ([text, cuts]) => {
        const whole = read(text);
        const split = readSse(chunkTexts(toRecords(cut(utf8(text), cuts))), { ended: true, client: 'agentscope' });
        expect(split.diagnostics.map((d) => [d.code, d.index])).toEqual(whole.diagnostics.map((d) => [d.code, d.index]));
        expect(split.frames.map((f) => f.clientNote)).toEqual(whole.frames.map((f) => f.clientNote));
      }),
      { numRuns: 200 },
    );
  });
});

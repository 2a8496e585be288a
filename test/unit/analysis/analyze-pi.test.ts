import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { captureOf, cut, loadCases, sseBody } from './support.ts';

// A captured pi proxy response (request body + SSE bytes) must reconstruct the message pi-agent-core's streamProxy
// ended with, whatever the chunking — the analysis reads the body as the client does.

function stripTimestamp(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripTimestamp);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'timestamp').map(([k, x]) => [k, stripTimestamp(x)]));
  }
  return v;
}

describe('analysis of pi proxy streams reproduces streamProxy', () => {
  for (const c of loadCases('pi')) {
    if (c.input.http || c.input.abort || c.expected.final === null) continue;
    it(`${c.name}: final message, any chunking`, () => {
      const text = Array.isArray(c.input.raw) ? c.input.raw.join('') : sseBody(c.input.events);
      const body = new TextEncoder().encode(text);
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 10 }), (cuts) => {
          const [conn] = analyzeCapture({
            header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
            records: captureOf(cut(body, cuts), { requestBody: c.input.client }),
          });
          expect(conn.dialect).toBe('pi-proxy');
          expect(conn.replies).toHaveLength(1);
          const h = conn.replies[0].history;
          expect(stripTimestamp(h.at(h.length - 1))).toEqual(stripTimestamp(c.expected.final));
        }),
        { seed: 7, numRuns: 6 },
      );
    });
  }

  it('reports a response that never settles', () => {
    const body = new TextEncoder().encode(sseBody([{ type: 'start' }, { type: 'text_start', contentIndex: 0 }]));
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([body], { requestBody: { model: { api: 'a', provider: 'p', id: 'm' } } }),
    });
    expect(conn.diagnostics.map((d) => d.code)).toContain('pi.no-terminal');
  });
});

describe('the response head of a pi stream', () => {
  it('a 2xx answer the client refuses (204) is explained at the first event', () => {
    const withEvent = captureOf([new TextEncoder().encode(sseBody([{ type: 'start' }]))], { requestBody: { model: { api: 'a', provider: 'p', id: 'm' } } });
    (withEvent[0] as { status?: number }).status = 204;
    const [view] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: withEvent });
    expect(view.diagnostics.some((d) => d.code.startsWith('pi.') && d.severity === 'error' && d.index === 0)).toBe(true);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
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
  let stepsChecked = 0;
  afterAll(() => expect(stepsChecked).toBeGreaterThan(20)); // most cases have one step per frame, all in the reply
  for (const c of loadCases('pi')) {
    if (c.input.http || c.input.abort || c.expected.final === null) continue;
    it(`${c.name}: every step and the final message, any chunking`, () => {
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
          // Every step, seeked from the last to the first (each a replay from the start or a checkpoint, not the
          // cursor), is the message the client held after that frame.
          if (h.length === c.expected.steps.length) {
            for (let k = h.length - 1; k >= 0; k--) expect(stripTimestamp(h.at(k)), `step ${k}`).toEqual(stripTimestamp(c.expected.steps[k]));
            stepsChecked++;
          }
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

  it('a pi stream its client reads nothing of ("data:" without a space) is told about pi\'s client, not AgentScope\'s', () => {
    const lines = [{ type: 'start' }, { type: 'text_start', contentIndex: 0 }, { type: 'text_delta', contentIndex: 0, delta: 'hi' }];
    const body = new TextEncoder().encode(lines.map((e) => `data:${JSON.stringify(e)}\n\n`).join(''));
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([body], { requestBody: { model: { api: 'a', provider: 'p', id: 'm' } } }),
    });
    expect(conn.events).toHaveLength(0);
    const drops = conn.diagnostics.filter((d) => d.code === 'sse.client-drops-frame');
    expect(drops.map((d) => d.frame)).toEqual([0, 1, 2]);
    for (const d of drops) expect(d.message).toContain("pi-agent-core's streamProxy only reads lines");
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

describe('analysis of pi assistant-form streams (each event carries the message so far)', () => {
  it('every step seeks to the message its event carried', () => {
    const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const msg = (text: string | undefined, stopReason = 'stop') => ({
      role: 'assistant', content: text === undefined ? [] : [{ type: 'text', text }], api: 'a', provider: 'p', model: 'm', usage, stopReason, timestamp: 1,
    });
    const events: Record<string, unknown>[] = [{ type: 'start', partial: msg(undefined) }, { type: 'text_start', contentIndex: 0, partial: msg('') }];
    let text = '';
    for (let i = 0; i < 40; i++) {
      text += `w${i} `;
      events.push({ type: 'text_delta', contentIndex: 0, delta: `w${i} `, partial: msg(text) });
    }
    events.push({ type: 'text_end', contentIndex: 0, content: text, partial: msg(text) }, { type: 'done', reason: 'stop', message: msg(text) });
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(sseBody(events))]),
    });
    expect(conn.dialect).toBe('pi-assistant');
    const h = conn.replies[0].history;
    expect(h.length).toBe(events.length);
    for (let k = h.length - 1; k >= 0; k--) {
      const e = events[k];
      expect(h.at(k), `step ${k}`).toEqual(e.partial ?? e.message);
    }
  });
});

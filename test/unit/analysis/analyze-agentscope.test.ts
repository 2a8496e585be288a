import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { normaliseCaseMessage } from '../../../src/core/agentscope/conformance.ts';
import type { Msg } from '../../../src/core/agentscope/blocks.ts';
import { captureOf, cut, loadCases, sseBody } from './support.ts';

// The analysis pipeline (bytes → frames → client lines → validation → replies → history) must reconstruct what the
// reference's append_event produced for every conformance case, however the body was chunked on the wire.

/** Generated ids/timestamps differ by design (the reference uses uuid4/now): normalise them as the expected files do. */
function normaliseGenerated(v: unknown, key?: string): unknown {
  if (Array.isArray(v)) return v.map((x) => normaliseGenerated(x));
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = normaliseGenerated(x, k);
    if (o.type === 'hint' && typeof o.finished_at === 'string') out.finished_at = '<generated-ts>';
    return out;
  }
  if (key === 'id' && typeof v === 'string' && /^gen-\d+-\d+$/.test(v)) return '<generated-id>';
  return v;
}

// role_user: the web UI always starts an AssistantMsg (the case starts a UserMsg, whose finished_at differs).
const SKIP = new Set(['role_user']);

describe('analysis of AgentScope streams reproduces the reference', () => {
  for (const c of loadCases('agentscope')) {
    if (SKIP.has(c.name)) continue;
    it(`${c.name}: final message of the reply, any chunking`, () => {
      const body = new TextEncoder().encode(sseBody(c.input.events));
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
          const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf(cut(body, cuts)) });
          expect(conn.dialect).toBe('agentscope');
          expect(conn.events).toHaveLength(c.input.events.length);
          const reply = conn.replies.find((r) => r.id === c.input.reply.id);
          const expectedFinal = c.expected.final;
          if (!reply) {
            // No event of the case reached the reply: the reference message stayed as it started.
            expect(expectedFinal.content).toEqual([]);
            return;
          }
          const final = reply.history.at(reply.history.length - 1) as Msg;
          const got = normaliseGenerated(normaliseCaseMessage(final, false)) as Record<string, unknown>;
          const want = { ...expectedFinal };
          delete want.created_at;
          delete got.created_at;
          expect(got).toEqual(want);
          // Every step seeks to the message the reference had after the same event.
          c.expected.step_indices.forEach((eventIndex: number, k: number) => {
            const step = reply.eventIndices.indexOf(eventIndex);
            if (step === -1) return; // the event belongs to another reply (or none)
            const msg = normaliseGenerated(normaliseCaseMessage(reply.history.at(step) as Msg, false)) as Record<string, unknown>;
            delete msg.created_at;
            const exp = { ...c.expected.steps[k] };
            delete exp.created_at;
            expect(msg).toEqual(exp);
          });
          // Every warned/error/invalid status of the reference surfaces as a diagnostic at that event.
          c.expected.status.forEach((s: string, i: number) => {
            if (s === 'warned' || s === 'error' || s === 'invalid') {
              expect(conn.diagnostics.some((d) => d.index === i), `status ${s} at ${i}`).toBe(true);
            }
          });
        }),
        { seed: 42, numRuns: 8 },
      );
    });
  }
});

describe('analysis of edge cases where JSON.parse and pydantic part ways reproduces the reference', () => {
  // ../agentscope/fixtures/reference-edge-cases.json: events given as strings are wire text (a literal such as 1e19
  // must reach the analysis as written).
  const file = path.join(import.meta.dirname, '../agentscope/fixtures/reference-edge-cases.json');
  const cases = JSON.parse(readFileSync(file, 'utf8')) as { case: { description: string; events: unknown[] }; expected: { final: Record<string, unknown>; invalid: number[] } }[];
  for (const { case: c, expected } of cases) {
    it(c.description, () => {
      const body = c.events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
      const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf([new TextEncoder().encode(body)]) });
      expect(conn.events.filter((e) => !e.valid).map((e) => e.index)).toEqual(expected.invalid);
      const reply = conn.replies.find((r) => r.id === 'r1');
      const got = normaliseGenerated(normaliseCaseMessage(reply?.history.at(reply.history.length - 1) as Msg, false)) as Record<string, unknown>;
      const want = { ...expected.final };
      // The stream has no REPLY_START: the case names the reply, the stream does not.
      for (const k of ['created_at', 'name']) {
        delete want[k];
        delete got[k];
      }
      expect(got).toEqual(want);
    });
  }
});

describe('reply timing', () => {
  it('a reply never started in the stream (an orphan) has no time to first token: when it began is not known', () => {
    const ev = (type: string, extra: Record<string, unknown>) => ({ id: `e-${type}`, created_at: '2026-12-01T00:00:00', metadata: {}, type, ...extra });
    const started = [ev('REPLY_START', { reply_id: 'r1', session_id: 's', name: 'a' }), ev('TEXT_BLOCK_START', { reply_id: 'r1', block_id: 'b' }), ev('TEXT_BLOCK_DELTA', { reply_id: 'r1', block_id: 'b', delta: 'hi' })];
    const orphan = [ev('TEXT_BLOCK_DELTA', { reply_id: 'r0', block_id: 'x', delta: 'late' })];
    const chunks = [...orphan, ...started].map((e) => new TextEncoder().encode(sseBody([e])));
    const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf(chunks) });
    const byId = new Map(conn.replies.map((r) => [r.id, r]));
    expect(byId.get('r0')).toMatchObject({ orphan: true });
    expect(byId.get('r0')!.timeToFirstTokenMs).toBeUndefined();
    expect(byId.get('r1')!.timeToFirstTokenMs).toBeTypeOf('number');
  });

  it('the first token is the first delta the message shows: one the reference drops (before its block started) is none', () => {
    const ev = (type: string, extra: Record<string, unknown>) => ({ id: `e-${type}`, created_at: '2026-12-01T00:00:00', metadata: {}, type, reply_id: 'r1', ...extra });
    const events = [ev('REPLY_START', { session_id: 's', name: 'a' }), ev('TEXT_BLOCK_DELTA', { block_id: 'b', delta: 'early' }),
      ev('TEXT_BLOCK_START', { block_id: 'b' }), ev('TEXT_BLOCK_DELTA', { block_id: 'b', delta: 'shown' })];
    const chunks = events.map((e) => new TextEncoder().encode(sseBody([e]))); // arriving 1 ms apart
    const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf(chunks) });
    expect(conn.diagnostics.map((d) => d.code)).toContain('as.delta-before-start');
    expect(conn.replies[0].timeToFirstTokenMs).toBe(3); // was 1: the dropped delta
  });

  it('bytes that are not UTF-8 are told where the page reads U+FFFD; a character split across chunks is not', () => {
    const ev = (type: string, extra: Record<string, unknown>) => ({ id: `e-${type}`, created_at: '2026-12-01T00:00:00', metadata: {}, type, reply_id: 'r1', ...extra });
    const body = new TextEncoder().encode(sseBody([ev('REPLY_START', { session_id: 's', name: 'a' }), ev('TEXT_BLOCK_START', { block_id: 'b' }),
      ev('TEXT_BLOCK_DELTA', { block_id: 'b', delta: 'hi 😀 there' }), ev('TEXT_BLOCK_END', { block_id: 'b' })]));
    const at = body.indexOf(0xf0); // the emoji's first byte
    const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
    const split = analyzeCapture({ header, records: captureOf([body.subarray(0, at + 2), body.subarray(at + 2)]) })[0];
    expect(split.diagnostics.map((d) => d.code)).not.toContain('stream.invalid-utf8');
    const cut = new Uint8Array([...body.subarray(0, at + 2), ...body.subarray(at + 4)]); // two of its four bytes lost
    const broken = analyzeCapture({ header, records: captureOf([cut.subarray(0, 40), cut.subarray(40)]) })[0];
    const d = broken.diagnostics.find((x) => x.code === 'stream.invalid-utf8');
    expect(d).toMatchObject({ severity: 'warning', index: 2 });
    expect(broken.events[2].rawText).toContain('\ufffd');
  });
});

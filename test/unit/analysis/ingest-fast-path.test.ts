// Ingest applies the common events to a working message in place (agentscope/working-msg.ts) and snapshots it only at
// checkpoints. Whatever path each event took, every reply must come out exactly as the pure reference path gives it:
// parse each event's text on its own (parseWireEvent), route it with AgentScopeReplies and apply it with the pure
// `applyEvent` — same steps, same statuses, and the same message at every step (`history.at(k)`), however the body
// was chunked. The streams mix valid replies with what sends events off the in-place path (missing STARTs, events
// without created_at, foreign reply ids, repeated ends, empty deltas, invalid events).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextFor } from '../../../src/core/analysis/agentscope-stream.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { Msg } from '../../../src/core/agentscope/blocks.ts';
import { AgentScopeReplies } from '../../../src/core/agentscope/replies.ts';
import { parseWireEvent } from '../../../src/core/agentscope/schema.ts';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import { agentScopeStreamArb } from '../../fuzz/agentscope-gen.ts';
import { captureOf, cut, sseBody } from './support.ts';

type Op = { kind: 'drop' | 'dup' | 'no-created-at' | 'foreign' | 'invalid' | 'empty-delta'; at: number };
const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constantFrom('drop', 'dup', 'no-created-at', 'foreign', 'invalid', 'empty-delta'), at: fc.nat() });

function disturb(events: Record<string, unknown>[], ops: Op[]): Record<string, unknown>[] {
  const out = events.map((e) => ({ ...e }));
  for (const op of ops) {
    if (out.length === 0) break;
    const i = op.at % out.length;
    const e = out[i];
    if (op.kind === 'drop') out.splice(i, 1);
    else if (op.kind === 'dup') out.splice(i, 0, { ...e });
    else if (op.kind === 'no-created-at') delete e.created_at;
    else if (op.kind === 'foreign') e.reply_id = 'elsewhere';
    else if (op.kind === 'invalid') e.delta = 42;
    else if (typeof e.delta === 'string') e.delta = '';
  }
  return out;
}

interface RefReply {
  initial: Msg;
  steps: number[];
  status: string[];
  msgs: Msg[];
}

/** The pure path over the events the analysis read (same texts, same arrival times, same generated-id clock). */
function reference(view: ConnectionView): Map<string, RefReply> {
  const groups = new AgentScopeReplies();
  const out = new Map<string, RefReply>();
  const step = (id: string, index: number, status: string, msg: Msg) => {
    const group = groups.get(id) as { initial: Msg };
    let r = out.get(id);
    if (!r) out.set(id, (r = { initial: group.initial, steps: [], status: [], msgs: [] }));
    r.steps.push(index);
    r.status.push(status);
    r.msgs.push(msg);
  };
  for (const ev of view.events) {
    const parsed = parseWireEvent(ev.rawText);
    if (parsed.ok) {
      const pushed = groups.push(parsed.event, ev.index, contextFor(ev.index, ev.t));
      if (pushed.kind === 'reply') step(pushed.replyId, ev.index, pushed.outcome.status, pushed.outcome.msg);
    } else {
      const named = (ev.raw as { reply_id?: unknown } | undefined)?.reply_id;
      const group = typeof named === 'string' ? groups.get(named) : undefined;
      if (group) step(group.id, ev.index, 'invalid', group.msg);
    }
  }
  return out;
}

describe('in-place ingest gives the replies of the pure reducer', () => {
  it('same steps, statuses and message at every step, any chunking', () => {
    let steps = 0;
    fc.assert(
      fc.property(agentScopeStreamArb, fc.array(opArb, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 10 }), (stream, ops, cuts) => {
        const body = new TextEncoder().encode(sseBody(disturb(stream.events, ops)));
        const [view] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf(cut(body, cuts)) });
        const ref = reference(view);
        expect(view.replies.map((r) => r.id).sort()).toEqual([...ref.keys()].sort());
        for (const r of view.replies) {
          const want = ref.get(r.id) as RefReply;
          expect(r.eventIndices).toEqual(want.steps);
          expect(r.stepStatus).toEqual(want.status);
          expect(r.history.initial).toEqual(want.initial);
          // Backwards, so each seek starts from a checkpoint rather than the cursor of the previous one.
          for (let k = r.history.length - 1; k >= 0; k--) expect(r.history.at(k), `${r.id} step ${k}`).toEqual(want.msgs[k]);
          steps += r.history.length;
        }
      }),
      { seed: 20261130, numRuns: 150 },
    );
    expect(steps).toBeGreaterThan(3000); // the streams are long enough to cross checkpoints
  });

  it('a chunk text with a raw lone surrogate (an edited log) still makes that event invalid, as the wire parser would', () => {
    // The reader checks well-formedness once per chunk; an event in a chunk that is not well-formed is checked alone.
    const start = { type: 'REPLY_START', id: 'e0', created_at: '2026-03-01T09:00:00', metadata: {}, reply_id: 'r', session_id: 's', name: 'F', role: 'assistant' };
    const open = { type: 'TEXT_BLOCK_START', id: 'e1', created_at: '2026-03-01T09:00:01', metadata: {}, reply_id: 'r', block_id: 'b' };
    const delta = (d: string, i: number) => `data: {"type":"TEXT_BLOCK_DELTA","id":"e${i}","created_at":"2026-03-01T09:00:0${i}","metadata":{},"reply_id":"r","block_id":"b","delta":"${d}"}\n\n`;
    const records = captureOf([new TextEncoder().encode(sseBody([start, open]) + delta('ok', 2))]);
    const end = records.pop() as (typeof records)[number];
    records.push({ kind: 'chunk', conn: 'c1', t: 1_500, bytes: 10, text: delta('bad\ud800', 3) + delta('fine', 4) }, end);
    const [view] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records });
    expect(view.events.map((e) => e.valid)).toEqual([true, true, true, false, true]);
    expect(view.events[3].issues[0].message).toMatch(/lone surrogate/);
    const [reply] = view.replies;
    expect(reply.stepStatus).toEqual(['unchanged', 'changed', 'changed', 'invalid', 'changed']);
    expect((reply.history.at(4) as Msg).content[0]).toMatchObject({ text: 'okfine' });
  });
});

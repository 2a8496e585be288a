// The in-place ingest path (WorkingMsg) against the pure reducer: after every event the working message equals the
// message `applyEvent` gives, and every snapshot handed out stays exactly as it was when taken, whatever is written
// afterwards (the history's checkpoints and `at(n-1)` are such snapshots).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEvent, type ApplyContext } from '../../../src/core/agentscope/append-event.ts';
import type { Msg } from '../../../src/core/agentscope/blocks.ts';
import { AssistantMsg } from '../../../src/core/agentscope/message.ts';
import type { AgentEvent } from '../../../src/core/agentscope/schema.ts';
import { validateEvent } from '../../../src/core/agentscope/schema.ts';
import { MsgPatch, WorkingMsg } from '../../../src/core/agentscope/working-msg.ts';
import { CheckpointedHistory } from '../../../src/core/history/seekable-history.ts';

const R = 'reply-1';
const ctxFor = (i: number): ApplyContext => {
  let n = 0;
  return { now: () => `2026-03-01T09:00:00.${String(i).padStart(6, '0')}`, newId: () => `gen-${i}-${n++}`, eventTime: 'ARRIVAL' };
};

// Few ids so that deltas hit existing blocks, unknown ones, blocks of another kind, repeated starts and ends.
const id = fc.constantFrom('a', 'b', 'c');
const text = fc.constantFrom('', 'x', ' hello', '{"q":', '1}', '🙂');
const created = fc.option(fc.constantFrom('2026-03-01T09:00:01', '2026-03-01T09:00:02', ''), { nil: undefined });
const replyId = fc.constantFrom(R, R, R, R, 'other');

const eventArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constantFrom('TEXT_BLOCK_START', 'THINKING_BLOCK_START', 'TEXT_BLOCK_END', 'THINKING_BLOCK_END'), block_id: id }),
  { weight: 4, arbitrary: fc.record({ type: fc.constantFrom('TEXT_BLOCK_DELTA', 'THINKING_BLOCK_DELTA'), block_id: id, delta: text }) },
  fc.record({ type: fc.constantFrom('TOOL_CALL_START', 'TOOL_RESULT_START'), tool_call_id: id, tool_call_name: fc.constant('search') }),
  { weight: 3, arbitrary: fc.record({ type: fc.constantFrom('TOOL_CALL_DELTA', 'TOOL_RESULT_TEXT_DELTA'), tool_call_id: id, delta: text }) },
  fc.record({ type: fc.constant('TOOL_CALL_END'), tool_call_id: id }),
  fc.record({ type: fc.constant('TOOL_RESULT_END'), tool_call_id: id, state: fc.constantFrom('success', 'error') }),
  fc.record({ type: fc.constant('TOOL_RESULT_DATA_DELTA'), tool_call_id: id, data: fc.constant('YQ=='), media_type: fc.constant('image/png') }),
  fc.record({ type: fc.constant('EXTERNAL_EXECUTION_RESULT'), execution_results: fc.constant([{ id: 'b', name: 'search', output: 'out', state: 'success' }]) }),
  fc.record({ type: fc.constant('MODEL_CALL_END'), input_tokens: fc.nat(9), output_tokens: fc.nat(9) }),
  fc.record({ type: fc.constant('REPLY_END') }),
).chain((e) => fc.record({ reply: replyId, created }).map(({ reply, created: c }) => ({ ...e, reply_id: reply, ...(c !== undefined ? { created_at: c } : {}), ...(e.type === 'REPLY_END' ? { session_id: 's' } : {}) })));

/** Blocks of every kind for the random events to hit (a random stream alone rarely starts the block it names). */
const PRELUDE: Record<string, unknown>[] = [
  { type: 'TEXT_BLOCK_START', block_id: 'a' },
  { type: 'THINKING_BLOCK_START', block_id: 'b' },
  { type: 'TOOL_CALL_START', tool_call_id: 'a', tool_call_name: 'search' },
  { type: 'TOOL_RESULT_START', tool_call_id: 'b', tool_call_name: 'search' },
  { type: 'TOOL_RESULT_TEXT_DELTA', tool_call_id: 'b', delta: 'r' },
].map((e) => ({ ...e, reply_id: R, created_at: '2026-03-01T09:00:00' }));

function validated(raw: Record<string, unknown>): AgentEvent {
  const r = validateEvent(raw);
  if (!r.ok) throw new Error(`generator made an invalid event: ${JSON.stringify(raw)} ${JSON.stringify(r.issues)}`);
  return r.event;
}

const targetOf = (e: AgentEvent) => (e as { block_id?: string; tool_call_id?: string }).block_id ?? (e as { tool_call_id?: string }).tool_call_id;

describe('WorkingMsg: in-place ingest agrees with the pure appendEvent', () => {
  // keyframeBlocks 1: a full checkpoint only every `blocks` checkpoints, so most are patches, chained.
  it.each([16, 1])('after every event, and snapshots and checkpoints never change afterwards (keyframeBlocks %i)', (keyframeBlocks) => {
    let inPlaceTotal = 0;
    let patches = 0;
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 10, maxLength: 60 }), fc.array(fc.constantFrom(0, 0, 1, 2), { minLength: 65, maxLength: 65 }), (raws, takeAt) => {
        const initial = AssistantMsg('Friday', [], { id: R, created_at: 'T0', clock: { now: () => 'T0', newId: () => 'ID' } });
        let pure: Msg = initial;
        const work = new WorkingMsg(initial, { keyframeBlocks });
        const snaps: [Msg, string][] = [];
        const checkpoints: [Msg | MsgPatch, string][] = [];
        [...PRELUDE, ...raws].forEach((raw, i) => {
          const event = validated(raw);
          const outcome = applyEvent(pure, event, ctxFor(i));
          const target = targetOf(event);
          // The analysis routes by reply id: only events of this reply reach the in-place path.
          const status = event.type !== 'CUSTOM' && event.reply_id === R && target !== undefined ? work.applyInPlace(event, target) : undefined;
          if (status === undefined) work.adopt(applyEvent(work.snapshot(), event, ctxFor(i)).msg);
          else {
            inPlaceTotal++;
            expect(status).toBe(outcome.status); // in place only where the pure reducer changes or keeps the message
          }
          pure = outcome.msg;
          expect(work.current).toEqual(pure);
          if (takeAt[i] === 1) snaps.push([work.snapshot(), JSON.stringify(pure)]);
          if (takeAt[i] === 2) checkpoints.push([work.checkpoint(), JSON.stringify(pure)]);
        });
        for (const [snap, json] of snaps) expect(JSON.stringify(snap)).toBe(json);
        for (const [c, json] of checkpoints) {
          if (c instanceof MsgPatch) patches++;
          expect(JSON.stringify(c instanceof MsgPatch ? c.materialize() : c)).toBe(json);
        }
        expect(JSON.stringify(work.snapshot())).toBe(JSON.stringify(pure));
      }),
      { seed: 7, numRuns: 400 },
    );
    expect(inPlaceTotal).toBeGreaterThan(200); // the generated streams do exercise the in-place path
    if (keyframeBlocks === 1) expect(patches).toBeGreaterThan(200); // …and the patches
    else expect(patches).toBe(0); // fewer than 16 blocks: every checkpoint is the message itself, as before
  });

  it('takes the in-place path for the ordinary deltas and ends, and declines what needs the clock or warns', () => {
    const initial = AssistantMsg('Friday', [], { id: R, created_at: 'T0', clock: { now: () => 'T0', newId: () => 'ID' } });
    const work = new WorkingMsg(initial);
    const ev = (raw: Record<string, unknown>) => validated({ reply_id: R, created_at: '2026-03-01T09:00:01', ...raw });
    work.adopt(applyEvent(work.snapshot(), ev({ type: 'TEXT_BLOCK_START', block_id: 'a' }), ctxFor(0)).msg);
    const first = work.snapshot();
    expect(work.applyInPlace(ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'a', delta: 'hi' }), 'a')).toBe('changed');
    expect(work.applyInPlace(ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'a', delta: '' }), 'a')).toBe('unchanged');
    expect(work.applyInPlace(ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'zz', delta: 'x' }), 'zz')).toBeUndefined(); // warns
    expect(work.applyInPlace(ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }), 'b')).toBeUndefined(); // needs the clock
    expect(work.applyInPlace(ev({ type: 'TEXT_BLOCK_END', block_id: 'a' }), 'a')).toBe('changed');
    expect(work.applyInPlace(ev({ type: 'TEXT_BLOCK_END', block_id: 'a' }), 'a')).toBe('unchanged');
    expect(work.applyInPlace(validated({ type: 'TEXT_BLOCK_END', reply_id: R, block_id: 'a' }), 'a')).toBeUndefined(); // no created_at
    expect(first.content[0]).toMatchObject({ text: '', finished_at: null });
    expect(work.current.content[0]).toMatchObject({ text: 'hi', finished_at: '2026-03-01T09:00:01' });
  });
});

describe('WorkingMsg as a history’s live state: checkpoints of a reply with many blocks', () => {
  it('are mostly small patches, and every step seeks to the pure reducer’s message', () => {
    const initial = AssistantMsg('Friday', [], { id: R, created_at: 'T0', clock: { now: () => 'T0', newId: () => 'ID' } });
    // 300 text blocks of 10 deltas each, then a tool call and its result: 3,300-odd steps over ~300 blocks.
    const raws: Record<string, unknown>[] = [];
    for (let b = 0; b < 300; b++) {
      raws.push({ type: 'TEXT_BLOCK_START', block_id: `t${b}` });
      for (let d = 0; d < 10; d++) raws.push({ type: 'TEXT_BLOCK_DELTA', block_id: `t${b}`, delta: `w${d} ` });
      raws.push({ type: 'TEXT_BLOCK_END', block_id: `t${b}` });
    }
    raws.push({ type: 'TOOL_CALL_START', tool_call_id: 'c', tool_call_name: 'search' }, { type: 'TOOL_CALL_DELTA', tool_call_id: 'c', delta: '{}' });
    raws.push({ type: 'TOOL_RESULT_START', tool_call_id: 'c', tool_call_name: 'search' }, { type: 'TOOL_RESULT_TEXT_DELTA', tool_call_id: 'c', delta: 'ok' });
    const events = raws.map((e, i) => validated({ ...e, reply_id: R, created_at: `2026-03-01T09:00:00.${String(i).padStart(6, '0')}` }));
    const work = new WorkingMsg(initial);
    const pureAt: string[] = [];
    let pure: Msg = initial;
    const kept: (Msg | MsgPatch)[] = [];
    const live = { checkpoint: () => { const c = work.checkpoint(); kept.push(c); return c; }, snapshot: () => work.snapshot() };
    const history = new CheckpointedHistory<Msg, number>(initial, (msg, i) => applyEvent(msg, events[i], ctxFor(i)).msg, { live });
    events.forEach((event, i) => {
      const status = work.applyInPlace(event, targetOf(event) as string);
      if (status === undefined) work.adopt(applyEvent(work.snapshot(), event, ctxFor(i)).msg);
      history.pushLive(i);
      pure = applyEvent(pure, event, ctxFor(i)).msg;
      pureAt.push(JSON.stringify(pure));
    });
    // Random seeks (each from its checkpoint, not the cursor), then a sequential sweep.
    for (let n = 0; n < 400; n++) {
      const k = Math.floor(((n * 7919) % 1000) / 1000 * events.length);
      expect(JSON.stringify(history.at(k))).toBe(pureAt[k]);
    }
    for (let k = 0; k < events.length; k++) expect(JSON.stringify(history.at(k))).toBe(pureAt[k]);
    // Full checkpoints come every ⌈blocks/16⌉ checkpoints; the rest carry the one or two blocks that changed.
    const patches = kept.filter((c): c is MsgPatch => c instanceof MsgPatch);
    expect(patches.length).toBeGreaterThan(kept.length * 0.8);
    expect(Math.max(...patches.map((p) => p.blocks.length))).toBeLessThanOrEqual(3);
  });
});

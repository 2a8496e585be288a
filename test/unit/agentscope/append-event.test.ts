// appendEvent: purity (never mutates a deep-frozen input), structural sharing, and agreement with the reference.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEvent, type ApplyContext } from '../../../src/core/agentscope/append-event.ts';
import { AssistantMsg } from '../../../src/core/agentscope/message.ts';
import { runAgentScopeCase, normaliseCaseMessage } from '../../../src/core/agentscope/conformance.ts';
import { MsgSchema, parseWireEvent, type AgentEvent, type Msg } from '../../../src/core/agentscope/schema.ts';

const fixtures = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/reference-random-streams.json'), 'utf8')) as {
  case: { events: unknown[] };
  expected: { status: string[]; final: unknown; invalid: number[]; errors: number[] };
}[];

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

const ctx: ApplyContext = { now: () => 'T', newId: () => 'ID' };
const ids = fc.constantFrom('a', 'b');
const text = fc.constantFrom('', 'x', 'é😀', 'YQ==');
const b64 = fc.constantFrom('', 'YQ==', 'YmM=', 'YQ', 'Y', ' Z g= ', 'PD8-', '====', 'YQ==YQ==');
const url = fc.constantFrom('https://Example.com', 'not a url', '', 'HTTP://x.org:80/a/../b?c d');
const base = { reply_id: 'r', created_at: '2026-01-01T00:00:00' };
/** Raw wire events, valid or not, aimed at a small id space so they collide. */
const rawEvent = fc.oneof(
  fc.record({ type: fc.constantFrom('TEXT_BLOCK_START', 'THINKING_BLOCK_START', 'TEXT_BLOCK_END', 'THINKING_BLOCK_END', 'DATA_BLOCK_END'), block_id: ids }),
  fc.record({ type: fc.constantFrom('TEXT_BLOCK_DELTA', 'THINKING_BLOCK_DELTA'), block_id: ids, delta: text }),
  fc.record({ type: fc.constant('DATA_BLOCK_START'), block_id: ids, media_type: fc.constant('image/png') }),
  fc.record({ type: fc.constant('DATA_BLOCK_DELTA'), block_id: ids, data: b64, media_type: fc.constant('image/png') }),
  fc.record({ type: fc.constantFrom('TOOL_CALL_START', 'TOOL_RESULT_START'), tool_call_id: ids, tool_call_name: fc.constant('t') }),
  fc.record({ type: fc.constantFrom('TOOL_CALL_DELTA', 'TOOL_RESULT_TEXT_DELTA'), tool_call_id: ids, delta: text }),
  fc.record({ type: fc.constant('TOOL_CALL_END'), tool_call_id: ids }),
  fc.record({ type: fc.constant('TOOL_RESULT_DATA_DELTA'), tool_call_id: ids, media_type: fc.constant('m'), url }),
  fc.record({ type: fc.constant('TOOL_RESULT_END'), tool_call_id: ids, state: fc.constantFrom('success', 'denied') }),
  fc.record({ type: fc.constant('MODEL_CALL_END'), input_tokens: fc.nat(5), output_tokens: fc.constantFrom(0, '2', true) }),
  fc.record({ type: fc.constant('REPLY_END'), session_id: fc.constant('s'), finished_reason: fc.constantFrom('completed', 'error') }),
  fc.record({ type: fc.constantFrom('REQUIRE_USER_CONFIRM', 'REQUIRE_EXTERNAL_EXECUTION'), tool_calls: fc.array(fc.record({ id: ids, name: fc.constant('t'), input: fc.constant('') }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('USER_CONFIRM_RESULT'), confirm_results: fc.array(fc.record({ confirmed: fc.boolean(), tool_call: fc.record({ id: ids, name: fc.constant('t'), input: fc.constant('') }) }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('EXTERNAL_EXECUTION_RESULT'), execution_results: fc.array(fc.record({ id: ids, name: fc.constant('t'), output: fc.constantFrom('', 'out') }), { maxLength: 2 }) }),
  fc.record({ type: fc.constant('HINT_BLOCK'), block_id: ids, hint: fc.constantFrom('h', [{ text: 'x' }]) }),
  fc.record({ type: fc.constant('CUSTOM'), name: fc.constant('state_updated') }),
).map((e) => (e.type === 'CUSTOM' ? e : { ...base, ...e }));

function validEvents(raws: unknown[]): AgentEvent[] {
  return raws.flatMap((r) => {
    const p = parseWireEvent(JSON.stringify(r));
    return p.ok ? [p.event] : [];
  });
}

describe('appendEvent purity and sharing', () => {
  it('never mutates a deep-frozen message and reports changed/unchanged exactly', () => {
    fc.assert(
      fc.property(fc.array(rawEvent, { maxLength: 40 }), (raws) => {
        let msg: Msg = deepFreeze(AssistantMsg('n', [], { id: 'r', created_at: 'C', clock: { now: () => 'T', newId: () => 'ID' } }));
        for (const event of validEvents(raws)) {
          const before = JSON.stringify(msg);
          const out = applyEvent(msg, deepFreeze(event), ctx);
          expect(JSON.stringify(msg)).toBe(before); // the input is untouched (frozen: a write would also throw)
          if (out.status === 'unchanged' || out.status === 'warned') expect(out.msg).toBe(msg);
          if (out.status === 'changed') expect(JSON.stringify(normaliseCaseMessage(out.msg, true))).not.toBe(JSON.stringify(normaliseCaseMessage(msg, true)));
          expect(MsgSchema.safeParse(out.msg).success).toBe(true);
          msg = deepFreeze(out.msg);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shares every block an event does not touch', () => {
    fc.assert(
      fc.property(fc.array(rawEvent, { maxLength: 30 }), (raws) => {
        let msg = AssistantMsg('n', [], { id: 'r', created_at: 'C' });
        for (const event of validEvents(raws)) {
          const out = applyEvent(msg, event, ctx);
          const changedBlocks = out.msg.content.filter((b, i) => b !== msg.content[i]).length;
          // A single event touches at most two existing blocks (TOOL_RESULT_END: result + call) plus appended ones.
          const appended = Math.max(0, out.msg.content.length - msg.content.length);
          expect(changedBlocks - appended).toBeLessThanOrEqual(2);
          msg = out.msg;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same result from a shared and from an unshared (JSON-cloned) message', () => {
    fc.assert(
      fc.property(fc.array(rawEvent, { maxLength: 30 }), (raws) => {
        let shared = AssistantMsg('n', [], { id: 'r', created_at: 'C' });
        let cloned = shared;
        for (const event of validEvents(raws)) {
          shared = applyEvent(shared, event, ctx).msg;
          cloned = applyEvent(JSON.parse(JSON.stringify(cloned)), event, ctx).msg;
        }
        expect(cloned).toEqual(shared);
      }),
      { numRuns: 100 },
    );
  });
});

describe('agreement with the Python reference on random streams (fixtures/README.md)', () => {
  it('has fixtures', () => expect(fixtures.length).toBe(80));
  fixtures.forEach(({ case: c, expected }, i) => {
    it(`stream ${i} (${c.events.length} events)`, () => {
      const out = runAgentScopeCase(c);
      expect(out.status).toEqual(expected.status);
      expect(out.final).toEqual(expected.final);
      expect(out.invalid.map((x) => x.index)).toEqual(expected.invalid);
      expect(out.errors.map((x) => x.index)).toEqual(expected.errors);
    });
  });
});

// Hand-written cases where JSON.parse's reading and pydantic's part ways (lax int strings, huge number literals, the
// smart union of untyped list items); events given as strings keep their literals. Expected: the reference's.
const edgeCases = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/reference-edge-cases.json'), 'utf8')) as typeof fixtures;

describe('agreement with the Python reference on edge cases (fixtures/README.md)', () => {
  it('has fixtures', () => expect(edgeCases.length).toBe(3));
  for (const { case: c, expected } of edgeCases) {
    it((c as unknown as { description: string }).description, () => {
      const out = runAgentScopeCase(c);
      expect(out.status).toEqual(expected.status);
      expect(out.final).toEqual(expected.final);
      expect(out.invalid.map((x) => x.index)).toEqual(expected.invalid);
      expect(out.errors.map((x) => x.index)).toEqual(expected.errors);
    });
  }
});

// patch (msg-edit.ts) keeps a field's object when the event's value is JSON-equal to it (src/core/json-equal.ts).
describe('a field the event sends again: equal as JavaScript compares JSON', () => {
  const resultEnd = (metadata: string) => (parseWireEvent(`{"type":"TOOL_RESULT_END","reply_id":"r","tool_call_id":"t","state":"success","metadata":${metadata}}`) as { event: AgentEvent }).event;
  const started = applyEvent(AssistantMsg('n', [], { id: 'r', created_at: 'C' }), (parseWireEvent('{"type":"TOOL_RESULT_START","reply_id":"r","tool_call_id":"t","tool_call_name":"x"}') as { event: AgentEvent }).event, ctx).msg;
  const metadataOf = (m: Msg) => (m.content[0] as { metadata: unknown }).metadata;

  it('the same metadata in another key order, 1.0 for 1: unchanged, the same object', () => {
    const first = applyEvent(started, resultEnd('{"a":1,"b":{"c":[true]}}'), ctx);
    const again = applyEvent(first.msg, resultEnd('{"b":{"c":[true]},"a":1.0}'), ctx);
    expect(again.status).toBe('unchanged');
    expect(again.msg).toBe(first.msg);
  });

  it('1 where true was: the message takes the event\'s value, as the reference stores it (Python\'s True == 1 would keep true)', () => {
    const first = applyEvent(started, resultEnd('{"x":true}'), ctx);
    const again = applyEvent(first.msg, resultEnd('{"x":1}'), ctx);
    expect(again.status).toBe('changed');
    expect(metadataOf(again.msg)).toEqual({ x: 1 });
  });
});


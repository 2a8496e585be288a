// The compiled validation fast path must agree with the zod schemas: whenever it decides, zod accepts the same input
// with no extras and returns an equal event; and it must actually decide for the ordinary wire shapes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateEvent } from '../../../src/core/agentscope/schema.ts';
import { fastValidateAgentScope } from '../../../src/core/analysis/agentscope-fast-validate.ts';
import { loadCases } from './support.ts';

function agrees(raw: unknown): boolean {
  const fast = fastValidateAgentScope(raw);
  if (fast === undefined) return false;
  const ref = validateEvent(raw);
  expect(ref.ok, JSON.stringify(raw)).toBe(true);
  if (ref.ok) {
    expect(ref.extras).toEqual([]);
    expect(fast).toEqual(ref.event);
  }
  return true;
}

const wireEvents = loadCases('agentscope').flatMap((c) => c.input.events as unknown[]);

describe('AgentScope validation fast path', () => {
  it('agrees with zod on every conformance event it decides, and decides the ordinary ones', () => {
    let decided = 0;
    for (const ev of wireEvents) if (agrees(ev)) decided++;
    expect(decided).toBeGreaterThan(wireEvents.length / 2);
  });

  it('decides a pydantic-serialised delta and fills defaults exactly like zod', () => {
    const delta = { id: 'e1', created_at: '2026-03-01T09:00:00.123456', metadata: {}, type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'hi' };
    expect(agrees(delta)).toBe(true);
    expect(fastValidateAgentScope(delta)).toBe(delta); // complete already: no copy
    expect(agrees({ type: 'MODEL_CALL_END', reply_id: 'r', input_tokens: 3, output_tokens: 4 })).toBe(true);
    expect(agrees({ type: 'REPLY_END', reply_id: 'r', session_id: 's' })).toBe(true);
    expect(agrees({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'n' })).toBe(true);
  });

  it('leaves everything it is not sure about to zod', () => {
    const undecided = [
      { type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x', extra: 1 }, // extras are reported by zod
      { type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x', metadata: { a: 1 } },
      { type: 'MODEL_CALL_END', reply_id: 'r', input_tokens: '3', output_tokens: 4 }, // lax int
      { type: 'MODEL_CALL_END', reply_id: 'r', input_tokens: true, output_tokens: 4 },
      { type: 'REPLY_END', reply_id: 'r', session_id: 's', error: { message: 'x' } },
      { type: 'TOOL_RESULT_END', reply_id: 'r', tool_call_id: 'c' }, // required state missing: zod words the error
      { type: 'HINT_BLOCK', reply_id: 'r', block_id: 'b', hint: 'h' },
      { type: 'RUN_STARTED', replyId: 'r' },
      null,
      [],
    ];
    for (const raw of undecided) expect(fastValidateAgentScope(raw), JSON.stringify(raw)).toBeUndefined();
  });

  it('property: on mutated wire events it either agrees with zod or does not decide', () => {
    const values = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]));
    const keys = fc.constantFrom('type', 'id', 'created_at', 'metadata', 'reply_id', 'block_id', 'tool_call_id', 'delta', 'data',
      'media_type', 'state', 'role', 'finished_reason', 'error', 'input_tokens', 'cache_input_tokens', 'session_id', 'name', 'x');
    fc.assert(fc.property(
      fc.constantFrom(...wireEvents),
      fc.array(fc.tuple(keys, fc.option(values, { nil: undefined })), { maxLength: 3 }),
      (ev, edits) => {
        const raw: Record<string, unknown> = { ...(ev as Record<string, unknown>) };
        for (const [k, v] of edits) {
          if (v === undefined) delete raw[k];
          else raw[k] = v;
        }
        agrees(raw);
      },
    ), { numRuns: 2000 });
  });
});

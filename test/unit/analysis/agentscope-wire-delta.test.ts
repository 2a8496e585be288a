// The compiled reading of the common AgentScope delta (agentscope-wire-delta.ts) against what it stands in for:
// JSON.parse, then the fast validator. Whenever it reads a text, the text must parse, the fast validator must accept
// the event, and the fields must be the ones the validator read; and it must read the wire shapes it is for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastValidateAgentScope, lastFast } from '../../../src/core/analysis/agentscope-fast-validate.ts';
import { readWireDelta } from '../../../src/core/analysis/agentscope-wire-delta.ts';

const DELTAS = ['TEXT_BLOCK_DELTA', 'THINKING_BLOCK_DELTA', 'TOOL_CALL_DELTA', 'TOOL_RESULT_TEXT_DELTA'];
const targetKey = (type: string) => (type.startsWith('TOOL') ? 'tool_call_id' : 'block_id');

// Strings with what JSON must escape (quotes, backslashes, control characters), lone surrogates and plain text.
const str = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', '\udc00', '🙂', 'é', '/'), maxLength: 8 }),
  fc.constantFrom('', ' the', 'x'),
);

const eventArb = fc.record({
  id: str,
  created_at: str,
  metadata: fc.constantFrom({}, {}, { a: 1 }),
  type: fc.constantFrom(...DELTAS, ...DELTAS, 'TEXT_BLOCK_START', 'DATA_BLOCK_DELTA'),
  reply_id: str,
  target: str,
  wrongKey: fc.boolean(),
  delta: str,
});

/** The event as a server writes it: pydantic's compact JSON or json.dumps' ", " / ": " separators. */
function wire(e: typeof eventArb extends fc.Arbitrary<infer T> ? T : never, spaced: boolean): string {
  const key = e.wrongKey ? (targetKey(e.type) === 'block_id' ? 'tool_call_id' : 'block_id') : targetKey(e.type);
  const obj = { id: e.id, created_at: e.created_at, metadata: e.metadata, type: e.type, reply_id: e.reply_id, [key]: e.target, delta: e.delta };
  const text = JSON.stringify(obj);
  return spaced ? JSON.stringify(obj, null, 1).replace(/\n */g, (m, at, all) => (all[at - 1] === '{' || all[at + m.length] === '}' ? '' : ' ')) : text;
}

function agrees(text: string): { read: boolean } {
  const w = readWireDelta(text);
  if (w === undefined) return { read: false };
  const parsed = JSON.parse(text) as unknown; // must not throw
  const fast = fastValidateAgentScope(parsed);
  expect(fast, text).toBeDefined();
  expect({ type: w.type, replyId: w.replyId, createdAt: w.createdAt, target: w.target, delta: w.delta }).toEqual({
    type: lastFast.type, replyId: lastFast.replyId, createdAt: lastFast.createdAt, target: lastFast.target, delta: lastFast.delta,
  });
  expect(DELTAS).toContain(w.type);
  return { read: true };
}

describe('readWireDelta', () => {
  it('reads a text only when JSON.parse + the fast validator read the same fields from it', () => {
    let read = 0;
    fc.assert(
      fc.property(eventArb, fc.boolean(), (e, spaced) => {
        if (agrees(wire(e, spaced)).read) read++;
      }),
      { seed: 11, numRuns: 3000 },
    );
    expect(read).toBeGreaterThan(100); // it does read the shapes it is for
  });

  it('reads every plain delta in both separators, and nothing once the text is damaged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DELTAS), fc.string({ maxLength: 10 }), fc.boolean(), fc.nat(), fc.constantFrom('', '"', '\\', '{', '}', ',', ':', ' ', 'x', '\n', '\\u12'), fc.constantFrom('insert', 'replace', 'delete'),
        (type, delta, spaced, at, ch, how) => {
          const text = wire({ id: 'GPGw6rYnTQQ8R9rWLLhE77', created_at: '2026-03-01T09:00:00.134687', metadata: {}, type, reply_id: 'reply-1', target: 'blk', wrongKey: false, delta }, spaced);
          expect(agrees(text).read, text).toBe(true);
          const i = at % (text.length + 1);
          const damaged = how === 'insert' ? text.slice(0, i) + ch + text.slice(i) : how === 'replace' ? text.slice(0, i) + ch + text.slice(i + 1) : text.slice(0, i) + text.slice(i + 1);
          let valid = true;
          try {
            JSON.parse(damaged);
          } catch {
            valid = false;
          }
          const r = agrees(damaged);
          if (!valid) expect(r.read, damaged).toBe(false);
        },
      ),
      { seed: 12, numRuns: 3000 },
    );
  });
});

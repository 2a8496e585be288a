// Valid pi-agent-core proxy streams (what streamProxy reads): `start`, content blocks at consecutive content indices
// (text, thinking, tool call) whose deltas may interleave between blocks, then `done` or `error` with usage. The
// request body carries the model, as the real client sends it. Expected content is computed from the script alone.
import fc from 'fast-check';
import { cutText, interleave, textPiece } from './agentscope-gen.ts';

export interface PiBlockScript {
  kind: 'text' | 'thinking' | 'toolCall';
  index: number;
  events: Record<string, unknown>[];
  /** Concatenated deltas (tool calls: the arguments JSON text). */
  expectText: string;
  /** Tool calls: the arguments object whose JSON was streamed. */
  expectArgs?: Record<string, unknown>;
  toolName?: string;
  toolId?: string;
  signature?: string;
}

export interface PiStream {
  requestBody: { model: Record<string, unknown>; context: Record<string, unknown> };
  blocks: PiBlockScript[];
  terminal: { type: 'done'; reason: 'stop' | 'length' | 'toolUse' } | { type: 'error'; reason: 'error' | 'aborted'; errorMessage: string };
  usage: Record<string, unknown>;
  events: Record<string, unknown>[];
}

const model = {
  id: 'fuzz-model', name: 'Fuzz', api: 'openai-completions', provider: 'fuzz-provider', baseUrl: 'http://127.0.0.1:9/unused',
  reasoning: true, input: ['text'], cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8192, maxTokens: 1024,
};

const blockArb = (kind: PiBlockScript['kind'], index: number): fc.Arbitrary<PiBlockScript> => {
  if (kind === 'toolCall') {
    return fc.tuple(fc.string({ maxLength: 8 }), fc.string({ minLength: 1, maxLength: 8 }), fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.array(fc.nat(), { maxLength: 6 }))
      .map(([toolName, toolId, args, cuts]) => {
        const json = JSON.stringify(args);
        return {
          kind, index, expectText: json, expectArgs: args, toolName, toolId,
          events: [
            { type: 'toolcall_start', contentIndex: index, id: toolId, toolName },
            ...cutText(json, cuts).map((delta) => ({ type: 'toolcall_delta', contentIndex: index, delta })),
            { type: 'toolcall_end', contentIndex: index },
          ],
        };
      });
  }
  return fc.tuple(fc.array(textPiece, { maxLength: 8 }), fc.option(fc.string({ maxLength: 10 }))).map(([deltas, sig]) => ({
    kind, index, expectText: deltas.join(''), ...(sig !== null ? { signature: sig } : {}),
    events: [
      { type: `${kind}_start`, contentIndex: index },
      ...deltas.map((delta) => ({ type: `${kind}_delta`, contentIndex: index, delta })),
      { type: `${kind}_end`, contentIndex: index, ...(sig !== null ? { contentSignature: sig } : {}) },
    ],
  }));
};

const usageArb = fc.record({ input: fc.nat(1e6), output: fc.nat(1e6), cacheRead: fc.nat(1e6), cacheWrite: fc.nat(1e6) }).map((u) => ({
  ...u, totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite,
  cost: { input: u.input / 1e6, output: u.output / 1e6, cacheRead: 0, cacheWrite: 0, total: (u.input + u.output) / 1e6 },
}));

const terminalArb: fc.Arbitrary<PiStream['terminal']> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('stop', 'length', 'toolUse').map((reason) => ({ type: 'done' as const, reason })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('error', 'aborted'), fc.string({ maxLength: 20 })).map(([reason, errorMessage]) => ({ type: 'error' as const, reason, errorMessage })) },
);

export const piStreamArb: fc.Arbitrary<PiStream> = fc
  .tuple(fc.array(fc.constantFrom<PiBlockScript['kind']>('text', 'text', 'thinking', 'toolCall'), { maxLength: 5 }), fc.array(fc.nat(), { maxLength: 40 }), fc.boolean())
  .chain(([kinds, choices, interleaved]) =>
    fc.tuple(fc.tuple(...kinds.map((k, i) => blockArb(k, i))), terminalArb, usageArb).map(([blocks, terminal, usage]): PiStream => {
      const body = interleaved ? interleave(blocks.map((b) => b.events), choices) : blocks.flatMap((b) => b.events);
      return {
        requestBody: { model, context: { systemPrompt: 'fuzz', messages: [{ role: 'user', content: 'hi', timestamp: 0 }] } },
        blocks, terminal, usage,
        events: [{ type: 'start' }, ...body, { ...terminal, usage }],
      };
    }));

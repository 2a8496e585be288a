// A small seeded slice of the protocol fuzz (`npm run fuzz` runs ≥ 10,000 streams): the same generators and checks,
// with fast-check shrinking, so a regression shows up in `npm test` with a minimal counterexample.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentScopeStreamArb } from '../../fuzz/agentscope-gen.ts';
import { hostileStreamArb } from '../../fuzz/hostile.ts';
import { piStreamArb } from '../../fuzz/pi-gen.ts';
import { fuzzCaseArb, runFuzzCase, type FuzzCase } from '../../fuzz/protocol-case.ts';
import { chunkingArb, framingArb } from '../../fuzz/wire.ts';

const base = { groups: [1, 3], picks: [1, 7, 13, 29], corruptAt: 11, cli: false };

async function problemsOf(c: FuzzCase): Promise<string[]> {
  return (await runFuzzCase(c)).problems;
}

describe('protocol fuzz slice', () => {
  it('valid AgentScope streams, any framing and chunking, reconstruct as appendEvent folds them', async () => {
    await fc.assert(
      fc.asyncProperty(agentScopeStreamArb, framingArb, chunkingArb, fc.array(fc.nat(), { maxLength: 3 }), async (stream, framing, chunking, noise) => {
        expect(await problemsOf({ ...base, chunking, input: { family: 'agentscope-valid', stream, framing, noise } })).toEqual([]);
      }),
      { seed: 20261129, numRuns: 60 },
    );
  });

  it('valid pi proxy streams reconstruct as streamProxy would (text = deltas, arguments = streamed JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(piStreamArb, framingArb, chunkingArb, async (stream, framing, chunking) => {
        expect(await problemsOf({ ...base, chunking, input: { family: 'pi-valid', stream, framing, noise: [] } })).toEqual([]);
      }),
      { seed: 20261129, numRuns: 60 },
    );
  });

  it('hostile streams: no crash, every problem a diagnostic, prototypes untouched, CLI refuses cleanly', async () => {
    // Multi-megabyte values are left to the full run (hostile-inputs.test.ts pins deep nesting) to keep this fast.
    const small = hostileStreamArb.filter((s) => !s.mutations.some((m) => m.op === 'huge-string'));
    await fc.assert(
      fc.asyncProperty(small, chunkingArb, async (stream, chunking) => {
        expect(await problemsOf({ ...base, cli: true, chunking, input: { family: 'hostile', stream } })).toEqual([]);
      }),
      { seed: 20261129, numRuns: 40 },
    );
  });

  it('the mixed generator of the full run (all families, CLI included)', async () => {
    await fc.assert(
      fc.asyncProperty(fuzzCaseArb.filter((c) => c.input.family !== 'hostile' || !c.input.stream.mutations.some((m) => m.op === 'huge-string')), async (c) => {
        expect(await problemsOf(c)).toEqual([]);
      }),
      { seed: 7, numRuns: 60 },
    );
  });
});

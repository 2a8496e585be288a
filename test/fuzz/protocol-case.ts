// One protocol-fuzz case: a generated stream (valid AgentScope, valid pi, hostile mutation of either, or random
// bytes), its wire bytes cut into random chunks, the tap's records, and every check: pipeline invariants, the
// reference oracle for valid streams, the CLI commands, and prototype pollution.
import fc from 'fast-check';
import type { EndState } from '../../src/core/capture/model.ts';
import { agentScopeStreamArb, type AsStream } from './agentscope-gen.ts';
import { checkCli, cliInputs } from './cli-checks.ts';
import { hostileStreamArb, type HostileStream } from './hostile.ts';
import { checkAgentScopeValid } from './oracle-agentscope.ts';
import { checkPiValid } from './oracle-pi.ts';
import { piStreamArb, type PiStream } from './pi-gen.ts';
import { checkPipeline, prototypeFingerprint, prototypeProblems } from './pipeline-checks.ts';
import { chunkingArb, cutBody, encodeFrames, framingArb, recordsFor, type Chunking, type Framing, type Frame } from './wire.ts';

export type Family = 'agentscope-valid' | 'pi-valid' | 'hostile' | 'random-bytes';

export type FuzzStream =
  | { family: 'agentscope-valid'; stream: AsStream; framing: Framing; noise: number[] }
  | { family: 'pi-valid'; stream: PiStream; framing: Framing; noise: number[] }
  | { family: 'hostile'; stream: HostileStream }
  | { family: 'random-bytes'; bytes: Uint8Array; contentType: string; endState: EndState };

export interface FuzzCase {
  input: FuzzStream;
  chunking: Chunking;
  /** Record counts per live push (cycled). */
  groups: number[];
  /** Random numbers for sampling history steps. */
  picks: number[];
  corruptAt: number;
  /** Run the CLI on this case (the CLI re-analyses everything; it runs on a share of cases to keep runs fast). */
  cli: boolean;
}

const noiseArb = fc.array(fc.nat(), { maxLength: 4 });

export const fuzzStreamArb: fc.Arbitrary<FuzzStream> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ family: fc.constant('agentscope-valid' as const), stream: agentScopeStreamArb, framing: framingArb, noise: noiseArb }) },
  { weight: 2, arbitrary: fc.record({ family: fc.constant('pi-valid' as const), stream: piStreamArb, framing: framingArb, noise: noiseArb }) },
  { weight: 6, arbitrary: fc.record({ family: fc.constant('hostile' as const), stream: hostileStreamArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      family: fc.constant('random-bytes' as const),
      bytes: fc.oneof(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.constantFrom('data: ', '{"type":', '"start"}', '\n', '\r', ':', 'event:', '\u00ff', '[', '{', '}'), { maxLength: 80 }).map((p) => new TextEncoder().encode(p.join('')))),
      contentType: fc.constantFrom('text/event-stream', 'application/x-ndjson', 'application/json'),
      endState: fc.constantFrom<EndState>('complete', 'error', 'open'),
    }),
  },
);

export const fuzzCaseArb: fc.Arbitrary<FuzzCase> = fc.record({
  input: fuzzStreamArb,
  chunking: chunkingArb,
  groups: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 5 }),
  picks: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  corruptAt: fc.nat(),
  cli: fc.boolean(),
});

/** Heartbeats, comments and empty frames between events: invisible to the clients, so reconstruction is unchanged. */
function withNoise(events: Record<string, unknown>[], noise: number[]): Frame[] {
  const frames: Frame[] = events.map((value) => ({ kind: 'event', value }));
  for (const n of noise) frames.splice(n % (frames.length + 1), 0, n % 2 ? { kind: 'comment', text: ' keep-alive' } : { kind: 'empty' });
  return frames;
}

interface Built {
  body: Uint8Array;
  contentType: string;
  requestBody?: string;
  status: number;
  endState: EndState;
  events?: unknown[];
}

function build(input: FuzzStream): Built {
  switch (input.family) {
    case 'agentscope-valid':
      return { body: encodeFrames(withNoise(input.stream.events, input.noise), input.framing), contentType: 'text/event-stream', status: 200, endState: 'complete', events: input.stream.events };
    case 'pi-valid':
      return {
        body: encodeFrames(withNoise(input.stream.events, input.noise), input.framing), contentType: 'text/event-stream', status: 200,
        endState: 'complete', requestBody: JSON.stringify(input.stream.requestBody), events: input.stream.events,
      };
    case 'hostile': {
      const s = input.stream;
      const eol = (i: number) => (s.eols.length ? s.eols[i % s.eols.length] : '\n');
      return { body: encodeFrames(s.frames, { eol: '\n', extraFields: false }, eol), contentType: s.contentType, status: s.status, endState: s.endState, ...(s.requestBody !== undefined ? { requestBody: s.requestBody } : {}) };
    }
    case 'random-bytes':
      return { body: input.bytes, contentType: input.contentType, status: 200, endState: input.endState };
  }
}

export interface CaseReport {
  family: Family;
  problems: string[];
  bytes: number;
  events: number;
  diagnostics: number;
  chunks: number;
  /** Mutation ops applied (hostile cases). */
  ops: string[];
}

export async function runFuzzCase(c: FuzzCase): Promise<CaseReport> {
  const before = prototypeFingerprint();
  const b = build(c.input);
  const chunks = cutBody(b.body, c.chunking);
  const records = recordsFor(chunks, { contentType: b.contentType, status: b.status, endState: b.endState, ...(b.requestBody !== undefined ? { requestBody: b.requestBody } : {}) });
  let p = 0;
  const sample = (n: number) => (n <= 0 ? 0 : c.picks[p++ % c.picks.length] % n);
  const { problems, views } = checkPipeline(records, c.groups, { seekAll: b.body.length < 200_000 });
  const view = views[0];
  if (view && !problems.some((x) => x.startsWith('CRASH'))) {
    try {
      if (c.input.family === 'agentscope-valid') problems.push(...checkAgentScopeValid(c.input.stream, view, sample));
      if (c.input.family === 'pi-valid') problems.push(...checkPiValid(c.input.stream, view, sample));
    } catch (err) {
      problems.push(`CRASH in oracle: ${(err as Error).stack?.split('\n').slice(0, 3).join(' / ')}`);
    }
  }
  if (c.cli) problems.push(...(await checkCli(cliInputs(records, b.body, views, c.corruptAt, b.events), { steps: b.body.length < 100_000 })));
  problems.push(...prototypeProblems(before));
  return {
    family: c.input.family,
    problems,
    bytes: b.body.length,
    events: view?.events.length ?? 0,
    diagnostics: views.reduce((n, v) => n + v.diagnostics.length, 0),
    chunks: chunks.length,
    ops: c.input.family === 'hostile' ? c.input.stream.mutations.map((m) => m.op) : [],
  };
}

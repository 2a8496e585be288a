// Differential test: random proxy streams are served over real HTTP to the REAL streamProxy of
// @mariozechner/pi-agent-core 0.73.1, and what it yields (captured at push time, like the conformance harness)
// is compared with our pure reconstruction (runPiCase on the same bytes and chunking).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamProxy } from '@mariozechner/pi-agent-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chunkBody, runPiCase, type PiCaseOutput } from '../../../src/core/pi/conformance.ts';

const model = {
  id: 'diff-model',
  name: 'Diff',
  api: 'openai-completions',
  provider: 'diff-provider',
  baseUrl: 'http://127.0.0.1:9/unused',
  reasoning: false,
  input: ['text'],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
} as const;
const context = { messages: [{ role: 'user', content: 'hi', timestamp: 0 }] };

interface Served {
  status: number;
  chunks: Uint8Array[];
}
let served: Served = { status: 200, chunks: [] };
let server: http.Server;
let baseUrl = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(served.status, { 'content-type': served.status === 200 ? 'text/event-stream' : 'application/json' });
      for (const chunk of served.chunks) res.write(chunk);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function dropTimestamp(m: unknown): Record<string, unknown> {
  const { timestamp: _t, ...rest } = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  return rest;
}

/** Runs the real client against the served body; records every push with a snapshot taken at that moment. */
async function runReal(): Promise<Omit<PiCaseOutput, 'request'>> {
  const out: Omit<PiCaseOutput, 'request' | 'final' | 'resultSettled'> = {
    events: [],
    eventDetails: [],
    steps: [],
    droppedAfterCompletion: [],
    warnings: [],
  };
  const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    out.warnings.push(args.map(String).join(' '));
  });
  try {
    const stream = streamProxy(model as never, context as never, { proxyUrl: baseUrl, authToken: 't' });
    const inner = stream as unknown as { push(e: unknown): void; done: boolean };
    const originalPush = inner.push.bind(inner);
    inner.push = (event: unknown) => {
      const { partial, message, error, ...rest } = event as Record<string, unknown>;
      const detail = JSON.parse(JSON.stringify(rest));
      const snapshot = dropTimestamp(partial ?? message ?? error);
      if (inner.done) out.droppedAfterCompletion.push({ ...detail, message: snapshot });
      else {
        out.events.push(detail.type);
        out.eventDetails.push(detail);
        out.steps.push(snapshot);
      }
      originalPush(event);
    };
    for await (const _ of stream) {
      // drain
    }
    const result = stream.result();
    // The stream has ended: result() either resolved already (its reaction is queued first) or never will.
    const pending = Symbol('pending');
    const settledValue = await Promise.race([result, Promise.resolve(pending)]);
    const settled = settledValue !== pending;
    return { ...out, final: settled ? dropTimestamp(settledValue) : null, resultSettled: settled };
  } finally {
    warn.mockRestore();
  }
}

// ---- generators ----
const index = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, -1, '1', 1.5, null) },
);
const jsonish = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('{', '}', '"', '\\', '\\u00', 'e9', ':', ',', '[', ']', '\n', '"a":', '1', 'tru', 'null'),
);
const text = fc.string({ maxLength: 8, unit: 'grapheme' });
const usage = fc.record({
  input: fc.nat(100),
  output: fc.nat(100),
  cacheRead: fc.constant(0),
  cacheWrite: fc.constant(0),
  totalTokens: fc.nat(200),
  cost: fc.record({ input: fc.double({ min: 0, max: 1, noNaN: true }), output: fc.constant(0), cacheRead: fc.constant(0), cacheWrite: fc.constant(0), total: fc.constant(0.5) }),
});
const sig = fc.option(fc.string({ maxLength: 5 }), { nil: undefined });
const event: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({ type: 'start' }),
  index.map((contentIndex) => ({ type: 'text_start', contentIndex })),
  fc.record({ type: fc.constant('text_delta'), contentIndex: index, delta: text }),
  fc.record({ type: fc.constant('text_end'), contentIndex: index, contentSignature: sig }),
  index.map((contentIndex) => ({ type: 'thinking_start', contentIndex })),
  fc.record({ type: fc.constant('thinking_delta'), contentIndex: index, delta: text }),
  fc.record({ type: fc.constant('thinking_end'), contentIndex: index, contentSignature: sig }),
  fc.record({ type: fc.constant('toolcall_start'), contentIndex: index, id: fc.string({ maxLength: 4 }), toolName: fc.constantFrom('f', 'g') }),
  fc.record({ type: fc.constant('toolcall_delta'), contentIndex: index, delta: jsonish }),
  fc.record({ type: fc.constant('toolcall_delta'), contentIndex: index, delta: fc.json({ maxDepth: 2 }) }),
  index.map((contentIndex) => ({ type: 'toolcall_end', contentIndex })),
  fc.record({ type: fc.constant('done'), reason: fc.constantFrom('stop', 'length', 'toolUse'), usage: fc.option(usage, { nil: undefined }) }),
  fc.record({ type: fc.constant('error'), reason: fc.constantFrom('error', 'aborted'), errorMessage: sig, usage }),
  fc.constant({ type: 'ping' }),
);
/** A frame: mostly well-formed `data: JSON\n\n`, sometimes a line the client treats specially. */
const frame = fc.oneof(
  { weight: 20, arbitrary: event.map((e) => `data: ${JSON.stringify(e)}\n\n`) },
  { weight: 1, arbitrary: event.map((e) => `data:${JSON.stringify(e)}\n`) },
  { weight: 1, arbitrary: event.map((e) => `data:   ${JSON.stringify(e)} \r\n`) },
  { weight: 1, arbitrary: fc.constantFrom(': ping\n\n', 'event: x\n', 'data: \n\n', 'data: {oops\n\n', 'data: null\n', 'data: 42\n') },
);
/** Streams that run long enough to matter: a tool call or text block built properly, then random frames. */
const body = fc
  .tuple(fc.array(frame, { maxLength: 30 }), fc.boolean(), fc.boolean())
  .map(([frames, withPrelude, unterminated]) => {
    const prelude = withPrelude
      ? ['start', ...['{"a"', ': [1', ', "x\\u', '00e9"]}'].map((d) => ({ type: 'toolcall_delta', contentIndex: 0, delta: d }))]
      : [];
    const head = prelude.length
      ? [
          `data: {"type":"start"}\n\n`,
          `data: {"type":"toolcall_start","contentIndex":0,"id":"c1","toolName":"t"}\n\n`,
          ...prelude.slice(1).map((e) => `data: ${JSON.stringify(e)}\n\n`),
        ]
      : [];
    const all = [...head, ...frames];
    if (unterminated && all.length) all[all.length - 1] = all[all.length - 1].replace(/\n+$/, '');
    return all;
  });
const chunking = fc.oneof(fc.constant('frame'), fc.constant('single'), fc.integer({ min: 1, max: 40 }).map((n) => `bytes:${n}`));
const httpError = fc.option(
  fc.record({ status: fc.constantFrom(204, 301, 404, 429, 500, 502, 503), body: fc.oneof(fc.constant('nope'), fc.record({ error: fc.string({ maxLength: 6 }) })) }),
  { nil: undefined, freq: 10 },
);

describe('differential: real streamProxy vs our reconstruction', () => {
  it('agrees on events, steps, final and settlement for random streams', async () => {
    await fc.assert(
      fc.asyncProperty(body, chunking, httpError, async (writes, chunks, httpErr) => {
        const caseJson = { client: { model, context }, raw: writes, chunking: chunks, ...(httpErr ? { http: httpErr } : {}) };
        const ours = runPiCase(caseJson);
        served = httpErr
          ? { status: httpErr.status, chunks: [new TextEncoder().encode(typeof httpErr.body === 'string' ? httpErr.body : JSON.stringify(httpErr.body))] }
          : { status: 200, chunks: chunkBody(writes, chunks) };
        const real = await runReal();
        expect(ours.events).toEqual(real.events);
        expect(ours.eventDetails).toEqual(real.eventDetails);
        expect(ours.steps).toEqual(real.steps);
        expect(ours.final).toEqual(real.final);
        expect(ours.resultSettled).toBe(real.resultSettled);
        expect(ours.droppedAfterCompletion).toEqual(real.droppedAfterCompletion);
        expect(ours.warnings).toEqual(real.warnings);
      }),
      { numRuns: Number(process.env.PI_DIFF_RUNS ?? 50), seed: Number(process.env.PI_DIFF_SEED ?? 20261129) },
    );
  });
});

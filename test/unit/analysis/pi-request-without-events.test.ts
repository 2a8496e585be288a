// streamProxy's request answered with no pi event — a misconfigured proxy's JSON, an HTTP error — was analysed as
// a stream of no dialect: "0 events", nothing to say. The real client read that body all the same: a 200 without
// `data: ` lines leaves its result() pending for good (the agent loop hangs), an error answer fails it with the
// body's JSON `error`. The request tells the client; the analysis must say what that client made of the answer.
import { streamProxy } from '@mariozechner/pi-agent-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { captureOf } from './support.ts';
import { piTestModel, piTestContext } from '../pi/support.ts';

const model = piTestModel();
const context = piTestContext;
const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What the real client ends with for this answer: its message, or null when result() never settles. */
async function realClient(status: number, body: string): Promise<Record<string, unknown> | null> {
  vi.stubGlobal('fetch', async () => new Response(body, { status, statusText: status === 200 ? 'OK' : 'Unauthorized', headers: { 'content-type': 'application/json' } }));
  const stream = streamProxy(model as never, context as never, { proxyUrl: 'http://proxy.test', authToken: 't' });
  for await (const _ of stream) {
    // drain
  }
  const pending = Symbol('pending');
  const settled = await Promise.race([stream.result(), Promise.resolve(pending)]);
  return settled === pending ? null : (settled as unknown as Record<string, unknown>);
}

function analyse(status: number, body: string, requestBody?: unknown) {
  const records = captureOf([new TextEncoder().encode(body)], { contentType: 'application/json', ...(requestBody ? { requestBody } : {}) })
    .map((r): CaptureRecord => (r.kind === 'connection' ? { ...r, status, statusText: status === 200 ? 'OK' : 'Unauthorized' } : r));
  return analyzeCapture({ header, records })[0];
}

describe('streamProxy\'s request answered without pi events', () => {
  it('a 200 JSON body: the client never settles, and the analysis says so', async () => {
    const body = JSON.stringify({ choices: [{ message: { content: 'hi' } }] });
    expect(await realClient(200, body)).toBeNull();
    const conn = analyse(200, body, { model, context, options: {} });
    expect(conn.dialect).toBe('pi-proxy');
    expect(conn.diagnostics.map((d) => d.code)).toContain('pi.no-terminal');
  });

  it('an HTTP error: the client fails with the JSON body\'s error, and the analysis quotes that', async () => {
    const body = JSON.stringify({ error: 'invalid api key' });
    const real = await realClient(401, body);
    expect(real).toMatchObject({ stopReason: 'error', errorMessage: 'Proxy error: invalid api key' });
    const conn = analyse(401, body, { model, context, options: {} });
    expect(conn.diagnostics.find((d) => d.code === 'pi.http-error')?.message).toContain(`"${real?.errorMessage}"`);
  });

  it('another client\'s request with the same answer stays a stream of no dialect', () => {
    const conn = analyse(200, JSON.stringify({ ok: true }));
    expect(conn.dialect).toBe('unknown');
    expect(conn.diagnostics.filter((d) => d.code.startsWith('pi.'))).toEqual([]);
  });
});

// The network breaks mid-body (a server reset): Chromium rejects the page's body read with
// `TypeError: network error`, and pi-agent-core's streamProxy fails its message with `error.message` as
// errorMessage. The tap records the failure as `name: message`; the reconstruction must still end the reply with
// the message the real client holds, not with the capture's wording of the failure.
import { streamProxy } from '@mariozechner/pi-agent-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { piNetworkErrorMessage } from '../../../src/core/pi/client-reading.ts';
import { describeError } from '../../../src/extension/tap/body-tap.ts';
import { captureOf, sseBody } from '../analysis/support.ts';
import { piTestModel, piTestContext } from './support.ts';

const model = piTestModel();
const context = piTestContext;
const events = [
  { type: 'start' },
  { type: 'text_start', contentIndex: 0 },
  { type: 'text_delta', contentIndex: 0, delta: 'Half a ' },
];

const noTimestamp = (m: unknown) => {
  const { timestamp: _t, ...rest } = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  return rest;
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a pi proxy stream cut by a network error', () => {
  it('ends its reply with the errorMessage the real client sets', async () => {
    const failure = new TypeError('network error'); // what Chromium's fetch body read rejects with
    const body = new TextEncoder().encode(sseBody(events));
    vi.stubGlobal('fetch', async () => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body);
      },
      pull(controller) {
        controller.error(failure);
      },
    }), { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    const stream = streamProxy(model as never, context as never, { proxyUrl: 'http://proxy.test', authToken: 't' });
    for await (const _ of stream) {
      // drain
    }
    const real = noTimestamp(await stream.result());
    expect(real).toMatchObject({ stopReason: 'error', errorMessage: 'network error' });

    const records: CaptureRecord[] = captureOf([body], { requestBody: { model, context }, state: 'error' })
      .map((r) => (r.kind === 'end' ? { ...r, error: describeError(failure) } : r));
    const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records });
    const [reply] = conn.replies;
    expect(noTimestamp(reply.afterEnd?.message)).toEqual(real);
    expect(reply.finishedReason).toBe('error');
  });

  it('reads the failure as the client would from every way a capture words it', () => {
    expect(piNetworkErrorMessage('TypeError: network error')).toBe('network error');
    expect(piNetworkErrorMessage('TypeError: Error in body stream')).toBe('Error in body stream');
    // A Chromium HAR keeps the net error code; the page's fetch saw Chromium's generic message.
    expect(piNetworkErrorMessage('net::ERR_INCOMPLETE_CHUNKED_ENCODING')).toBe('network error');
    expect(piNetworkErrorMessage(undefined)).toBe('network error');
    // Not an error's `name: message` (a thrown string, another writer's text): kept as it is.
    expect(piNetworkErrorMessage('terminated')).toBe('terminated');
    expect(piNetworkErrorMessage('socket hang up: ECONNRESET')).toBe('socket hang up: ECONNRESET');
  });
});

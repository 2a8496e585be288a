// The page aborts a pi proxy stream after some events (its "Stop"): the REAL streamProxy of
// @mariozechner/pi-agent-core fails its message (stopReason "aborted", errorMessage) after the last event. The
// analysis of the same capture, ended `aborted` as the tap records it, must end the reply with that message too —
// replay's `final`, the reply's finished reason — while the history's steps stay the messages after each event.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamProxy } from '@mariozechner/pi-agent-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { runCli } from '../../../src/cli/commands.ts';
import { writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { captureOf, sseBody } from '../analysis/support.ts';
import { piTestModel, piTestContext } from './support.ts';

const model = piTestModel();
const context = piTestContext;
const events = [
  { type: 'start' },
  { type: 'text_start', contentIndex: 0 },
  { type: 'text_delta', contentIndex: 0, delta: 'The package is ' },
  { type: 'text_delta', contentIndex: 0, delta: 'call' },
];

let server: http.Server;
let url = '';
beforeAll(async () => {
  // Sends the events and keeps the response open, as an agent still generating does.
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sseBody(events));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const noTimestamp = (m: unknown) => {
  const { timestamp: _t, ...rest } = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  return rest;
};

describe('a pi proxy stream the page aborts after some events', () => {
  it('ends its reply with the message the real client failed, not the one after the last event', async () => {
    const abort = new AbortController();
    const stream = streamProxy(model as never, context as never, { proxyUrl: url, authToken: 't', signal: abort.signal });
    let seen = 0;
    for await (const _ of stream) {
      if (++seen === events.length) abort.abort(); // the page's Stop, once every event arrived
    }
    const real = noTimestamp(await stream.result());
    expect(real).toMatchObject({ stopReason: 'aborted', errorMessage: 'Request aborted by user' });

    const capture = {
      header: { kind: 'header' as const, format: 'replyscope-capture' as const, version: 1 as const, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(sseBody(events))], { requestBody: { model, context }, state: 'aborted' }),
    };
    const [conn] = analyzeCapture(capture);
    const [reply] = conn.replies;
    expect(noTimestamp(reply.afterEnd?.message)).toEqual(real);
    expect(reply.finishedReason).toBe('aborted');
    // The steps are what the client held after each event: the last one still streaming.
    expect(reply.history.length).toBe(events.length);
    expect(noTimestamp(reply.history.at(events.length - 1))).toEqual({ ...real, stopReason: 'stop', errorMessage: undefined });
    // replay's final is the client's last word.
    const out = await runCli(['replay', 'x.replyscope.ndjson'], () => new TextEncoder().encode(writeCaptureLog(capture)));
    expect(noTimestamp(JSON.parse(out.stdout)[0].replies[0].final)).toEqual(real);
  });

  it('a stream that ends normally has no after-end message', () => {
    const body = sseBody([...events, { type: 'done', reason: 'stop', usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } }]);
    const [conn] = analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(body)], { requestBody: { model, context }, state: 'aborted' }),
    });
    expect(conn.replies[0].afterEnd).toBeUndefined();
    expect(conn.replies[0].finishedReason).toBe('stop');
  });
});

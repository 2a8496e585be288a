// The demo server over real HTTP: AgentScope session endpoints read the way the web UI reads them, and the pi
// endpoint consumed by the REAL streamProxy of @mariozechner/pi-agent-core.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamProxy } from '@mariozechner/pi-agent-core';
import type { Model } from '@mariozechner/pi-ai';
import { startDemoServer, DEMO_AGENT_ID, type DemoServer } from '../../../src/demo/server.ts';
import { PI_SCENARIOS } from '../../../src/demo/pi/pi-scenarios.ts';
import { parseDemoArgs } from '../../../src/demo/main.ts';

let server: DemoServer;
beforeAll(async () => {
  server = await startDemoServer({ fast: true, heartbeatMs: 25 });
});
afterAll(() => server.close());

const post = (path: string, body: unknown) =>
  fetch(server.url + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/**
 * Opens a session stream (resolves once the response head arrived — the server subscribes before sending it) and
 * returns a reader that splits lines like the AgentScope web UI, keeping comment lines, until `stop` says so.
 */
async function openStream(sessionId: string) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/sessions/${sessionId}/stream?agent_id=${DEMO_AGENT_ID}`, { signal: controller.signal });
  return {
    contentType: res.headers.get('content-type'),
    async collect(stop: (lines: string[]) => boolean): Promise<string[]> {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      const lines: string[] = [];
      let buffer = '';
      while (!stop(lines)) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        lines.push(...parts);
      }
      controller.abort();
      return lines;
    },
  };
}

describe('demo server: AgentScope endpoints', () => {
  it('session → stream → /chat/ delivers a whole reply as data frames, with heartbeat comments', async () => {
    const { session_id: sid } = (await (await post('/sessions/', { agent_id: DEMO_AGENT_ID })).json()) as { session_id: string };
    const stream = await openStream(sid);
    const trigger = await post('/chat/', { agent_id: DEMO_AGENT_ID, session_id: sid, input: { name: 'user', role: 'user', content: 'hi', metadata: { scenario: 'thinking' } } });
    expect(await trigger.json()).toEqual({ status: 'started', session_id: sid });
    const lines = await stream.collect((seen) => seen.some((l) => l.includes('"REPLY_END"')) && seen.includes(':'));
    expect(stream.contentType).toBe('text/event-stream');
    const data = lines.filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as { type: string });
    expect(data[0].type).toBe('REPLY_START');
    expect(data.map((e) => e.type)).toContain('THINKING_BLOCK_DELTA');
    expect(lines).toContain(':'); // the heartbeat comment line
    // Every data line is followed by a blank line (one event per frame).
    lines.forEach((l, i) => { if (l.startsWith('data: ')) expect(lines[i + 1]).toBe(''); });
  });

  it('answers errors as FastAPI does ({detail}) with the right status', async () => {
    const missing = await fetch(`${server.url}/sessions/nope/stream?agent_id=${DEMO_AGENT_ID}`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/not found/);
    const bad = await post('/chat/', { agent_id: DEMO_AGENT_ID });
    expect(bad.status).toBe(422);
    const notJson = await fetch(server.url + '/chat/', { method: 'POST', body: '{' });
    expect(notJson.status).toBe(422);
    expect((await fetch(server.url + '/nowhere')).status).toBe(404);
  });

  it('lists the scenarios for the page picker', async () => {
    const catalog = (await (await fetch(server.url + '/api/scenarios')).json()) as { agentscope: { name: string }[]; pi: { name: string }[] };
    expect(catalog.agentscope.map((s) => s.name)).toContain('broken');
    expect(catalog.pi.map((s) => s.name)).toEqual(PI_SCENARIOS.map((s) => s.name));
  });
});

const MODEL: Model<'anthropic-messages'> = {
  id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', api: 'anthropic-messages', provider: 'anthropic',
  baseUrl: 'https://api.anthropic.com', reasoning: true, input: ['text'],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 200000, maxTokens: 64000,
};

describe('demo server: pi proxy endpoint with the real streamProxy', () => {
  for (const scenario of PI_SCENARIOS) {
    it(`${scenario.name}: streamProxy rebuilds the intended message`, async () => {
      const stream = streamProxy(MODEL, { messages: [{ role: 'user', content: scenario.prompt, timestamp: 0 }] }, {
        proxyUrl: server.url, authToken: 'test-token', metadata: { scenario: scenario.name },
      });
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      const final = await stream.result();
      expect(types[0]).toBe('start');
      expect(final.stopReason).toBe(scenario.intent.stopReason);
      expect(final.content.flatMap((c) => (c?.type === 'text' ? [c.text] : []))).toEqual(scenario.intent.texts);
      if (scenario.intent.thinking) expect(final.content.flatMap((c) => (c?.type === 'thinking' ? [c.thinking] : []))).toEqual(scenario.intent.thinking);
      if (scenario.intent.toolCalls) {
        expect(final.content.flatMap((c) => (c?.type === 'toolCall' ? [{ name: c.name, arguments: c.arguments }] : []))).toEqual(scenario.intent.toolCalls);
      }
      if (scenario.intent.errorMessage) expect(final.errorMessage).toBe(scenario.intent.errorMessage);
      expect(final.model).toBe(MODEL.id);
    });
  }

  it('refuses a request without a bearer token the way streamProxy reports it', async () => {
    const stream = streamProxy(MODEL, { messages: [] }, { proxyUrl: server.url, authToken: '' });
    const final = await stream.result();
    expect(final.stopReason).toBe('error');
    expect(final.errorMessage).toBe('Proxy error: missing or malformed Bearer token');
  });
});

describe('npm run demo arguments', () => {
  it('reads --port/PORT/--fast/--heartbeat and rejects nonsense with a clear message', () => {
    expect(parseDemoArgs([], {})).toEqual({ port: 8765, fast: false, heartbeatMs: 30000 });
    expect(parseDemoArgs(['--port', '0', '--fast'], {})).toMatchObject({ port: 0, fast: true });
    expect(parseDemoArgs(['--heartbeat=500'], { PORT: '9000' })).toMatchObject({ port: 9000, heartbeatMs: 500 });
    expect(() => parseDemoArgs(['--port', 'abc'], {})).toThrow(/--port must be a non-negative integer/);
    expect(() => parseDemoArgs(['--bogus'], {})).toThrow(/unknown option --bogus/);
    expect(() => parseDemoArgs(['--port'], {})).toThrow(/needs a value/);
    // Number('') is 0: an empty value asked for any free port.
    expect(() => parseDemoArgs(['--port='], {})).toThrow('--port must be a non-negative integer, got ""');
    // PORT= as well (the viewer refuses it so): read as no PORT, the default port was still counted as asked for.
    expect(() => parseDemoArgs([], { PORT: '' })).toThrow('PORT must be a non-negative integer, got ""');
  });
});

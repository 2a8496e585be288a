// pi-ai and streamProxy mutate ONE shared message; a server serialises each event when it consumes it. When several
// proxy frames arrive in one network chunk, streamProxy applies them all before the consumer runs, so the
// `partial` an event carries already holds later deltas (and an Agent listener that awaits lags the same way).
// Streams serialised like that — by the real packages, not tampered with — must raise no pi.partial-mismatch;
// a carried text the deltas never build must still be reported, on the event that carried it.
import { Agent, streamProxy } from '@mariozechner/pi-agent-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Diagnostic } from '../../../src/core/diagnostics/types.ts';
import { endPiSession, feedPiText, startPiSession } from '../../../src/core/pi/session.ts';
import { sseBody } from '../analysis/support.ts';
import { piTestModel } from './support.ts';

const model = piTestModel({ reasoning: true });
const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const toolTurn = [
  { type: 'start' },
  { type: 'thinking_start', contentIndex: 0 },
  { type: 'thinking_delta', contentIndex: 0, delta: 'Read ' },
  { type: 'thinking_delta', contentIndex: 0, delta: 'it.' },
  { type: 'thinking_end', contentIndex: 0, contentSignature: 'sig' },
  { type: 'text_start', contentIndex: 1 },
  { type: 'text_delta', contentIndex: 1, delta: 'Reading ' },
  { type: 'text_delta', contentIndex: 1, delta: 'a.txt' },
  { type: 'text_end', contentIndex: 1 },
  { type: 'toolcall_start', contentIndex: 2, id: 'c1', toolName: 'read' },
  { type: 'toolcall_delta', contentIndex: 2, delta: '{"path":' },
  { type: 'toolcall_delta', contentIndex: 2, delta: '"a.txt"}' },
  { type: 'toolcall_end', contentIndex: 2 },
  { type: 'done', reason: 'toolUse', usage },
];
const textTurn = [
  { type: 'start' },
  { type: 'text_start', contentIndex: 0 },
  { type: 'text_delta', contentIndex: 0, delta: 'It says ' },
  { type: 'text_delta', contentIndex: 0, delta: 'hello.' },
  { type: 'text_end', contentIndex: 0 },
  { type: 'done', reason: 'stop', usage },
];

/** Each call to fetch answers the next body, all of it in ONE chunk (frames coalesced by the network). */
function serveInOneChunk(bodies: unknown[][]): void {
  let n = 0;
  vi.stubGlobal('fetch', async () => {
    const bytes = new TextEncoder().encode(sseBody(bodies[n++]));
    return new Response(new ReadableStream<Uint8Array>({ start(c) { c.enqueue(bytes); c.close(); } }), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
}

function diagnose(lines: string[], requestBody?: unknown): Diagnostic[] {
  const fed = feedPiText(startPiSession(requestBody), lines.map((l) => `data: ${l}\n\n`).join(''));
  return [...fed.diagnostics, ...endPiSession(fed.session)];
}
const mismatches = (ds: Diagnostic[]) => ds.filter((d) => d.code === 'pi.partial-mismatch').map((d) => `${d.index}: ${d.message}`);

afterEach(() => {
  vi.unstubAllGlobals();
});

async function assistantForm(): Promise<string[]> {
  serveInOneChunk([toolTurn]);
  const lines: string[] = [];
  // A server forwarding pi-ai events: serialised as it consumes them.
  for await (const ev of streamProxy(model as never, { messages: [] } as never, { proxyUrl: 'http://proxy.test', authToken: 't' })) lines.push(JSON.stringify(ev));
  return lines;
}

describe('carried messages ahead of their events (pi\'s shared message, serialised late)', () => {
  it('an AssistantMessageEvent stream raises no mismatch', async () => {
    const lines = await assistantForm();
    // The premise: the text_start event already carries the text of the deltas after it.
    expect(JSON.parse(lines[5]).partial.content[1].text).toBe('Reading a.txt');
    expect(mismatches(diagnose(lines))).toEqual([]);
  });

  it('an AgentEvent stream from a real Agent raises no mismatch', async () => {
    serveInOneChunk([toolTurn, textTurn]);
    const agent = new Agent({
      initialState: {
        model: model as never,
        systemPrompt: 's',
        tools: [{
          name: 'read', label: 'Read', description: 'read',
          parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } as never,
          execute: (async () => ({ content: [{ type: 'text', text: 'hello' }], details: {} })) as never,
        }],
      },
      streamFn: (m, c, o) => streamProxy(m, c, { ...o, proxyUrl: 'http://proxy.test', authToken: 't' }),
    });
    const lines: string[] = [];
    agent.subscribe((event) => {
      lines.push(JSON.stringify(event));
    });
    await agent.prompt('read a.txt');
    expect(lines.some((l) => l.includes('"tool_execution_end"'))).toBe(true);
    expect(mismatches(diagnose(lines))).toEqual([]);
  });

  it('a tool call carried mid-arguments, then as ended, raises no mismatch', () => {
    // Serialised at different lags: the start already shows the first delta's JSON, later events the ended call.
    const message = (block: Record<string, unknown>) => ({ role: 'assistant', stopReason: 'stop', content: [block], api: 'a', provider: 'p', model: 'm', usage, timestamp: 1 });
    const ahead = { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: '' }, partialJson: '{"path":"' };
    const ended = { type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'a.txt' } };
    const events = [
      { type: 'start', partial: message(ahead) },
      { type: 'toolcall_start', contentIndex: 0, partial: message(ahead) },
      { type: 'toolcall_delta', contentIndex: 0, delta: '{"path":"', partial: message(ended) },
      { type: 'toolcall_delta', contentIndex: 0, delta: 'a.txt"}', partial: message(ended) },
      { type: 'toolcall_end', contentIndex: 0, toolCall: ended, partial: message(ended) },
      { type: 'done', reason: 'toolUse', message: { ...message(ended), stopReason: 'toolUse' } },
    ];
    expect(mismatches(diagnose(events.map((e) => JSON.stringify(e))))).toEqual([]);
  });

  it('a carried text no delta builds is still reported, on the event that carried it', async () => {
    const lines = await assistantForm();
    const tampered = lines.map((l) => JSON.parse(l));
    // Ahead-looking (it extends what was built at text_start), but the deltas build "Reading a.txt".
    tampered[5].partial.content[1].text = 'Reading b.txt';
    const found = diagnose(tampered.map((e) => JSON.stringify(e))).filter((d) => d.code === 'pi.partial-mismatch');
    expect(found.length).toBe(1);
    expect(found[0].message).toContain('partial.content[1].text');
    expect(found[0].message).toContain('event 5');
  });
});

// A proxy server that forwards pi-ai's AssistantMessageEvents unstripped (with `partial`) to a streamProxy client:
// the REAL streamProxy ignores `partial` and rebuilds the message from the events' own fields — pi-ai's
// toolcall_start names no id or tool, its done carries no usage — so the app's tool calls have neither. The
// analysis of the capture (streamProxy's request body + that body) must end with the message the client holds and
// say why, not show the forwarded message the client never reads.
import { streamProxy } from '@mariozechner/pi-agent-core';
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider, streamSimple } from '@mariozechner/pi-ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { captureOf } from '../analysis/support.ts';
import { piTestModel, piTestContext } from './support.ts';

const model = piTestModel();
const context = piTestContext;

/** pi-ai's own events for a reply with text and a tool call, serialised one by one as a forwarding server would. */
async function piAiEventsAsSse(): Promise<string> {
  const faux = registerFauxProvider({ tokenSize: { min: 2, max: 4 } });
  try {
    faux.setResponses([fauxAssistantMessage([fauxText('Reading it.'), fauxToolCall('read', { path: 'a.txt' }, { id: 'call_1' })], { stopReason: 'toolUse' })]);
    let body = '';
    for await (const ev of streamSimple(faux.getModel(), context as never, {})) body += `data: ${JSON.stringify(ev)}\n\n`;
    return body;
  } finally {
    faux.unregister();
  }
}

const noTimestamp = (m: unknown) => {
  const { timestamp: _t, ...rest } = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  return rest;
};
const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('pi-ai events forwarded unstripped to streamProxy', () => {
  it('reconstruct as the real client holds them, and say why', async () => {
    const body = await piAiEventsAsSse();
    const bytes = new TextEncoder().encode(body);
    vi.stubGlobal('fetch', async () => new Response(bytes, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    const stream = streamProxy(model as never, context as never, { proxyUrl: 'http://proxy.test', authToken: 't' });
    for await (const _ of stream) {
      // drain
    }
    const real = noTimestamp(await stream.result());
    // The premise: the client's tool call has no id and no name.
    expect((real.content as Record<string, unknown>[]).find((b) => b.type === 'toolCall')).toEqual({ type: 'toolCall', arguments: { path: 'a.txt' } });

    const [conn] = analyzeCapture({ header, records: captureOf([bytes], { requestBody: { model, context, options: {} } }) });
    expect(conn.dialect).toBe('pi-proxy');
    const [reply] = conn.replies;
    expect(noTimestamp(reply.history.at(reply.history.length - 1))).toEqual(real);
    const codes = reply.diagnostics.map((d) => d.code);
    expect(codes[0]).toBe('pi.partial-ignored');
    expect(codes.filter((c) => c === 'pi.partial-ignored')).toHaveLength(1);
    expect(reply.diagnostics.some((d) => d.code === 'pi.invalid-event' && /toolName/.test(d.message))).toBe(true);
  });

  it('without streamProxy\'s request (a bare body) they are read as pi-ai\'s form', async () => {
    const [conn] = analyzeCapture({ header, records: captureOf([new TextEncoder().encode(await piAiEventsAsSse())]) });
    expect(conn.dialect).toBe('pi-assistant');
    expect(conn.replies[0].diagnostics).toEqual([]);
  });
});

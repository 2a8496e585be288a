// What pi-agent-core's REAL streamProxy sends and ends with, over real HTTP: a server on 127.0.0.1 records the
// request exactly as it arrived and answers with the given body; the client's final message comes back with it.
// A long conversation's context is what passes the tap's 1 MiB request body cap.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamProxy } from '@mariozechner/pi-agent-core';

export interface ProxyAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface ProxyExchange {
  /** The request body as the server received it (UTF-8), and its headers. */
  sent: string;
  sentBytes: number;
  headers: http.IncomingHttpHeaders;
  /** What the client's result() settled with (undefined while it never settles). */
  message: Record<string, unknown> | undefined;
}

/** Runs the real streamProxy(model, context, options) against a loopback server answering with `answer`. */
export async function realProxyExchange(model: unknown, context: unknown, answer: ProxyAnswer, options: Record<string, unknown> = {}): Promise<ProxyExchange> {
  let received: { body: Buffer; headers: http.IncomingHttpHeaders } | undefined;
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      received = { body: Buffer.concat(parts), headers: req.headers };
      res.writeHead(answer.status, { 'content-type': answer.contentType });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const stream = streamProxy(model as never, context as never, { ...options, proxyUrl, authToken: 'token-t' });
    for await (const _ of stream) {
      // drain
    }
    const pending = Symbol('pending');
    const settled = await Promise.race([stream.result(), new Promise((r) => setTimeout(() => r(pending), 50))]);
    if (!received) throw new Error('streamProxy sent no request');
    return {
      sent: received.body.toString('utf8'),
      sentBytes: received.body.length,
      headers: received.headers,
      message: settled === pending ? undefined : (JSON.parse(JSON.stringify(settled)) as Record<string, unknown>),
    };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * A pi conversation of `turns` user/assistant exchanges, as an agent posts it anew each turn: ~3.4 KB a turn, with
 * text that is not ASCII (the tap cuts at a character boundary below the cap, in bytes).
 */
export function longPiContext(turns: number) {
  const messages: unknown[] = [];
  for (let k = 0; k < turns; k++) {
    messages.push({ role: 'user', content: `Frage ${k}: Grüße — was steht in der Datei? 🙂 `.padEnd(1500, '.'), timestamp: k });
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `Answer ${k}: the file says “context” and {"model": …} `.padEnd(1800, '-') }],
      api: 'openai-completions', provider: 'p', model: 'm',
      usage: { input: 10, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 30, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: 'stop', timestamp: k,
    });
  }
  return { systemPrompt: 'You are a helpful assistant.', messages };
}

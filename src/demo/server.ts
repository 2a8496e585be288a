// The demo agent backend: an HTTP server on 127.0.0.1 speaking the AgentScope service protocol (sessions, the
// long-lived session stream, the fire-and-forget chat trigger) and a pi proxy endpoint, plus the demo page. The
// session stream is also served over a WebSocket (one event per text message), for apps that read agents that way.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { realIds, type IdSource } from './wire/ids.ts';
import { SessionHub } from './session-hub.ts';
import { InputError } from './normalize-input.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { PI_SCENARIOS } from './pi/pi-scenarios.ts';
import { handlePiStream } from './pi/pi-endpoint.ts';
import { PAGE_SOURCE_DIR } from './paths.ts';
import { DEMO_AGENT_ID, DEMO_AGENT_NAME } from './constants.ts';

export interface DemoServerOptions {
  /** 0 = any free port. */
  port?: number;
  host?: string;
  /** Skip realistic pauses (tests). */
  fast?: boolean;
  /** Heartbeat comment interval on session streams; the service uses 30 s. */
  heartbeatMs?: number;
  ids?: IdSource;
  /** Directory holding the built page bundle (demo.js); without it the page explains how to build it. */
  bundleDir?: string;
}

export interface DemoServer {
  url: string;
  port: number;
  hub: SessionHub;
  close(): Promise<void>;
}

export { DEMO_AGENT_ID, DEMO_AGENT_NAME };
const BODY_LIMIT = 1 << 20;

export async function startDemoServer(opts: DemoServerOptions = {}): Promise<DemoServer> {
  const speed = opts.fast ? 0 : 1;
  const hub = new SessionHub({ ids: opts.ids ?? realIds, speed, agentName: DEMO_AGENT_NAME });
  const heartbeatMs = opts.heartbeatMs ?? 30_000;

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      const status = err instanceof InputError ? err.status : 500;
      if (status === 500) console.error('[demo] request failed:', err);
      if (!res.headersSent) sendJson(res, status, { detail: err instanceof Error ? err.message : String(err) });
      else res.end();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';

    if (method === 'GET' && (path === '/' || path === '/index.html')) {
      return sendFile(res, join(PAGE_SOURCE_DIR, 'index.html'), 'text/html; charset=utf-8');
    }
    const asset = /^\/assets\/(demo\.js(?:\.map)?)$/.exec(path);
    if (method === 'GET' && asset) {
      if (!opts.bundleDir) return sendJson(res, 404, { detail: 'The page bundle was not built (start with `npm run demo`).' });
      return sendFile(res, join(opts.bundleDir, asset[1]), asset[1].endsWith('.map') ? 'application/json' : 'text/javascript; charset=utf-8');
    }
    if (method === 'GET' && path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    if (method === 'GET' && path === '/api/scenarios') {
      return sendJson(res, 200, {
        agent_id: DEMO_AGENT_ID,
        agentscope: SCENARIOS.map(({ name, title, prompt, description, hitl }) => ({ name, title, prompt, description, hitl: hitl ?? null })),
        pi: PI_SCENARIOS.map(({ name, title, prompt, description }) => ({ name, title, prompt, description })),
      });
    }
    if (method === 'POST' && path === '/sessions/') {
      const body = parseJson(await readBody(req));
      const agentId = (body as { agent_id?: unknown }).agent_id;
      if (typeof agentId !== 'string') throw new InputError('agent_id: field required');
      return sendJson(res, 200, { session_id: hub.createSession(agentId) });
    }
    const stream = /^\/sessions\/([^/]+)\/stream$/.exec(path);
    if (method === 'GET' && stream) {
      const agentId = url.searchParams.get('agent_id');
      if (!agentId) throw new InputError('agent_id: query parameter required');
      const sessionId = decodeURIComponent(stream[1]);
      if (!hub.has(sessionId, agentId)) throw new InputError(`Session '${sessionId}' not found.`, 404);
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
      res.flushHeaders();
      // As the service: a `:` comment after every `heartbeatMs` without an event (its queue.get timeout).
      let heartbeat: NodeJS.Timeout | undefined;
      const arm = () => {
        clearTimeout(heartbeat);
        heartbeat = setTimeout(() => {
          res.write(':\n\n');
          arm();
        }, heartbeatMs);
      };
      const unsubscribe = hub.subscribe(sessionId, agentId, (frame) => {
        res.write(frame);
        arm();
      });
      arm();
      res.on('close', () => {
        clearTimeout(heartbeat);
        unsubscribe();
      });
      return;
    }
    if (method === 'POST' && path === '/chat/') {
      const body = parseJson(await readBody(req)) as { agent_id?: unknown; session_id?: unknown; input?: unknown };
      if (typeof body.agent_id !== 'string') throw new InputError('agent_id: field required');
      if (typeof body.session_id !== 'string') throw new InputError('session_id: field required');
      if (!('input' in body)) throw new InputError('input: field required');
      return sendJson(res, 200, hub.trigger(body.session_id, body.agent_id, body.input));
    }
    if (method === 'POST' && path === '/api/stream') {
      return handlePiStream(req, res, await readBody(req), { speed });
    }
    sendJson(res, 404, { detail: 'Not Found' });
  }

  // GET /sessions/{id}/ws?agent_id=…: the session stream over a WebSocket, each event's JSON as one text message.
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://demo.invalid');
    const match = /^\/sessions\/([^/]+)\/ws$/.exec(url.pathname);
    const agentId = url.searchParams.get('agent_id');
    const sessionId = match ? decodeURIComponent(match[1]) : '';
    if (!match || !agentId || !hub.has(sessionId, agentId)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      const unsubscribe = hub.subscribe(sessionId, agentId, (frame) => {
        const data = eventDataOf(frame);
        if (data !== undefined) ws.send(data);
      });
      ws.on('close', unsubscribe);
    });
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    hub,
    close: () =>
      new Promise<void>((resolve) => {
        hub.closeAll();
        for (const ws of sockets.clients) ws.terminate();
        // Long-lived streams and Chromium keep-alive sockets would otherwise hold close() forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The event JSON of an SSE frame the hub writes (its `data:` lines joined, as an SSE reader would). */
function eventDataOf(frame: string): string | undefined {
  const lines = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(l.startsWith('data: ') ? 6 : 5));
  return lines.length ? lines.join('\n') : undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new InputError(`request body larger than ${BODY_LIMIT} bytes`, 413);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InputError(`body is not valid JSON: ${(err as Error).message}`);
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function sendFile(res: ServerResponse, file: string, type: string): Promise<void> {
  const data = await readFile(file);
  res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(data);
}

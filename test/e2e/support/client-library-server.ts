// A loopback agent backend for the client-library e2e spec (capture-client-libraries.spec.ts): an app page that loads
// the real npm client libraries (bundled by esbuild from client-library-page.ts), and one SSE endpoint that sends an
// AgentScope, pi streamProxy or AI SDK reply frame by frame, resumes after a Last-Event-ID (header or `lastEventId`
// query, as the libraries send it), and logs each connection's bytes — so the spec compares what the page and the
// capture got with what the server really sent, nothing expected hard-coded.
import type http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import { agentEvents } from './agent-server.ts';
import { startServer, writeAndWait, type TestServer } from './server.ts';

/** One request to /sse. */
export interface SseConnection {
  /** The Last-Event-ID it resumed from (the header, else the `lastEventId` query), if any. */
  lastEventId: string | undefined;
  headers: http.IncomingHttpHeaders;
  /** The body bytes, in the pieces written. */
  sent: Buffer[];
  finished: boolean;
  /** The client went away before the server ended the response. */
  clientClosed: boolean;
  closed: Promise<void>;
}

export interface ClientLibraryServer extends TestServer {
  /** The connections made to /sse?id=…, in order. */
  connections(id: string): SseConnection[];
  /** Lets a stream held with `hold=K` go on. */
  release(id: string): void;
}

/** The reply's text deltas: multi-byte characters, one of them cut across two writes (see framesOf). */
/** The AgentScope reply's id (pi's replies get theirs from the analysis). */
export const REPLY_ID = 'reply-1';

export const DELTAS = ['Héllo, ', 'wörld ', '世界 ', '🙂🙂', ' done'];

const PI_USAGE = { input: 3, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 8, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** The frames of one reply in `dialect`, each an SSE event with an `id:` (the AI SDK's protocol has none). */
function framesOf(dialect: string, replyId: string): string[] {
  if (dialect === 'aisdk') {
    return [{ type: 'start' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }, ...DELTAS.map((delta) => ({ type: 'text-delta', id: 't1', delta })),
      { type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' }, '[DONE]'].map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`);
  }
  const data = dialect === 'pi'
    ? [{ type: 'start' }, { type: 'text_start', contentIndex: 0 }, ...DELTAS.map((delta) => ({ type: 'text_delta', contentIndex: 0, delta })),
      { type: 'text_end', contentIndex: 0 }, { type: 'done', reason: 'stop', usage: PI_USAGE }].map((e) => `data: ${JSON.stringify(e)}\n\n`)
    : agentEvents(replyId, DELTAS);
  return data.map((frame, k) => `id: e${k + 1}\n${frame}`);
}

/** The number of frames of a reply in `dialect`. */
export function frameCount(dialect: string): number {
  return framesOf(dialect, 'r').length;
}

/**
 * /sse?id=ID — `dialect=agentscope|pi|aisdk` (agentscope); `retry=MS` sends a retry: field first; `hold=K` holds the
 * first connection after K frames until release(ID) or the client goes; `then=done` keeps a connection that has
 * nothing left to send open after an `event: done` (an EventSource that would reconnect is closed by the page on it).
 */
async function serveSse(req: http.IncomingMessage, res: http.ServerResponse, url: URL, logs: Map<string, SseConnection[]>, holds: Map<string, () => void>): Promise<void> {
  const p = url.searchParams;
  const id = p.get('id') ?? 'anon';
  const header = req.headers['last-event-id'];
  let onClosed!: () => void;
  const conn: SseConnection = {
    lastEventId: typeof header === 'string' ? header : p.get('lastEventId') ?? undefined, headers: req.headers, sent: [],
    finished: false, clientClosed: false, closed: new Promise((r) => (onClosed = r)),
  };
  for await (const _ of req); // (a POST body: read, not needed)
  const all = logs.get(id) ?? [];
  logs.set(id, all);
  all.push(conn);
  res.on('close', () => {
    if (!conn.finished) conn.clientClosed = true;
    onClosed();
  });
  const dialect = p.get('dialect') ?? 'agentscope';
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store',
    ...(dialect === 'aisdk' ? { 'x-vercel-ai-ui-message-stream': 'v1' } : {}),
  });
  res.flushHeaders();
  const write = async (text: string | Buffer): Promise<void> => {
    const bytes = Buffer.from(text);
    conn.sent.push(bytes);
    await writeAndWait(res, bytes);
    await new Promise((r) => setImmediate(r)); // separate writes, separate chunks as often as the network allows
  };
  const frames = framesOf(dialect, REPLY_ID); // one reply id for every run: the page logs compare across runs
  const from = conn.lastEventId === undefined ? 0 : Number(conn.lastEventId.slice(1));
  if (all.length === 1) await write(`: hello${p.has('retry') ? `\nretry: ${p.get('retry')}` : ''}\n\n`);
  const hold = all.length === 1 && p.has('hold') ? Number(p.get('hold')) : -1;
  for (let k = from; k < frames.length && !conn.clientClosed; k++) {
    if (k === hold) {
      await Promise.race([new Promise<void>((r) => holds.set(id, r)), conn.closed]);
      if (conn.clientClosed) return;
    }
    const bytes = Buffer.from(frames[k]);
    const emoji = bytes.indexOf(Buffer.from('🙂'));
    if (emoji === -1) await write(bytes);
    else {
      // A character cut across two writes: each decoder on the way must carry its first bytes over.
      await write(bytes.subarray(0, emoji + 2));
      await write(bytes.subarray(emoji + 2));
    }
  }
  if (from >= frames.length && p.get('then') === 'done') {
    await write('event: done\ndata: {}\n\n');
    await conn.closed;
    return;
  }
  if (conn.clientClosed) return;
  conn.finished = true;
  res.end();
}

/** The page script: the client libraries and the page's readers (client-library-page.ts), bundled for the browser. */
async function bundlePageScript(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(import.meta.dirname, 'client-library-page.ts')],
    bundle: true, write: false, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

export async function startClientLibraryServer(): Promise<ClientLibraryServer> {
  const script = await bundlePageScript();
  const logs = new Map<string, SseConnection[]>();
  const holds = new Map<string, () => void>();
  const server = await startServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><meta charset="utf-8"><title>clients</title><script src="/clients.js"></script><h1>clients</h1>');
    } else if (url.pathname === '/clients.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
    } else if (url.pathname === '/sse') await serveSse(req, res, url, logs, holds);
    else res.writeHead(404).end();
  });
  return {
    ...server,
    connections: (id) => logs.get(id) ?? [],
    release(id) {
      holds.get(id)?.();
      holds.delete(id);
    },
  };
}

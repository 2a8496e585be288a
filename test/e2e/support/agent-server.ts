// A loopback "agent backend" for capture e2e tests: an app page, and stream endpoints that send AgentScope-like SSE
// in controlled pieces and log exactly which bytes went out, so a test compares page bytes and captured bytes with
// what the server really sent (nothing expected is hard-coded).
import type http from 'node:http';
import { gzipSync } from 'node:zlib';
import { startServer, writeAndWait, type TestServer } from './server.ts';

export interface StreamLog {
  id: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body bytes before content-encoding, in the pieces written. */
  sent: Buffer[];
  /** Bytes the server managed to hand to the socket so far (uncompressed). */
  written: number;
  /** Times write() returned false (the socket pushed back). */
  pushedBack: number;
  finished: boolean;
  /** The client went away (socket closed before the server ended the response). */
  clientClosed: boolean;
  closedPromise: Promise<void>;
}

export interface AgentServer extends TestServer {
  log(id: string): StreamLog;
  /** Resolves once a request with this id arrived. */
  arrived(id: string): Promise<StreamLog>;
  /** Release a stream held open with `hold=1`. */
  release(id: string): void;
  /** The connections an EventSource made to /es?id=…, with the events each one was sent. */
  eventSourceLog(id: string): EsConnectionLog[];
}

export interface EsEvent {
  type: string;
  data: string;
  id?: string;
}

export interface EsConnectionLog {
  lastEventId: string | undefined;
  events: EsEvent[];
}

/**
 * An EventSource endpoint: the first connection sends named and unnamed events (with ids, a retry: field, comments
 * and an event type nobody listens for), then ends the body; the browser reconnects with Last-Event-ID and the
 * second connection sends the rest, ending with `done` (the page closes the EventSource on it). `resume=1`: one
 * AgentScope reply split over the two connections, the second resuming after the Last-Event-ID.
 */
async function serveEventSource(req: http.IncomingMessage, res: http.ServerResponse, id: string, logs: Map<string, EsConnectionLog[]>, resume: boolean, each = 0): Promise<void> {
  const connections = logs.get(id) ?? [];
  logs.set(id, connections);
  const last = req.headers['last-event-id'];
  const log: EsConnectionLog = { lastEventId: typeof last === 'string' ? last : undefined, events: [] };
  connections.push(log);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  const send = async (ev: EsEvent, extra = ''): Promise<void> => {
    log.events.push(ev);
    const lines = `${extra}${ev.type === 'message' ? '' : `event: ${ev.type}\n`}${ev.id !== undefined ? `id: ${ev.id}\n` : ''}`;
    await writeAndWait(res, lines + ev.data.split('\n').map((l) => `data: ${l}\n`).join('') + '\n');
  };
  if (each > 0) {
    // `each=N`: one event per response, N responses (the browser reconnecting after each, 10 ms later), then `done`.
    if (connections.length === 1) await writeAndWait(res, 'retry: 10\n\n');
    if (connections.length > each) {
      await send({ type: 'done', data: '{}' });
      await new Promise<void>((resolve) => res.on('close', () => resolve()));
      return;
    }
    await send({ type: 'message', data: String(connections.length), id: String(connections.length) });
    res.end();
    return;
  }
  if (resume) {
    // One AgentScope reply the server sends over two responses: the second resumes after the Last-Event-ID the
    // browser sent (as a server that keeps its replies does), then `done`.
    const events = agentEvents('r-resume', ['Hel', 'lo']).map((frame, i) => ({ type: 'message', data: frame.slice('data: '.length).trim(), id: String(i + 1) }));
    if (connections.length === 1) await writeAndWait(res, 'retry: 50\n\n');
    const from = connections.length === 1 ? 0 : Number(log.lastEventId ?? 0);
    const to = connections.length === 1 ? 3 : events.length;
    for (const ev of events.slice(from, to)) await send(ev);
    if (connections.length === 1) {
      res.end();
      return;
    }
    await send({ type: 'done', data: '{}' });
    await new Promise<void>((resolve) => res.on('close', () => resolve()));
    return;
  }
  if (connections.length === 1) {
    await writeAndWait(res, ': connected\nretry: 50\n\n');
    await send({ type: 'message', data: JSON.stringify({ type: 'REPLY_START', reply_id: 'r1' }), id: '1' });
    await send({ type: 'agent', data: 'line one\nline two — ünïcode 🙂', id: '2' });
    await send({ type: 'ignored-by-page', data: 'nobody listens', id: '3' });
    await send({ type: 'message', data: JSON.stringify({ type: 'TEXT_BLOCK_DELTA', delta: '世界' }) });
    res.end();
    return;
  }
  await send({ type: 'agent', data: 'after reconnect', id: '4' });
  await send({ type: 'done', data: '{}', id: '5' });
  // The page closes the EventSource on `done`; keep the body open until it does.
  await new Promise<void>((resolve) => res.on('close', () => resolve()));
}

/** One SSE frame per AgentScope-like event; `eol` lets a test use CRLF. */
export function agentEvents(replyId: string, text: string[], eol = '\n'): string[] {
  let n = 0;
  const ev = (o: Record<string, unknown>): string =>
    `data: ${JSON.stringify({ id: `evt-${++n}`, created_at: '2026-03-01T09:00:00', reply_id: replyId, ...o })}${eol}${eol}`;
  return [
    ev({ type: 'REPLY_START', session_id: 's1', name: 'Friday' }),
    ev({ type: 'TEXT_BLOCK_START', block_id: 'b1' }),
    ...text.map((delta) => ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b1', delta })),
    ev({ type: 'TEXT_BLOCK_END', block_id: 'b1' }),
    ev({ type: 'REPLY_END', session_id: 's1' }),
  ];
}

/** The default stream: heartbeats, multi-byte text, and pieces cut through the middle of UTF-8 characters. */
export function defaultPieces(eol = '\n'): Buffer[] {
  const frames = agentEvents('reply-1', ['Héllo, ', 'wörld ', '世界 ', '🙂🙂', ' done'], eol);
  const whole = Buffer.from(`:${eol}: heartbeat${eol}${eol}` + frames.join('') + `: bye${eol}${eol}`, 'utf8');
  // Cut into pieces at awkward places: inside the 4-byte emoji and inside a 3-byte CJK character.
  const emoji = whole.indexOf(Buffer.from('🙂', 'utf8'));
  const cjk = whole.indexOf(Buffer.from('界', 'utf8'));
  const cuts = [...new Set([7, cjk + 1, cjk + 2, emoji + 1, emoji + 3, emoji + 6, whole.length - 5])].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let at = 0;
  for (const cut of cuts) {
    if (cut > at && cut < whole.length) {
      pieces.push(whole.subarray(at, cut));
      at = cut;
    }
  }
  pieces.push(whole.subarray(at));
  return pieces;
}

function appPage(params: URLSearchParams): string {
  const iframe = params.get('iframe');
  return `<!doctype html><html><head><meta charset="utf-8"><title>app</title>
<script>
  // The page's first script: note what it can see before anything else runs.
  window.__firstScript = { fetchName: fetch.name, fetchLength: fetch.length, esName: typeof EventSource === 'function' ? EventSource.name : '',
    xhrOpenLength: XMLHttpRequest.prototype.open.length, tapped: Function.prototype.toString.call(fetch).indexOf('[native code]') < 0,
    looksNative: String(fetch).indexOf('[native code]') >= 0 };
  window.__leakedPorts = [];
  // Anything a page can try to catch the tap's port with.
  for (const type of ['message', 'replyscope:tap-port', 'replyscope:relay-ready']) {
    window.addEventListener(type, (e) => { if (e.ports && e.ports.length) window.__leakedPorts.push(type); }, true);
  }
</script></head><body><h1>app</h1>${iframe ? `<iframe id="child" src="${iframe}"></iframe>` : ''}</body></html>`;
}

export async function startAgentServer(): Promise<AgentServer> {
  const logs = new Map<string, StreamLog>();
  const waiters = new Map<string, ((log: StreamLog) => void)[]>();
  const holds = new Map<string, () => void>();
  const released = new Set<string>(); // released before the stream reached its hold point
  const esLogs = new Map<string, EsConnectionLog[]>();

  const server = await startServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.searchParams;
    if (url.pathname === '/app' || url.pathname === '/frame') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(appPage(p));
      return;
    }
    if (url.pathname === '/redirect') { // to the stream endpoint, query kept
      res.writeHead(302, { location: `/stream${url.search}` }).end();
      return;
    }
    if (url.pathname === '/plain') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
      return;
    }
    if (url.pathname === '/es') {
      await serveEventSource(req, res, p.get('id') ?? 'es', esLogs, p.has('resume'), Number(p.get('each') ?? 0));
      return;
    }
    if (url.pathname !== '/stream') {
      res.writeHead(404).end();
      return;
    }
    const id = p.get('id') ?? 'anon';
    let body = '';
    for await (const part of req) body += String(part);
    let onClosed!: () => void;
    const log: StreamLog = {
      id, method: req.method ?? 'GET', headers: req.headers, body, sent: [], written: 0, pushedBack: 0,
      finished: false, clientClosed: false, closedPromise: new Promise((r) => (onClosed = r)),
    };
    logs.set(id, log);
    res.on('close', () => {
      if (!log.finished) log.clientClosed = true;
      onClosed();
    });
    for (const w of waiters.get(id) ?? []) w(log);
    waiters.delete(id);

    const eol = p.get('crlf') ? '\r\n' : '\n';
    const contentType = p.get('type') ?? 'text/event-stream; charset=utf-8';
    const status = Number(p.get('status') ?? 200);
    // `aisdk=1`: a Vercel AI SDK UI message stream (streamText().toUIMessageStreamResponse()), with its header.
    const aiSdk = p.has('aisdk') ? { 'x-vercel-ai-ui-message-stream': 'v1' } : {};
    const pieces = p.get('aisdk')
      ? [{ type: 'start' }, { type: 'start-step' }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Héllo' },
        { type: 'text-end', id: 't1' }, { type: 'finish-step' }, { type: 'finish' }, '[DONE]'].map((part) => Buffer.from(`data: ${typeof part === 'string' ? part : JSON.stringify(part)}\n\n`))
      : p.get('big')
      ? Array.from({ length: Number(p.get('big')) }, (_, i) => Buffer.from(`data: ${String(i).padStart(8, '0')} ${'x'.repeat(65_000)}\n\n`))
      : defaultPieces(eol);
    if (p.get('gzip')) {
      // Compress the whole body at once (a streaming gzip would need a flush per piece); the page and the capture
      // still see the decompressed bytes, which are what the log compares against.
      const all = Buffer.concat(pieces);
      res.writeHead(status, { 'content-type': contentType, 'content-encoding': 'gzip', 'cache-control': 'no-store' });
      log.sent.push(all);
      log.written = all.length;
      log.finished = true;
      res.end(gzipSync(all));
      return;
    }
    // `cors=1`: readable from a frame of another (or an opaque) origin, e.g. a data: iframe.
    res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'x-accel-buffering': 'no', ...aiSdk, ...(p.get('cors') ? { 'access-control-allow-origin': '*' } : {}) });
    res.flushHeaders();
    const stopAfter = p.has('stopAfter') ? Number(p.get('stopAfter')) : Infinity;
    for (let i = 0; i < pieces.length; i++) {
      if (log.clientClosed) return;
      if (i === stopAfter) {
        if (p.get('then') === 'destroy') {
          // Chromium drops bytes still in its pipe when the error overtakes them (with or without the extension),
          // so a test can hold the failure back (`wait=1`) until it knows the page has read what was sent.
          if (p.get('wait') && !released.has(id)) await Promise.race([new Promise<void>((r) => holds.set(id, r)), log.closedPromise]);
          // Network error mid-stream: close the socket without the final chunk (ERR_INCOMPLETE_CHUNKED_ENCODING).
          // A FIN, not a reset, so the bytes already sent still reach the page.
          res.socket?.end();
          return;
        }
        // hold: wait until the test releases the stream (or the client goes away)
        if (!released.has(id)) await Promise.race([new Promise<void>((r) => holds.set(id, r)), log.closedPromise]);
        if (log.clientClosed) return;
      }
      log.sent.push(pieces[i]);
      const drained = await writeAndWait(res, pieces[i]);
      if (!drained) log.pushedBack += 1;
      log.written += pieces[i].length;
      // Separate TCP writes so pieces arrive as separate chunks as often as the network allows.
      await new Promise((r) => setImmediate(r));
    }
    log.finished = true;
    res.end();
  });

  return {
    ...server,
    log(id) {
      const log = logs.get(id);
      if (!log) throw new Error(`no request with id ${id}`);
      return log;
    },
    arrived(id) {
      const log = logs.get(id);
      if (log) return Promise.resolve(log);
      return new Promise((resolve) => waiters.set(id, [...(waiters.get(id) ?? []), resolve]));
    },
    eventSourceLog(id) {
      return esLogs.get(id) ?? [];
    },
    release(id) {
      released.add(id);
      holds.get(id)?.();
      holds.delete(id);
    },
  };
}

// fetch streams in real Chromium with the built extension: the page gets exactly the server's bytes, the capture
// holds exactly the server's bytes, and the end state matches what happened.
import { expect, test, type Page } from '@playwright/test';
import { analyzeCapture } from '../../src/core/analysis/analyze.ts';
import { defaultPieces, type AgentServer } from './support/agent-server.ts';
import { waitForCapture } from './support/capture.ts';
import type { ExtensionBrowser } from './support/extension.ts';
import { useWatchedAgentPage } from './support/watched-agent-page.ts';

let ext: ExtensionBrowser;
let server: AgentServer;
let page: Page;
let tabId: number;

useWatchedAgentPage((parts) => ({ ext, server, page, tabId } = parts));

interface ReadResult {
  bytes: string; // base64
  error?: string;
  status: number;
}

/** Reads a fetch body in the page the way an agent UI does (reader loop), optionally aborting or cancelling. */
function readInPage(
  url: string,
  opts: { init?: RequestInit; abortAfter?: number; cancelAfter?: number } = {},
): Promise<ReadResult> {
  return page.evaluate(async ({ url, opts }) => {
    const ctrl = new AbortController();
    const res = await fetch(url, { ...opts.init, signal: ctrl.signal });
    const reader = res.body!.getReader();
    const parts: number[] = [];
    let error: string | undefined;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const b of value) parts.push(b);
        if (opts.abortAfter && parts.length >= opts.abortAfter) ctrl.abort();
        if (opts.cancelAfter && parts.length >= opts.cancelAfter) {
          await reader.cancel('page has enough');
          break;
        }
      }
    } catch (e) {
      error = `${(e as Error).name}: ${(e as Error).message}`;
    }
    let bin = '';
    for (const b of parts) bin += String.fromCharCode(b);
    return { bytes: btoa(bin), error, status: res.status };
  }, { url, opts });
}

const b64 = (buf: Buffer): string => buf.toString('base64');

test('GET stream with heartbeats and UTF-8 split across chunks: page and capture get the server bytes', async () => {
  const id = 'get-basic';
  const result = await readInPage(`/stream?id=${id}`);
  const sent = Buffer.concat(server.log(id).sent);
  expect(result.error).toBeUndefined();
  expect(result.bytes).toBe(b64(sent));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.bytes.equals(sent)).toBe(true);
  expect(cap.end?.state).toBe('complete');
  expect(cap.connection.method).toBe('GET');
  expect(cap.connection.status).toBe(200);
  expect(cap.connection.transport).toBe('fetch');
  expect(cap.connection.responseHeaders).toContainEqual(['content-type', 'text/event-stream; charset=utf-8']);
  // Each chunk carries its own arrival time, in order, and the byte counts add up to the body.
  const times = cap.chunks.map((c) => c.t);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
  expect(cap.chunks.reduce((n, c) => n + c.bytes, 0)).toBe(sent.length);
});

test('a long-lived stream shows up while still open, then completes', async () => {
  const id = 'long-lived';
  const reading = readInPage(`/stream?id=${id}&stopAfter=2&then=hold`);
  const log = await server.arrived(id);
  // Wire byte counts, not payload: the second piece ends inside a character, whose first byte the capture carries
  // into the record of the piece that completes it.
  const wire = (c: { chunks: { bytes: number }[] }): number => c.chunks.reduce((n, ch) => n + ch.bytes, 0);
  const open = await waitForCapture(ext, tabId, `id=${id}`, (c) => log.sent.length === 2 && wire(c) === log.written);
  expect(open.end).toBeUndefined();
  expect(open.bytes.equals(Buffer.concat(log.sent).subarray(0, open.bytes.length))).toBe(true);
  server.release(id);
  const result = await reading;
  const sent = Buffer.concat(server.log(id).sent);
  expect(result.bytes).toBe(b64(sent));
  const done = await waitForCapture(ext, tabId, `id=${id}`);
  expect(done.bytes.equals(sent)).toBe(true);
  expect(done.end?.state).toBe('complete');
});

test('POST with a JSON body: body captured, secrets masked in the capture but sent unchanged', async () => {
  const id = 'post-json';
  const body = JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'Grüße 👋' }] });
  const result = await readInPage(`/stream?id=${id}`, {
    init: { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-secret', 'x-trace': 't1' }, body },
  });
  const log = server.log(id);
  expect(log.body).toBe(body);
  expect(log.headers.authorization).toBe('Bearer sk-secret');
  expect(result.bytes).toBe(b64(Buffer.concat(log.sent)));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.connection.method).toBe('POST');
  expect(cap.connection.requestBody).toEqual({ text: body, size: Buffer.byteLength(body) });
  expect(cap.connection.requestHeaders).toContainEqual(['authorization', '•••']);
  expect(cap.connection.requestHeaders).toContainEqual(['x-trace', 't1']);
  expect(cap.bytes.equals(Buffer.concat(log.sent))).toBe(true);
});

test('CRLF line endings and gzip-compressed bodies are captured as the page reads them', async () => {
  for (const variant of ['crlf=1', 'gzip=1', 'gzip=1&crlf=1']) {
    const id = `variant-${variant.replace(/[=&]/g, "")}`;
    const result = await readInPage(`/stream?id=${id}&${variant}`);
    const sent = Buffer.concat(server.log(id).sent);
    expect(result.bytes, variant).toBe(b64(sent));
    const cap = await waitForCapture(ext, tabId, `id=${id}`);
    expect(cap.bytes.equals(sent), variant).toBe(true);
    expect(cap.end?.state).toBe('complete');
  }
});

test('the page aborts mid-stream: AbortError for the page, "aborted" in the capture, the server sees the close', async () => {
  const id = 'abort';
  const before = defaultPieces().slice(0, 3);
  const reading = readInPage(`/stream?id=${id}&stopAfter=3&then=hold`, { abortAfter: Buffer.concat(before).length });
  const result = await reading;
  expect(result.error).toMatch(/^AbortError/);
  const log = server.log(id);
  await log.closedPromise;
  expect(log.clientClosed).toBe(true);
  expect(result.bytes).toBe(b64(Buffer.concat(log.sent)));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.end?.state).toBe('aborted');
  expect(cap.bytes.equals(Buffer.concat(log.sent))).toBe(true);
});

test('aborting while text()/json()/arrayBuffer() read: the page gets the signal\'s reason, as without the extension', async () => {
  // A constructed Response consuming a tapped body rejected with "TypeError: Failed to fetch": the usual
  // `if (e.name === 'AbortError') return` of a Stop button then showed an error.
  for (const [i, method] of (['text', 'json', 'arrayBuffer', 'clone-text'] as const).entries()) {
    const id = `abort-text-${i}`;
    const reading = page.evaluate(async ({ url, method, custom }) => {
      const ctrl = new AbortController();
      const res = await fetch(url, { signal: ctrl.signal });
      const p = method === 'clone-text' ? res.clone().text() : (res[method] as () => Promise<unknown>).call(res);
      setTimeout(() => ctrl.abort(custom ? new Error('custom reason') : undefined), 100);
      try {
        await p;
        return 'resolved';
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    }, { url: `/stream?id=${id}&stopAfter=2&then=hold`, method, custom: i === 1 });
    expect(await reading, method).toBe(i === 1 ? 'Error: custom reason' : 'AbortError: signal is aborted without reason');
    const cap = await waitForCapture(ext, tabId, `id=${id}`);
    expect(cap.end?.state).toBe('aborted');
  }
});

test('a stream request answered 204/205/304 is the browser\'s own response: no rejection, no body', async () => {
  // Chromium hands such a response an empty body stream; rebuilding it around one threw in the page's fetch.
  for (const status of [204, 205, 304]) {
    const got = await page.evaluate(async (url) => {
      try {
        const r = await fetch(url, { headers: { accept: 'text/event-stream' } });
        return `${r.status} "${await r.text()}"`;
      } catch (e) {
        return `${(e as Error).name}: ${(e as Error).message}`;
      }
    }, `/stream?id=empty-${status}&status=${status}`);
    expect(got).toBe(`${status} ""`);
  }
});

test('a redirected stream is recorded under the URL it came from, with a note of the one asked for; HEAD is no stream', async () => {
  const result = await readInPage('/redirect?id=redirected');
  expect(result.bytes).toBe(b64(Buffer.concat(server.log('redirected').sent)));
  const cap = await waitForCapture(ext, tabId, 'id=redirected');
  expect(new URL(cap.connection.url).pathname).toBe('/stream'); // it said /redirect, with /stream's status and headers
  const all = await ext.records(tabId);
  const notes = all.flatMap((r) => (r.kind === 'notice' && r.conn === cap.connection.id ? [r.text] : []));
  expect(notes.find((t) => t.startsWith('Redirected'))).toMatch(/^Redirected: the page asked for .*\/redirect\?id=redirected$/);
  await page.evaluate(() => fetch('/stream?id=head-only', { method: 'HEAD' }).then((r) => r.status));
  await readInPage('/stream?id=after-head');
  await waitForCapture(ext, tabId, 'id=after-head');
  const urls = (await ext.records(tabId)).flatMap((r) => (r.kind === 'connection' ? [r.url] : []));
  expect(urls.some((u) => u.includes('head-only'))).toBe(false); // it stayed "live" with 0 B for good
});

test('the page cancels its reader: "cancelled" in the capture and the server sees the connection close', async () => {
  const id = 'cancel';
  const first = defaultPieces()[0];
  const result = await readInPage(`/stream?id=${id}&stopAfter=3&then=hold`, { cancelAfter: first.length });
  expect(result.error).toBeUndefined();
  const log = server.log(id);
  await log.closedPromise; // without the forwarded cancel this would hang until the hold is released
  expect(log.clientClosed).toBe(true);
  expect(log.finished).toBe(false);
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.end?.state).toBe('cancelled');
  expect(Buffer.from(result.bytes, 'base64').equals(cap.bytes)).toBe(true);
});

test('a server error mid-stream: the page gets the network error, the capture says "error" with the bytes before it', async () => {
  const id = 'server-error';
  const reading = readInPage(`/stream?id=${id}&stopAfter=3&then=destroy&wait=1`);
  const log = await server.arrived(id);
  // The tap reads only when the page pulls, so once the capture has every sent byte, the page has read them too.
  await waitForCapture(ext, tabId, `id=${id}`, (c) => log.sent.length === 3 && c.chunks.reduce((n, ch) => n + ch.bytes, 0) === log.written);
  server.release(id);
  const result = await reading;
  expect(result.error).toMatch(/^TypeError/);
  const sent = Buffer.concat(log.sent);
  expect(result.bytes).toBe(b64(sent));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.end?.state).toBe('error');
  expect(cap.end?.error).toMatch(/TypeError/);
  expect(cap.bytes.equals(sent)).toBe(true);
});

test('non-stream responses are not captured, NDJSON is', async () => {
  const plain = await page.evaluate(async () => (await fetch('/plain')).json());
  expect(plain).toEqual({ ok: true });
  const id = 'ndjson';
  const result = await readInPage(`/stream?id=${id}&type=application/x-ndjson`);
  expect(result.bytes).toBe(b64(Buffer.concat(server.log(id).sent)));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.end?.state).toBe('complete');
  const records = await ext.records(tabId);
  expect(records.some((r) => r.kind === 'connection' && r.url.endsWith('/plain'))).toBe(false);
});

test('a request for a stream answered with an HTTP error is captured (its failure is the finding); other errors are not', async () => {
  const read = (url: string, init: RequestInit) => page.evaluate(async ({ url, init }) => {
    const res = await fetch(url, init);
    return { status: res.status, text: await res.text() };
  }, { url, init });
  // Asked for by its Accept header; the page reads the JSON-typed error body as it would.
  const denied = await read('/stream?id=denied&status=401&type=application/json', { headers: { accept: 'text/event-stream' } });
  expect(denied.status).toBe(401);
  expect(denied.text).toBe(Buffer.concat(server.log('denied').sent).toString());
  const cap = await waitForCapture(ext, tabId, 'id=denied');
  expect(cap.connection).toMatchObject({ status: 401 });
  expect(cap.end?.state).toBe('complete');
  // pi's streamProxy asks by its request body ({model, context}), not by Accept.
  const pi = JSON.stringify({ model: { id: 'm', api: 'anthropic-messages', provider: 'anthropic' }, context: { messages: [] } });
  expect((await read('/stream?id=pi-429&status=429&type=application/json', { method: 'POST', body: pi, headers: { 'content-type': 'application/json' } })).status).toBe(429);
  expect((await waitForCapture(ext, tabId, 'id=pi-429')).connection).toMatchObject({ status: 429, requestBody: { text: pi } });
  // A long conversation passes the tap's 1 MiB request body cap: the record keeps the body's head, which still tells
  // streamProxy's request (its model, then the context starting) — the cut text does not parse, and it was not recorded.
  const messages = Array.from({ length: 300 }, (_, k) => ({ role: 'user', content: `Grüße ${k} — `.padEnd(4000, '.'), timestamp: k }));
  const long = JSON.stringify({ model: { id: 'm', api: 'anthropic-messages', provider: 'anthropic' }, context: { messages }, options: {} });
  expect((await read('/stream?id=pi-long-429&status=429&type=application/json', { method: 'POST', body: long, headers: { 'content-type': 'application/json' } })).status).toBe(429);
  const longCap = await waitForCapture(ext, tabId, 'id=pi-long-429');
  expect(longCap.connection).toMatchObject({ status: 429, requestBody: { size: Buffer.byteLength(long), truncated: true } });
  const kept = longCap.connection.requestBody?.text ?? '';
  expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(1024 * 1024);
  expect(long.startsWith(kept)).toBe(true);
  // An error answer to anything else (a JSON API, a form post) is not the tool's business.
  expect((await read('/stream?id=api-500&status=500&type=application/json', { headers: { accept: 'application/json' } })).status).toBe(500);
  expect((await read('/stream?id=form-400&status=400&type=application/json', { method: 'POST', body: '{"q":1}' })).status).toBe(400);
  await read('/stream?id=after-errors', {}); // recorded after them: once it is in, they would be too
  await waitForCapture(ext, tabId, 'id=after-errors');
  const records = await ext.records(tabId);
  expect(records.some((r) => r.kind === 'connection' && /id=(api-500|form-400)/.test(r.url))).toBe(false);
});

test('an HTTP error answer the page never reads is recorded whole and ends; the page still reads it, and its cancel still reaches the server', async () => {
  // @microsoft/fetch-event-source's default onopen throws on an answer that is not text/event-stream without reading
  // its body, then retries: the record stayed 'live' with 0 B for good, the server's error message never shown.
  await page.evaluate(async () => {
    const res = await fetch('/stream?id=unread-500&status=500&type=application/json', { headers: { accept: 'text/event-stream' } });
    (window as unknown as { unread: Response }).unread = res; // kept, not read
  });
  const unread = server.log('unread-500');
  await expect.poll(() => unread.finished).toBe(true); // the page has its Response at the head; the body follows
  const sent = Buffer.concat(unread.sent);
  const cap = await waitForCapture(ext, tabId, 'id=unread-500');
  expect(cap.connection).toMatchObject({ status: 500 });
  expect(cap.end?.state).toBe('complete');
  expect(cap.bytes.equals(sent)).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { unread: Response }).unread.text())).toBe(sent.toString());
  // The tap's own read of an error body must not keep the connection open once the page cancels.
  await page.evaluate(async () => {
    const res = await fetch('/stream?id=error-cancel&status=503&type=text/plain&stopAfter=1&then=hold', { headers: { accept: 'text/event-stream' } });
    await res.body!.cancel('enough');
  });
  const log = server.log('error-cancel');
  await log.closedPromise; // hangs if the tap's branch of the body kept reading
  expect(log.clientClosed).toBe(true);
  expect((await waitForCapture(ext, tabId, 'id=error-cancel')).end?.state).toBe('cancelled');
});

test('a Vercel AI SDK UI message stream is no pi stream: its own protocol, said so, with no pi or AgentScope diagnostics', async () => {
  // Read as the AI SDK's callCompletionApi / DefaultChatTransport do: a JSON POST, the body through TextDecoderStream.
  // Its first event {"type":"start"} is also pi's proxy start: the stream was shown as a broken pi-proxy stream
  // (every later event an unknown pi event, its closing "data: [DONE]" malformed JSON).
  const text = await page.evaluate(async () => {
    const res = await fetch('/stream?id=ai-sdk&aisdk=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'hi' }) });
    let out = '';
    for await (const part of res.body!.pipeThrough(new TextDecoderStream()) as unknown as AsyncIterable<string>) out += part;
    return out;
  });
  expect(text).toBe(Buffer.concat(server.log('ai-sdk').sent).toString());
  const cap = await waitForCapture(ext, tabId, 'id=ai-sdk');
  const [view] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'e2e', created: '' }, records: [cap.connection, ...cap.records] });
  expect(view.dialect).toBe('unknown');
  expect(view.diagnostics.map((d) => [d.code, d.message])).toEqual([['stream.unknown-dialect', expect.stringContaining('AI SDK UI message stream')]]);
});

test('Response semantics are the browser’s own: same observations for a tapped and an untapped response', async () => {
  // The same probe runs on a stream the tap wraps (text/event-stream) and one it leaves alone (text/plain).
  const probe = (type: string, id: string): Promise<Record<string, unknown>> =>
    page.evaluate(async ({ type, id }) => {
      const url = `/stream?id=${id}&type=${encodeURIComponent(type)}`;
      const out: Record<string, unknown> = {};
      const res = await fetch(url);
      out.instanceOf = res instanceof Response;
      out.url = res.url.replace(/id=[^&]+/, 'id=*').replace(/type=[^&]+/, 'type=*');
      out.redirected = res.redirected;
      out.type = res.type;
      out.ok = res.ok;
      out.status = res.status;
      out.bodyUsedBefore = res.bodyUsed;
      out.bodyIsStream = res.body instanceof ReadableStream;
      out.ownKeys = Object.keys(res);
      const copy = res.clone();
      out.cloneInstanceOf = copy instanceof Response;
      out.cloneUrlSame = copy.url === res.url;
      out.cloneType = copy.type;
      out.text = await res.text();
      out.bodyUsedAfter = res.bodyUsed;
      out.locked = res.body?.locked;
      out.secondRead = await res.text().then(() => 'resolved', (e: Error) => e.name);
      out.cloneBytes = Array.from(new Uint8Array(await copy.arrayBuffer())).length;
      out.cloneUsed = copy.bodyUsed;
      out.cloneAgain = (() => {
        try {
          copy.clone();
          return 'cloned';
        } catch (e) {
          return (e as Error).name;
        }
      })();
      // BYOB readers work on fetch bodies; they must on the tapped one too.
      const byobRes = await fetch(url.replace(`id=${id}`, `id=${id}-byob`));
      const byob = byobRes.body!.getReader({ mode: 'byob' });
      let total = 0;
      for (;;) {
        const { done, value } = await byob.read(new Uint8Array(64));
        if (done) break;
        total += value.byteLength;
      }
      out.byobTotal = total;
      out.fetchName = fetch.name;
      out.fetchLength = fetch.length;
      return out;
    }, { type, id });
  const tapped = await probe('text/event-stream', 'sem-tapped');
  const untapped = await probe('text/plain', 'sem-untapped');
  expect(tapped).toEqual(untapped);
  expect(tapped.text).toBe(Buffer.concat(server.log('sem-tapped').sent).toString('utf8'));
  // And the tapped one really was captured (so the comparison above is not trivially between two untapped ones).
  const cap = await waitForCapture(ext, tabId, 'id=sem-tapped&');
  expect(cap.end?.state).toBe('complete');
  expect(cap.bytes.equals(Buffer.concat(server.log('sem-tapped').sent))).toBe(true);
});

test('a URL on the include list is captured whatever its content type', async () => {
  const setInclude = (list: string[]): Promise<void> =>
    ext.debug(async (_d, l: string[]) => {
      await chrome.storage.local.set({ 'replyscope.includeUrls': l });
    }, list);
  await setInclude(['*/stream?id=included-*']);
  try {
    await page.reload();
    const id = 'included-plain';
    const result = await readInPage(`/stream?id=${id}&type=text/plain`);
    expect(result.bytes).toBe(b64(Buffer.concat(server.log(id).sent)));
    const cap = await waitForCapture(ext, tabId, `id=${id}`);
    expect(cap.bytes.equals(Buffer.concat(server.log(id).sent))).toBe(true);
    expect(cap.connection.responseHeaders).toContainEqual(['content-type', 'text/plain']);
  } finally {
    await setInclude([]);
  }
});

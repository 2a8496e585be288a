// The pull-based body tap, exercised with real WHATWG streams and a real fetch Response (Node's own implementations).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBodyFrom, tapBody } from '../../../src/extension/tap/body-tap.ts';

interface Probe {
  stream: ReadableStream<Uint8Array>;
  pulls: () => number;
  cancelled: () => unknown;
  fail: (err: unknown) => void;
}

/** A source that produces `pieces` one per pull (highWaterMark 0: it is pulled only on demand). */
function source(pieces: string[], opts: { failAt?: number; error?: unknown } = {}): Probe {
  let pulls = 0;
  let cancelReason: unknown = 'not cancelled';
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const enc = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controllerRef = c;
    },
    pull(c) {
      if (opts.failAt === pulls) {
        pulls += 1;
        c.error(opts.error);
        return;
      }
      const piece = pieces[pulls];
      pulls += 1;
      if (piece === undefined) c.close();
      else c.enqueue(enc.encode(piece));
    },
    cancel(reason) {
      cancelReason = reason;
    },
  }, { highWaterMark: 0 });
  return { stream, pulls: () => pulls, cancelled: () => cancelReason, fail: (err) => controllerRef?.error(err) };
}

function recorder() {
  const chunks: string[] = [];
  const ends: [string, string | undefined][] = [];
  const dec = new TextDecoder();
  return { chunks, ends, hooks: { onChunk: (c: Uint8Array) => void chunks.push(dec.decode(c)), onEnd: (s: string, e?: string) => void ends.push([s, e]) } };
}

describe('tapBody', () => {
  it('passes every byte through and records each chunk, ending once as complete', async () => {
    const src = source(['data: a\n\n', '', 'data: ü\n\n']);
    const rec = recorder();
    const text = await new Response(tapBody(src.stream, rec.hooks)).text();
    expect(text).toBe('data: a\n\ndata: ü\n\n');
    expect(rec.chunks).toEqual(['data: a\n\n', 'data: ü\n\n']); // the empty read is skipped, not recorded
    expect(rec.ends).toEqual([['complete', undefined]]);
  });

  it('reads the source only when the page pulls (backpressure is kept)', async () => {
    const src = source(Array.from({ length: 100 }, (_, i) => `piece ${i}\n`));
    const rec = recorder();
    const reader = tapBody(src.stream, rec.hooks).getReader();
    await Promise.resolve();
    expect(src.pulls()).toBe(0);
    await reader.read();
    await reader.read();
    expect(src.pulls()).toBe(2);
    expect(rec.chunks).toHaveLength(2);
  });

  it('forwards the page’s cancel to the source (so the connection closes) and records "cancelled"', async () => {
    const src = source(['one', 'two', 'three']);
    const rec = recorder();
    const reader = tapBody(src.stream, rec.hooks).getReader();
    await reader.read();
    await reader.cancel('user pressed stop');
    expect(src.cancelled()).toBe('user pressed stop');
    expect(rec.ends).toEqual([['cancelled', 'user pressed stop']]);
  });

  it('a source error reaches the page as the same error, at once, and is recorded', async () => {
    const boom = new TypeError('network error');
    const src = source(['one'], { failAt: 1, error: boom });
    const rec = recorder();
    const reader = tapBody(src.stream, rec.hooks).getReader();
    await reader.read();
    await expect(reader.read()).rejects.toBe(boom);
    expect(rec.ends).toEqual([['error', 'TypeError: network error']]);

    // An abort while the page is not reading errors the page's stream right away, like a native body.
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    const idle = source(['one', 'two']);
    const rec2 = recorder();
    const reader2 = tapBody(idle.stream, rec2.hooks).getReader();
    await reader2.read();
    idle.fail(abort);
    await expect(reader2.closed).rejects.toBe(abort);
    expect(rec2.ends).toEqual([['aborted', 'AbortError: The operation was aborted.']]);
  });

  it('supports BYOB readers like a native fetch body', async () => {
    const src = source(['abcdefghij', 'klm']);
    const reader = tapBody(src.stream, recorder().hooks).getReader({ mode: 'byob' });
    let got = '';
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(4));
      if (done) break;
      got += new TextDecoder().decode(value);
    }
    expect(got).toBe('abcdefghijklm');
  });
});

describe('serveBodyFrom', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: '/sse' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-test': '1' });
      res.end('data: hello\n\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('keeps the page’s Response object (url, redirected, headers, status) and native body semantics', async () => {
    const res = await fetch(`${base}/redirect`);
    const rec = recorder();
    const same = serveBodyFrom(res, tapBody(res.body as ReadableStream<Uint8Array>, rec.hooks));
    expect(same).toBe(res);
    expect(res.url).toBe(`${base}/sse`);
    expect(res.redirected).toBe(true);
    expect(res.headers.get('x-test')).toBe('1');
    expect(Object.keys(res)).toEqual([]);
    expect(res.bodyUsed).toBe(false);
    const copy = res.clone();
    expect(copy).toBeInstanceOf(Response);
    expect([copy.url, copy.redirected, copy.type]).toEqual([res.url, true, res.type]);
    expect(copy.clone().url).toBe(res.url);
    expect(await res.text()).toBe('data: hello\n\n');
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
    expect(await copy.text()).toBe('data: hello\n\n');
    expect(rec.chunks.join('')).toBe('data: hello\n\n');
    expect(rec.ends).toEqual([['complete', undefined]]);
  });
});

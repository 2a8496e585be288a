// The pull-based body tap, exercised with real WHATWG streams and a real fetch Response (Node's own implementations).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_CHUNK, serveBodyFrom, tapBody } from '../../../src/extension/tap/body-tap.ts';
import { nextTask } from '../../../src/extension/tap/natives.ts';

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
  const copies: number[] = [];
  const hooks = {
    copy: (c: Uint8Array) => {
      copies.push(c.byteLength);
      return c.slice();
    },
    onChunk: (copy: Uint8Array) => void chunks.push(dec.decode(copy)),
    onEnd: (s: string, e?: string) => void ends.push([s, e]),
  };
  return { chunks, ends, copies, hooks };
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

  it('copies a large chunk in a task of its own and hands it over in the next; small chunks go at once', async () => {
    const big = 'x'.repeat(LARGE_CHUNK) + '\n';
    const src = source(['small\n', big, 'tail\n']);
    const rec = recorder();
    const order: string[] = [];
    const copy = rec.hooks.copy;
    rec.hooks.copy = (c: Uint8Array) => {
      order.push(`copy ${c.byteLength}`);
      if (c.byteLength >= LARGE_CHUNK) void nextTask().then(() => order.push('task after the copy'));
      return copy(c);
    };
    const reader = tapBody(src.stream, rec.hooks).getReader();
    const read = async () => {
      // A task posted when the page asks: it runs before the copy exactly when the copy waits for a task of its own.
      void nextTask().then(() => order.push('task after the read'));
      const { value } = await reader.read();
      order.push(`page gets ${value?.byteLength}`);
    };
    await read();
    await read();
    await read();
    await nextTask();
    expect(order).toEqual([
      'copy 6', 'page gets 6', // small: copied and handed over in the task the page asked in
      'task after the read', // (the first read's marker)
      'task after the read', `copy ${big.length}`, 'task after the copy', `page gets ${big.length}`,
      'copy 5', 'page gets 5',
      'task after the read',
    ]);
    expect(rec.chunks).toEqual(['small\n', big, 'tail\n']);
  });

  it('a large chunk the page cancels while it waits reaches neither the page nor the capture', async () => {
    const src = source(['a\n', 'y'.repeat(LARGE_CHUNK + 1)]);
    const rec = recorder();
    const reader = tapBody(src.stream, rec.hooks).getReader();
    await reader.read();
    const pending = reader.read();
    // Cancelled in the next task: after the tap got the large chunk from the source, before its copy.
    await nextTask().then(() => reader.cancel('stop'));
    expect(await pending).toEqual({ done: true, value: undefined });
    await nextTask();
    await nextTask();
    expect(rec.chunks).toEqual(['a\n']);
    expect(rec.copies).toEqual([2]); // not even copied
    expect(rec.ends).toEqual([['cancelled', 'stop']]);
    expect(src.cancelled()).toBe('stop');

    // Cancelled between the copy and the handover: the copy is dropped.
    const late = source(['a\n', 'z'.repeat(LARGE_CHUNK)]);
    const rec2 = recorder();
    const reader2 = tapBody(late.stream, rec2.hooks).getReader();
    const copy = rec2.hooks.copy;
    rec2.hooks.copy = (c: Uint8Array) => {
      if (c.byteLength >= LARGE_CHUNK) void reader2.cancel('late');
      return copy(c);
    };
    await reader2.read();
    expect(await reader2.read()).toEqual({ done: true, value: undefined });
    await nextTask();
    await nextTask();
    expect(rec2.copies).toEqual([2, LARGE_CHUNK]);
    expect(rec2.chunks).toEqual(['a\n']);
    expect(rec2.ends).toEqual([['cancelled', 'late']]);
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

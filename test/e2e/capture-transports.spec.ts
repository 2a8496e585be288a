// EventSource and XMLHttpRequest streams in real Chromium with the built extension.
import { expect, test, type Page } from '@playwright/test';
import { analyzeCapture } from '../../src/core/analysis/analyze.ts';
import { blindSpotNotice } from '../../src/core/capture/notices.ts';
import { defaultPieces, type AgentServer } from './support/agent-server.ts';
import { connectionsMatching, captured, waitForCapture } from './support/capture.ts';
import type { ExtensionBrowser } from './support/extension.ts';
import { appendFrame } from './support/frames.ts';
import { useWatchedAgentPage } from './support/watched-agent-page.ts';

let ext: ExtensionBrowser;
let server: AgentServer;
let page: Page;
let tabId: number;

useWatchedAgentPage((parts) => ({ ext, server, page, tabId } = parts));

test('EventSource: every dispatched event is captured with lastEventId; a reconnect continues the connection, with a note', async () => {
  const seen = await page.evaluate(
    () =>
      new Promise<{ type: string; data: string; lastEventId: string }[]>((resolve, reject) => {
        const es = new EventSource('/es?id=es1');
        const got: { type: string; data: string; lastEventId: string }[] = [];
        const note = (e: MessageEvent): void => void got.push({ type: e.type, data: e.data, lastEventId: e.lastEventId });
        es.onmessage = note;
        es.addEventListener('agent', note as EventListener);
        es.addEventListener('done', ((e: MessageEvent) => {
          note(e);
          es.close();
          resolve(got);
        }) as EventListener);
        setTimeout(() => reject(new Error(`stuck: ${JSON.stringify(got)}`)), 20_000);
      }),
  );
  const conns = server.eventSourceLog('es1');
  expect(conns).toHaveLength(2);
  expect(conns[1].lastEventId).toBe('3');
  // What the server sent, minus the event type nobody listened for, is what the page saw…
  const expected = conns.flatMap((c) => c.events).filter((e) => e.type !== 'ignored-by-page');
  expect(seen.map(({ type, data }) => ({ type, data }))).toEqual(expected.map(({ type, data }) => ({ type, data })));
  // …and exactly what the capture holds: one connection, as the page has one EventSource, over both responses…
  const cap = await waitForCapture(ext, tabId, '/es?id=es1');
  expect(cap.end?.state).toBe('cancelled');
  expect(cap.connection.transport).toBe('eventsource');
  expect(cap.messages.map(({ type, data, lastEventId }) => ({ type, data, lastEventId }))).toEqual(seen);
  expect(cap.records.some((r) => r.kind === 'notice' && /comments|retry/.test(r.text))).toBe(true);
  // …with a note where the browser reconnected: after the first response's events, before the second's.
  const kinds = cap.records.filter((r) => r.kind === 'message' || (r.kind === 'notice' && /reconnects/.test(r.text)))
    .map((r) => (r.kind === 'message' ? r.type : 'reconnect'));
  const firstResponse = conns[0].events.filter((e) => e.type !== 'ignored-by-page').length;
  expect(kinds).toEqual([...seen.slice(0, firstResponse).map((e) => e.type), 'reconnect', ...seen.slice(firstResponse).map((e) => e.type)]);
});

/** The data of the unnamed events an EventSource in the page gets until the server's `done` (then it closes it). */
function messagesUntilDone(url: string): Promise<string[]> {
  return page.evaluate(
    (u) =>
      new Promise<string[]>((resolve) => {
        const es = new EventSource(u);
        const got: string[] = [];
        es.onmessage = (e) => got.push(e.data);
        es.addEventListener('done', () => {
          es.close();
          resolve(got);
        });
      }),
    url,
  );
}

test('an EventSource the server ends after every event notes its first reconnections, then says later ones are not noted', async () => {
  const texts = await messagesUntilDone('/es?id=es-each&each=14');
  expect(texts).toEqual(Array.from({ length: 14 }, (_, i) => String(i + 1)));
  const cap = await waitForCapture(ext, tabId, 'id=es-each');
  expect(cap.end?.state).toBe('cancelled');
  expect(cap.messages.map((m) => m.data)).toEqual([...texts, '{}']);
  const notes = cap.records.flatMap((r) => (r.kind === 'notice' && /reconnect/.test(r.text) ? [r.text] : []));
  expect(notes).toHaveLength(10); // 14 reconnections: 9 noted one by one, the 10th saying later ones are not
  expect(notes[9]).toMatch(/later reconnections of this EventSource are not noted/);
});

test('an AgentScope reply an EventSource server resumes after a reconnect (Last-Event-ID) is one finished reply, as the page got it', async () => {
  // Recorded as one connection per response, the reply read as cut off ("never got a REPLY_END") on the first and as
  // an orphan on the second, though the page's EventSource got every event of it.
  const texts = await messagesUntilDone('/es?id=es-resume&resume=1');
  const conns = server.eventSourceLog('es-resume');
  expect(conns.map((c) => c.lastEventId)).toEqual([undefined, '3']);
  expect(texts).toEqual(conns.flatMap((c) => c.events.filter((e) => e.type === 'message').map((e) => e.data)));
  const cap = await waitForCapture(ext, tabId, 'id=es-resume');
  const [view] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'e2e', created: '' }, records: [cap.connection, ...cap.records] });
  expect(view.dialect).toBe('agentscope');
  expect(view.replies.map((r) => [r.id, r.orphan ?? false, r.eventIndices.length])).toEqual([['r-resume', false, 6]]);
  expect(view.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code)).toEqual([]);
});

test('an EventSource that fails before it opens (a 503) is recorded as failed: the panel stayed empty', async () => {
  const seen = await page.evaluate(
    () =>
      new Promise<{ readyState: number; opened: boolean }>((resolve) => {
        const es = new EventSource('/stream?id=es-503&status=503&type=application/json');
        let opened = false;
        es.onopen = () => (opened = true);
        es.onerror = () => resolve({ readyState: es.readyState, opened });
      }),
  );
  expect(seen).toEqual({ readyState: 2, opened: false }); // closed by the browser, as without the extension
  const cap = await waitForCapture(ext, tabId, 'id=es-503');
  expect(cap.connection.transport).toBe('eventsource');
  expect(cap.connection.status).toBeUndefined(); // the browser tells the page none
  expect(cap.messages).toEqual([]);
  expect(cap.end?.state).toBe('error');
  expect(cap.end?.error).toMatch(/EventSource failed/);
});

test('EventSource keeps its identity: name, length, constants, instanceof', async () => {
  const facts = await page.evaluate(() => {
    const es = new EventSource('/es?id=es-identity');
    const out = {
      name: EventSource.name,
      length: EventSource.length,
      constants: [EventSource.CONNECTING, EventSource.OPEN, EventSource.CLOSED],
      instanceOf: es instanceof EventSource && es instanceof EventTarget,
      withCredentials: es.withCredentials,
      addLength: es.addEventListener.length,
      noNew: (() => {
        try {
          (EventSource as unknown as () => void)();
          return 'called';
        } catch (e) {
          return (e as Error).name;
        }
      })(),
    };
    es.close();
    return out;
  });
  expect(facts).toEqual({ name: 'EventSource', length: 1, constants: [0, 1, 2], instanceOf: true, withCredentials: false, addLength: 2, noNew: 'TypeError' });
});

test('WebSocket and workers stay the browser\'s own; the capture notes that it cannot look into them, and the panel says so', async () => {
  const facts = await page.evaluate(async () => {
    const ws = new WebSocket('ws://127.0.0.1:9/agent?session=1');
    const script = URL.createObjectURL(new Blob(['onconnect = (e) => e.ports[0].postMessage("shared up"); if (typeof postMessage === "function") postMessage("up");'], { type: 'text/javascript' }));
    const worker = new Worker(script);
    const fromWorker = await new Promise((resolve) => (worker.onmessage = (e) => resolve(e.data)));
    const shared = new SharedWorker(script);
    const fromShared = await new Promise((resolve) => (shared.port.onmessage = (e) => resolve(e.data)));
    const thrown = (f: () => unknown) => {
      try {
        f();
        return 'none';
      } catch (e) {
        return (e as Error).name;
      }
    };
    const again = new WebSocket('ws://127.0.0.1:9/agent?session=1'); // the same URL: told once
    const out = {
      names: [WebSocket.name, Worker.name, SharedWorker.name],
      lengths: [WebSocket.length, Worker.length, SharedWorker.length],
      constants: [WebSocket.CONNECTING, WebSocket.OPEN, WebSocket.CLOSING, WebSocket.CLOSED],
      instanceOf: ws instanceof WebSocket && ws instanceof EventTarget && worker instanceof Worker && shared instanceof SharedWorker,
      // The native prototypes, with their own accessors (what zone.js and the like patch).
      prototypes: Object.getPrototypeOf(ws) === WebSocket.prototype && Object.getPrototypeOf(worker) === Worker.prototype &&
        Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage')?.set !== undefined && WebSocket.prototype.constructor.name === 'WebSocket',
      nativeText: [String(WebSocket), String(Worker)].every((t) => t.includes('[native code]')),
      url: ws.url,
      fromWorker,
      fromShared,
      badUrl: thrown(() => new WebSocket('ftp://127.0.0.1/not-a-socket-scheme')),
      // send is wrapped (to record what the page sends on a recorded socket) and looks and throws like the browser's.
      send: [WebSocket.prototype.send.name, WebSocket.prototype.send.length, String(WebSocket.prototype.send).includes('[native code]'),
        thrown(() => new (WebSocket.prototype.send as unknown as new () => unknown)()), thrown(() => WebSocket.prototype.send.call({}, 'x')),
        thrown(() => new WebSocket('ws://127.0.0.1:9/agent?session=1').send('too early')) /* one address: told once */, Object.keys(WebSocket.prototype).includes('send')],
      // close too (to tell the page's close from the server's), throwing what the browser throws for a bad code.
      close: [WebSocket.prototype.close.name, WebSocket.prototype.close.length, String(WebSocket.prototype.close).includes('[native code]'),
        thrown(() => WebSocket.prototype.close.call({})), thrown(() => ws.close(1234)), Object.keys(WebSocket.prototype).includes('close')],
      noNew: thrown(() => (WebSocket as unknown as (u: string) => void)('ws://127.0.0.1:9/')),
      script,
    };
    again.close();
    ws.close();
    worker.terminate();
    return out;
  });
  const { script, ...rest } = facts;
  expect(rest).toEqual({
    names: ['WebSocket', 'Worker', 'SharedWorker'],
    lengths: [1, 1, 1],
    constants: [0, 1, 2, 3],
    instanceOf: true,
    prototypes: true,
    nativeText: true,
    url: 'ws://127.0.0.1:9/agent?session=1',
    fromWorker: 'up',
    fromShared: 'shared up',
    badUrl: 'SyntaxError',
    send: ['send', 1, true, 'TypeError', 'TypeError', 'InvalidStateError', true],
    close: ['close', 0, true, 'TypeError', 'InvalidAccessError', true],
    noNew: 'TypeError',
  });
  const expected = [
    blindSpotNotice('WebSocket', 'ws://127.0.0.1:9/agent?session=1'),
    blindSpotNotice('Worker', script),
    blindSpotNotice('SharedWorker', script),
  ];
  await expect
    .poll(async () => (await ext.records(tabId)).filter((r) => r.kind === 'notice' && r.conn === undefined).map((r) => r.kind === 'notice' && r.text))
    .toEqual(expected);
  expect(JSON.stringify(await ext.records(tabId))).not.toContain('session=1'); // a socket's query (a token, often) stays out
  // A subframe's note names the frame.
  const frame = await appendFrame(page, '/app?frame=1');
  await frame.evaluate(() => new WebSocket('ws://127.0.0.1:9/in-frame').close());
  const inFrame = blindSpotNotice('WebSocket', 'ws://127.0.0.1:9/in-frame', `${server.url}/app?frame=1`);
  await expect.poll(async () => (await ext.records(tabId)).some((r) => r.kind === 'notice' && r.text === inFrame)).toBe(true);
  expected.push(inFrame);
  const panel = await ext.panelPage(tabId);
  const notes = panel.getByTestId('page-notices');
  await expect(notes).toContainText(expected[0]);
  await expect(notes).toContainText(expected[1]);
  await notes.getByText('2 more notes').click();
  await expect(notes).toContainText(expected[2]);
  await expect(notes).toContainText(expected[3]);
  await panel.screenshot({ path: test.info().outputPath('page-notices.png') });
  await panel.close();
});

interface XhrResult {
  text: string;
  progressEvents: number;
  status: number;
  error?: string;
}

function xhrInPage(url: string, opts: { method?: string; body?: string; headers?: Record<string, string>; abortAfter?: number } = {}): Promise<XhrResult> {
  return page.evaluate(
    ({ url, opts }) =>
      new Promise<XhrResult>((resolve) => {
        const xhr = new XMLHttpRequest();
        let progressEvents = 0;
        xhr.open(opts.method ?? 'GET', url);
        for (const [k, v] of Object.entries(opts.headers ?? {})) xhr.setRequestHeader(k, v);
        xhr.onprogress = () => {
          progressEvents += 1;
          if (opts.abortAfter && xhr.responseText.length >= opts.abortAfter) xhr.abort();
        };
        xhr.onload = () => resolve({ text: xhr.responseText, progressEvents, status: xhr.status });
        xhr.onabort = () => resolve({ text: xhr.responseText, progressEvents, status: xhr.status, error: 'abort' });
        xhr.onerror = () => resolve({ text: xhr.responseText, progressEvents, status: xhr.status, error: 'error' });
        xhr.send(opts.body ?? null);
      }),
    { url, opts },
  );
}

test('XHR stream: incremental responseText is captured byte-exact', async () => {
  const id = 'xhr-get';
  const result = await xhrInPage(`/stream?id=${id}`);
  const sent = Buffer.concat(server.log(id).sent);
  expect(result.text).toBe(sent.toString('utf8'));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.connection.transport).toBe('xhr');
  expect(cap.bytes.equals(sent)).toBe(true);
  expect(cap.end?.state).toBe('complete');
});

test('an XHR the page re-opens from its own load handler (a retry loop): the request that completed is complete', async () => {
  // The page's onload runs before the tap's load listener: the re-open took the finished request for a cancelled one.
  await page.evaluate(async (base) => {
    const x = new XMLHttpRequest();
    let round = 0;
    await new Promise<void>((resolve) => {
      x.onload = () => {
        if (++round < 2) {
          x.open('GET', `${base}-${round}`);
          x.send();
        } else resolve();
      };
      x.open('GET', `${base}-0`);
      x.send();
    });
  }, '/stream?id=xhr-reuse');
  for (const id of ['xhr-reuse-0', 'xhr-reuse-1']) {
    const cap = await waitForCapture(ext, tabId, `id=${id}`);
    expect(cap.end?.state, id).toBe('complete');
    expect(cap.bytes.equals(Buffer.concat(server.log(id).sent)), id).toBe(true);
  }
});

test('XHR with responseType arraybuffer: the bytes are captured exactly and the page keeps its buffer', async () => {
  const id = 'xhr-arraybuffer';
  const got = await page.evaluate((url) => new Promise<number[]>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    (window as unknown as { lastXhr: XMLHttpRequest }).lastXhr = xhr;
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onload = () => resolve([...new Uint8Array(xhr.response as ArrayBuffer)]);
    xhr.onerror = () => reject(new Error('xhr failed'));
    xhr.send();
  }), `/stream?id=${id}`);
  const sent = Buffer.concat(server.log(id).sent);
  expect(Buffer.from(got).equals(sent)).toBe(true);
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.connection.transport).toBe('xhr');
  expect(cap.bytes.equals(sent)).toBe(true);
  expect(cap.end?.state).toBe('complete');
  // The capture copied the response; the page's ArrayBuffer was not handed over (detached) on the way.
  expect(await page.evaluate(() => ((window as unknown as { lastXhr: XMLHttpRequest }).lastXhr.response as ArrayBuffer).byteLength)).toBe(sent.length);
});

test('XHR POST: body and masked headers captured; page abort mid-stream ends as cancelled', async () => {
  const id = 'xhr-post';
  const body = JSON.stringify({ prompt: 'Hallo 🌍' });
  const result = await xhrInPage(`/stream?id=${id}&crlf=1`, { method: 'POST', body, headers: { 'content-type': 'application/json', Authorization: 'Bearer xyz' } });
  expect(server.log(id).body).toBe(body);
  const sent = Buffer.concat(server.log(id).sent);
  expect(result.text).toBe(sent.toString('utf8'));
  const cap = await waitForCapture(ext, tabId, `id=${id}`);
  expect(cap.connection.requestBody?.text).toBe(body);
  expect(cap.connection.requestHeaders).toContainEqual(['Authorization', '•••']);
  expect(cap.bytes.equals(sent)).toBe(true);

  const abortId = 'xhr-abort';
  const first = defaultPieces()[0].toString('utf8');
  const aborted = await xhrInPage(`/stream?id=${abortId}&stopAfter=2&then=hold`, { abortAfter: first.length });
  expect(aborted.error).toBe('abort');
  await server.log(abortId).closedPromise;
  expect(server.log(abortId).clientClosed).toBe(true);
  const abortCap = await waitForCapture(ext, tabId, `id=${abortId}`);
  expect(abortCap.end?.state).toBe('cancelled');
  expect(Buffer.concat(server.log(abortId).sent).subarray(0, abortCap.bytes.length).equals(abortCap.bytes)).toBe(true);
  expect(abortCap.bytes.length).toBeGreaterThanOrEqual(Buffer.byteLength(first));
});

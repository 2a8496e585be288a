// Spoofing: page scripts — in the top frame, in a same-origin about:blank iframe the page controls from its first
// instant, and in a cross-origin iframe — replace the messaging primitives, forge the handshake, post look-alike
// messages, wrap fetch after the tap and hunt for the capture. None of it may reach the capture or leak it.
// And nothing outside the extension (a web page, another extension) can connect to the background.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { chromium, expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { captured, connectionsMatching, waitForCapture } from './support/capture.ts';
import { CHROMIUM, distDir, launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, type TestServer } from './support/server.ts';
import { makeTempDir, removeTempDir } from './support/temp-dir.ts';

let ext: ExtensionBrowser;
let server: TestServer;
let page: Page;
let tabId: number;
/** The same server under a second origin (localhost vs 127.0.0.1): a cross-origin iframe. */
let otherOrigin: string;

const MARKER = 'SECRET-CAPTURE-MARKER';
const body = (id: string) => `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${MARKER}-${id}"}\n\n`;

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/app' || url.pathname === '/frame') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>${url.pathname}</title><body>${url.pathname}</body>`);
    return;
  }
  if (url.pathname === '/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body(url.searchParams.get('id') ?? ''));
    return;
  }
  res.writeHead(404).end();
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(handler);
  otherOrigin = `http://localhost:${server.port}`;
  ({ page, tabId } = await ext.openWatchedPage(`${server.url}/app`));
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

const forged = (tag: string) => ({
  type: 'records',
  records: [{ kind: 'connection', id: `forged:${tag}`, transport: 'fetch', frameUrl: 'x', method: 'GET', url: `https://evil.example/${tag}`, requestHeaders: [], startTime: 1 }],
});

function noForgery(records: CaptureRecord[]): void {
  expect(connectionsMatching(records, 'evil.example')).toEqual([]);
  expect(records.filter((r) => 'conn' in r && typeof r.conn === 'string' && r.conn.startsWith('forged:'))).toEqual([]);
}

test('a page that replaces postMessage, MessageChannel, MessagePort and event dispatch after the tap sees no capture data', async () => {
  await page.evaluate(async ({ marker }) => {
    const log: string[] = [];
    const note = (what: string, data: unknown) => {
      let text = '';
      try {
        text = JSON.stringify(data) ?? String(data);
      } catch {
        text = String(data);
      }
      log.push(`${what}: ${text.slice(0, 200)}`);
    };
    const P = MessagePort.prototype;
    const post = P.postMessage;
    P.postMessage = function (this: MessagePort, ...args: unknown[]) {
      note('port.postMessage', args[0]);
      return (post as (...a: unknown[]) => void).apply(this, args);
    };
    const winPost = window.postMessage.bind(window);
    window.postMessage = ((...args: unknown[]) => {
      note('window.postMessage', args[0]);
      return (winPost as (...a: unknown[]) => void)(...args);
    }) as typeof window.postMessage;
    const RealChannel = MessageChannel;
    (window as unknown as { MessageChannel: unknown }).MessageChannel = class extends RealChannel {
      constructor() {
        super();
        note('new MessageChannel', 'page-observed');
      }
    };
    const dispatch = EventTarget.prototype.dispatchEvent;
    EventTarget.prototype.dispatchEvent = function (this: EventTarget, ev: Event) {
      note('dispatchEvent', { type: ev.type, ports: (ev as MessageEvent).ports?.length ?? 0 });
      return dispatch.call(this, ev);
    };
    const onmessage = Object.getOwnPropertyDescriptor(P, 'onmessage');
    Object.defineProperty(P, 'onmessage', {
      configurable: true,
      get() {
        return onmessage?.get?.call(this);
      },
      set(fn) {
        note('port.onmessage set', 'page-observed');
        onmessage?.set?.call(this, fn);
      },
    });
    window.addEventListener('message', (e) => note('window message', e.data), true);
    for (const t of ['replyscope:tap-port', 'replyscope:relay-ready']) window.addEventListener(t, (e) => note(t, (e as MessageEvent).ports?.length ?? 0), true);
    // A real stream, read by the page, while every primitive is watched.
    const text = await (await fetch('/stream?id=watched')).text();
    if (!text.includes(marker)) note('stream broken', text);
    // The spies stay in place; the log is read once the capture holds the stream (the tap has sent it by then).
    (window as unknown as { __spyLog: string[] }).__spyLog = log;
  }, { marker: MARKER });
  const cap = await waitForCapture(ext, tabId, 'id=watched');
  expect(cap.bytes.toString()).toBe(body('watched'));
  const seen = await page.evaluate(() => (window as unknown as { __spyLog: string[] }).__spyLog);
  // The page saw only its own activity: nothing carrying capture data, no port offered to it.
  expect(seen.filter((l) => l.includes(MARKER) || l.includes('"records"') || l.includes('"chunk"'))).toEqual([]);
  expect(seen.filter((l) => l.startsWith('replyscope:'))).toEqual([]);
});

test('a page that wraps fetch after the tap is captured once, with the exact bytes', async () => {
  await page.evaluate(async () => {
    const tapped = window.fetch;
    window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
      return tapped.apply(this, args).then((r) => r); // what SDK interceptors do
    } as typeof fetch;
    await (await fetch('/stream?id=wrapped')).text();
    window.fetch = tapped;
  });
  const cap = await waitForCapture(ext, tabId, 'id=wrapped');
  expect(cap.bytes.toString()).toBe(body('wrapped'));
});

test('forged port offers and look-alike messages from the top frame and a cross-origin iframe reach nothing', async () => {
  const results = await page.evaluate(async ({ other, forgedTop }) => {
    const out: string[] = [];
    window.postMessage(forgedTop, '*');
    const ch = new MessageChannel();
    const accepted = !window.dispatchEvent(new MessageEvent('replyscope:tap-port', { ports: [ch.port2], cancelable: true }));
    out.push(accepted ? 'top: offer accepted' : 'top: offer ignored');
    ch.port1.postMessage(forgedTop);
    // A cross-origin iframe posts look-alikes to us and to itself.
    const frame = document.createElement('iframe');
    frame.src = `${other}/frame`;
    await new Promise((r) => {
      frame.onload = r;
      document.body.append(frame);
    });
    frame.contentWindow?.postMessage(forgedTop, '*');
    out.push(`iframe cross-origin: ${(() => {
      try {
        return String(frame.contentWindow?.document);
      } catch {
        return 'blocked';
      }
    })()}`);
    return out;
  }, { other: otherOrigin, forgedTop: forged('top') });
  expect(results).toEqual(['top: offer ignored', 'iframe cross-origin: blocked']);
  // The cross-origin frame itself: forge, spy, stream.
  const frame = page.frames().find((f) => f.url().startsWith(otherOrigin));
  expect(frame).toBeDefined();
  const frameSeen = await frame!.evaluate(async ({ forgedFrame, marker }) => {
    const log: string[] = [];
    window.addEventListener('message', (e) => log.push(JSON.stringify(e.data)), true);
    parent.postMessage(forgedFrame, '*');
    window.postMessage(forgedFrame, '*');
    const ch = new MessageChannel();
    const accepted = !window.dispatchEvent(new MessageEvent('replyscope:tap-port', { ports: [ch.port2], cancelable: true }));
    ch.port1.postMessage(forgedFrame);
    const text = await (await fetch('/stream?id=in-frame')).text();
    return { accepted, leaked: log.filter((l) => l.includes(marker)), ok: text.includes(marker) };
  }, { forgedFrame: forged('frame'), marker: MARKER });
  expect(frameSeen).toEqual({ accepted: false, leaked: [], ok: true });
  const cap = await waitForCapture(ext, tabId, 'id=in-frame');
  expect(cap.connection.isSubframe).toBe(true);
  expect(cap.bytes.toString()).toBe(body('in-frame'));
  noForgery(await ext.records(tabId));
});

test('an about:blank iframe the page controls from its first instant: forged handshakes get nothing into the capture', async () => {
  const outcome = await page.evaluate(async ({ forgedBlank }) => {
    const out: Record<string, unknown> = {};
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const w = frame.contentWindow as Window & typeof globalThis;
    // Before anything else can run in the new frame: steal offers, pre-empt the relay, poison its primitives.
    let stolen = 0;
    const fake = new w.MessageChannel();
    w.addEventListener('replyscope:tap-port', (e) => {
      const port = (e as MessageEvent).ports[0];
      if (port && port !== fake.port2) stolen++; // a port that is not our own forged offer: the tap's
    }, true);
    fake.port1.onmessage = (e) => {
      out.gotFromRelay = JSON.stringify(e.data).slice(0, 200);
    };
    // The leave hand-off's element (tap/handshake.ts): the tap's offer is not seen, a forged one is not taken.
    const fakeNode = w.document.createElement('span');
    w.addEventListener('replyscope:tap-leave-node', (e) => {
      if ((e as MouseEvent).relatedTarget !== fakeNode) stolen++;
    }, true);
    out.leaveNodeTaken = !w.dispatchEvent(new w.MouseEvent('replyscope:tap-leave-node', { relatedTarget: fakeNode, cancelable: true }));
    const offer = () => !w.dispatchEvent(new w.MessageEvent('replyscope:tap-port', { ports: [fake.port2], cancelable: true }));
    out.offerAcceptedAtOnce = offer();
    w.addEventListener('replyscope:relay-ready', () => {
      out.offerAcceptedOnReady = offer();
    });
    fake.port1.postMessage(forgedBlank);
    // The frame's fetch: tapped or not, its stream must not carry forged records.
    out.fetchIsNative = /\[native code\]/.test(Function.prototype.toString.call(w.fetch));
    const text = await (await w.fetch('/stream?id=blank-frame')).text();
    out.streamOk = text.length > 0;
    fake.port1.postMessage(forgedBlank);
    (window as unknown as { __blankProbe: () => unknown }).__blankProbe = () => ({ ...out, stolen });
    return out;
  }, { forgedBlank: forged('blank') });
  // The frame's real stream reaching the capture means its relay forwarded what it had — forged records included.
  const cap = await waitForCapture(ext, tabId, 'id=blank-frame');
  Object.assign(outcome, await page.evaluate(() => (window as unknown as { __blankProbe: () => Record<string, unknown> }).__blankProbe()));
  const records = await ext.records(tabId);
  const found = connectionsMatching(records, 'id=blank-frame');
  console.log(`about:blank iframe probe: ${JSON.stringify(outcome)}; captured: ${found.length}`);
  noForgery(await ext.records(tabId));
  expect(outcome.stolen).toBe(0);
  expect(outcome.offerAcceptedAtOnce).toBe(false); // the relay already held the tap's port
  expect(outcome.leaveNodeTaken).toBe(false); // and the tap's leave element
  expect(outcome.offerAcceptedOnReady).not.toBe(true);
  expect(outcome.fetchIsNative).toBe(false); // the frame's fetch was tapped before the page could touch it
  expect(outcome.gotFromRelay).toBeUndefined();
  expect(cap.bytes.toString()).toBe(body('blank-frame'));
  expect(found).toHaveLength(1);
});

test('web pages cannot reach the extension: no runtime API, no extension resources', async () => {
  const r = await page.evaluate(async (id) => {
    const c = (globalThis as unknown as { chrome?: { runtime?: { connect?: unknown; sendMessage?: unknown } } }).chrome;
    let resource = 'blocked';
    try {
      await fetch(`chrome-extension://${id}/manifest.json`);
      resource = 'readable';
    } catch {
      // expected: not web-accessible
    }
    return { connect: typeof c?.runtime?.connect, sendMessage: typeof c?.runtime?.sendMessage, resource };
  }, ext.extensionId);
  expect(r).toEqual({ connect: 'undefined', sendMessage: 'undefined', resource: 'blocked' });
});

test('another extension cannot connect to the background or get any capture', async () => {
  // A second, unrelated extension in the same browser tries every door: connect as a panel, as a relay, sendMessage.
  const dir = makeTempDir('replyscope-other-ext-');
  const profile = makeTempDir('replyscope-profile2-');
  let launched: BrowserContext | undefined; // (for the finally: the launch may fail)
  try {
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'other', version: '1.0', background: { service_worker: 'sw.js' } }));
    writeFileSync(path.join(dir, 'sw.js'), '// idle\n');
    writeFileSync(path.join(dir, 'probe.html'), '<!doctype html><title>probe</title>');
    const dist = distDir();
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [`--disable-extensions-except=${dist},${dir}`, `--load-extension=${dist},${dir}`, '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    launched = context;
    const workers = async () => {
      while (context.serviceWorkers().length < 2) await context.waitForEvent('serviceworker');
      return context.serviceWorkers();
    };
    const ids = (await workers()).map((w) => new URL(w.url()).host);
    const ours = (await workers()).find((w) => w.url().includes('service-worker-loader'));
    const ourId = new URL(ours!.url()).host;
    const otherId = ids.find((x) => x !== ourId)!;
    const app = await context.newPage();
    await app.goto(`${server.url}/app`);
    await app.evaluate(async () => (await fetch('/stream?id=other-ext')).text());
    const probe = await context.newPage();
    await probe.goto(`chrome-extension://${otherId}/probe.html`);
    const result = await probe.evaluate(async (target) => {
      const attempt = (name: string) => new Promise<string>((resolve) => {
        const got: string[] = [];
        const port = chrome.runtime.connect(target, { name });
        port.onMessage.addListener((m) => got.push(JSON.stringify(m).slice(0, 100)));
        port.onDisconnect.addListener(() => resolve(got.length ? `got ${got.join(' ')}` : `disconnected: ${chrome.runtime.lastError?.message ?? ''}`));
        try {
          port.postMessage({ type: 'hello' });
        } catch (e) {
          resolve(`post failed: ${(e as Error).message}`);
        }
        setTimeout(() => resolve(got.length ? `got ${got.join(' ')}` : 'no answer'), 1000);
      });
      const panel = await Promise.all([1, 2, 3, 4, 5].map((n) => attempt(`panel:${n}`)));
      const relay = await attempt('relay');
      let message = '';
      try {
        message = JSON.stringify(await chrome.runtime.sendMessage(target, { type: 'ping' }));
      } catch (e) {
        message = `rejected: ${(e as Error).message}`;
      }
      return { panel, relay, message };
    }, ourId);
    for (const p of [...result.panel, result.relay]) expect(p).not.toMatch(/^got/);
    expect(result.message).toMatch(/^rejected/);
  } finally {
    await launched?.close();
    removeTempDir(profile);
    removeTempDir(dir);
  }
});

// Background tabs, for real: "20 tabs streaming, most in the background", and captures in background tabs complete.
// Pages opened through launchWithExtension() always report document.visibilityState 'visible' (Playwright's focus
// emulation keeps them so — see support/background-tabs.ts), so the relay's hidden-page path was never run by an e2e
// test: a hidden page sends records at once instead of in idle time, and flushes its queue on visibilitychange→hidden
// (src/extension/relay/idle-outbox.ts, background-link.ts). Here every tab but the window's active one is hidden and
// throttled like a user's background tab. Each page notes its visibilityState at every read, so a test cannot pass
// with the page in the wrong state; page bytes and captured bytes are compared with what the server really sent.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { launchWithBackgroundTabs, visibility, type BackgroundTabsBrowser } from './support/background-tabs.ts';
import { waitForCapture } from './support/capture.ts';
import { deferred, startServer, writeAndWait, type TestServer } from './support/server.ts';

let bg: BackgroundTabsBrowser;
let server: TestServer;
const sent = new Map<string, Buffer[]>();
const bytesOf = (id: string) => Buffer.concat(sent.get(id) ?? []);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// A stream held open at a point the test chooses: the server resolves `reached` there and waits for `release`.
type Signal = ReturnType<typeof deferred<void>>;
const holds = new Map<string, { reached: Signal; release: Signal }>();
function hold(key: string) {
  if (!holds.has(key)) holds.set(key, { reached: deferred<void>(), release: deferred<void>() });
  return holds.get(key)!;
}

const HEAD = 'data: {"type":"REPLY_START","reply_id":"r","session_id":"s","name":"n"}\n\ndata: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}\n\n';
const TAIL = 'data: {"type":"REPLY_END","reply_id":"r","session_id":"s"}\n\n';

// /drip?id=&n=&gap=&hold=i,j — an AgentScope reply, one delta every `gap` ms, held after delta i until the test
// releases hold `${id}@${i}`. Every byte sent is logged.
async function handler(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/app') {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(`<!doctype html><title>${url.search}</title>`);
    return;
  }
  const id = url.searchParams.get('id') ?? '';
  const chunks: Buffer[] = [];
  sent.set(id, chunks);
  const write = async (s: string) => {
    chunks.push(Buffer.from(s));
    await writeAndWait(res, chunks[chunks.length - 1]);
  };
  const n = Number(url.searchParams.get('n') ?? 10);
  const gap = Number(url.searchParams.get('gap') ?? 0);
  const holdAfter = new Set((url.searchParams.get('hold') ?? '').split(',').filter(Boolean).map(Number));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  await write(HEAD);
  for (let i = 0; i < n && !res.destroyed; i++) {
    if (gap) await new Promise((r) => setTimeout(r, gap)); // the server's pace, not a wait in the test
    await write(`data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${id} piece ${i} ü😀 "}\n\n`);
    if (holdAfter.has(i)) {
      hold(`${id}@${i}`).reached.resolve();
      await hold(`${id}@${i}`).release.promise;
    }
  }
  if (res.destroyed) return;
  chunks.push(Buffer.from(TAIL));
  res.end(TAIL);
}

interface PageRead {
  len: number;
  sha: string;
  error?: string;
  /** document.visibilityState at every read, runs collapsed: ['visible', 'hidden', 'visible'] = hidden mid-stream. */
  seen: DocumentVisibilityState[];
  /** document.visibilityState when the body had ended. */
  atEnd: DocumentVisibilityState;
  /** How long a chain of three 10 ms timers took while the stream ran (~30 ms in a foreground tab). */
  timersMs: number;
}

/** The page reads a stream to its end; `window.__got` counts the bytes it has so far. */
function readNoting(page: Page, url: string): Promise<PageRead> {
  return page.evaluate(async (url) => {
    const w = window as unknown as { __got: number };
    w.__got = 0;
    const seen: DocumentVisibilityState[] = [];
    const note = () => seen[seen.length - 1] !== document.visibilityState && seen.push(document.visibilityState);
    const timers = (async () => {
      const t0 = performance.now();
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 10));
      return performance.now() - t0;
    })();
    const parts: Uint8Array[] = [];
    let error: string | undefined;
    note();
    try {
      const reader = (await fetch(url)).body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        note();
        parts.push(r.value);
        w.__got += r.value.length;
      }
    } catch (e) {
      error = String(e);
    }
    const atEnd = document.visibilityState;
    const all = new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', all))].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { len: all.length, sha: digest, seen, atEnd, timersMs: await timers, ...(error ? { error } : {}) };
  }, url);
}

const got = (page: Page) => page.evaluate(() => (window as unknown as { __got: number }).__got);

/** Waits until the stream is held at `at` and the page has read every byte sent so far. */
async function heldAndRead(page: Page, id: string, at: number): Promise<void> {
  await hold(`${id}@${at}`).reached.promise;
  await expect.poll(() => got(page)).toBe(bytesOf(id).length);
}

/** The capture catches up with everything sent so far while the stream is still open. */
async function captureCaughtUp(tabId: number, id: string): Promise<void> {
  const live = await waitForCapture(bg, tabId, `id=${id}&`, (c) => c.bytes.length >= bytesOf(id).length);
  expect(live.bytes.equals(bytesOf(id))).toBe(true);
  expect(live.end).toBeUndefined();
}

async function expectCompleteCapture(tabId: number, id: string): Promise<void> {
  const cap = await waitForCapture(bg, tabId, `id=${id}&`);
  expect(cap.bytes.equals(bytesOf(id))).toBe(true);
  expect(cap.end?.state).toBe('complete');
}

test.beforeAll(async () => {
  bg = await launchWithBackgroundTabs();
  server = await startServer(handler);
});

test.afterAll(async () => {
  await bg?.close();
  await server?.close();
});

test('a tab hidden for the whole stream: the page and the capture get every byte, live while it is hidden', async () => {
  const front = await bg.openTab(`${server.url}/app?front`, { active: true });
  const { page, tabId } = await bg.openTab(`${server.url}/app?hidden`);
  expect(await visibility(front.page)).toBe('visible');
  expect(await visibility(page)).toBe('hidden');
  const reading = readNoting(page, '/drip?id=h&n=150&gap=2&hold=99');
  // Held open after 100 deltas: what was sent so far reaches the capture while the page is hidden (no pagehide,
  // no visibilitychange to flush on — records must go out as they come).
  await heldAndRead(page, 'h', 99);
  await captureCaughtUp(tabId, 'h');
  hold('h@99').release.resolve();
  const r = await reading;
  expect(r.error).toBeUndefined();
  expect(r.seen).toEqual(['hidden']); // hidden at every read…
  expect(r.atEnd).toBe('hidden'); // …and when the body ended
  expect(r.timersMs).toBeGreaterThan(1000); // throttled like a background tab: timers wake at most once a second
  expect(r.sha).toBe(sha(bytesOf('h')));
  await expectCompleteCapture(tabId, 'h');
  console.log(`robust-background-tabs: hidden tab, ${r.len} B, three 10 ms timers took ${Math.round(r.timersMs)} ms`);
  await page.close();
  await front.page.close();
});

test('20 tabs streaming at once, one in the foreground and 19 hidden: every page body and every capture exact', async () => {
  test.setTimeout(120_000);
  const FRONT = 7;
  const tabs: { page: Page; tabId: number }[] = [];
  for (let i = 0; i < 20; i++) tabs.push(await bg.openTab(`${server.url}/app?tab${i}`, { active: i === FRONT }));
  const before = await Promise.all(tabs.map((t) => visibility(t.page)));
  expect(before.filter((v) => v === 'hidden').length).toBeGreaterThanOrEqual(19);
  expect(before[FRONT]).toBe('visible');
  const results = await Promise.all(tabs.map((t, i) => readNoting(t.page, `/drip?id=t${i}&n=${100 + i}&gap=5`)));
  for (const [i, r] of results.entries()) {
    expect(r.error).toBeUndefined();
    expect(r.seen).toEqual([i === FRONT ? 'visible' : 'hidden']); // each tab kept its state for the whole stream
    expect(r.atEnd).toBe(i === FRONT ? 'visible' : 'hidden');
    expect(r.sha).toBe(sha(bytesOf(`t${i}`)));
  }
  const hiddenThroughout = results.filter((r) => r.seen.join() === 'hidden' && r.atEnd === 'hidden').length;
  expect(hiddenThroughout).toBeGreaterThanOrEqual(19);
  for (const [i, t] of tabs.entries()) {
    await expectCompleteCapture(t.tabId, `t${i}`);
    // Only its own stream: no other tab's connection shows up in this tab's capture.
    const urls = (await bg.records(t.tabId)).flatMap((r) => (r.kind === 'connection' ? [r.url] : []));
    expect(urls).toEqual([expect.stringContaining(`id=t${i}&`)]);
  }
  console.log(`robust-background-tabs: 20 tabs (${hiddenThroughout} hidden for their whole stream), ${results.reduce((n, r) => n + r.len, 0)} B in all, every page body and capture exact`);
  for (const t of tabs) {
    await bg.debug((d, id: number) => d.unwatch(id), t.tabId);
    await t.page.close();
  }
});

test('a tab that goes from visible to hidden mid-stream and back loses nothing', async () => {
  const { page, tabId } = await bg.openTab(`${server.url}/app?switch`, { active: true });
  const other = await bg.openTab(`${server.url}/app?other`);
  expect(await visibility(page)).toBe('visible');
  const reading = readNoting(page, '/drip?id=sw&n=150&gap=2&hold=49,99');
  // 1. Visible: 50 deltas, their records queued for idle time.
  await heldAndRead(page, 'sw', 49);
  // 2. Hidden (another tab made active): the queue is flushed on visibilitychange, new records go at once, so the
  // capture catches up while the tab is still hidden.
  await bg.activate(other.tabId);
  await expect.poll(() => visibility(page)).toBe('hidden');
  hold('sw@49').release.resolve();
  await heldAndRead(page, 'sw', 99);
  await captureCaughtUp(tabId, 'sw');
  expect(await visibility(page)).toBe('hidden');
  // 3. Visible again for the rest: back to idle-time batches.
  await bg.activate(tabId);
  await expect.poll(() => visibility(page)).toBe('visible');
  hold('sw@99').release.resolve();
  const r = await reading;
  expect(r.error).toBeUndefined();
  expect(r.seen).toEqual(['visible', 'hidden', 'visible']);
  expect(r.sha).toBe(sha(bytesOf('sw')));
  await expectCompleteCapture(tabId, 'sw');
  await page.close();
  await other.page.close();
});

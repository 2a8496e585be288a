// The extension reloaded (an update, or the developer pressing Reload) while a page streams. The extension is loaded
// through CDP (Extensions.loadUnpacked) so it can be reloaded for real — an extension loaded with --load-extension
// does not come back after chrome.runtime.reload(). MV3 leaves the old content scripts of open pages orphaned and
// injects none into them, so: the page must get every byte; the capture its old relay held is out of reach, and a
// panel on that page says so ("not running in this page — reload it") instead of waiting; after the page reloads,
// the new extension captures it exactly.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { expect, test, type CDPSession, type Page, type Worker } from '@playwright/test';
import { waitForCapture } from './support/capture.ts';
import { spawnChromium, type CdpChromium } from './support/cdp-chromium.ts';
import { distDir, evaluateDebug, QUIET_ARGS } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';

let chromium: CdpChromium;
let cdp: CDPSession;
let server: TestServer;
let extensionId = '';
const sent = new Map<string, Buffer[]>();
const bytesOf = (id: string) => Buffer.concat(sent.get(id) ?? []);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function handler(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/app') {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(`<!doctype html><title>${url.search}</title>`);
    return;
  }
  const id = url.searchParams.get('id') ?? '';
  const chunks: Buffer[] = [];
  sent.set(id, chunks);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const write = (s: string) => writeAndWait(res, chunks[chunks.push(Buffer.from(s)) - 1]);
  await write('data: {"type":"REPLY_START","reply_id":"r","session_id":"s","name":"n"}\n\ndata: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}\n\n');
  for (let i = 0; i < Number(url.searchParams.get('n') ?? 10) && !res.destroyed; i++) {
    await new Promise((r) => setTimeout(r, 10)); // the server's pace
    await write(`data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${i} ü😀 "}\n\n`);
  }
  await write('data: {"type":"REPLY_END","reply_id":"r","session_id":"s"}\n\n');
  res.end();
}

/** Loads (or, for an extension already loaded from that folder, reloads) the built extension; its new worker. */
async function loadExtension(): Promise<Worker> {
  const started = chromium.context.waitForEvent('serviceworker', { predicate: (w) => w.url().startsWith('chrome-extension://') });
  const { id } = (await cdp.send('Extensions.loadUnpacked' as never, { path: distDir() } as never)) as unknown as { id: string };
  extensionId = id;
  const worker = await started;
  // A fresh worker has no mark yet (a reload that kept the old worker running would fail here).
  const fresh = await worker.evaluate(() => {
    const g = globalThis as unknown as { marked?: boolean };
    const unmarked = g.marked === undefined;
    g.marked = true;
    return unmarked;
  });
  expect(fresh).toBe(true);
  return worker;
}

async function tabIdOf(worker: Worker, page: Page): Promise<number> {
  let id: number | undefined;
  await expect.poll(async () => (id = await evaluateDebug(worker, (d, u: string) => d.tabIdOf(u), page.url()))).toBeDefined();
  return id as number;
}

/** Page-side: reads a stream to its end; length + SHA-256 of what the page got. */
function readAll(page: Page, url: string): Promise<{ len: number; sha: string; error?: string }> {
  return page.evaluate(async (url) => {
    const parts: Uint8Array[] = [];
    let error: string | undefined;
    try {
      const reader = (await fetch(url)).body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
    } catch (e) {
      error = String(e);
    }
    const all = new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', all))].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { len: all.length, sha: digest, ...(error ? { error } : {}) };
  }, url);
}

test.beforeAll(async () => {
  server = await startServer(handler);
  chromium = await spawnChromium(['--enable-unsafe-extension-debugging', ...QUIET_ARGS]);
  cdp = await chromium.browser.newBrowserCDPSession();
});

test.afterAll(async () => {
  await chromium?.close();
  await server?.close();
});

test('the extension reloaded mid-stream: the page gets every byte, a panel says the page must be reloaded, and after that the new extension captures it', async () => {
  const worker = await loadExtension();
  const page = await chromium.context.newPage();
  await page.goto(`${server.url}/app?reload`);
  const tabId = await tabIdOf(worker, page);
  await evaluateDebug(worker, (d, id: number) => d.watch(id), tabId);
  const reading = readAll(page, '/stream?id=before&n=300');
  const recordsOf = (w: Worker) => ({ records: (id: number) => evaluateDebug(w, (d, t: number) => d.records(t), id) });
  const partly = await waitForCapture(recordsOf(worker), tabId, 'id=before', (c) => c.bytes.length > 1000);

  const reloaded = await loadExtension(); // the extension's Reload, mid-stream: a new worker
  const sentAtReload = bytesOf('before').length;
  const got = await reading;
  expect(got.error).toBeUndefined();
  expect(got.sha).toBe(sha(bytesOf('before'))); // the page is unaffected
  expect(sentAtReload).toBeLessThan(got.len); // the reload happened mid-stream

  // The old relay is orphaned: nothing reaches the new extension, and its panel says why instead of waiting.
  const panel = await chromium.context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/panel/index.html?tabId=${tabId}`);
  await expect(panel.getByTestId('empty')).toContainText('Replyscope is not running in this page — reload it to capture its streams.');
  await panel.screenshot({ path: test.info().outputPath('after-extension-reload.png') });

  // Reloaded, the page runs the new relay: the next stream is captured exactly, and the panel shows it.
  await page.reload();
  expect(await tabIdOf(reloaded, page)).toBe(tabId);
  await evaluateDebug(reloaded, (d, id: number) => d.watch(id), tabId);
  const again = await readAll(page, '/stream?id=after&n=50');
  expect(again.sha).toBe(sha(bytesOf('after')));
  const cap = await waitForCapture(recordsOf(reloaded), tabId, 'id=after');
  expect(cap.bytes.equals(bytesOf('after'))).toBe(true);
  await expect(panel.getByTestId('empty')).toHaveCount(0);
  console.log(`robust-extension-reload: page got all ${got.len} B (reload at ${sentAtReload} B sent, ${partly.bytes.length} B captured before it); after a page reload the new extension captured ${cap.bytes.length} B exactly`);
  await panel.close();
  await page.close();
});

// The extension reloaded (an update, or the developer pressing Reload) while a page streams. The extension is loaded
// through CDP (Extensions.loadUnpacked) so it can be reloaded for real — an extension loaded with --load-extension
// does not come back after chrome.runtime.reload(). MV3 leaves the old content scripts of open pages orphaned and
// injects none into them, so: the page must get every byte; the capture its old relay held is out of reach, and a
// panel on that page says so ("not running in this page — reload it") instead of waiting; after the page reloads,
// the new extension captures it exactly.
import { createHash } from 'node:crypto';
import { expect, test, type CDPSession, type Page, type Worker } from '@playwright/test';
import { startAgentServer, type AgentServer } from './support/agent-server.ts';
import { waitForCapture } from './support/capture.ts';
import { spawnChromium, type CdpChromium } from './support/cdp-chromium.ts';
import { distDir, evaluateDebug, QUIET_ARGS } from './support/extension.ts';
import { readAllInPage } from './support/page-read.ts';

let chromium: CdpChromium;
let cdp: CDPSession;
let server: AgentServer;
let extensionId = '';
const sent = (id: string) => Buffer.concat(server.log(id).sent);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

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

test.beforeAll(async () => {
  server = await startAgentServer();
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
  // The server holds the stream after its fourth piece until the extension has been reloaded.
  const reading = readAllInPage(page, '/stream?id=before&stopAfter=4');
  const recordsOf = (w: Worker) => ({ records: (id: number) => evaluateDebug(w, (d, t: number) => d.records(t), id) });
  const partly = await waitForCapture(recordsOf(worker), tabId, 'id=before', (c) => c.bytes.length > 0);

  const reloaded = await loadExtension(); // the extension's Reload, mid-stream: a new worker
  const sentAtReload = sent('before').length;
  server.release('before');
  const got = await reading;
  expect(got.error).toBeUndefined();
  expect(got.sha).toBe(sha(sent('before'))); // the page is unaffected
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
  const again = await readAllInPage(page, '/stream?id=after');
  expect(again.sha).toBe(sha(sent('after')));
  const cap = await waitForCapture(recordsOf(reloaded), tabId, 'id=after');
  expect(cap.bytes.equals(sent('after'))).toBe(true);
  await expect(panel.getByTestId('empty')).toHaveCount(0);
  console.log(`robust-extension-reload: page got all ${got.len} B (reload at ${sentAtReload} B sent, ${partly.bytes.length} B captured before it); after a page reload the new extension captured ${cap.bytes.length} B exactly`);
  await panel.close();
  await page.close();
});

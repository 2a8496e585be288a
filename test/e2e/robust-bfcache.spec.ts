// The back/forward cache, for real: Playwright launches Chromium with --disable-back-forward-cache, so this file runs
// its own browser without that switch. A page that captured a stream is frozen (navigation away) and restored (back):
// it must be restored exactly as without the extension, and a watching panel must get its capture back, plus what
// the restored page streams next.
import type http from 'node:http';
import { expect, test, type Page } from '@playwright/test';
import { waitForCapture } from './support/capture.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, type TestServer } from './support/server.ts';

let ext: ExtensionBrowser;
let server: TestServer;

const frame = (id: string, i: number) => `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"${id}","block_id":"b","delta":"${i} "}\n\n`;
const bodyOf = (id: string, n: number) => Array.from({ length: n }, (_, i) => frame(id, i)).join('');

async function handler(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/app' || url.pathname === '/other') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${url.pathname}</title>`);
    return;
  }
  const id = url.searchParams.get('id') ?? 'x';
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(bodyOf(id, Number(url.searchParams.get('n') ?? 5)));
}

test.beforeAll(async () => {
  ext = await launchWithExtension({ ignoreDefaultArgs: ['--disable-back-forward-cache'] });
  server = await startServer(handler);
});
test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

const read = (page: Page, path: string) => page.evaluate((p) => fetch(p).then((r) => r.text()), path);

/** Navigate away and back; resolves with whether the page came back from the back/forward cache. */
async function awayAndBack(page: Page): Promise<boolean> {
  await page.evaluate(() => addEventListener('pageshow', (e) => ((window as unknown as { bf?: boolean }).bf = e.persisted)));
  await page.goto(`${server.url}/other`);
  // A restore fires no load event: wait for the commit, then for the page to say how it came back.
  await page.goBack({ waitUntil: 'commit' });
  await page.waitForFunction(() => document.readyState === 'complete');
  return page.evaluate(() => (window as unknown as { bf?: boolean }).bf === true);
}

test('a page restored from the back/forward cache: restored as without the extension; the panel gets its capture back and what it streams next', async () => {
  // Without the extension's capture, is this page restored? (a baseline in the same browser: a page that fetched nothing)
  const plain = await ext.context.newPage();
  await plain.goto(`${server.url}/app`);
  expect(await awayAndBack(plain)).toBe(true);
  await plain.close();

  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(page);
  await ext.watch(tabId); // a panel watching the tab all along
  expect(await read(page, '/sse?id=before&n=5')).toBe(bodyOf('before', 5));
  await waitForCapture(ext, tabId, 'id=before');

  const restored = await awayAndBack(page);
  expect(restored).toBe(true); // capturing a stream does not cost the page its back/forward cache

  // The restored page streams again: the watcher sees the new stream, and the old one is still there.
  expect(await read(page, '/sse?id=after&n=7')).toBe(bodyOf('after', 7));
  const after = await waitForCapture(ext, tabId, 'id=after');
  expect(after.bytes.toString()).toBe(bodyOf('after', 7));
  expect(after.end?.state).toBe('complete');
  const before = await waitForCapture(ext, tabId, 'id=before');
  expect(before.bytes.toString()).toBe(bodyOf('before', 5));
  const docs = await ext.debug((d, id: number) => d.documents(id), tabId);
  const top = docs.filter((d) => d.isTop && d.frameUrl.endsWith('/app'));
  expect(top.map((d) => d.gone)).toEqual([false]); // one document, the restored one, not gone
  await page.close();
});

test('with preserve log, Back to a page the cache restores draws a boundary before what it streams after its return', async () => {
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app`);
  const panel = await ext.panelPage(await ext.tabIdFor(page));
  await panel.getByRole('checkbox', { name: 'Preserve log' }).check();
  await read(page, '/sse?id=pb-a1&n=3');
  await expect(panel.locator('[data-conn]')).toHaveCount(1); // the panel has it before the page is frozen
  await page.evaluate(() => addEventListener('pageshow', (e) => ((window as unknown as { bf?: boolean }).bf = e.persisted)));
  await page.goto(`${server.url}/other`);
  await read(page, '/sse?id=pb-b1&n=3');
  await expect(panel.locator('[data-conn]')).toHaveCount(2);
  await page.goBack({ waitUntil: 'commit' });
  await page.waitForFunction(() => document.readyState === 'complete');
  expect(await page.evaluate(() => (window as unknown as { bf?: boolean }).bf)).toBe(true);
  await read(page, '/sse?id=pb-a2&n=3');
  // The restored page's earlier stream stays above the page it left for; its new one comes after the return.
  const rows = () => panel.locator('[data-testid="connections"] tbody tr').evaluateAll((trs) => trs.map((r) =>
    r.getAttribute('data-testid') === 'page-boundary' ? `→ ${new URL(r.querySelector('.page-boundary-text')!.textContent!.replace('Navigated to ', '')).pathname}` : new URL(r.getAttribute('title')!.split('\n')[0].split(' ').pop()!).searchParams.get('id')));
  await expect.poll(rows).toEqual(['pb-a1', '→ /other', 'pb-b1', '→ /app', 'pb-a2']);
  await panel.close();
  await page.close();
});

// The memory cap holds per tab, not per document: three cross-origin iframes of one tab each read a stream of four
// times the cap. Each frame's relay bounds its own capture, and the background (background/tab-budget.ts) lowers
// their limits so that together they hold no more than the cap — measured on the snapshot a panel opened afterwards
// gets, which is exactly what the relays hold. The pages still get every byte. The bookkeeping survives a
// service-worker restart, and frames that go away give their share back.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { expect, test, type Frame } from '@playwright/test';
import type { EvictionRecord } from '../../src/core/capture/model.ts';
import type { TabBudgetState } from '../../src/extension/background/tab-budget.ts';
import { waitForCapture } from './support/capture.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';

const MiB = 1024 * 1024;
const CAP = 4 * MiB;
const STREAM = 4 * CAP;
const FRAMES = 3;

let ext: ExtensionBrowser;
const servers: TestServer[] = [];
const sent = new Map<string, Buffer[]>();
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function handler(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/app') {
    // The top page embeds one frame from each of the other servers (other ports: other origins).
    const frames = servers.slice(1).map((s, i) => `<iframe name="f${i}" src="${s.url}/frame?f${i}"></iframe>`).join('');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>tab cap</title>${frames}`);
    return;
  }
  if (url.pathname === '/frame') {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>frame</title>');
    return;
  }
  const id = url.searchParams.get('id') ?? '';
  const chunks: Buffer[] = [];
  sent.set(id, chunks);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const frame = (i: number) => `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${id} ${i} ${'x'.repeat(16_000)}"}\n\n`;
  for (let i = 0, n = 0; n < STREAM && !res.destroyed; i++) {
    const b = Buffer.from(frame(i));
    chunks.push(b);
    n += b.length;
    await writeAndWait(res, b);
  }
  res.end();
}

/** In a frame: reads the whole stream; returns its length and SHA-256. */
function read(frame: Frame, id: string): Promise<{ len: number; sha: string }> {
  return frame.evaluate(async (id) => {
    const buf = new Uint8Array(await (await fetch(`/stream?id=${id}`)).arrayBuffer());
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', buf))].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { len: buf.length, sha: digest };
  }, id);
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  for (let i = 0; i <= FRAMES; i++) servers.push(await startServer(handler));
  await ext.debug(async (_d, cap: number) => chrome.storage.local.set({ 'replyscope.captureLimitBytes': cap }), CAP);
});

test.afterAll(async () => {
  await ext?.debug(async () => chrome.storage.local.remove('replyscope.captureLimitBytes'));
  await ext?.close();
  for (const s of servers) await s.close();
});

test(`three iframes each streaming ${STREAM / MiB} MiB under a ${CAP / MiB} MiB cap: together they keep at most the cap, the pages get every byte`, async () => {
  const page = await ext.context.newPage();
  await page.goto(`${servers[0].url}/app`);
  const tabId = await ext.tabIdFor(page);
  const frames = await Promise.all(Array.from({ length: FRAMES }, async (_, i) => {
    const name = `f${i}`;
    await expect.poll(() => page.frame({ name })?.url() ?? '').toContain('/frame');
    return page.frame({ name }) as Frame;
  }));
  const got = await Promise.all(frames.map((f, i) => read(f, `s${i}`)));
  for (let i = 0; i < FRAMES; i++) expect(got[i].sha).toBe(sha(Buffer.concat(sent.get(`s${i}`) ?? []))); // the page is unaffected

  // The background's view converges: every document told the same limit, a third of the cap.
  await expect.poll(async () => {
    const budget = await ext.debug((d, id: number) => d.budget(id), tabId) as TabBudgetState;
    return Object.values(budget).map((doc) => doc.limit);
  }).toEqual(Array(FRAMES).fill(Math.floor(CAP / FRAMES)));

  // Reports still on their way settle first: a relay sends at most one per 500 ms, the last size after the interval
  // (relay/usage-reports.ts), so the budget is read until two readings 600 ms apart agree.
  let last = '';
  await expect.poll(async () => {
    const now = JSON.stringify(await ext.debug((d, id: number) => d.budget(id), tabId));
    const settled = now === last;
    last = now;
    return settled;
  }, { intervals: [600] }).toBe(true);

  // The bookkeeping outlives the service worker (storage.session): a new worker knows the same documents and limits.
  const before = await ext.debug((d, id: number) => d.budget(id), tabId) as TabBudgetState;
  await ext.restartServiceWorker();
  expect(await ext.debug((d, id: number) => d.budget(id), tabId)).toEqual(before);

  // What a panel opened now gets is what the relays hold: the newest part of each stream, all together ≤ the cap.
  await ext.watch(tabId);
  let kept = 0;
  const perFrame: string[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const cap = await waitForCapture(ext, tabId, `id=s${i}`);
    const all = Buffer.concat(sent.get(`s${i}`) ?? []);
    const evicted = cap.records.filter((r): r is EvictionRecord => r.kind === 'evicted').reduce((n, r) => n + r.bytes, 0);
    expect(evicted + cap.bytes.length).toBe(all.length);
    expect(cap.bytes.equals(all.subarray(evicted))).toBe(true);
    kept += cap.bytes.length;
    perFrame.push((cap.bytes.length / MiB).toFixed(2));
  }
  console.log(`tab cap: ${FRAMES} frames read ${FRAMES * STREAM / MiB} MiB; the tab keeps ${(kept / MiB).toFixed(2)} MiB (${perFrame.join(' + ')}; cap ${CAP / MiB} MiB)`);
  expect(kept).toBeLessThanOrEqual(CAP);

  // Two frames go away: their documents leave the tab's budget and the last one's limit is lifted.
  await page.evaluate(() => {
    document.querySelector('iframe[name=f1]')?.remove();
    document.querySelector('iframe[name=f2]')?.remove();
  });
  await expect.poll(async () => {
    const budget = await ext.debug((d, id: number) => d.budget(id), tabId) as TabBudgetState;
    return Object.values(budget).map((doc) => doc.limit);
  }).toEqual([null]);
  await page.close();
});

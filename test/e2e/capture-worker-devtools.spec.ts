// A stream read inside a Worker — where no content script runs — shown from DevTools' network log while DevTools is
// open on the tab (src/extension/devtools-log.ts): the panel lists it beside the page's own streams, its body exactly
// what the worker read, with a note saying where it came from; the page's own stream, which DevTools lists too, once.
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { startAgentServer, type AgentServer } from './support/agent-server.ts';
import { waitForDevtoolsPage } from './support/devtools.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { DEVTOOLS_LOG_NOTICE } from '../../src/core/capture/devtools-entry.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';

const SHOTS = process.env.REPLYSCOPE_SHOTS; // a folder to save a screenshot of the panel into (to look at)

let ext: ExtensionBrowser;
let server: AgentServer;

test.beforeAll(async () => {
  ext = await launchWithExtension({ extraArgs: ['--auto-open-devtools-for-tabs'] });
  server = await startAgentServer();
});
test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

/** Reads `url` to its end inside a new dedicated Worker (from a blob: script) and resolves with the text it read. */
function readInWorker(page: Page, url: string): Promise<string> {
  return page.evaluate((u) => new Promise<string>((resolve, reject) => {
    const code = `fetch(${JSON.stringify(u)}).then((r) => r.text()).then((t) => postMessage(t), (e) => postMessage('failed: ' + e))`;
    const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    worker.onmessage = (e) => resolve(String(e.data));
    worker.onerror = (e) => reject(new Error(e.message));
  }), url);
}

/** Reads `url` with an EventSource inside a new Worker until REPLY_END, then closes it; resolves with the data it got. */
function eventSourceInWorker(page: Page, url: string): Promise<string[]> {
  return page.evaluate((u) => new Promise<string[]>((resolve) => {
    const code = `const es = new EventSource(${JSON.stringify(u)}); const got = [];
      es.onmessage = (e) => { got.push(e.data); if (e.data.includes('REPLY_END')) { es.close(); postMessage(got); } };`;
    new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' }))).onmessage = (e) => resolve(e.data as string[]);
  }), url);
}

/** The connection rows, top to bottom, by the stream id in their URL. */
function rowIds(panel: Page): Promise<(string | null)[]> {
  return panel.locator('[data-testid="connections"] tbody tr[data-conn]').evaluateAll((rows) =>
    rows.map((r) => new URL(r.getAttribute('title')!.split('\n')[0].split(' ').pop()!).searchParams.get('id')));
}

async function readDownload(download: Download): Promise<string> {
  const parts: Buffer[] = [];
  for await (const b of await download.createReadStream()) parts.push(b as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

test("a Worker's stream shows from DevTools' network log; the page's own stream once", async () => {
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(page);
  await waitForDevtoolsPage(ext, tabId);
  const panel = await ext.panelPage(tabId);
  await expect(panel.getByTestId('status')).toContainText('Capturing');

  const pageRead = await page.evaluate(async () => (await fetch('/stream?id=in-page')).text());
  await expect.poll(() => rowIds(panel)).toEqual(['in-page']);
  const workerRead = await readInWorker(page, `${server.url}/stream?id=in-worker`);
  expect(workerRead).toBe(Buffer.concat(server.log('in-worker').sent).toString('utf8'));
  // The worker's stream joins the list once it has finished; the page's own, which DevTools logged too, stays one row.
  await expect.poll(() => rowIds(panel), { timeout: 15_000 }).toEqual(['in-page', 'in-worker']);
  const esGot = await eventSourceInWorker(page, `${server.url}/stream?id=es-worker`);
  await expect.poll(() => rowIds(panel), { timeout: 15_000 }).toEqual(['in-page', 'in-worker', 'es-worker']);

  // The capture the panel exports: the worker's body exactly, its note, and the page's stream as the tap took it.
  await panel.getByRole('button', { name: 'Export…' }).click();
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export-go').click()]);
  const records = (await readDownload(download)).trim().split('\n').map((l) => JSON.parse(l) as CaptureRecord).filter((r) => r.kind !== 'header' as string);
  const connOf = (id: string) => records.find((r) => r.kind === 'connection' && new URL(r.url).searchParams.get('id') === id) as Extract<CaptureRecord, { kind: 'connection' }>;
  const textOf = (conn: string) => records.filter((r) => r.kind === 'chunk' && r.conn === conn).map((r) => (r as { text?: string }).text ?? '').join('');
  const inWorker = connOf('in-worker');
  const inPage = connOf('in-page');
  expect(records.filter((r) => r.kind === 'connection')).toHaveLength(3);
  // The EventSource's messages as the worker got them, each at the time DevTools kept.
  const es = connOf('es-worker');
  expect(es.transport).toBe('eventsource');
  const messages = records.filter((r) => r.kind === 'message' && r.conn === es.id) as Extract<CaptureRecord, { kind: 'message' }>[];
  expect(messages.map((m) => m.data)).toEqual(esGot);
  expect(messages.every((m) => Number.isFinite(m.t) && m.t >= es.startTime)).toBe(true);
  expect(textOf(inWorker.id)).toBe(workerRead);
  expect(textOf(inPage.id)).toBe(pageRead);
  expect(inWorker.frameUrl).toMatch(/^blob:/); // the worker's script, from the request's initiator
  expect(records).toContainEqual(expect.objectContaining({ kind: 'notice', conn: inWorker.id, text: DEVTOOLS_LOG_NOTICE }));
  expect(records).toContainEqual(expect.objectContaining({ kind: 'end', conn: inWorker.id, state: 'complete' }));
  expect(records.some((r) => r.kind === 'notice' && r.conn === inPage.id && r.text === DEVTOOLS_LOG_NOTICE)).toBe(false);

  // Selected, the worker's connection says where it came from, and its reply reads as the page's does.
  await panel.locator('[data-conn]').nth(1).click();
  await expect(panel.getByTestId('connection-details').getByText(DEVTOOLS_LOG_NOTICE.slice(0, 40))).toBeVisible();
  await expect(panel.getByTestId('bubble')).toContainText('Héllo, wörld 世界 🙂🙂 done');
  if (SHOTS) await panel.screenshot({ path: path.join(SHOTS, 'worker-devtools-log.png') });
});

// Preserve log across a navigation, in the real panel: a "Navigated to …" row stands between the old page's
// connections and the new page's, arrow keys step over it, and it survives Export → Import in the standalone viewer
// (and a HAR export names the same pages).
// One Chromium: the viewer is served on 127.0.0.1 and opened in the extension's browser.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildViewer } from '../../panel/dev/build-viewer.ts';
import { serveStatic, type StaticServer } from '../../panel/dev/serve-static.ts';
import { startAgentServer, type AgentServer } from './support/agent-server.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { useTempDir } from './support/temp-dir.ts';

const SHOTS = process.env.REPLYSCOPE_SHOTS; // a folder to save screenshots of the marker into (to look at)

let ext: ExtensionBrowser;
let server: AgentServer;
let viewer: StaticServer;
const viewerDir = useTempDir('replyscope-page-boundary-');

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startAgentServer();
  await buildViewer(viewerDir());
  viewer = await serveStatic(viewerDir());
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
  await viewer?.close();
});

function readAll(page: Page, url: string): Promise<string> {
  return page.evaluate(async (u) => (await fetch(u)).text(), url);
}

/** The grid's body rows, top to bottom: a connection by the stream id in its URL, a boundary by its text. */
function gridRows(panel: Page): Promise<string[]> {
  return panel.locator('[data-testid="connections"] tbody tr').evaluateAll((rows) =>
    rows.map((r) => (r.getAttribute('data-testid') === 'page-boundary' ? `boundary: ${r.textContent}` : `conn: ${new URL(r.getAttribute('title')!.split('\n')[0].split(' ').pop()!).searchParams.get('id')}`)));
}

async function openPanelOn(query: string): Promise<{ page: Page; panel: Page }> {
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app?${query}`);
  const panel = await ext.panelPage(await ext.tabIdFor(page));
  await expect(panel.getByTestId('status')).toContainText('Capturing');
  return { page, panel };
}

const TIME = /\d{1,2}:\d{2}:\d{2}(\s?[AP]M)?/;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('with preserve log, a "Navigated to" row separates the pages, is no connection to arrow keys, and survives export → viewer', async () => {
  const { page, panel } = await openPanelOn('page=first');
  await panel.getByRole('checkbox', { name: 'Preserve log' }).check();
  await readAll(page, '/stream?id=pb-first');
  await expect(panel.locator('[data-conn]')).toHaveCount(1);
  expect(await panel.getByTestId('page-boundary').count()).toBe(0); // one page so far: nothing to separate

  const next = `${server.url}/app?page=second`;
  await page.goto(next);
  // The boundary shows as soon as the new page is known, before it streams: the row above is from the page left.
  await expect(panel.getByTestId('page-boundary')).toHaveCount(1);
  expect(await gridRows(panel)).toEqual([`conn: pb-first`, expect.stringMatching(new RegExp(`^boundary: Navigated to ${escapeRe(next)}${TIME.source}$`))]);
  await readAll(page, '/stream?id=pb-second');
  await expect(panel.locator('[data-conn]')).toHaveCount(2);
  const rows = await gridRows(panel);
  expect(rows).toEqual([`conn: pb-first`, expect.stringMatching(/^boundary: Navigated to /), `conn: pb-second`]);
  // The list sizes itself to its rows until the user drags it: the boundary row counts, the last connection is not cut.
  await expect(panel.locator('[data-conn]').nth(1)).toBeInViewport({ ratio: 1 });

  // Not a connection: no id for aria-activedescendant, not selectable, and ↓/↑ go from one page's row to the other's.
  const grid = panel.getByRole('grid', { name: 'Connections' });
  const boundary = panel.getByTestId('page-boundary');
  await expect(boundary).not.toHaveAttribute('aria-selected');
  await expect(boundary).not.toHaveAttribute('id');
  const first = panel.locator('[data-conn]').first();
  const second = panel.locator('[data-conn]').nth(1);
  await first.click();
  await grid.focus();
  await panel.keyboard.press('ArrowDown');
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(grid).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id'))!);
  await panel.keyboard.press('ArrowUp');
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await boundary.click(); // a click on it selects nothing
  await expect(first).toHaveAttribute('aria-selected', 'true');
  // Filtered to the new page's stream: the boundary still heads it (the old page's row is hidden, not gone).
  const filter = panel.getByRole('searchbox', { name: 'Filter connections by URL' });
  await filter.fill('pb-second');
  await expect.poll(() => gridRows(panel)).toEqual([rows[1], 'conn: pb-second']);
  await filter.fill('');
  await expect.poll(() => gridRows(panel)).toEqual(rows);
  if (SHOTS) {
    await panel.screenshot({ path: path.join(SHOTS, 'page-boundary-panel.png') });
    await panel.getByTestId('connections').screenshot({ path: path.join(SHOTS, 'page-boundary-list.png') });
  }

  // Export the capture log: the boundary is one of its records, between the two pages' connections.
  await panel.getByRole('button', { name: 'Export…' }).click();
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export-go').click()]);
  const exported = await readDownload(download);
  const kinds = exported.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; url?: string }).filter((r) => r.kind === 'connection' || r.kind === 'navigation');
  expect(kinds.map((r) => (r.kind === 'navigation' ? `navigation ${r.url}` : new URL(r.url!).searchParams.get('id')))).toEqual(['pb-first', `navigation ${next}`, 'pb-second']);

  // Export a HAR: the same two pages as HAR's own (log.pages, each entry's pageref), for a HAR viewer without our fields.
  await panel.getByRole('button', { name: 'Export…' }).click();
  await panel.getByRole('dialog', { name: 'Export' }).getByLabel('HAR 1.2').check();
  const [harDownload] = await Promise.all([panel.waitForEvent('download'), panel.getByTestId('export-go').click()]);
  const har = JSON.parse(await readDownload(harDownload)) as { log: { pages: { id: string; title: string }[]; entries: { pageref?: string; request: { url: string } }[] } };
  expect(har.log.pages.map((p) => p.title)).toEqual([`${server.url}/app?page=first`, next]);
  expect(har.log.entries.map((e) => [new URL(e.request.url).searchParams.get('id'), e.pageref])).toEqual([['pb-first', har.log.pages[0].id], ['pb-second', har.log.pages[1].id]]);

  // Re-opened in the standalone viewer: the same rows.
  const view = await ext.context.newPage();
  await view.goto(`${viewer.url}/index.html`);
  await view.getByTestId('import-input').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/octet-stream', buffer: Buffer.from(exported) });
  await expect(view.getByTestId('status')).toContainText(`Imported ${download.suggestedFilename()}`);
  expect(await gridRows(view)).toEqual(rows);
  if (SHOTS) await view.screenshot({ path: path.join(SHOTS, 'page-boundary-viewer.png') });
  await view.close();
  await panel.close();
  await page.close();
});

test('without preserve log the old page goes with its connections, and no boundary is drawn', async () => {
  const { page, panel } = await openPanelOn('page=alone');
  await readAll(page, '/stream?id=pb-gone');
  await expect(panel.locator('[data-conn]')).toHaveCount(1);
  await page.goto(`${server.url}/app?page=after`);
  await readAll(page, '/stream?id=pb-kept');
  await expect.poll(() => gridRows(panel)).toEqual(['conn: pb-kept']);
  await panel.close();
  await page.close();
});

test('a page that leaves as soon as its stream ended keeps that stream above the boundary (its last records were still in the tap\'s batch)', async () => {
  const { page, panel } = await openPanelOn('page=quick');
  await panel.getByRole('checkbox', { name: 'Preserve log' }).check();
  const next = `${server.url}/app?page=after-quick`;
  // Read the whole stream, then navigate in the same task: what an app does that opens the page a reply names.
  await page.evaluate(async (url) => {
    await (await fetch('/stream?id=pb-quick')).text();
    location.href = url;
  }, next).catch(() => undefined); // the navigation may destroy the context before the answer
  await page.waitForURL(next);
  await expect(panel.getByTestId('page-boundary')).toHaveCount(1);
  await expect.poll(() => gridRows(panel)).toEqual(['conn: pb-quick', expect.stringMatching(new RegExp(`^boundary: Navigated to ${escapeRe(next)}`))]);
  await expect(panel.locator('[data-conn]')).toContainText('complete');
  await panel.close();
  await page.close();
});

async function readDownload(download: import('@playwright/test').Download): Promise<string> {
  const stream = await download.createReadStream();
  const parts: Buffer[] = [];
  for await (const b of stream) parts.push(b as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

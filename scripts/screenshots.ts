// `npm run screenshots`: builds the standalone viewer, opens it in Chromium with the sample capture, and takes a
// screenshot of each view in the light and the dark theme into docs/screenshots/ — the panel docked to the side
// (420 px, stacked) too — and, with the extension built, the live panel: empty on a quiet page, and with a stream.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { buildViewer } from '../panel/dev/build-viewer.ts';
import { sampleCapture } from '../panel/dev/sample-capture.ts';
import { serveStatic, type StaticServer } from '../panel/dev/serve-static.ts';
import { writeCaptureLog } from '../src/core/capture/capture-log.ts';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { launchWithExtension } from '../test/e2e/support/extension.ts';
import { makeTempDir, removeTempDir } from '../test/temp-dir.ts';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(repo, 'docs', 'screenshots');
const only = process.argv.slice(2);

async function main(): Promise<void> {
  // The viewer's build, removed however the run ends (a build or a launch that failed, too).
  const tmp = makeTempDir('replyscope-shots-');
  let server: StaticServer | undefined;
  let browser: Browser | undefined;
  const written: string[] = [];
  try {
    await buildViewer(tmp);
    server = await serveStatic(tmp, { '/sample.replyscope.ndjson': writeCaptureLog(sampleCapture()) });
    browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    await mkdir(outDir, { recursive: true });
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 860 }, colorScheme: theme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
      const shot = async (name: string) => {
        if (only.length && !only.includes(name)) return;
        const file = path.join(outDir, `${name}-${theme}.png`);
        await page.screenshot({ path: file });
        written.push(path.relative(repo, file));
      };

      await page.goto(`${server.url}/index.html`);
      await page.getByTestId('empty').waitFor();
      await shot('viewer-empty');

      await page.goto(`${server.url}/index.html?load=sample.replyscope.ndjson`);
      await page.locator('[data-conn]').first().waitFor();
      await page.locator('[data-conn="tab1:1"]').click();
      await seekTo(page, 'TOOL_CALL_DELTA', 6);
      await shot('events-tool-call-streaming');

      await page.keyboard.press('End');
      await page.locator('.vrow[aria-selected="true"]').waitFor(); // the list has revealed the last step's row
      await shot('bubble-final');

      await page.locator('[data-tab="timeline"]').click();
      await page.getByTestId('timeline').locator('svg[role=img]').waitFor();
      await shot('timeline');

      await page.locator('[data-conn="tab1:3"]').click();
      await page.locator('[data-tab="diagnostics"]').click();
      await page.getByTestId('diagnostics').waitFor();
      await page.getByTestId('diag-occurrence').first().click();
      await shot('diagnostics');

      await page.locator('[data-conn="tab1:2"]').click();
      await page.locator('[data-tab="events"]').click();
      await page.keyboard.press('End');
      await page.locator('.vrow[aria-selected="true"]').waitFor();
      await shot('pi-stream');

      await page.getByRole('button', { name: 'Export…' }).click();
      await page.getByTestId('export-dialog').waitFor();
      await shot('export-dialog');

      await page.keyboard.press('Escape');
      await page.getByTestId('export-dialog').waitFor({ state: 'detached' });
      await page.keyboard.press('?');
      await page.getByTestId('keyboard-help').waitFor();
      await shot('keyboard-help');
      await page.keyboard.press('Escape');

      // DevTools docked to the side: the panes stacked, the timeline open at a reply's step.
      await page.setViewportSize({ width: 420, height: 860 });
      await page.locator('[data-conn="tab1:1"]').click();
      await page.locator('[data-reply]').first().click();
      await page.keyboard.press('End');
      await page.locator('[data-tab="timeline"]').click();
      await page.getByTestId('timeline').locator('svg[role=img]').waitFor();
      await shot('docked-side');
      await context.close();
    }
  } finally {
    await browser?.close();
    await server?.close();
    removeTempDir(tmp);
  }
  if (existsSync(path.join(repo, 'dist', 'manifest.json'))) await livePanelShots(written);
  else console.log('dist/ has no built extension (npm run build): skipping the live panel screenshots');
  console.log(`wrote ${written.length} screenshots:\n  ${written.join('\n  ')}`);
}

/** The panel as the extension shows it (panel/index.html?tabId=N in a tab) over a page that streams the sample. */
async function livePanelShots(written: string[]): Promise<void> {
  const body = sampleCapture()
    .records.filter((r) => r.kind === 'chunk' && r.conn === 'tab1:1')
    .map((r) => (r.kind === 'chunk' ? r.text ?? '' : ''))
    .join('');
  const server = createServer((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    // /quiet: a page that has streamed nothing yet (the panel's empty state).
    res.end(req.url === '/quiet' ? '<!doctype html><title>chat</title>'
      : '<!doctype html><title>demo chat</title><script>fetch("/stream").then(r=>r.text()).then(()=>document.title="done")</script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const ext = await launchWithExtension();
  try {
    const quiet = await ext.context.newPage();
    await quiet.goto(`http://127.0.0.1:${port}/quiet`);
    const quietTab = await ext.tabIdFor(quiet);
    for (const theme of ['light', 'dark'] as const) {
      const panel = await ext.panelPage(quietTab);
      await panel.setViewportSize({ width: 1400, height: 860 });
      await panel.emulateMedia({ colorScheme: theme });
      await panel.getByTestId('empty').locator('strong').filter({ hasText: `127.0.0.1:${port}` }).waitFor();
      if (!only.length || only.includes('panel-empty')) {
        const file = path.join(outDir, `panel-empty-${theme}.png`);
        await panel.screenshot({ path: file });
        written.push(path.relative(repo, file));
      }
      await panel.close();
    }
    const app = await ext.context.newPage();
    await app.goto(`http://127.0.0.1:${port}/`);
    await app.waitForFunction(() => document.title === 'done');
    const tabId = await ext.tabIdFor(app);
    for (const theme of ['light', 'dark'] as const) {
      const panel = await ext.panelPage(tabId);
      await panel.setViewportSize({ width: 1400, height: 860 });
      await panel.emulateMedia({ colorScheme: theme });
      await panel.locator('[data-conn]').first().click();
      await panel.keyboard.press('End');
      if (!only.length || only.includes('panel-live')) {
        const file = path.join(outDir, `panel-live-${theme}.png`);
        await panel.screenshot({ path: file });
        written.push(path.relative(repo, file));
      }
      await panel.close();
    }
  } finally {
    await ext.close();
    server.closeAllConnections();
    server.close();
  }
}

/** Click the n-th event of a type in the event list (scrolling the virtual list until it is rendered). */
async function seekTo(page: Page, type: string, nth: number): Promise<void> {
  await page.getByLabel('Event type').selectOption(type);
  await page.locator('[data-event]').nth(nth).click();
  await page.getByLabel('Event type').selectOption('');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

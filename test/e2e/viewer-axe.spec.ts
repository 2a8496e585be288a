// axe-core over every view of the standalone viewer, light and dark: the WCAG 2.x A/AA rules (not axe's best-practice
// rules such as "all content in landmarks", which a DevTools panel does not follow). axe-core is a dev dependency;
// AXE_CORE (a path to axe.min.js) runs another build of it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import { holdExportReadBack, useViewer } from './support/viewer.ts';

function axePath(): string | undefined {
  if (process.env.AXE_CORE) return existsSync(process.env.AXE_CORE) ? process.env.AXE_CORE : undefined;
  try {
    return createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  } catch {
    return undefined;
  }
}
const AXE = axePath();
if (!AXE) throw new Error(`axe-core not found (npm install; or AXE_CORE=/path/to/axe.min.js${process.env.AXE_CORE ? `: ${process.env.AXE_CORE} does not exist` : ''})`);

const viewer = useViewer('viewer-axe');
const sampleLog = writeCaptureLog(sampleCapture());
/** Two pages' connections with the page boundary Preserve log records between them (a "Navigated to" row). */
const pagesLog = (() => {
  const { header } = sampleCapture();
  const conn = (id: string) => ({ kind: 'connection' as const, id, transport: 'fetch' as const, frameUrl: 'https://app.example/', method: 'GET', url: `https://app.example/${id}`, requestHeaders: [], startTime: 1.75e12 });
  const end = (id: string) => ({ kind: 'end' as const, conn: id, t: 1.75e12 + 5, state: 'complete' as const });
  return writeCaptureLog({ header, records: [conn('old'), end('old'), { kind: 'navigation', t: 1.75e12 + 10, url: 'https://app.example/next' }, conn('new'), end('new')] });
})();

/** A stream resumed on a new request (Last-Event-ID): the list links the two rows, the details say how. */
const resumedLog = (() => {
  const { header } = sampleCapture();
  const url = 'https://app.example/resumed/stream';
  const frame = (k: number, o: object) => `id: ${k}\ndata: ${JSON.stringify({ reply_id: 'r-res', created_at: `2026-03-01T09:00:0${k}`, ...o })}\n\n`;
  const conn = (id: string, t: number, headers: [string, string][]) => ({ kind: 'connection' as const, id, transport: 'fetch' as const, frameUrl: 'https://app.example/', method: 'GET', url, requestHeaders: headers, status: 200, responseHeaders: [['content-type', 'text/event-stream']] as [string, string][], startTime: t });
  const chunk = (id: string, t: number, text: string) => ({ kind: 'chunk' as const, conn: id, t, bytes: text.length, text });
  return writeCaptureLog({ header, records: [
    conn('res:1', 1.75e12, []),
    chunk('res:1', 1.75e12 + 1, frame(0, { type: 'REPLY_START', session_id: 's', name: 'Friday', role: 'assistant' }) + frame(1, { type: 'TEXT_BLOCK_START', block_id: 'b' })),
    { kind: 'end', conn: 'res:1', t: 1.75e12 + 2, state: 'error', error: 'TypeError: network error' },
    conn('res:2', 1.75e12 + 3, [['last-event-id', '1']]),
    chunk('res:2', 1.75e12 + 4, frame(2, { type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'Hi' }) + frame(3, { type: 'TEXT_BLOCK_END', block_id: 'b' }) + frame(4, { type: 'REPLY_END', session_id: 's' })),
    { kind: 'end', conn: 'res:2', t: 1.75e12 + 5, state: 'complete' },
  ] });
})();

/** Notes of the capture above the connections (an info and a warning), to be read in full and folded to one line. */
const notesLog = (() => {
  const { header } = sampleCapture();
  return writeCaptureLog({ header, records: [
    { kind: 'notice', t: 1.75e12, level: 'info', text: 'Recorded from a demo agent: every scenario, some broken on purpose to show what the diagnostics say.' },
    { kind: 'notice', t: 1.75e12 + 1, level: 'warning', text: 'The page opened a Worker (https://app.example/worker.js): requests made inside it are not visible.' },
  ] });
})();

/** The violations of the WCAG A/AA rules on the page as it is, one line each (empty: none). */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE! });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    });
    return r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  });
}

for (const theme of ['light', 'dark']) {
  test(`${theme}: no WCAG A/AA violation in any view, dialog or error state`, async () => {
    const page = await viewer.browser.newPage({ viewport: { width: 1400, height: 860 } });
    await page.goto(`${viewer.url}/index.html?theme=${theme}`);
    const found: Record<string, string[]> = {};
    const check = async (state: string) => (found[state] = await violations(page));

    await check('empty');
    await page.getByTestId('import-input').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1') });
    await expect(page.getByTestId('import-error')).toBeVisible();
    await check('import error');
    await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
    await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
    await page.locator('[data-conn="tab1:1"]').click();
    await check('events');
    await page.keyboard.press('Home');
    await page.getByRole('tab', { name: 'JSON' }).click();
    await check('step 1, JSON');
    await page.getByRole('tab', { name: 'Diff' }).click();
    await check('step 1, diff');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await check('timeline');
    await page.getByRole('button', { name: 'Table' }).click();
    await expect(page.getByRole('grid', { name: /lanes on the/ })).toBeVisible();
    await check('timeline as a table');
    await page.getByRole('tab', { name: /^Diagnostics/ }).click();
    await page.getByRole('checkbox', { name: 'All connections' }).check();
    await check('diagnostics, all connections');
    await page.getByRole('searchbox', { name: 'Filter connections by URL' }).fill('no-such-url');
    await check('connections filtered out');
    await page.getByRole('searchbox', { name: 'Filter connections by URL' }).fill('');
    await page.getByRole('button', { name: 'Export…' }).click();
    await check('export dialog');
    // An export under way (its last step, the file read back, held until the test lets it go), then cancelled.
    const release = await holdExportReadBack(page);
    const exportDialog = page.getByRole('dialog', { name: 'Export' });
    await exportDialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(exportDialog.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    await check('export under way');
    await exportDialog.getByRole('button', { name: 'Cancel export' }).click();
    await release();
    await expect(exportDialog.getByRole('status')).toHaveText('Export cancelled — nothing was saved.');
    await check('export cancelled');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    await check('keyboard help');
    await page.keyboard.press('Escape');
    await page.getByTestId('import-input').setInputFiles({ name: 'pages.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(pagesLog) });
    await expect(page.getByTestId('page-boundary')).toBeVisible();
    await page.getByRole('grid', { name: 'Connections' }).focus();
    await check('page boundary in the connection list');
    await page.getByTestId('import-input').setInputFiles({ name: 'resumed.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(resumedLog) });
    await page.locator('[data-conn="res:2"]').click();
    await expect(page.getByTestId('resumes')).toBeVisible();
    await check('a resumed stream, selected');
    await page.locator('[data-conn="res:2"]').getByRole('button', { name: 'Show connection' }).click();
    await expect(page.getByTestId('resumed-by')).toBeVisible();
    await check('the stream it resumed, selected');
    await page.getByTestId('import-input').setInputFiles({ name: 'notes.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(notesLog) });
    await expect(page.getByTestId('notices-fold')).toHaveAttribute('aria-expanded', 'true');
    await check('notes in full');
    await page.getByTestId('notices-fold').click();
    await expect(page.getByTestId('notices-fold')).toHaveAttribute('aria-expanded', 'false');
    await check('notes on one line');
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    await page.close();
  });
}

test('docked to the side (360 × 640, the panes stacked): no WCAG A/AA violation, light and dark', async () => {
  for (const theme of ['light', 'dark']) {
    const page = await viewer.browser.newPage({ viewport: { width: 360, height: 640 } });
    await page.goto(`${viewer.url}/index.html?theme=${theme}`);
    const found: Record<string, string[]> = {};
    const check = async (state: string) => (found[state] = await violations(page));
    await check('empty');
    await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
    await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
    await page.locator('[data-conn="tab1:1"]').click();
    await check('events');
    await page.getByRole('tab', { name: 'Event', exact: true }).click();
    await expect(page.getByTestId('event-detail')).toBeVisible();
    await check('the step\'s Event tab');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await check('timeline');
    expect(found, theme).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    await page.close();
  }
});

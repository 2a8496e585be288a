// The standalone viewer with files past what one JavaScript string holds (~512 MiB): a day-long session's capture
// exported as a HAR (~3.5× its capture log), or such a HAR imported back; a capture log that large, read in slices.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeTempDir, removeTempDir } from './support/temp-dir.ts';
import { holdExportReadBack, useViewer } from './support/viewer.ts';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';

const viewer = useViewer('viewer-large');

test('a file past 512 MiB is refused as too large before it is read — not as "empty"', async () => {
  // A sparse file: 600 MiB long, no disk used. Read, Chromium's TextDecoder returned "" for it, and the viewer said
  // "the input is empty" of a 1 GB HAR.
  const dir = makeTempDir('replyscope-large-');
  const file = path.join(dir, 'session.har');
  try {
    const handle = await open(file, 'w');
    await handle.truncate(600 * 2 ** 20);
    await handle.close();
    const page = await viewer.open();
    await page.getByTestId('import-input').setInputFiles(file);
    await expect(page.getByTestId('import-error')).toHaveText(
      /^Could not import session\.har: the file is 600 MiB: more than an import can read \(512 MiB, the longest string JavaScript makes\) of anything but a capture log, which is read at any size — a HAR is ~3\.5× the capture log/,
    );
    await page.close();
  } finally {
    removeTempDir(dir);
  }
});

/**
 * A capture log of `mib` MiB: one AgentScope reply, then 1 MiB chunks of SSE comments (heartbeats: what is cheap to
 * analyse, so the test measures the reading), then the end. Written in pieces: never one string.
 */
async function writeLargeCaptureLog(file: string, mib: number): Promise<void> {
  const out = createWriteStream(file);
  const line = async (value: unknown) => {
    if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
  };
  const t0 = Date.UTC(2026, 2, 1, 9);
  await line({ kind: 'header', format: 'replyscope-capture', version: 1, tool: 'e2e', created: '2026-03-01T09:00:00.000Z' });
  await line({ kind: 'connection', id: 'day:1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'GET', url: 'https://api.example/day',
    requestHeaders: [], status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: t0, responseTime: t0 + 1 });
  const reply = ['{"type":"REPLY_START","reply_id":"r1","session_id":"s","name":"Day"}', '{"type":"TEXT_BLOCK_START","reply_id":"r1","block_id":"t"}',
    '{"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"t","delta":"déjà vu 🙂"}', '{"type":"TEXT_BLOCK_END","reply_id":"r1","block_id":"t"}',
    '{"type":"REPLY_END","reply_id":"r1"}'].map((e) => `data: ${e}\n\n`).join('');
  await line({ kind: 'chunk', conn: 'day:1', t: t0 + 2, bytes: Buffer.byteLength(reply), text: reply });
  const heartbeat = `: ${'x'.repeat((1 << 20) - 4)}\n\n`;
  for (let i = 0; i < mib; i++) await line({ kind: 'chunk', conn: 'day:1', t: t0 + 3 + i, bytes: heartbeat.length, text: heartbeat });
  await line({ kind: 'end', conn: 'day:1', t: t0 + 3 + mib, state: 'complete' });
  out.end();
  await once(out, 'finish');
}

test('a capture log past 512 MiB imports: read in slices, never one string — it was refused by its size, though an export can write it', async () => {
  test.setTimeout(240_000);
  const dir = makeTempDir('replyscope-large-');
  const file = path.join(dir, 'day.replyscope.ndjson');
  try {
    await writeLargeCaptureLog(file, 530);
    expect((await stat(file)).size).toBeGreaterThan(512 * 2 ** 20);
    const page = await viewer.open();
    const seen: string[] = [];
    page.on('console', () => {}); // (none expected; a page error fails the test)
    await page.exposeFunction('statusSeen', (text: string) => seen.push(text));
    await page.evaluate(() => {
      const w = window as unknown as { statusSeen: (t: string) => void };
      const status = () => document.querySelector('[data-testid="status"]')?.textContent ?? '';
      new MutationObserver(() => w.statusSeen(status())).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByTestId('import-input').setInputFiles(file);
    await expect(page.getByTestId('status')).toHaveText('Imported day.replyscope.ndjson: 1 connection', { timeout: 200_000 });
    // It said how far the reading had come, slice after slice.
    expect(new Set(seen.filter((t) => /^Reading day\.replyscope\.ndjson… \d+%$/.test(t))).size).toBeGreaterThan(3);
    await expect(page.locator('[data-conn="day:1"]')).toContainText(/530\.0 MB/); // every chunk
    await page.locator('[data-conn="day:1"]').click();
    await expect(page.getByTestId('replies')).toContainText('r1');
    await page.close();
  } finally {
    removeTempDir(dir);
  }
});

test('an export the browser cannot keep says so in the dialog — it was a cancelled download, the dialog closed as if saved', async () => {
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(writeCaptureLog(sampleCapture())) });
  await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
  // What Chromium does with a page's Blob past its in-memory room and no disk to page to (a private window, a file of
  // ~500 MB and more): the Blob is made, but cannot be read — so its download is cancelled. Injected here.
  await page.evaluate(() => {
    Blob.prototype.arrayBuffer = () => Promise.reject(new DOMException('The requested file could not be read', 'NotReadableError'));
  });
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await dialog.getByLabel('HAR 1.2').check();
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/^The browser could not keep the \d+ MB file to save .*export the capture log/);
  expect(downloads).toBe(0);
  await page.close();
});

test('while an export is made the dialog says how far it has come, and a second click starts no second one', async () => {
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(writeCaptureLog(sampleCapture())) });
  await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
  const release = await holdExportReadBack(page);
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const go = dialog.getByRole('button', { name: 'Export', exact: true });
  await go.click();
  await expect(dialog.getByRole('status')).toHaveText(/^(Preparing|Writing the capture log)…/);
  await expect(dialog.getByRole('button', { name: 'Cancel export' })).toBeVisible();
  await expect(go).toHaveAttribute('aria-disabled', 'true');
  await expect(go).toBeFocused();
  await page.keyboard.press('Enter'); // pressed again while busy (a click would wait for it to be enabled)
  const download = page.waitForEvent('download');
  await release();
  expect((await download).suggestedFilename()).toMatch(/\.replyscope\.ndjson$/);
  await expect(dialog).toHaveCount(0);
  expect(downloads).toBe(1);
  await page.close();
});

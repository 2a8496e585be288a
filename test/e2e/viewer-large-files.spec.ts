// The standalone viewer with files past what one JavaScript string holds (~512 MiB): a day-long session's capture
// exported as a HAR (~3.5× its capture log), or such a HAR imported back.
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useViewer } from './support/viewer.ts';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';

const viewer = useViewer('viewer-large');

test('a file past 512 MiB is refused as too large before it is read — not as "empty"', async () => {
  // A sparse file: 600 MiB long, no disk used. Read, Chromium's TextDecoder returned "" for it, and the viewer said
  // "the input is empty" of a 1 GB HAR.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'replyscope-large-'));
  const file = path.join(dir, 'session.har');
  const handle = await open(file, 'w');
  await handle.truncate(600 * 2 ** 20);
  await handle.close();
  try {
    const page = await viewer.open();
    await page.getByTestId('import-input').setInputFiles(file);
    await expect(page.getByTestId('import-error')).toHaveText(
      /^Could not import session\.har: the file is 600 MiB: more than an import can read \(512 MiB, the longest string JavaScript makes\); split it/,
    );
    await page.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
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
  // The file's last step (the Blob read back) is held until the test lets it go: the export is "in progress" for as
  // long as the test looks, as a big one is for seconds.
  await page.evaluate(() => {
    const real = Blob.prototype.arrayBuffer;
    const w = window as unknown as { release: () => void };
    const gate = new Promise<void>((resolve) => (w.release = resolve));
    Blob.prototype.arrayBuffer = function (this: Blob) {
      return gate.then(() => real.call(this));
    };
  });
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
  await page.evaluate(() => (window as unknown as { release: () => void }).release());
  expect((await download).suggestedFilename()).toMatch(/\.replyscope\.ndjson$/);
  await expect(dialog).toHaveCount(0);
  expect(downloads).toBe(1);
  await page.close();
});

// The standalone viewer with files past what one JavaScript string holds (~512 MiB): a day-long session's capture
// exported as a HAR (~3.5× its capture log), or such a HAR imported back.
import { mkdtemp, open, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useViewer } from './support/viewer.ts';

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

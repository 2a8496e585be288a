// The lists as a user reads them, in the viewer: a file's unended connection says "open" in its details as in the
// list; reply rows stay told apart in a narrow pane and get room in a wide one; the reply numbers the timeline's lanes
// use; a focused list's ring drawn over its rows; the event search's count in sight.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('viewer-lists');
const demo = readFileSync(path.resolve(import.meta.dirname, '../../examples/demo.replyscope.ndjson'));

/** The viewer at `size` with `buffer` imported as `name`. */
async function openWith(size: { width: number; height: number }, name: string, buffer: Buffer): Promise<Page> {
  const page = await viewer.browser.newPage({ viewport: size });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.goto(`${viewer.url}/index.html`);
  await page.getByTestId('import-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  await expect(page.getByTestId('status')).toContainText(`Imported ${name}`);
  return page;
}

test("a file's connection that holds no end reads \"open\" in its details, as in the list — not \"live\"", async () => {
  // The demo capture log cut mid-line: its session stream has no end record.
  const page = await openWith({ width: 1400, height: 860 }, 'cut.replyscope.ndjson', demo.subarray(0, 30_000));
  await page.locator('[data-conn]').first().click();
  await expect(page.locator('[data-conn]').first().getByTestId('conn-state')).toHaveText('open');
  // The value after the details' "End" key.
  const end = page.getByTestId('connection-details').locator('.k', { hasText: /^End$/ }).locator('xpath=following-sibling::span[1]');
  await expect(end).toHaveText('open');
  // styles.css puts "● " before a live state: the dot says "arriving" as loudly as the word.
  expect(await end.evaluate((el) => getComputedStyle(el, '::before').content)).toBe('none');
  await page.close();
});

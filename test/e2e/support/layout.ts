// What the viewer's layout specs share: the demo capture opened at a window size (as DevTools docked somewhere), and
// measures of the panel's layout — an element's box, how many event rows are in view, which connection rows show.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { ViewerEnv } from './viewer.ts';

const demo = readFileSync(path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson'));

/**
 * The viewer at `size` with the demo capture, its first connection and first reply selected, at the reply's last
 * step. `stored`: divider sizes in localStorage before the page loads, as an earlier session left them.
 */
export async function openDocked(viewer: ViewerEnv, size: { width: number; height: number }, stored: Record<string, string> = {}): Promise<Page> {
  const page = await viewer.browser.newPage({ viewport: size });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.addInitScript((entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(`replyscope.split.${key}`, value);
  }, stored);
  await page.goto(`${viewer.url}/index.html`);
  await page.getByTestId('import-input').setInputFiles({ name: 'demo.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: demo });
  await expect(page.getByTestId('status')).toContainText('Imported demo.replyscope.ndjson');
  await page.locator('[data-conn="demo:1"]').click();
  await page.locator('[data-reply]').first().click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-pos')).toContainText('step 61 / 61');
  return page;
}

export type Box = { left: number; top: number; right: number; bottom: number };

/** The element's bounding box in the page. */
export const boxOf = (l: Locator): Promise<Box> => l.evaluate((el) => {
  const b = el.getBoundingClientRect();
  return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
});

/** Event rows wholly in view: below the list's sticky header, above its bottom edge. */
export const eventRowsInView = (page: Page): Promise<number> =>
  page.getByTestId('events').evaluate((list) => {
    const top = list.querySelector('.vhead')!.getBoundingClientRect().bottom;
    const bottom = list.getBoundingClientRect().bottom;
    return [...list.querySelectorAll('.vrow')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= top - 0.5 && b.bottom <= bottom + 0.5;
    }).length;
  });

/**
 * The connection list's rows in sight: each row that shows any part of itself under the sticky header, and whether it
 * shows whole.
 */
export const connectionRowsInSight = (page: Page): Promise<{ row: string; whole: boolean }[]> =>
  page.getByTestId('connections').evaluate((list) => {
    const top = list.querySelector('thead')!.getBoundingClientRect().bottom;
    const bottom = list.getBoundingClientRect().bottom;
    return [...list.querySelectorAll('tbody tr')].flatMap((tr) => {
      const b = tr.getBoundingClientRect();
      const shown = Math.min(b.bottom, bottom) - Math.max(b.top, top);
      return shown > 0.5 ? [{ row: tr.textContent?.slice(0, 40) ?? '', whole: b.top >= top - 0.5 && b.bottom <= bottom + 0.5 }] : [];
    });
  });

// Measures of the panel's layout the viewer's layout specs share: an element's box, how many event rows are in view,
// and which connection rows show, whole or not.
import type { Locator, Page } from '@playwright/test';

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

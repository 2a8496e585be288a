// Measures of the panel's layout the viewer's layout specs share: an element's box, and how many event rows are in view.
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

// The lists as a user reads them, in the viewer: a file's unended connection says "open" in its details as in the
// list; reply rows stay told apart in a narrow pane and get room in a wide one; the reply numbers the timeline's lanes
// use; a focused list's ring drawn over its rows; the event search's count in sight.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('viewer-lists');
const demo = readFileSync(path.resolve(import.meta.dirname, '../../examples/demo.replyscope.ndjson'));

/** The viewer at `size` with `buffer` imported as `name`. */
const openWith = (size: { width: number; height: number }, name: string, buffer: Buffer): Promise<Page> => viewer.imported(name, buffer, size);

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

/** The demo at `size`, its session stream and its fifth reply (R5) selected. */
async function openDemo(size: { width: number; height: number }): Promise<Page> {
  const page = await openWith(size, 'demo.replyscope.ndjson', demo);
  await page.locator('[data-conn="demo:1"]').click();
  await page.locator('[data-reply]').nth(4).click();
  return page;
}

/**
 * For each reply row: how many characters of its id are in sight, whole, before the cell's edge (and an ellipsis) — 0
 * when the id gave way to the name (it is on the cell's second line, out of sight) — and whether the name is whole.
 */
const idCharsInView = (page: Page) =>
  page.locator('[data-testid="replies"] [data-reply]').evaluateAll((rows) => rows.map((row) => {
    const id = (row as HTMLElement).dataset.reply!;
    const cell = row.querySelector('td')!;
    const name = cell.querySelector<HTMLElement>('.reply-name');
    const nameWhole = name !== null && name.scrollWidth <= name.clientWidth;
    const span = [...cell.querySelectorAll<HTMLElement>('.dim')].find((s) => s.textContent === id)!;
    if (span.getBoundingClientRect().top >= cell.getBoundingClientRect().bottom) return { id, n: 0, nameWhole };
    const text = span.firstChild!;
    const ellipsis = 10; // "…" and a pixel to spare
    const edge = Math.min(cell.getBoundingClientRect().right - 4, span.getBoundingClientRect().right) - ellipsis;
    let n = 0;
    const range = document.createRange();
    while (n < id.length) {
      range.setStart(text, 0);
      range.setEnd(text, n + 1);
      if (range.getBoundingClientRect().right > edge) break;
      n++;
    }
    return { id, n, nameWhole };
  }));

for (const width of [600, 700]) {
  test(`at ${width} px each reply row shows its name whole, and its id's head or none of it`, async () => {
    const page = await openDemo({ width, height: 860 });
    const shown = await idCharsInView(page);
    expect(shown).toHaveLength(12);
    // The number (R5) tells the rows apart; the name stays whole ("R5 F… 3b07…" at 600 px), the id gives way to it —
    // whole or to its head, never to a letter. (The orphan has no name: its id is all it shows.)
    for (const { id, n, nameWhole } of shown.slice(0, 11)) {
      expect(nameWhole, id).toBe(true);
      if (n > 0) expect(n, id).toBeGreaterThanOrEqual(3);
    }
    if (width === 700) for (const { id, n } of shown) expect(n, `${id}: beside a whole name at 700 px`).toBeGreaterThanOrEqual(3);
    await page.close();
  });
}

test('at 1600 px the replies pane takes room for the reply ids the event list does not need', async () => {
  const page = await openDemo({ width: 1600, height: 900 });
  // 32-character ids: most of each in sight (at 460 px the cell held "Friday e6336d1ff…").
  for (const { id, n } of await idCharsInView(page)) expect(n, id).toBeGreaterThanOrEqual(24);
  // The event list keeps its columns, Data with room.
  const data = await page.getByTestId('events').locator('.vhead > span').nth(4).boundingBox();
  expect(data!.width).toBeGreaterThan(200);
  await page.close();
});

test('the reply list numbers its replies as the timeline names their lanes (R5)', async () => {
  const page = await openDemo({ width: 1400, height: 860 });
  const row = page.locator('[data-reply]').nth(4);
  await expect(row.locator('td').first()).toContainText(/^R5\b/);
  await page.getByRole('tab', { name: 'Timeline' }).click();
  // The selected reply's lanes are named by the number its row shows.
  const labels = await page.locator('.timeline .tl-selected .lane-label').allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label).toMatch(/^R5 · /);
  await page.close();
});

/** The colour (r, g, b) of the page's pixel at (x, y), as painted. */
async function pixelAt(page: Page, x: number, y: number): Promise<[number, number, number]> {
  const png = (await page.screenshot({ clip: { x, y, width: 1, height: 1 } })).toString('base64');
  return page.evaluate(async (data) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
    const ctx = new OffscreenCanvas(1, 1).getContext('2d')!;
    ctx.drawImage(bitmap, 0, 0);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return [r, g, b] as [number, number, number];
  }, png);
}

for (const theme of ['light', 'dark'] as const) {
  test(`a focused list's ring is drawn over its striped rows (${theme})`, async () => {
    const page = await openDemo({ width: 1400, height: 860 });
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent').trim());
    const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) <= 24);
    // The list's left edge, a pixel inside, beside a striped row in sight that is not selected: the ring's colour, not
    // the row's (the 1 px shadow it was lay under the rows and showed beside the white ones only).
    const leftEdge = (list: Locator, rows: string) => list.evaluate((el, sel) => {
      const box = el.getBoundingClientRect();
      const top = el.querySelector('thead, .vhead')!.getBoundingClientRect().bottom;
      const row = [...el.querySelectorAll(sel)].map((r) => r.getBoundingClientRect()).find((r) => r.top >= top && r.bottom <= box.bottom)!;
      return { x: Math.round(box.left) + 1, y: Math.round(row.top + row.height / 2) };
    }, rows);
    const colourAt = async (list: Locator, rows: string) => {
      const { x, y } = await leftEdge(list, rows);
      return pixelAt(page, x, y);
    };
    await page.getByRole('grid', { name: 'Replies' }).focus();
    await page.keyboard.press('ArrowUp'); // (keyboard focus: :focus-visible)
    const replies = page.getByTestId('replies');
    const onReplies = await colourAt(replies, 'tr.row:nth-child(even):not([aria-selected="true"])');
    expect(near(onReplies, rgb(accent)), `${onReplies} is not ${accent}`).toBe(true);
    await page.locator('.vrow').nth(3).click();
    await page.keyboard.press('ArrowDown');
    const onEvents = await colourAt(page.getByTestId('events'), '.vrow.odd:not([aria-selected="true"])');
    expect(near(onEvents, rgb(accent)), `${onEvents} is not ${accent}`).toBe(true);
    await page.close();
  });
}

test('with a search typed the event list says, in sight, how many rows match and that the selected event is filtered out', async () => {
  const page = await openDemo({ width: 1400, height: 860 });
  const count = page.getByTestId('event-filter-count');
  await expect(count).toHaveCount(0); // no filter: nothing to count
  await page.getByLabel('Search events').fill('bash');
  await expect(page.locator('.vrow')).toHaveCount(4);
  await expect(count).toBeVisible();
  await expect(count).toHaveText(/^4 of 492 rows match · the selected event, #284, is hidden by the filter/);
  await page.locator('.vrow').first().click(); // a shown event selected: no word of a hidden one
  await expect(count).toHaveText('4 of 492 rows match');
  await page.close();
});

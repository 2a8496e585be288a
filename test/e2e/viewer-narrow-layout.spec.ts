// The panel in a DevTools docked below the page (800 × 500), measured: the demo capture's description folds to one
// line, the scrubber keeps to one line (in 640 and 560 px windows too) and says the step's status, the event list,
// the timeline and the message keep room, the timeline's axis has two labels or more and its tooltip stays inside its
// pane; the panes follow the window when it is resized (a dragged divider keeps its share); keys on a focused Replies
// list never scroll its rows out of view.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';
import { eventRowsInView } from './support/layout.ts';

const viewer = useViewer('viewer-narrow-layout');
const demo = readFileSync(path.resolve(import.meta.dirname, '../../examples/demo.replyscope.ndjson'));
const N = { width: 800, height: 500 };
const W = { width: 1600, height: 900 };

/** The viewer at `size` with the demo capture, its first connection and first reply selected, at the reply's last step. */
async function openDemo(size: { width: number; height: number }, page?: Page): Promise<Page> {
  const p = page ?? (await viewer.browser.newPage({ viewport: size }));
  await p.goto(`${viewer.url}/index.html`);
  await p.getByTestId('import-input').setInputFiles({ name: 'demo.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: demo });
  await expect(p.getByTestId('status')).toContainText('Imported demo.replyscope.ndjson');
  await p.locator('[data-conn="demo:1"]').click();
  await p.locator('[data-reply]').first().click();
  await p.keyboard.press('End');
  await expect(p.locator('.vrow[aria-selected="true"]')).toHaveCount(1);
  return p;
}


/** Lines of the bubble's first text block wholly inside the message pane. */
const bubbleLinesInView = (page: Page) =>
  page.locator('[id="message-view"]').evaluate((pane) => {
    const box = pane.getBoundingClientRect();
    const text = pane.querySelector('[data-testid="bubble"] .block-text')!;
    const range = document.createRange();
    range.selectNodeContents(text);
    const tops = [...range.getClientRects()].filter((r) => r.top >= box.top && r.bottom <= box.bottom).map((r) => Math.round(r.top));
    return new Set(tops).size;
  });

const heightOf = async (l: Locator) => (await l.boundingBox())!.height;

/** How far apart the middles of an element's shown children are, in px: a few when they stand on one line. */
const childSpread = (l: Locator) =>
  l.evaluate((el) => {
    const middles = [...el.children].filter((c) => c.getClientRects().length).map((c) => {
      const b = c.getBoundingClientRect();
      return b.top + b.height / 2;
    });
    return Math.max(...middles) - Math.min(...middles);
  });

test('the panes follow the window: opened at 800 × 500 and enlarged to 1600 × 900 they grow, and a dragged divider keeps its share', async () => {
  const page = await openDemo(N);
  const events = page.getByTestId('events');
  const message = page.locator('[id="message-view"]');
  const [listAtN, messageAtN] = [await heightOf(events), await heightOf(message)];
  await page.setViewportSize(W);
  await expect.poll(() => heightOf(events)).toBeGreaterThan(listAtN * 1.7); // it stayed ~100 px
  expect(await heightOf(message)).toBeGreaterThan(messageAtN * 1.7);
  // A wide scrubber says it all again.
  await expect(page.getByTestId('scrubber')).toContainText('flagged');
  await expect(page.getByLabel('Playback speed').locator('option').first()).toHaveText('1× (recorded)');

  await page.setViewportSize(N);
  const divider = page.getByRole('separator', { name: 'Resize event list and step detail' });
  const shareOf = () => divider.evaluate((el) => el.previousElementSibling!.getBoundingClientRect().height / el.parentElement!.getBoundingClientRect().height);
  const box = (await divider.boundingBox())!;
  await page.mouse.move(box.x + 100, box.y);
  await page.mouse.down();
  await page.mouse.move(box.x + 100, box.y + 40, { steps: 4 });
  await page.mouse.up();
  const dragged = await shareOf();
  await page.setViewportSize(W);
  await expect.poll(shareOf).toBeCloseTo(dragged, 2);
  await page.close();
});

test('a divider size stored in px by an earlier version becomes its share, and follows the window from then on', async () => {
  const page = await viewer.browser.newPage({ viewport: N });
  await page.addInitScript(() => localStorage.getItem('replyscope.split.main') ?? localStorage.setItem('replyscope.split.main', '220'));
  await openDemo(N, page);
  const divider = page.getByRole('separator', { name: 'Resize event list and step detail' });
  const pane = () => divider.evaluate((el) => el.previousElementSibling!.getBoundingClientRect().height);
  // (The share is taken of the split as first laid out, while the import may still be adding connections above it.)
  await expect.poll(() => page.evaluate(() => Number(localStorage.getItem('replyscope.split.main')))).toBeLessThan(1);
  const atN = await pane();
  await page.setViewportSize(W);
  await expect.poll(pane).toBeGreaterThan(atN * 1.7);
  await page.close();
});

test('the notes fold and unfold with their button, and the choice holds for the session (a reload)', async () => {
  const page = await openDemo(N);
  const fold = page.getByTestId('notices-fold');
  const note = page.getByTestId('page-notices').locator('.page-notice');
  await fold.click();
  await expect(fold).toHaveAttribute('aria-expanded', 'true');
  await expect(fold).toBeFocused(); // the same button, now folding
  expect(await heightOf(note)).toBeGreaterThan(30); // the whole text, wrapped
  await openDemo(N, page); // a reload: the same session
  await expect(page.getByTestId('notices-fold')).toHaveAttribute('aria-expanded', 'true');
  await page.close();

  // A taller window shows the notes in full until they are folded.
  const tall = await openDemo(W);
  await expect(tall.getByTestId('notices-fold')).toHaveAttribute('aria-expanded', 'true');
  await tall.getByTestId('notices-fold').click();
  expect(await heightOf(tall.getByTestId('page-notices').locator('.page-notice'))).toBeLessThan(24);
  await tall.close();
});

test('at 800 × 500 the description is one line, the scrubber one line, and six event rows and the message are in view', async () => {
  const page = await openDemo(N);
  const notes = page.getByTestId('page-notices');
  await expect(notes).toContainText("Recorded from Replyscope's demo agent");
  await expect(page.getByTestId('notices-fold')).toHaveAttribute('aria-expanded', 'false');
  const note = notes.locator('.page-notice');
  expect(await heightOf(note)).toBeLessThan(24); // one line of 12 px text (it took three)

  // The scrubber on one line: every part side by side, none cut or scrolled away; each control in the window.
  const scrubber = page.getByTestId('scrubber');
  expect(await childSpread(scrubber)).toBeLessThan(8); // a second line is 20 px and more below
  expect(await scrubber.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  for (const control of await scrubber.locator('button, select, input').all()) {
    const b = (await control.boundingBox())!;
    expect(b.x >= 0 && b.x + b.width <= N.width && b.y >= 0 && b.y + b.height <= N.height).toBe(true);
  }
  // The step status is said on the bar, not only in a title ("#60 · changed" was one): whole, beside the position.
  const pos = page.getByTestId('step-pos');
  await expect(pos).toHaveText('step 61 / 61 · changed');
  expect(await pos.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // The event list's search, type and heartbeats stay beside the tabs.
  const tabs = page.locator('.tabs').first();
  expect(await childSpread(tabs)).toBeLessThan(8);

  expect(await eventRowsInView(page)).toBeGreaterThanOrEqual(6); // it was ~2.5
  expect(await bubbleLinesInView(page)).toBeGreaterThanOrEqual(3); // it was half a line
  await page.screenshot({ path: test.info().outputPath('demo-800x500.png') });
  await page.close();
});

/** Timeline lanes whose label is wholly in view: below the chart's sticky time axis, above the pane's bottom edge. */
const lanesInView = (page: Page) =>
  page.getByTestId('timeline').evaluate((tl) => {
    const top = tl.querySelector(':scope > .tl-sticky')!.getBoundingClientRect().bottom;
    const bottom = tl.getBoundingClientRect().bottom;
    return [...tl.querySelectorAll('text.lane-label')].filter((l) => {
      const b = l.getBoundingClientRect();
      return b.top >= top - 0.5 && b.bottom <= bottom + 0.5;
    }).length;
  });

for (const [name, size, lanes] of [['800 × 500', N, 7], ['1600 × 900', W, 16]] as const) {
  test(`at ${name} the timeline's buttons sit beside the tabs, its axis says what it counts, and ${lanes} lanes are in view`, async () => {
    const page = await openDemo(size);
    await page.locator('[data-tab="timeline"]').click();
    const tabs = page.locator('.tabs').first();
    // Zoom, Fit and Table in the tab bar, on its one line (a toolbar row of their own took the chart ~25 px).
    for (const button of ['Zoom in', 'Zoom out', 'Fit', 'Table']) await expect(tabs.getByRole('button', { name: button, exact: true })).toBeVisible();
    expect(await childSpread(tabs)).toBeLessThan(8);
    await expect(page.getByTestId('timeline').locator('.tl-axis-title')).toHaveText('axis: arrival time');
    expect(await lanesInView(page)).toBeGreaterThanOrEqual(lanes); // 6 and 15 under a toolbar row of their own
    // The step status stays said beside the chart too (the scrubber is under it).
    await expect(page.getByTestId('step-pos')).toContainText('step 61 / 61');
    await expect(page.getByTestId('scrubber')).toContainText('changed');
    await page.screenshot({ path: test.info().outputPath(`timeline-${size.width}x${size.height}.png`) });
    await page.close();
  });

  test(`at ${name} the timeline's axis has two labels or more, apart and whole`, async () => {
    const page = await openDemo(size);
    await page.locator('[data-tab="timeline"]').click();
    const timeline = page.getByTestId('timeline');
    await expect(timeline.locator('svg[role=img]')).toBeVisible();
    // Each label in the axis, clear of the next: 800 × 500 showed "0:50" alone (0:00 before the view, 1:40 dropped).
    const labels = await timeline.locator('.tl-axis').evaluate((axis) => {
      const edge = axis.getBoundingClientRect();
      return [...axis.querySelectorAll('text.axis-text')].map((t) => {
        const b = t.getBoundingClientRect();
        return { text: t.textContent, left: b.left, right: b.right, inAxis: b.left >= edge.left && b.right <= edge.right + 0.5 };
      });
    });
    expect(labels.length, labels.map((l) => l.text).join(' ')).toBeGreaterThanOrEqual(2);
    expect(labels.filter((l) => !l.inAxis)).toEqual([]);
    for (let i = 1; i < labels.length; i++) expect(labels[i].left, `${labels[i - 1].text} | ${labels[i].text}`).toBeGreaterThan(labels[i - 1].right + 2);
    await page.close();
  });

  test(`at ${name} the timeline's tooltip stays inside its pane, beside the pointer`, async () => {
    const page = await openDemo(size);
    await page.locator('[data-tab="timeline"]').click();
    const timeline = page.getByTestId('timeline');
    await expect(timeline.locator('svg[role=img]')).toBeVisible();
    // The bar lowest in view, rightmost of its lane: its tooltip went past the window's right edge and under the pane.
    const at = await timeline.evaluate((tl) => {
      const pane = tl.getBoundingClientRect();
      const top = tl.querySelector(':scope > .tl-sticky')!.getBoundingClientRect().bottom;
      const bars = [...tl.querySelectorAll('svg[role=img] g[data-lane] rect')].map((r) => r.getBoundingClientRect())
        .filter((b) => b.top >= top && b.bottom <= pane.bottom - 2 && b.right <= pane.right && b.width > 0);
      const b = bars.reduce((m, b) => (b.top > m.top + 1 || (Math.abs(b.top - m.top) <= 1 && b.right > m.right) ? b : m));
      return { x: b.right - 1, y: b.top + b.height / 2 };
    });
    await page.mouse.move(at.x, at.y);
    const tip = page.locator('.tl-tooltip');
    await expect(tip).toHaveText(/^#\d+ /);
    const pane = (await timeline.boundingBox())!;
    const box = (await tip.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(pane.x);
    expect(box.y).toBeGreaterThanOrEqual(pane.y);
    expect(box.x + box.width).toBeLessThanOrEqual(pane.x + pane.width);
    expect(box.y + box.height).toBeLessThanOrEqual(pane.y + pane.height);
    // Beside the pointer, not over it.
    expect(at.y < box.y || at.y > box.y + box.height || at.x < box.x || at.x > box.x + box.width).toBe(true);
    // (It did not widen the pane's scrolled area either.)
    expect(await timeline.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`timeline-hover-${size.width}x${size.height}.png`) });
    await page.close();
  });
}

for (const [width, height] of [[640, 480], [560, 480]] as const) {
  test(`in a ${width} px wide window the scrubber keeps to one line`, async () => {
    const page = await openDemo({ width, height });
    const scrubber = page.getByTestId('scrubber');
    // One line: every part side by side and the bar as tall as at 1600 px (it wrapped, its diagnostic buttons below).
    expect(await childSpread(scrubber)).toBeLessThan(8);
    const narrow = await heightOf(scrubber);
    for (const control of await scrubber.locator('button, select, input').all()) {
      const b = (await control.boundingBox())!;
      expect(b.x >= 0 && b.x + b.width <= width && b.y >= 0 && b.y + b.height <= height).toBe(true);
    }
    await expect(page.getByTestId('step-pos')).toContainText('step 61 / 61');
    await page.screenshot({ path: test.info().outputPath(`scrubber-${width}x${height}.png`) });
    // First and Last step stay (a 560 px window stacks its panes: the bar has the whole width); Home and End do the same.
    await expect(scrubber.getByRole('button', { name: /^(First|Last) step$/ })).toHaveCount(2);
    await page.getByTestId('step-slider').focus();
    await page.keyboard.press('Home');
    await expect(page.getByTestId('step-pos')).toContainText('step 1 / 61');
    await page.keyboard.press('End');
    await expect(page.getByTestId('step-pos')).toContainText('step 61 / 61');
    await page.setViewportSize(W);
    await expect(page.getByTestId('scrubber')).toContainText('flagged'); // the wide bar
    expect(narrow).toBe(await heightOf(scrubber));
    await page.close();
  });
}

/** Resolves once the element's scroll position has stood still for 20 frames (a keyboard scroll animates). */
const scrollSettled = (l: Locator) =>
  l.evaluate((el) => new Promise<void>((resolve) => {
    let last = el.scrollTop;
    let still = 0;
    const tick = () => {
      if (el.scrollTop === last) still++;
      else [last, still] = [el.scrollTop, 0];
      if (still >= 20) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));

test('keys on a focused Replies list move its selection and never scroll its rows out of view', async () => {
  const page = await openDemo(N);
  const pane = page.getByTestId('replies');
  const grid = page.getByRole('grid', { name: 'Replies' });
  // The selected row wholly in the pane, below its sticky header (a row scrolled far away is not rendered at all).
  const inView = () => pane.evaluate((el) => {
    const row = el.querySelector('[data-reply][aria-selected="true"]')?.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return row !== undefined && row.top >= box.top + 20 && row.bottom <= box.bottom;
  });
  await page.locator('[data-reply]').first().click();
  await expect(grid).toBeFocused();
  for (const [key, reply] of [['End', 0], ['PageDown', 10], ['Control+End', 11], ['PageUp', 1], ['Control+Home', 0]] as const) {
    await page.keyboard.press(key);
    await scrollSettled(pane);
    expect(await inView(), `${key}: the selected reply is in view`).toBe(true);
    await expect(pane.locator('[data-reply]').nth(reply), key).toHaveAttribute('aria-selected', 'true');
  }
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 61 \/ 61/); // reply 1 again, at its last step
  await page.close();
});

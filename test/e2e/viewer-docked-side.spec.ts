// The panel in a DevTools docked to the side (360–560 px wide, 600–900 tall), measured with the demo capture, a reply
// scrubbed half-way and the timeline open: nothing runs past the window or is cut, every control is in view and not
// covered, the panes stack (the replies above the event list, the message below the scrubber, the whole width each),
// the connection list keeps its Name column and shows whole rows, the scrubber is one row or two (the slider across
// the second), and the timeline's tooltip never covers its time axis. Layout properties, not pixels; each size's
// screenshot is kept in the test's output.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';
import { boxOf, connectionRowsInSight } from './support/layout.ts';

const viewer = useViewer('viewer-docked-side');
const demo = readFileSync(path.resolve(import.meta.dirname, '../../examples/demo.replyscope.ndjson'));
const SIZES = [
  { width: 360, height: 640 },
  { width: 420, height: 800 },
  { width: 480, height: 600 },
  { width: 560, height: 900 },
] as const;

/** The viewer at `size` with the demo capture, its first connection and first reply selected, at step 31 of 61. */
async function openDocked(size: { width: number; height: number }): Promise<Page> {
  const page = await viewer.imported('demo.replyscope.ndjson', demo, size);
  await page.locator('[data-conn="demo:1"]').click();
  await page.locator('[data-reply]').first().click();
  await page.getByTestId('step-slider').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
  await expect(page.getByTestId('step-pos')).toContainText('step 31 / 61');
  return page;
}


/**
 * Every shown control of the panel that is not in a scrolled list: the toolbar's, the tab bars', the scrubber's. Each
 * one wholly in the window, its own element the one at its middle (nothing laid over it), and none cut by a box of
 * its that hides overflow (a control pushed past a bar's end is clipped there, still "in the window").
 */
const controlProblems = (page: Page) =>
  page.evaluate(() => {
    const problems: string[] = [];
    const bars = document.querySelectorAll('.toolbar, .tabs, .scrubber');
    for (const bar of bars) {
      for (const c of bar.querySelectorAll<HTMLElement>('button, select, input:not([type="file"]), [role="tab"]')) {
        const b = c.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue; // not shown
        const name = `${c.tagName.toLowerCase()} "${c.getAttribute('aria-label') ?? c.textContent?.trim() ?? ''}"`;
        if (b.left < -0.5 || b.top < -0.5 || b.right > innerWidth + 0.5 || b.bottom > innerHeight + 0.5) problems.push(`${name} is not wholly in the window`);
        const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
        if (!hit || !(hit === c || c.contains(hit) || hit.contains(c))) problems.push(`${name} is covered by ${hit?.className || hit?.tagName}`);
        for (let p = c.parentElement; p && p !== document.body; p = p.parentElement) {
          if (getComputedStyle(p).overflowX === 'visible') continue;
          const pb = p.getBoundingClientRect();
          if (b.left < pb.left - 0.5 || b.right > pb.right + 0.5) problems.push(`${name} is cut by ${p.className}`);
        }
      }
    }
    return problems;
  });

/** Boxes that run past their own width (bars, pane titles, list tables), and the document past the window. */
const overflowProblems = (page: Page) =>
  page.evaluate(() => {
    const problems: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth || document.body.scrollWidth > document.body.clientWidth) problems.push(`the document is ${doc.scrollWidth} px wide`);
    for (const el of document.querySelectorAll<HTMLElement>('.toolbar, .tabs, .scrubber, .pane-title, .page-notices, [data-testid="connections"], [data-testid="replies"], [data-testid="timeline"], #message-view')) {
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`${el.className || el.id} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return problems;
  });

for (const size of SIZES) {
  const name = `${size.width} × ${size.height}`;

  test(`at ${name} nothing runs past the window and every control is in view, uncovered`, async () => {
    const page = await openDocked(size);
    for (const view of ['events', 'timeline'] as const) {
      await page.locator(`[data-tab="${view}"]`).click();
      if (view === 'timeline') await expect(page.getByTestId('timeline').locator('svg[role=img]')).toBeVisible();
      expect(await overflowProblems(page), view).toEqual([]);
      expect(await controlProblems(page), view).toEqual([]);
    }
    // The status, the source and help stay together (a 480 px toolbar left "viewer ?" alone on its second row).
    const middle = async (l: Locator) => { const b = await boxOf(l); return (b.top + b.bottom) / 2; };
    const status = await middle(page.getByTestId('status'));
    expect(Math.abs((await middle(page.getByRole('button', { name: 'Keyboard shortcuts' }))) - status)).toBeLessThan(4);
    expect(Math.abs((await middle(page.locator('.toolbar').getByText('viewer', { exact: true }))) - status)).toBeLessThan(4);
    await page.screenshot({ path: test.info().outputPath(`docked-${size.width}x${size.height}.png`) });
    await page.close();
  });

  test(`at ${name} the panes stack: connections, replies, the event list, the scrubber and the message, the whole width each`, async () => {
    const page = await openDocked(size);
    const connections = await boxOf(page.getByTestId('connections'));
    const replies = await boxOf(page.getByTestId('replies'));
    const events = await boxOf(page.getByTestId('events'));
    const scrubber = await boxOf(page.getByTestId('scrubber'));
    const message = await boxOf(page.locator('[id="message-view"]'));
    const order = [connections, replies, events, scrubber, message];
    for (let i = 1; i < order.length; i++) expect(order[i].top, `pane ${i} below pane ${i - 1}`).toBeGreaterThanOrEqual(order[i - 1].bottom - 1);
    for (const b of order) expect(b.right - b.left).toBeGreaterThan(size.width - 4);
    // Each keeps room: a few reply rows, and the message's lines with what this step appended.
    expect(replies.bottom - replies.top).toBeGreaterThanOrEqual(60);
    expect(message.bottom - message.top).toBeGreaterThanOrEqual(70);
    const appended = await boxOf(page.locator('[id="message-view"] mark.appended'));
    expect(appended.top >= message.top && appended.bottom <= message.bottom && appended.right <= message.right).toBe(true);

    // The capture's description on one line (five at 360 px), as in a short window.
    await expect(page.getByTestId('notices-fold')).toHaveAttribute('aria-expanded', 'false');
    // The replies keep room for the reply's name: under 460 px Usage, TTFT and Duration give way.
    await expect(page.getByRole('grid', { name: 'Replies' }).getByRole('columnheader', { name: 'Usage' })).toHaveCount(size.width < 460 ? 0 : 1);
    const replyWidth = await page.getByRole('grid', { name: 'Replies' }).getByRole('columnheader', { name: 'Reply' }).evaluate((th) => th.getBoundingClientRect().width);
    expect(replyWidth).toBeGreaterThanOrEqual(150);
    // The connections' Name column tells them apart (the fixed columns left it none under ~600 px).
    const nameWidth = await page.getByTestId('connections').locator('th').first().evaluate((th) => th.getBoundingClientRect().width);
    expect(nameWidth).toBeGreaterThanOrEqual(size.width / 3);
    await expect(page.locator('[data-conn="demo:1"] td').first()).toContainText('GET /sessions/');
    // Its fifth of the height ends between two rows (at 360 × 640 it showed three and a half).
    const connectionRows = await connectionRowsInSight(page);
    expect(connectionRows.length).toBeGreaterThanOrEqual(1);
    for (const r of connectionRows) expect(r, r.row).toMatchObject({ whole: true });

    // The event is a tab of the step's, not a column beside the message.
    await expect(page.getByTestId('event-detail')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Event', exact: true }).click();
    await expect(page.getByTestId('event-detail')).toContainText('TEXT_BLOCK_DELTA');
    expect((await boxOf(page.getByTestId('event-detail'))).right - (await boxOf(page.getByTestId('event-detail'))).left).toBeGreaterThan(size.width - 8);
    await page.close();
  });

  test(`at ${name} the scrubber is one row, or two with the slider across the second, and says the step whole`, async () => {
    const page = await openDocked(size);
    const scrubber = page.getByTestId('scrubber');
    // The middles of its parts: one line, or two — never a control alone on a third.
    const rows = await scrubber.evaluate((el) => {
      const parts = [...el.querySelectorAll('button, select, input, .pos')].filter((c) => c.getClientRects().length);
      const middles = parts.map((c) => { const b = c.getBoundingClientRect(); return b.top + b.height / 2; }).sort((a, b) => a - b);
      return middles.reduce<number[]>((lines, m) => (lines.length && m - lines[lines.length - 1] < 8 ? lines : [...lines, m]), []).length;
    });
    const slider = await boxOf(page.getByTestId('step-slider'));
    if (size.width < 480) {
      expect(rows).toBe(2);
      expect(slider.right - slider.left).toBeGreaterThan(size.width * 0.7); // the second row is the slider's
    } else {
      expect(rows).toBe(1);
    }
    const pos = page.getByTestId('step-pos');
    await expect(pos).toHaveText('step 31 / 61 · changed');
    expect(await pos.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // First and Last step are there at every width, and do what Home and End do.
    await scrubber.getByRole('button', { name: 'Last step' }).click();
    await expect(pos).toContainText('step 61 / 61');
    await scrubber.getByRole('button', { name: 'First step' }).click();
    await expect(pos).toContainText('step 1 / 61');
    await page.close();
  });

  test(`at ${name} the timeline's tooltip stays below its time axis, wherever the pointer is, the pane short or not`, async () => {
    const page = await openDocked(size);
    await page.locator('[data-tab="timeline"]').click();
    const timeline = page.getByTestId('timeline');
    await expect(timeline.locator('svg[role=img]')).toBeVisible();
    await expectTooltipsBelowAxis(page, timeline);
    // Made short (the divider dragged up: ~5 lanes), a tooltip with no room below its pointer went above it, over the axis.
    const divider = page.getByRole('separator', { name: 'Resize event list and step detail' });
    const d = (await divider.boundingBox())!;
    const top = (await boxOf(timeline)).top;
    await page.mouse.move(d.x + 100, d.y);
    await page.mouse.down();
    await page.mouse.move(d.x + 100, top + 125, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => { const b = await boxOf(timeline); return b.bottom - b.top; }).toBeLessThan(140);
    await expectTooltipsBelowAxis(page, timeline);
    await page.close();
  });
}

/** Hovers a bar of each lane wholly in view: each one's tooltip is below the sticky time axis and inside the pane. */
async function expectTooltipsBelowAxis(page: Page, timeline: Locator): Promise<void> {
  // A bar of each lane wholly in view (its first), under the sticky axis.
  const points = await timeline.evaluate((tl) => {
    const pane = tl.getBoundingClientRect();
    const top = tl.querySelector(':scope > .tl-sticky')!.getBoundingClientRect().bottom;
    return [...tl.querySelectorAll('svg[role=img] g[data-lane]')].flatMap((lane) => {
      const bar = [...lane.querySelectorAll('rect')].map((r) => r.getBoundingClientRect())
        .find((b) => b.width > 0 && b.top >= top && b.bottom <= pane.bottom - 2 && b.right <= pane.right && b.left >= pane.left);
      return bar ? [{ x: bar.left + Math.min(bar.width / 2, 2), y: bar.top + bar.height / 2 }] : [];
    });
  });
  expect(points.length).toBeGreaterThanOrEqual(3);
  const tip = page.locator('.tl-tooltip');
  const axis = await boxOf(timeline.locator('.tl-sticky'));
  const pane = await boxOf(timeline);
  for (const at of points) {
    await page.mouse.move(at.x, at.y);
    await expect(tip).toHaveText(/^#\d+ /);
    const box = await boxOf(tip);
    expect(box.top, `the tooltip at (${at.x}, ${at.y}) below the axis`).toBeGreaterThanOrEqual(axis.bottom - 0.5);
    expect(box.bottom).toBeLessThanOrEqual(pane.bottom + 0.5);
    expect(box.left).toBeGreaterThanOrEqual(pane.left - 0.5);
    expect(box.right).toBeLessThanOrEqual(pane.right + 0.5);
  }
  await page.mouse.move(0, 0);
}

test('stacked, a connection of one reply shows its row and no cut line of the connection details under it', async () => {
  const page = await openDocked({ width: 420, height: 800 });
  await page.locator('[data-conn="demo:2"]').click();
  await expect(page.locator('[data-reply]')).toHaveCount(1);
  const replies = await boxOf(page.getByTestId('replies'));
  const row = await boxOf(page.locator('[data-reply]'));
  const details = await boxOf(page.getByTestId('replies').locator('.kv').first());
  expect(row.bottom).toBeLessThanOrEqual(replies.bottom + 0.5); // the row whole
  expect(replies.bottom - details.top).toBeLessThanOrEqual(4); // of the details, their 4 px padding at most (8 px showed the URL's top)
  await page.close();
});

test('the stacked layout and the one side by side keep their own divider sizes, and the panel follows the window across', async () => {
  const page = await openDocked({ width: 1000, height: 800 });
  const replies = page.getByRole('separator', { name: 'Resize replies pane' });
  await expect(replies).toHaveAttribute('aria-orientation', 'vertical'); // beside
  const besideWidth = (await boxOf(page.getByTestId('replies'))).right;
  await page.setViewportSize({ width: 420, height: 800 });
  await expect(replies).toHaveAttribute('aria-orientation', 'horizontal'); // stacked
  await expect(page.getByRole('tab', { name: 'Event', exact: true })).toBeVisible();
  // A drag stacked moves the stacked divider (down by 40 px) …
  const before = (await boxOf(page.getByTestId('replies'))).bottom;
  const b = (await replies.boundingBox())!;
  await page.mouse.move(b.x + 100, b.y);
  await page.mouse.down();
  await page.mouse.move(b.x + 100, b.y + 40, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await boxOf(page.getByTestId('replies'))).bottom).toBeGreaterThan(before + 30);
  // … not the one side by side, which is as it was when the window is wide again.
  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(replies).toHaveAttribute('aria-orientation', 'vertical');
  await expect(page.getByRole('tab', { name: 'Event', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('event-detail')).toBeVisible();
  expect(Math.abs((await boxOf(page.getByTestId('replies'))).right - besideWidth)).toBeLessThan(2);
  await page.close();
});

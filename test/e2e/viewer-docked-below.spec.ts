// The panel in a DevTools docked below, or a wide one docked to the side — 800–1400 px wide, 340–860 tall — with the
// demo capture: the event beside the message is a pane wide enough to read (or, where the step's pane cannot hold both,
// its tab), and the connection list, capped or at a height picked, ends between two rows, never through one, and fitted
// to its rows ends under the last.
import { expect, test, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';
import { boxOf, connectionRowsInSight, openDocked } from './support/layout.ts';

const viewer = useViewer('viewer-docked-below');


const widthOf = async (page: Page, testId: string) => { const b = await boxOf(page.getByTestId(testId)); return b.right - b.left; };

/** Characters a line of the raw frame holds: its box's inner width over the width of a character of its font. */
const rawFrameCharsPerLine = (page: Page) =>
  page.getByTestId('event-detail').getByTestId('raw-frame').evaluate((el) => {
    const ctx = document.createElement('canvas').getContext('2d')!;
    const css = getComputedStyle(el);
    ctx.font = css.font;
    return (el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight)) / ctx.measureText('0').width;
  });

// Where the step's pane (the window less the replies) holds the message and the event at 300 px each, the event is
// beside the message; under that (800 px: a step of 535) it is the Event tab.
const STEP_SIZES = [
  { width: 800, height: 400, beside: false },
  { width: 800, height: 860, beside: false },
  { width: 1000, height: 500, beside: true },
  { width: 1000, height: 860, beside: true },
  { width: 1200, height: 400, beside: true },
  { width: 1200, height: 860, beside: true },
] as const;

for (const { beside, ...size } of STEP_SIZES) {
  test(`at ${size.width} × ${size.height} the event is ${beside ? 'a pane beside the message' : 'a tab'} 300 px wide at least, its raw frame 40 characters a line`, async () => {
    const page = await openDocked(viewer, size);
    // Beside the message the event's pane was what the message's 560 px left: 160 px at 800, 200 at 1000, 242 at 1200 —
    // ids and the raw frame broke every few characters.
    await expect(page.getByRole('tab', { name: 'Event', exact: true })).toHaveCount(beside ? 0 : 1);
    if (beside) {
      expect(await widthOf(page, 'event-detail')).toBeGreaterThanOrEqual(300);
      const message = await boxOf(page.locator('[id="message-view"]'));
      expect(message.right - message.left).toBeGreaterThanOrEqual(300);
      expect((await boxOf(page.getByTestId('event-detail'))).left).toBeGreaterThanOrEqual(message.right - 0.5);
    } else {
      await page.getByRole('tab', { name: 'Event', exact: true }).click();
      expect(await widthOf(page, 'event-detail')).toBeGreaterThanOrEqual(size.width / 2);
    }
    await expect(page.getByTestId('event-detail')).toContainText('#60 REPLY_END');
    expect(await rawFrameCharsPerLine(page)).toBeGreaterThanOrEqual(40);
    await page.screenshot({ path: test.info().outputPath(`step-${size.width}x${size.height}.png`) });
    await page.close();
  });
}

test('at 1400 × 860 the message keeps its 560 px and the event the rest, as before', async () => {
  const page = await openDocked(viewer, { width: 1400, height: 860 });
  const message = await boxOf(page.locator('[id="message-view"]'));
  expect(Math.abs(message.right - message.left - 560)).toBeLessThanOrEqual(2);
  expect(await widthOf(page, 'event-detail')).toBeGreaterThanOrEqual(335);
  await page.close();
});

test('a message and event width picked in a wide window leaves a narrower one\'s event 240 px at least, and stays stored', async () => {
  // The message at 80% of the step's pane, as dragged at 1600 px: at 1000 px the event had 30% of 669, ~200 px.
  const page = await openDocked(viewer, { width: 1000, height: 700 }, { detail: '0.8' });
  expect(await widthOf(page, 'event-detail')).toBeGreaterThanOrEqual(239);
  expect(await page.evaluate(() => localStorage.getItem('replyscope.split.detail'))).toBe('0.8');
  await page.close();
});

const BELOW = [{ width: 1400, height: 340 }, { width: 1400, height: 500 }, { width: 1000, height: 420 }] as const;
// Shares an earlier session stored: picked in a tall window (90%), and a share that cuts through a row anywhere.
const PICKS = [{}, { connections: '0.9' }, { connections: '0.27' }] as const;
for (const size of BELOW) {
  for (const stored of PICKS) {
    const what = 'connections' in stored ? `a height stored as ${stored.connections}` : 'as it opens';
    test(`at ${size.width} × ${size.height}, ${what}, the connection list shows whole rows only`, async () => {
      const page = await openDocked(viewer, size, stored);
      // At 1400 × 340 it showed one and a half connections (a quarter of the height: 72 px), at 1400 × 500 three and a half.
      const rows = await connectionRowsInSight(page);
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const r of rows) expect(r, r.row).toMatchObject({ whole: true });
      await page.screenshot({ path: test.info().outputPath(`connections-${size.width}x${size.height}-${Object.values(stored)[0] ?? 'default'}.png`) });
      await page.close();
    });
  }
}

test('at 1400 × 500 the connection list\'s divider moves a row a key press, rows whole at each', async () => {
  const page = await openDocked(viewer, { width: 1400, height: 500 });
  const divider = page.getByRole('separator', { name: 'Resize connection list' });
  const height = async () => { const b = await boxOf(page.getByTestId('connections')); return b.bottom - b.top; };
  const start = await height();
  await divider.focus();
  // 10 px a press, rounded back to the row the list ended at, moved nothing.
  await page.keyboard.press('ArrowDown');
  await expect.poll(height).toBeCloseTo(start + 20, 0);
  for (const r of await connectionRowsInSight(page)) expect(r, r.row).toMatchObject({ whole: true });
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect.poll(height).toBeCloseTo(start - 20, 0);
  for (const r of await connectionRowsInSight(page)) expect(r, r.row).toMatchObject({ whole: true });
  await page.close();
});

test('at 1400 × 860, fitted to its rows, the connection list ends under its last row, and its divider moves a row from there', async () => {
  const page = await openDocked(viewer, { width: 1400, height: 860 });
  const drawn = () => page.evaluate(() => {
    const pane = document.querySelector('[data-testid="connections"]')!.closest('.pane')!;
    const height = (el: Element | null) => el!.getBoundingClientRect().height;
    const rows = [...pane.querySelectorAll('tbody tr')];
    return { pane: height(pane), title: height(pane.querySelector('.pane-title')), header: height(pane.querySelector('thead')), rows: rows.length, rowHeights: rows.reduce((sum, r) => sum + height(r), 0) };
  });
  const fitted = await drawn();
  expect(fitted.rows).toBeGreaterThanOrEqual(2);
  // Sized for a 24 px title and a 21 px header (21 and 20 drawn) and 10 px of air: 14 px under the last row.
  expect(fitted.pane, JSON.stringify(fitted)).toBeCloseTo(fitted.title + fitted.header + fitted.rowHeights, 0);
  for (const r of await connectionRowsInSight(page)) expect(r, r.row).toMatchObject({ whole: true });
  // The first arrow key up moved 14 px (to the nearest row: the air).
  await page.getByRole('separator', { name: 'Resize connection list' }).focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await drawn()).pane).toBeCloseTo(fitted.pane - 20, 0);
  await page.close();
});

for (const width of [1000, 1200, 1400]) {
  test(`at ${width} × 860 the raw frame's Copy button stands on its heading's first line`, async () => {
    const page = await openDocked(viewer, { width, height: 860 });
    const heading = page.getByTestId('event-detail').locator('h4', { has: page.getByRole('button', { name: 'Copy raw frame' }) });
    const placed = await heading.evaluate((h) => {
      const button = h.querySelector('button')!.getBoundingClientRect();
      // The heading's text as laid out (the button's label and the unseen status left out).
      const range = document.createRange();
      range.setStart(h, 0);
      range.setEndBefore(h.querySelector('button')!);
      const first = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top)[0]!;
      return { buttonTop: button.top, buttonBottom: button.bottom, lineTop: first.top, lineBottom: first.bottom, buttonLeft: button.left, lineRight: first.right };
    });
    // At 1400 px (the event's pane 339 px) "RAW FRAME (DATA FRAME 60 OF THE BODY)" left the button a line of its own.
    expect(placed.buttonTop, JSON.stringify(placed)).toBeLessThan(placed.lineBottom);
    expect(placed.buttonBottom, JSON.stringify(placed)).toBeGreaterThan(placed.lineTop);
    expect(placed.buttonLeft).toBeGreaterThanOrEqual(placed.lineRight);
    await page.close();
  });
}

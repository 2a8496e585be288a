// The timeline at a wide panel (W, 1600×900) and a docked one (N, 800×500): a selected reply's lanes come into view
// and are marked; the Table button brings its table into view and focus into its grid; the table's ids are
// shortened, never wrapped, and the table fits its pane, the chart's lane labels shortened alike; the time axis reads
// in one format, the tooltip's time in the axis's.
import { expect, test, type Page } from '@playwright/test';
import { sseCaptureLog } from './support/sse-log.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('timeline-follow');

const SIZES = { W: { width: 1600, height: 900 }, N: { width: 800, height: 500 } } as const;

/** A 32-digit hex id, as AgentScope's uuid4().hex, made from `seed`. */
const hexId = (seed: string) => Array.from({ length: 32 }, (_, i) => ((seed.charCodeAt(i % seed.length) * 7 + i * 13) % 16).toString(16)).join('');

const REPLIES = 16;
const replyId = (r: number) => hexId(`reply-${r}`);

/**
 * Sixteen replies 12 s apart (an axis of ~3 min), each with two text blocks and a thinking block: 64 lanes, the
 * later replies' block lanes far below the chart's first screen.
 */
function sessionLog(replies = REPLIES): string {
  const events: [Record<string, unknown>, number][] = [];
  for (let r = 0; r < replies; r++) {
    const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: replyId(r), created_at: '2026-12-01T09:00:00', ...extra });
    const t0 = r * 12_000;
    events.push([ev('REPLY_START', { session_id: 's', name: `agent${r}` }), t0]);
    const blocks = [['THINKING', hexId(`think-${r}`)], ['TEXT', hexId(`text-a-${r}`)], ['TEXT', hexId(`text-b-${r}`)]];
    blocks.forEach(([kind, id], b) => {
      const at = t0 + 100 + b * 1_000;
      events.push([ev(`${kind}_BLOCK_START`, { block_id: id }), at]);
      events.push([ev(`${kind}_BLOCK_DELTA`, { block_id: id, delta: 'x' }), at + 100]);
      events.push([ev(`${kind}_BLOCK_END`, { block_id: id }), at + 200]);
    });
    events.push([ev('REPLY_END', { session_id: 's' }), t0 + 4_000]);
  }
  return sseCaptureLog(events, { endAt: replies * 12_000 });
}

async function openSession(size: { width: number; height: number }, replies = REPLIES): Promise<Page> {
  const page = await viewer.browser.newPage({ viewport: size });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.goto(`${viewer.url}/index.html`);
  await page.getByTestId('import-input').setInputFiles({ name: 's.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sessionLog(replies)) });
  await expect(page.getByTestId('status')).toContainText('Imported s.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  return page;
}

/** Whether `selector` (inside the timeline) is in the timeline pane's view, below its toolbar and time axis. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.getByTestId('timeline').evaluate((tl, sel) => {
    const el = tl.querySelector(sel);
    if (!el) return false;
    const pane = tl.getBoundingClientRect();
    const bar = tl.querySelector(':scope > .tl-sticky')!.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= bar.bottom - 1 && r.top < pane.bottom && r.bottom > bar.bottom;
  }, selector);
}

const textLane = (r: number) => `[data-lane="text:${replyId(r)}:${hexId(`text-a-${r}`)}"]`;
/** A reply's first block lane: its thinking block's (thinking lanes come before text lanes). */
const firstBlockLane = (r: number) => `[data-lane="thinking:${replyId(r)}:${hexId(`think-${r}`)}"]`;

for (const [name, size] of Object.entries(SIZES)) {
  test(`${name}: selecting a reply scrolls the timeline to its block lanes and marks its lanes`, async () => {
    const page = await openSession(size);
    const replies = page.getByTestId('replies').locator('tbody tr');
    await replies.nth(13).click();
    await page.locator('[data-tab="timeline"]').click();
    await expect(page.getByTestId('timeline').locator('svg[role=img]')).toBeVisible();
    expect(await inView(page, firstBlockLane(13))).toBe(true);
    // Its four lanes are marked (reply, thinking, two texts), no other reply's.
    const marked = page.getByTestId('timeline').locator('[data-reply-lane]');
    await expect(marked).toHaveCount(4);
    expect(await marked.evaluateAll((els, id) => els.every((el) => el.getAttribute('data-reply-lane')!.includes(`:${id}:`)), replyId(13))).toBe(true);
    expect(await page.locator(`g.tl-selected${textLane(13)}`).count()).toBe(1);

    // Another reply, chosen with the timeline shown: the view follows it.
    await replies.nth(1).click();
    await expect(page.locator(`g.tl-selected${textLane(1)}`)).toHaveCount(1);
    expect(await inView(page, firstBlockLane(1))).toBe(true);
    await expect(page.locator(`g.tl-selected${textLane(13)}`)).toHaveCount(0);
    await replies.nth(15).click();
    await expect(page.locator(`g.tl-selected${textLane(15)}`)).toHaveCount(1);
    expect(await inView(page, firstBlockLane(15))).toBe(true);

    // A reply the chart itself selects — a click on its lane — is not scrolled to: the view stays where the click was
    // (R1's first text lane, just below R16's thinking lane at the top of the view).
    const timeline = page.getByTestId('timeline');
    const scrollTop = () => timeline.evaluate((el) => el.scrollTop);
    const before = await scrollTop();
    expect(await inView(page, textLane(0))).toBe(true);
    const bar = (await timeline.locator(`${textLane(0)} rect`).first().boundingBox())!;
    await page.mouse.click(bar.x + bar.width / 2, bar.y + bar.height / 2);
    await expect(page.locator(`g.tl-selected${textLane(0)}`)).toHaveCount(1);
    expect(await scrollTop()).toBe(before);
    // Nor one a button of the table selects: the table stays in view, focus on the button.
    await page.getByRole('button', { name: 'Table' }).click();
    await page.keyboard.press('ArrowDown'); // to R2's reply lane, its first event
    await page.keyboard.press('Enter');
    await expect(page.locator(`g.tl-selected[data-lane^="reply:${replyId(1)}"]`)).toHaveCount(1);
    expect(await inView(page, '[data-testid="timeline-table"] tr[data-lane^="reply:' + replyId(1) + '"]')).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^First event of R2 · reply /);
    // The table picked R2's last event, the one the list selects for it: R2 chosen again from the list (after
    // another) is scrolled to — the list chose it, not the table (the pick was taken for this one too).
    await page.getByRole('button', { name: /^Last event of R2 · reply / }).click();
    await replies.nth(15).click();
    await expect(page.locator(`g.tl-selected${textLane(15)}`)).toHaveCount(1);
    expect(await inView(page, firstBlockLane(1))).toBe(false);
    await replies.nth(1).click();
    await expect(page.locator(`g.tl-selected${textLane(1)}`)).toHaveCount(1);
    await expect.poll(() => inView(page, firstBlockLane(1))).toBe(true);
    await page.close();
  });

  test(`${name}: with one reply, no lane is marked (all would be)`, async () => {
    const page = await openSession(size, 1);
    await page.getByTestId('replies').locator('tbody tr').first().click();
    await page.locator('[data-tab="timeline"]').click();
    await expect(page.getByTestId('timeline').locator(firstBlockLane(0))).toBeAttached();
    await expect(page.getByTestId('timeline').locator('[data-reply-lane], g.tl-selected')).toHaveCount(0);
    await page.close();
  });

  test(`${name}: the Table button brings the table into view and focus into its grid`, async () => {
    const page = await openSession(size);
    await page.locator('[data-tab="timeline"]').click();
    const toggle = page.getByRole('button', { name: 'Table' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const table = page.getByTestId('timeline-table');
    await expect(table).toBeVisible();
    expect(await inView(page, '[data-testid="timeline-table"]')).toBe(true);
    // Focus is on the grid's one tab stop, its first button; the grid's keys go on from there.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(await focused()).toMatch(/^First event of R1 · reply [0-9a-f]{32}: #0$/);
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toMatch(/^First event of R2 · reply /);
    await page.keyboard.press('End');
    expect(await focused()).toMatch(/^Next event of R2 · reply /);
    // The toolbar stayed in view: the same button closes the table, and keeps focus.
    await expect(toggle).toBeInViewport();
    await toggle.click();
    await expect(table).toHaveCount(0);
    // With the mouse, after hovering the chart (its tooltip came and went, and the panel drew meanwhile): the same.
    await page.getByTestId('timeline').evaluate((el) => (el.scrollTop = 0));
    const bar = (await page.getByTestId('timeline').locator('[data-lane^="reply:"] rect').first().boundingBox())!;
    await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height / 2);
    await expect(page.locator('.tl-tooltip')).toBeVisible();
    await toggle.click();
    await expect(table).toBeVisible();
    expect(await inView(page, '[data-testid="timeline-table"]')).toBe(true);
    expect(await focused()).toMatch(/^First event of R1 · reply /);
    await page.close();
  });

  test(`${name}: the table shows ids shortened and whole on their line, the full id in its title and name, and fits its pane`, async () => {
    const page = await openSession(size);
    await page.locator('[data-tab="timeline"]').click();
    await page.getByRole('button', { name: 'Table' }).click();
    const table = page.getByTestId('timeline-table');
    const row = table.locator(`tr[data-lane="text:${replyId(3)}:${hexId('text-a-3')}"]`);
    const full = hexId('text-a-3');
    await expect(row.locator('th .tl-id')).toHaveAttribute('title', full);
    await expect(row.locator('th .tl-id [aria-hidden="true"]')).toHaveText(`${full.slice(0, 6)}…${full.slice(-4)}`);
    await expect(row.locator('td.tl-reply .tl-id')).toHaveAttribute('title', replyId(3));
    // A screen reader reads the row by the whole ids.
    await expect(table.getByRole('row', { name: new RegExp(`^R4 · text ${full} agent3 · ${replyId(3)} `) })).toHaveCount(1);
    // No id is cut over two lines, anywhere in the table; the table fits its pane.
    const wrapped = await table.evaluate((el) => [...el.querySelectorAll('.tl-id')].filter((id) => id.getClientRects().length > 1 || id.getBoundingClientRect().height > 20).map((id) => id.textContent));
    expect(wrapped).toEqual([]);
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    // Short cells are not stretched to the pane: at W the table is as wide as its columns.
    if (name === 'W') expect(await table.evaluate((el) => el.querySelector('table')!.getBoundingClientRect().width < el.clientWidth - 100)).toBe(true);
    await page.close();
  });

  test(`${name}: the chart's lane labels shorten ids as the table does, the whole name in their title`, async () => {
    const page = await openSession(size);
    await page.locator('[data-tab="timeline"]').click();
    const label = page.getByTestId('timeline').locator(`[data-lane="reply:${replyId(1)}:"] text.lane-label`);
    const full = replyId(1);
    // The title holds the whole id; the text drawn after it, the id's head and tail, whole (it was cut: "…").
    await expect(label.locator('title')).toHaveText(`R2 · reply ${full}\nreply agent1 · ${full}`);
    expect(await label.evaluate((el) => el.lastChild?.textContent)).toBe(`R2 · reply ${full.slice(0, 6)}…${full.slice(-4)}`);
    await page.close();
  });

  test(`${name}: the tooltip's time reads as the axis does`, async () => {
    const page = await openSession(size);
    await page.locator('[data-tab="timeline"]').click();
    const timeline = page.getByTestId('timeline');
    // The axis reaches ~3 min: m:ss. R2's reply began 12 s in; at its bar's left edge the tooltip names that event.
    await expect(timeline.locator('text.axis-text:not(.wait-label)').first()).toHaveText('0:00');
    await timeline.evaluate((el) => (el.scrollTop = 0)); // (the first reply's block lanes were scrolled to)
    const bar = (await timeline.locator(`[data-lane="reply:${replyId(1)}:"] rect`).first().boundingBox())!;
    await page.mouse.move(bar.x + 1, bar.y + bar.height / 2);
    const tip = page.locator('.tl-tooltip');
    await expect(tip).toHaveText(/^#\d+ REPLY_START\n/);
    expect((await tip.textContent())!.split('\n')[1]).toBe('0:12.000'); // it read "12.00 s"
    await page.close();
  });

  test(`${name}: the time axis reads in one format`, async () => {
    const page = await openSession(size);
    await page.locator('[data-tab="timeline"]').click();
    const axis = page.getByTestId('timeline').locator('text.axis-text:not(.wait-label)');
    // The whole ~3 min: m:ss on every label ("20.00 s" stood next to "1 min 0 s"), the first minute's too.
    const whole = await axis.allTextContents();
    expect(whole.length).toBeGreaterThan(1);
    expect(whole.filter((l) => !/^\d+:\d\d$/.test(l))).toEqual([]);
    expect(whole[0]).toBe('0:00');
    // Zoomed in: one unit on every label, as many decimals on each.
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
    const zoomed = await axis.allTextContents();
    expect(zoomed.length).toBeGreaterThan(1);
    const unit = (l: string) => (/^\d+:\d\d(\.\d+)?$/.test(l) ? 'm:ss' : l.replace(/^[\d.]+/, (n) => (n.includes('.') ? `n.${n.split('.')[1].length}` : 'n')));
    expect(new Set(zoomed.map(unit)).size).toBe(1);
    await page.close();
  });
}

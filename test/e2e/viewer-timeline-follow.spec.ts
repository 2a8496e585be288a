// The timeline at a wide panel (W, 1600×900) and a docked one (N, 800×500): the Table button brings its table into
// view and focus into its grid; the table's ids are shortened, never wrapped, and the table fits its pane; the time
// axis reads in one format.
import { expect, test, type Page } from '@playwright/test';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
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
function sessionLog(): string {
  const events: [Record<string, unknown>, number][] = [];
  for (let r = 0; r < REPLIES; r++) {
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
  const records: CaptureRecord[] = [{
    kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'GET', url: 'http://127.0.0.1/sessions/s/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1_000, responseTime: 1_000,
  }];
  for (const [e, at] of events) {
    const text = `data: ${JSON.stringify(e)}\n\n`;
    records.push({ kind: 'chunk', conn: 'c', t: 1_000 + at, bytes: Buffer.byteLength(text), text });
  }
  records.push({ kind: 'end', conn: 'c', t: 1_000 + REPLIES * 12_000, state: 'complete' });
  return writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T09:00:00Z' }, records });
}

async function openSession(size: { width: number; height: number }): Promise<Page> {
  const page = await viewer.browser.newPage({ viewport: size });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.goto(`${viewer.url}/index.html`);
  await page.getByTestId('import-input').setInputFiles({ name: 's.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sessionLog()) });
  await expect(page.getByTestId('status')).toContainText('Imported s.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  return page;
}

/** Whether `selector` (inside the timeline) is in the timeline pane's view, below its toolbar. */
async function inView(page: Page, selector: string): Promise<boolean> {
  return page.getByTestId('timeline').evaluate((tl, sel) => {
    const el = tl.querySelector(sel);
    if (!el) return false;
    const pane = tl.getBoundingClientRect();
    const bar = tl.querySelector(':scope > .tabs')!.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= bar.bottom - 1 && r.top < pane.bottom && r.bottom > bar.bottom;
  }, selector);
}

for (const [name, size] of Object.entries(SIZES)) {
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

// The timeline's CUSTOM lanes and reply marks, and its text equivalent (the Table button): a row per lane a screen
// reader reads, with buttons that move the step to the lane's events — the chart itself is one image.
import { expect, test, type Page } from '@playwright/test';
import { sseCaptureLog } from './support/sse-log.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('timeline-text');

/** One reply with a text block and an interrupt; CUSTOM notifications (no reply_id) before, inside and after it. */
function sessionLog(): string {
  return captureLog(sessionEvents());
}

function sessionEvents(): [event: Record<string, unknown>, at: number][] {
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'a', created_at: '2026-12-01T09:00:00', ...extra });
  const custom = (name: string, value: Record<string, unknown>) => ({ type: 'CUSTOM', name, value, created_at: '2026-12-01T09:00:00' });
  const events = [
    custom('state_updated', { tasks: 1 }), // #0
    ev('REPLY_START', { session_id: 's', name: 'planner' }), // #1
    ev('TEXT_BLOCK_START', { block_id: 't1' }), // #2
    ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'Hello' }), // #3
    custom('state_updated', { tasks: 2 }), // #4
    ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: ' there' }), // #5
    ev('TEXT_BLOCK_END', { block_id: 't1' }), // #6
    ev('USER_INTERRUPT'), // #7
    ev('REPLY_END', { session_id: 's' }), // #8
    custom('team_updated', {}), // #9
  ];
  const at = [0, 100, 200, 300, 400, 500, 600, 900, 1000, 1500];
  return events.map((e, i) => [e, at[i]]);
}

/** A capture log of one SSE connection whose events arrive `at` ms after it opened. */
const captureLog = (events: [event: Record<string, unknown>, at: number][]): string => sseCaptureLog(events, { endAt: 1_000 });

async function openTimeline(log = sessionLog()): Promise<Page> {
  const page = await viewer.open();
  await page.getByTestId('import-input').setInputFiles({ name: 'session.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(page.getByTestId('status')).toContainText('Imported session.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  await page.locator('[data-tab="timeline"]').click();
  return page;
}

/** The index the event pane shows (its "#N"). */
const shownEvent = async (page: Page) => Number((await page.getByTestId('event-detail').locator('.kv span').nth(1).textContent())!.match(/#(\d+)/)![1]);

test('CUSTOM notifications get a lane per name, a mark each; a click on a mark (CUSTOM or the reply\'s interrupt) selects its event', async () => {
  const page = await openTimeline();
  const timeline = page.getByTestId('timeline');
  await expect(timeline.locator('text.lane-label')).toContainText(['reply a', 'text t1', 'custom state_updated', 'custom team_updated']);
  const marks = timeline.locator('[data-lane="custom::state_updated"] rect');
  await expect(marks).toHaveCount(2);

  const box = (await marks.nth(1).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('event-detail')).toContainText('CUSTOM');
  expect(await shownEvent(page)).toBe(4);

  // The last event's mark, at the very end of the axis, is drawn (not clipped away): the pointer finds it there.
  const last = timeline.locator('[data-lane="custom::team_updated"] rect');
  const lb = (await last.boundingBox())!;
  expect(await last.evaluate((el, [x, y]) => document.elementFromPoint(x, y) === el, [lb.x + lb.width / 2, lb.y + lb.height / 2])).toBe(true);

  const interrupt = (await timeline.locator('line.tl-mark[data-mark="USER_INTERRUPT"]').boundingBox())!;
  await page.mouse.click(interrupt.x + interrupt.width / 2, interrupt.y + interrupt.height / 2);
  await expect(page.getByTestId('event-detail')).toContainText('USER_INTERRUPT');
  expect(await shownEvent(page)).toBe(7);
  await page.close();
});

test('a CUSTOM notification selected in the event list leaves the reply: the scrubber and the message say it belongs to no reply, End goes back', async () => {
  const page = await openTimeline();
  await page.locator('[data-tab="events"]').click();
  const reply = page.locator('[data-reply="a"]');
  await expect(reply).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 7 \/ 7/);
  await page.locator('.vrow[data-event="4"]').click();
  await expect(page.getByTestId('event-detail')).toContainText('#4 CUSTOM');
  // No reply's step is left standing beside it (the scrubber said "step 7 / 7", the reply list highlighted reply a).
  await expect(reply).toHaveAttribute('aria-selected', 'false');
  await expect(page.getByTestId('step-pos')).toHaveCount(0);
  await expect(page.getByTestId('step-none')).toHaveText('Event #4 (CUSTOM) belongs to no reply.');
  await expect(page.getByRole('tabpanel', { name: 'Message' })).toHaveText('This event belongs to no reply; its reconstruction is not shown.');
  await page.keyboard.press('End');
  await expect(reply).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 7 \/ 7/);
  await page.locator('.vrow[data-event="9"]').click();
  await page.getByTestId('back-to-reply').click();
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 7 \/ 7/);
  // End in the focused replies list too (the list kept End from the page, as it does with no reply to go back to).
  await page.locator('.vrow[data-event="4"]').click();
  await page.getByRole('grid', { name: 'Replies' }).focus();
  await page.keyboard.press('End');
  await expect(reply).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 7 \/ 7/);
  await page.close();
});

test('the Table button lists each lane as text, and its buttons move the step through a lane by keyboard', async () => {
  const page = await openTimeline();
  const toggle = page.getByRole('button', { name: 'Table' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('grid', { name: /lanes on the/ })).toHaveCount(0); // closed, it is not there at all
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const table = page.getByRole('grid', { name: /^4 lanes on the arrival time axis/ });
  await expect(table).toBeVisible();

  const row = (name: string) => table.getByRole('row', { name: new RegExp(`^${name}\\b`) });
  await expect(row('text t1').getByRole('gridcell')).toHaveText(['planner · a', '#2', '#6', '400 ms', 'ended', '2 deltas', /Previous\s*Next/]);
  await expect(row('reply a').getByRole('gridcell').nth(5)).toHaveText('1 mark: USER_INTERRUPT #7');
  await expect(row('custom state_updated').getByRole('gridcell')).toHaveText(['none', '#0', '#4', '400 ms', 'instant', '2 notifications', /Previous\s*Next/]);

  // Keyboard: Enter on a lane's buttons — the step moves to that lane's event, and the status says where it went.
  const status = page.getByTestId('timeline-table').getByRole('status');
  await page.getByRole('button', { name: 'First event of custom state_updated: #0' }).focus();
  await page.keyboard.press('Enter');
  expect(await shownEvent(page)).toBe(0);
  await page.getByRole('button', { name: 'Next event of custom state_updated' }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('custom state_updated: event #4 CUSTOM');
  expect(await shownEvent(page)).toBe(4);
  await expect(table.locator('caption')).toContainText('Selected step: event #4.');
  // From a CUSTOM inside the text block, the text lane's next event is the delta after it.
  await page.getByRole('button', { name: 'Next event of text t1' }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('text t1: event #5 TEXT_BLOCK_DELTA');
  await expect(page.getByTestId('event-detail')).toContainText('TEXT_BLOCK_DELTA');
  await page.getByRole('button', { name: 'Previous event of custom state_updated' }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('custom state_updated: event #4 CUSTOM');
  await page.getByRole('button', { name: 'Next event of custom state_updated' }).focus();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('custom state_updated: no later event');
  expect(await shownEvent(page)).toBe(4);

  // One tab stop for the whole grid (the button focused last); arrow keys move between the buttons, and Tab leaves.
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
  await expect(table.locator('button[tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('ArrowDown'); // from "Next event of custom state_updated": the row below, same column
  expect(await focused()).toMatch(/^Next event of custom team_updated$/);
  await page.keyboard.press('ArrowLeft');
  expect(await focused()).toBe('Previous event of custom team_updated');
  await page.keyboard.press('Home');
  expect(await focused()).toMatch(/^First event of custom team_updated: #\d+$/);
  await page.keyboard.press('Control+Home');
  expect(await focused()).toMatch(/^First event of reply a: #\d+$/);
  await page.keyboard.press('ArrowUp'); // past the first row: stays
  expect(await focused()).toMatch(/^First event of reply a: #\d+$/);
  await page.keyboard.press('Control+End');
  expect(await focused()).toMatch(/^First event of custom team_updated: #\d+$/);
  const stepBefore = await shownEvent(page);
  await page.keyboard.press('ArrowRight'); // the arrows move focus only: the step stays (they are not the scrubber's keys here)
  expect(await focused()).toMatch(/^Last event of custom team_updated: #\d+$/);
  expect(await shownEvent(page)).toBe(stepBefore);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[data-testid="timeline-table"]') === null)).toBe(true);
  await page.keyboard.press('Shift+Tab');
  expect(await focused()).toMatch(/^Last event of /); // back on the button focused last
  await expect(table.locator('button[tabindex="0"]')).toHaveCount(1);

  // Closed again, it is gone; the chart says where its text equivalent is.
  await toggle.click();
  await expect(page.getByRole('grid', { name: /lanes on the/ })).toHaveCount(0);
  await expect(page.getByRole('img', { name: /^Timeline: 4 lanes \(the Table button lists them as text\)$/ })).toBeVisible();
  await page.close();
});

test('thousands of CUSTOM notifications draw one mark per pixel, and the table still counts them all', async () => {
  // 3,000 progress notifications 0.1 ms apart inside the reply: 0.3 s of a 1.5 s axis, under ~200 px of plot.
  const progress: [Record<string, unknown>, number][] = Array.from({ length: 3000 }, (_, i) => [{ type: 'CUSTOM', name: 'progress', value: { i }, created_at: '2026-12-01T09:00:00' }, 150 + i / 10]);
  const page = await openTimeline(captureLog([...sessionEvents(), ...progress].sort((a, b) => a[1] - b[1])));
  const marks = page.getByTestId('timeline').locator('[data-lane="custom::progress"] rect');
  await expect(marks.first()).toBeVisible();
  expect(await marks.count()).toBeLessThan(400);
  await page.getByRole('button', { name: 'Table' }).click();
  await expect(page.getByRole('row', { name: /^custom progress\b/ }).getByRole('gridcell').nth(5)).toHaveText('3000 notifications');
  await page.close();
});

test('in a narrow pane the table wraps its ids, not the words of its state and contents', async () => {
  // A uuid reply id and a long CUSTOM name: long unbroken text that must wrap somewhere so the table fits the pane.
  const R = '3f2a9c1e77b44c1d9a8e0b6f5d2e1c44';
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: R, created_at: '2026-12-01T09:00:00', ...extra });
  const page = await openTimeline(captureLog([
    [ev('REPLY_START', { session_id: 's', name: 'planner' }), 0],
    [ev('TEXT_BLOCK_START', { block_id: `block_${R}` }), 10],
    [{ type: 'CUSTOM', name: `progress_of_the_ingest_${'x'.repeat(120)}`, value: {}, created_at: '2026-12-01T09:00:00' }, 20],
    [{ type: 'CUSTOM', name: 'state_updated', value: {}, created_at: '2026-12-01T09:00:00' }, 30],
    [ev('TEXT_BLOCK_DELTA', { block_id: `block_${R}`, delta: 'hi' }), 900],
    [ev('USER_INTERRUPT'), 950],
    [ev('REPLY_END', { session_id: 's' }), 1000],
  ]));
  await page.setViewportSize({ width: 1000, height: 800 });
  await page.getByRole('button', { name: 'Table' }).click();
  const table = page.getByTestId('timeline-table');
  await expect(table.getByRole('row', { name: /^custom state_updated\b/ })).toBeVisible();
  if (process.env.REPLYSCOPE_SHOTS) await table.screenshot({ path: `${process.env.REPLYSCOPE_SHOTS}/timeline-table-narrow.png` });
  // Each of these words is on one line (a word cut in two has two client rects), and the table fits its pane.
  const brokenWords = await table.evaluate((el) => {
    const broken: string[] = [];
    const walk = document.createTreeWalker(el.querySelector('tbody')!, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const text = n.textContent ?? '';
      for (const m of text.matchAll(/[A-Za-z_]+/g)) {
        if (m[0].length > 20) continue; // ids and long names may wrap anywhere
        const r = document.createRange();
        r.setStart(n, m.index!);
        r.setEnd(n, m.index! + m[0].length);
        if (r.getClientRects().length > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
  expect(brokenWords).toEqual([]);
  expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.close();
});

test('the table\'s status line speaks of the connection shown: switching to another one starts it empty', async () => {
  // The same stream twice, as two connections.
  const [header, ...lines] = sessionLog().trim().split('\n');
  const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const second = records.map((r) => (r.kind === 'connection' ? { ...r, id: 'c2', url: `${r.url}?again` } : { ...r, conn: 'c2' }));
  const page = await openTimeline([header, ...[...records, ...second].map((r) => JSON.stringify(r))].join('\n') + '\n');
  await page.getByRole('button', { name: 'Table' }).click();
  const status = page.getByTestId('timeline-table').getByRole('status');
  await page.getByRole('button', { name: 'Next event of custom state_updated' }).click();
  await expect(status).not.toHaveText('');
  await page.locator('[data-conn="c2"]').click();
  await expect(page.getByTestId('timeline-table')).toBeVisible();
  await expect(status).toHaveText('');
  await page.close();
});

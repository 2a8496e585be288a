// The panel by keyboard and for screen readers, in the standalone viewer (the same app as in DevTools): dialogs keep
// and give back focus, the status line is a live region whose long text can be read whole, tabs follow the ARIA tabs
// pattern, lists expose their selection, the step slider reads as the visible step, and a 900 px window keeps the
// event list's columns.
import { expect, test, type Page } from '@playwright/test';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { writeCaptureLog } from '../../panel/core-bridge.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('viewer-keyboard');
const sampleLog = writeCaptureLog(sampleCapture());

async function openWithSample(page?: Page): Promise<Page> {
  const p = page ?? (await viewer.open());
  await p.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
  await expect(p.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
  await p.locator('[data-conn="tab1:1"]').click();
  return p;
}

const focusedInside = (page: Page, testId: string) =>
  page.evaluate((id) => !!document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement), testId);

test('a dialog keeps focus while open (Tab and Shift+Tab wrap) and gives it back to its opener when closed', async () => {
  const page = await openWithSample();
  const exportButton = page.getByRole('button', { name: 'Export…' });
  await exportButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-dialog')).toBeVisible();
  for (let i = 0; i < 14; i++) {
    await page.keyboard.press('Tab');
    expect(await focusedInside(page, 'export-dialog'), `after ${i + 1} Tab`).toBe(true);
  }
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInside(page, 'export-dialog'), `after ${i + 1} Shift+Tab`).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-dialog')).toHaveCount(0);
  await expect(exportButton).toBeFocused();

  // The help: opened with ? from the events list, closed with Escape, focus back on the list.
  const events = page.getByTestId('events');
  await events.focus();
  await page.keyboard.press('?');
  await expect(page.getByTestId('keyboard-help')).toBeVisible();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  expect(await focusedInside(page, 'keyboard-help')).toBe(true);
  await page.keyboard.press('Escape');
  await expect(events).toBeFocused();
  await page.close();
});

test('an export that fails says so out loud, and focus stays on the Export button', async () => {
  const page = await openWithSample();
  // An export can fail at the download (a browser short of memory for a very large one): injected here.
  await page.evaluate(() => {
    URL.createObjectURL = () => {
      throw new RangeError('Array buffer allocation failed');
    };
  });
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await dialog.getByRole('button', { name: 'Export', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('alert')).toHaveText('Array buffer allocation failed');
  await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeFocused();
  await page.close();
});

test('the status line is a live region; a long one can be focused and read whole; Clear says so', async () => {
  const page = await openWithSample();
  const status = page.getByRole('status').filter({ hasText: 'Imported' });
  await expect(status).toHaveAttribute('aria-live', 'polite');
  await page.getByTestId('import-input').setInputFiles([
    { name: 'a-file-with-a-rather-long-name-that-goes-on.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') },
    { name: 'another-file-with-a-long-name.sse', mimeType: 'text/plain', buffer: Buffer.from('not a stream at all') },
  ]);
  const line = page.getByTestId('status');
  await expect(line).toContainText('could not import a-file-with-a-rather-long-name-that-goes-on.json');
  await expect(line).toHaveAttribute('aria-live', 'assertive'); // an error
  const clipped = () => line.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(await clipped()).toBe(true);
  await line.focus();
  expect(await clipped()).toBe(false); // focused, it opens in full
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(line).toHaveText('Cleared');
  await page.close();
});

test('tabs: one Tab stop, ←/→ switch tabs (and no longer move the scrubber); Home/End still do', async () => {
  const page = await openWithSample();
  const tabs = page.getByRole('tablist', { name: 'Connection views' }).getByRole('tab');
  await expect(tabs).toHaveCount(3);
  const pos = await page.getByTestId('step-pos').textContent();
  await page.getByRole('tab', { name: 'Events' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Timeline' })).toBeFocused();
  await expect(page.getByTestId('step-pos')).toHaveText(pos!);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /^Diagnostics/ })).toBeFocused();
  expect(await tabs.evaluateAll((els) => els.map((el) => el.getAttribute('tabindex')))).toEqual(['-1', '-1', '0']);
  await page.keyboard.press('ArrowRight'); // wraps
  await expect(page.getByRole('tab', { name: 'Events' })).toHaveAttribute('aria-selected', 'true');
  // Home/End stay the scrubber's: first and last step, from a tab too.
  await page.keyboard.press('Home');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 1 \//);
  await page.close();
});

test('focus is not dropped when its control goes away: an import from the empty page, Clear the filter', async () => {
  const page = await viewer.open();
  // "Open a file…" had focus (the file chooser gives it back): the empty page and its button make way for the lists.
  // (The file goes straight to the input the button opens: Playwright's chooser interception raced the key press.)
  await page.getByRole('button', { name: 'Open a file…' }).focus();
  await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
  await expect(page.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
  await expect(page.getByRole('grid', { name: 'Connections' })).toBeFocused();

  // A search that matches nothing offers "Clear the filter"; pressed, it goes, and focus stays with the list.
  await page.getByRole('searchbox', { name: 'Search events' }).fill('no event says this');
  const clearFilter = page.getByRole('button', { name: 'Clear the filter' });
  await clearFilter.focus();
  await page.keyboard.press('Enter');
  await expect(clearFilter).toHaveCount(0);
  await expect(page.getByRole('grid', { name: 'Events' })).toBeFocused();
  await page.close();

  // Focus that was nowhere (a drop, a live capture's first stream) is left there: nothing is pulled into the lists.
  const other = await viewer.open();
  await other.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
  await expect(other.getByTestId('status')).toContainText('Imported sample.replyscope.ndjson');
  expect(await other.evaluate(() => document.activeElement === document.body)).toBe(true);
  await other.close();
});

test('Show more that shows the whole text leaves focus in the message pane, not on the document', async () => {
  const page = await viewer.open();
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify({ reply_id: 'r', ...o })}\n\n`;
  const sse = ev({ type: 'REPLY_START', session_id: 's', name: 'assistant' }) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }) +
    ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'y'.repeat(100_000) }) + ev({ type: 'TEXT_BLOCK_END', block_id: 'b' });
  await page.getByTestId('import-input').setInputFiles({ name: 'long.sse', mimeType: 'text/plain', buffer: Buffer.from(sse) });
  await expect(page.getByTestId('status')).toContainText('Imported long.sse');
  const more = page.getByTestId('bubble').getByRole('button', { name: 'Show more' });
  await more.focus();
  await page.keyboard.press('Enter'); // one press shows all of 100,000 characters: the bar goes
  await expect(page.getByTestId('bubble').getByTestId('elided')).toHaveCount(0);
  await expect(page.getByRole('tabpanel', { name: 'Message' })).toBeFocused();
  await page.close();
});

test('a scrubber or timeline button its own press makes unavailable keeps focus (and reads as unavailable)', async () => {
  const page = await openWithSample();
  const scrubber = page.getByTestId('scrubber');
  for (const [name, pos] of [['First step', /^step 1 \//], ['Last step', /^step (\d+) \/ \1\b/]] as const) {
    const button = scrubber.getByRole('button', { name, exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('step-pos')).toHaveText(pos);
    await expect(button).toBeDisabled(); // aria-disabled: announced as unavailable
    await expect(button).toBeFocused(); // (disabled, it lost focus to the document)
    await page.keyboard.press('Enter'); // and does nothing
    await expect(page.getByTestId('step-pos')).toHaveText(pos);
  }
  // The timeline's Fit, pressed once zoomed in, is done.
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  const fit = page.getByRole('button', { name: 'Fit' });
  await fit.focus();
  await page.keyboard.press('Enter');
  await expect(fit).toBeDisabled();
  await expect(fit).toBeFocused();
  await page.close();
});

test('a filter says what it leaves when it changes, and only then', async () => {
  const page = await openWithSample();
  const said = (text: RegExp) => page.getByRole('status').filter({ hasText: text });
  await page.getByRole('searchbox', { name: 'Search events' }).fill('no event says this');
  await expect(said(/^No events match$/)).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Search events' }).fill('');
  const rows = await page.getByRole('grid', { name: 'Events' }).getAttribute('aria-rowcount');
  await expect(said(new RegExp(`^${Number(rows) - 1} rows shown$`))).toHaveCount(1);

  await page.getByRole('searchbox', { name: 'Filter connections by URL' }).fill('no-such-url');
  await expect(said(/^0 of \d+ connections shown$/)).toHaveCount(1);
  await page.getByRole('searchbox', { name: 'Filter connections by URL' }).fill('');
  const total = await page.locator('[data-conn]').count();
  const all = said(new RegExp(`^${total} connections shown$`));
  await expect(all).toHaveCount(1);
  // New connections coming in (an import here, a live stream in DevTools) change the count, not the filter: the
  // line keeps what it said (it is not re-read at every arrival).
  await page.getByTestId('import-input').setInputFiles({ name: 'more.sse', mimeType: 'text/plain', buffer: Buffer.from('data: {"type":"REPLY_START","reply_id":"x","session_id":"s","name":"n"}\n\n') });
  await expect(page.getByTestId('status')).toContainText('Imported more.sse');
  await expect(page.locator('[data-conn]')).toHaveCount(total + 1);
  await expect(all).toHaveCount(1);
  await page.close();
});

test('in a short window (docked below, zoomed to 200%) a dialog scrolls: its last controls can be reached and seen', async () => {
  const page = await viewer.browser.newPage({ viewport: { width: 700, height: 300 } });
  await page.goto(`${viewer.url}/index.html`);
  await openWithSample(page);
  const inView = async (name: string) => {
    const box = (await page.getByRole('button', { name, exact: true }).last().boundingBox())!;
    return box.y >= 0 && box.y + box.height <= 300;
  };
  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByTestId('export-go').focus(); // as Tab gets there
  expect(await inView('Export')).toBe(true);
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await page.getByTestId('keyboard-help').getByRole('button', { name: 'Close' }).focus();
  expect(await inView('Close')).toBe(true);
  await page.close();
});

test('the main button of a dialog shows that it has focus (a ring outside it), in both themes', async () => {
  for (const theme of ['light', 'dark']) {
    const page = await viewer.browser.newPage({ viewport: { width: 900, height: 700 } });
    await page.goto(`${viewer.url}/index.html?theme=${theme}`);
    await openWithSample(page);
    await page.getByRole('button', { name: 'Export…' }).click();
    const button = page.getByTestId('export-go');
    const box = (await button.boundingBox())!;
    // A strip just above the button: where a ring shows, and where nothing else changes with focus.
    const strip = () => page.screenshot({ clip: { x: box.x - 4, y: box.y - 4, width: box.width + 8, height: 3 } });
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).focus();
    const blurred = await strip();
    await page.keyboard.press('Tab'); // to Export
    await expect(button).toBeFocused();
    expect((await strip()).equals(blurred), `${theme}: the focused Export button looks the same as unfocused`).toBe(false);
    await page.close();
  }
});

test('each tab controls its panel, and the panel is a tabpanel named by the selected tab', async () => {
  const page = await openWithSample();
  for (const [list, names] of [['Connection views', ['Events', 'Timeline', /^Diagnostics/]], ['Message views', ['Message', 'JSON', 'Diff']]] as const) {
    for (const name of names) {
      const tab = page.getByRole('tablist', { name: list }).getByRole('tab', { name });
      await tab.click();
      const panelId = await tab.getAttribute('aria-controls');
      expect(panelId, `${list}: ${name} names its panel`).toBeTruthy();
      const panel = page.locator(`[id="${panelId}"]`);
      await expect(panel).toHaveAttribute('role', 'tabpanel');
      await expect(panel).toHaveAttribute('aria-labelledby', (await tab.getAttribute('id'))!);
      await expect(page.getByRole('tabpanel', { name })).toBeVisible();
    }
  }
  // The events view still fills its panel (the list kept its height inside the new box).
  await page.getByRole('tab', { name: 'Events' }).click();
  const [panel, grid] = [await page.getByRole('tabpanel', { name: 'Events' }).boundingBox(), await page.getByRole('grid', { name: 'Events' }).boundingBox()];
  expect(grid!.height).toBeGreaterThan(panel!.height - 2);
  await page.close();
});

test('lists expose their selection; the step slider reads as the visible step and Space on it plays', async () => {
  const page = await openWithSample();
  const events = page.getByRole('grid', { name: 'Events' });
  await page.keyboard.press('End');
  const selected = events.locator('[role="row"][aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  await expect(events).toHaveAttribute('aria-activedescendant', (await selected.getAttribute('id'))!);
  const replies = page.getByRole('grid', { name: 'Replies' });
  await expect(replies).toHaveAttribute('aria-activedescendant', /^reply-row-/);
  await expect(replies).toHaveAttribute('aria-rowcount', '2'); // the header and one reply (the list is windowed)
  await expect(replies.locator('[data-reply]').first()).toHaveAttribute('aria-rowindex', '2');
  await expect(page.getByRole('grid', { name: 'Connections' })).toHaveAttribute('aria-activedescendant', 'conn-row-tab1:1');

  const slider = page.getByRole('slider', { name: 'Step' });
  const shown = (await page.getByTestId('step-pos').textContent())!.match(/^step (\d+) \/ (\d+)/)!;
  await expect(slider).toHaveAttribute('aria-valuetext', `step ${shown[1]} of ${shown[2]}`);
  await slider.focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('scrubber').getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('scrubber').getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await page.close();
});

test('a divider reads as the share its pane has, on every split and after each arrow key', async () => {
  const page = await openWithSample();
  const shareOf = (name: string) => page.getByRole('separator', { name }).evaluate((el) => {
    const split = el.parentElement!.getBoundingClientRect();
    const pane = el.parentElement!.firstElementChild!.getBoundingClientRect();
    const row = el.getAttribute('aria-orientation') === 'vertical';
    return String(Math.round((100 * (row ? pane.width : pane.height)) / (row ? split.width : split.height)));
  });
  for (const [name, key] of [['Resize connection list', 'ArrowDown'], ['Resize replies pane', 'ArrowRight'], ['Resize event list and step detail', 'ArrowUp'], ['Resize message and event panes', 'ArrowLeft']]) {
    const divider = page.getByRole('separator', { name });
    await expect(divider).toHaveAttribute('aria-valuenow', await shareOf(name));
    const before = await shareOf(name);
    await divider.focus();
    await page.keyboard.press(`Shift+${key}`);
    await expect.poll(() => shareOf(name)).not.toBe(before);
    await expect(divider).toHaveAttribute('aria-valuenow', await shareOf(name)); // the new size, not the one before the key
  }
  await page.close();
});

test('↑/↓ in a short connections pane keep the selected row in sight', async () => {
  const page = await openWithSample();
  const divider = page.getByRole('separator', { name: 'Resize connection list' });
  await divider.focus();
  for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowUp'); // as small as it goes
  const grid = page.getByRole('grid', { name: 'Connections' });
  await page.locator('[data-conn="tab1:1"]').click();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowDown');
  const row = page.locator('[data-conn][aria-selected="true"]');
  await expect(row).not.toHaveAttribute('data-conn', 'tab1:1');
  await expect.poll(async () => {
    const [r, box] = [await row.boundingBox(), await page.getByTestId('connections').boundingBox()];
    return r!.y >= box!.y + 20 && r!.y < box!.y + box!.height - 10; // below the sticky header, in sight (the pane is shorter than a row or two)
  }).toBe(true);
  await expect(grid).toBeFocused();
  await page.close();
});

for (const width of [900, 640]) {
  test(`at ${width} px (DevTools docked to the side) the event list keeps Data and Status in view`, async () => {
    const page = await viewer.browser.newPage({ viewport: { width, height: 700 } });
    await page.goto(`${viewer.url}/index.html`);
    await openWithSample(page);
    const grid = page.getByRole('grid', { name: 'Events' });
    const [list, data, status] = [await grid.boundingBox(), await grid.getByRole('columnheader', { name: 'Data' }).boundingBox(), await grid.getByRole('columnheader', { name: 'Status' }).boundingBox()];
    expect(status!.x + status!.width).toBeLessThanOrEqual(list!.x + list!.width);
    expect(data!.width).toBeGreaterThanOrEqual(60);
    // The replies pane keeps room for the reply itself: narrow, usage/TTFT/duration move to the row's title.
    const reply = await page.getByRole('grid', { name: 'Replies' }).getByRole('columnheader', { name: 'Reply' }).boundingBox();
    expect(reply!.width).toBeGreaterThanOrEqual(90);
    await page.close();
  });
}

test('zoomed in, the timeline follows the step moved with the keys (its cursor stays in view)', async () => {
  const page = await openWithSample();
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const timeline = page.getByTestId('timeline');
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  const cursor = timeline.locator('line.cursor');
  await page.keyboard.press('End');
  await expect(cursor).toHaveCount(1);
  await page.keyboard.press('Home');
  await expect(cursor).toHaveCount(1);
  await page.close();
});

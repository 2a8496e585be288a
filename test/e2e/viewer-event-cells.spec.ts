// The event list's cells read whole at a wide panel (W, 1600×900) and a docked one (N, 800×500): a time past a
// minute is not cut ("1 min 23.…"), and a delta's leading and trailing whitespace is marked where the stream split
// the text — while the cell's text, which a selection copies, stays the delta's own.
import { expect, test, type Page } from '@playwright/test';
import { sseCaptureLog } from './support/sse-log.ts';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('event-cells');

const SIZES = { W: { width: 1600, height: 900 }, N: { width: 800, height: 500 } } as const;

/** One reply's text deltas, each arriving `at` ms after the connection opened. */
function deltasLog(deltas: [delta: string, at: number][]): string {
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r', created_at: '2026-12-01T09:00:00', ...extra });
  const events: [Record<string, unknown>, number][] = [
    [ev('REPLY_START', { session_id: 's', name: 'a' }), 0],
    [ev('TEXT_BLOCK_START', { block_id: 't' }), 1],
    ...deltas.map(([delta, at]): [Record<string, unknown>, number] => [ev('TEXT_BLOCK_DELTA', { block_id: 't', delta }), at]),
  ];
  return sseCaptureLog(events, { url: 'http://127.0.0.1/stream' });
}

async function openEvents(size: { width: number; height: number }, log: string): Promise<Page> {
  const page = await viewer.browser.newPage({ viewport: size });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.goto(`${viewer.url}/index.html`);
  await page.getByTestId('import-input').setInputFiles({ name: 'd.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(page.getByTestId('status')).toContainText('Imported d.replyscope.ndjson');
  await page.locator('[data-conn="c"]').click();
  await expect(page.locator('.vrow').first()).toBeVisible();
  return page;
}

for (const [name, size] of Object.entries(SIZES)) {
  test(`${name}: the Time column shows each time whole, past a minute and past ten`, async () => {
    // Sub-second, seconds, a minute and more, ten minutes and more (the widest).
    const page = await openEvents(size, deltasLog([['a', 731.8], ['b', 59_871], ['c', 83_016], ['d', 731_800]]));
    const times = page.locator('.vrow > span:nth-child(2)');
    await expect(times).toHaveText(['0.0 ms', '1.0 ms', '731.8 ms', '59.871 s', '1:23.016', '12:11.800']);
    const cut = await times.evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent));
    expect(cut).toEqual([]);
    await page.close();
  });
}

for (const [name, size] of Object.entries(SIZES)) {
  test(`${name}: a delta's leading and trailing whitespace is marked in the Data column; its text stays the delta's`, async () => {
    const deltas = [' Eve', 'nts ', '\n\n', 'a  b', '\tx'];
    const page = await openEvents(size, deltasLog(deltas.map((d, i) => [d, 10 + i])));
    // The Data cells of the deltas (events #2 on; #0 and #1 start the reply and the block).
    const cells = page.locator('.vrow[data-event]:not([data-event="0"]):not([data-event="1"]) > span:nth-child(5)');
    await expect(cells).toHaveCount(deltas.length);
    const shown = await cells.evaluateAll((els) => els.map((el) => {
      const row = el.getBoundingClientRect();
      const marks = [...el.querySelectorAll('.ws')].map((m) => {
        const r = m.getBoundingClientRect();
        // A mark is drawn on the row's one line, a character wide.
        const onLine = r.width > 0 && r.top >= row.top - 1 && r.bottom <= row.bottom + 1;
        return `${getComputedStyle(m, '::before').content.replace(/ \/ ""$/, '')}${onLine ? '' : '(off its line)'}`;
      });
      // What a selection of the cell copies (but line breaks: a selection that ends on one leaves the last out).
      if (el.textContent!.includes('\n')) return { text: el.textContent, marks, oneLine: el.scrollHeight <= el.clientHeight };
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection()!;
      sel.removeAllRanges();
      sel.addRange(range);
      return { text: el.textContent, copied: sel.toString(), marks, oneLine: el.scrollHeight <= el.clientHeight };
    }));
    expect(shown).toEqual([
      { text: ' Eve', copied: ' Eve', marks: ['"␣"'], oneLine: true },
      { text: 'nts ', copied: 'nts ', marks: ['"␣"'], oneLine: true },
      { text: '\n\n', marks: ['"↵"', '"↵"'], oneLine: true },
      { text: 'a  b', copied: 'a b', marks: [], oneLine: true }, // inside the text: as before
      { text: '\tx', copied: '\tx', marks: ['"⇥"'], oneLine: true },
    ]);
    // The search finds the delta by its real text, the space included.
    await page.getByLabel('Search events').fill('nts ');
    await expect(page.locator('.vrow')).toHaveCount(1);
    await page.close();
  });
}

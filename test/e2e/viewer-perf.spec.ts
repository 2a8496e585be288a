// The viewer's performance behaviour, asserted structurally (no timings): a big import is analysed in slices while
// the page keeps producing frames and shows progress; an imported file is read in a worker, the page's thread given
// its records in batches and parsing none of it (where no worker loads, it reads the file itself); a seek changes only what it must in the DOM (two event rows,
// the touched bubble block); live records append rows without touching the existing ones. Plus the `?` overlay
// and Space for play/pause.
import { expect, test, type Page } from '@playwright/test';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { useViewer } from './support/viewer.ts';
import { CaptureAnalyzer, writeCaptureLog, writeHar } from '../../panel/core-bridge.ts';
import { importWorkerSeen, watchImportWorker } from './support/import-worker-watch.ts';
import { generateCapture } from '../../bench/capture-gen.ts';
import { makeHeader } from '../../src/core/capture/capture-log.ts';

const viewer = useViewer('viewer-perf');

const sample = sampleCapture();

const openViewer = (): Promise<Page> => viewer.open();

/** An SSE body of one AgentScope reply with `n` events: one text block streamed delta by delta. */
function bigStream(n: number): string {
  const ev = (i: number, type: string, extra: string) =>
    `data: {"type":"${type}","reply_id":"big","id":"e${i}","created_at":"2026-03-01T09:00:00"${extra}}\n\n`;
  const out = [ev(0, 'REPLY_START', ',"session_id":"s","name":"Big"'), ev(1, 'TEXT_BLOCK_START', ',"block_id":"t"')];
  for (let i = 2; i < n - 1; i++) out.push(ev(i, 'TEXT_BLOCK_DELTA', `,"block_id":"t","delta":"w${i} "`));
  out.push(ev(n - 1, 'TEXT_BLOCK_END', ',"block_id":"t"'));
  return out.join('');
}

test('a big import is analysed in slices: progress shows and frames keep coming until it is done', async () => {
  const page = await openViewer();
  // Sample the progress bar on every animation frame: frames only run between slices if the import yields.
  await page.evaluate(() => {
    const w = window as unknown as { progressSeen: number[] };
    w.progressSeen = [];
    const tick = () => {
      const bar = document.querySelector('[data-testid="progress"]');
      if (bar) w.progressSeen.push(Number(bar.getAttribute('aria-valuenow')));
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const N = 100_000;
  await page.getByTestId('import-input').setInputFiles({ name: 'big.sse', mimeType: 'text/event-stream', buffer: Buffer.from(bigStream(N)) });
  await expect(page.getByTestId('status')).toContainText('Imported big.sse: 1 connection', { timeout: 60_000 });
  await expect(page.getByTestId('progress')).toHaveCount(0);
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
  expect(new Set(seen).size).toBeGreaterThan(3); // several slices, each followed by a rendered frame
  expect(seen).toEqual([...seen].sort((a, b) => a - b)); // progress only moves forward
  await expect(page.locator('[data-conn]').first()).toContainText(String(N));
  await page.close();
});

/** A generated session (bench/capture-gen.ts) of about `events` events, as a capture log and as a HAR. */
function generatedFiles(events: number, seed: number): { log: string; har: string } {
  const capture = { header: makeHeader('e2e', { created: '2026-03-01T09:00:00.000Z' }), records: generateCapture({ events, seed }).records };
  return { log: writeCaptureLog(capture), har: writeHar(capture) };
}

/** Every text the status line shows from now on. */
async function watchStatus(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { statuses: string[] };
    w.statuses = [];
    const status = () => document.querySelector('[data-testid="status"]')?.textContent ?? '';
    new MutationObserver(() => w.statuses.push(status())).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
}

test('an imported file is read in a worker: the page gets its records in batches and parses none of the file', async () => {
  test.setTimeout(120_000);
  const page = await viewer.open(watchImportWorker);
  const statuses = await watchStatus(page);
  const log = generatedFiles(60_000, 3).log; // ~15 MB: four slices of 4 MiB
  await page.getByTestId('import-input').setInputFiles({ name: 'big.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(page.getByTestId('status')).toHaveText('Imported big.replyscope.ndjson: 1 connection', { timeout: 60_000 });
  let seen = await importWorkerSeen(page);
  expect(seen.workers).toEqual(['replyscope-import']);
  expect(seen.posted.records).toBeGreaterThan(10); // ~256 KiB of text each
  expect(seen.posted.progress).toBeGreaterThanOrEqual(4); // one a slice, said in the status line:
  expect(new Set((await statuses()).filter((t) => /^Reading big\.replyscope\.ndjson… \d+%$/.test(t))).size).toBeGreaterThan(1);
  expect(seen.parsedHere).toBe(0);

  // A HAR is one JSON document, parsed whole — in the worker too.
  const har = generatedFiles(8_000, 4).har;
  expect(har.length).toBeGreaterThan(1 << 20);
  await page.getByTestId('import-input').setInputFiles({ name: 'other.har', mimeType: 'application/json', buffer: Buffer.from(har) });
  await expect(page.getByTestId('status')).toHaveText('Imported other.har: 1 connection', { timeout: 60_000 });
  seen = await importWorkerSeen(page);
  expect(seen.workers).toEqual(['replyscope-import', 'replyscope-import']); // one a file
  expect(seen.posted.fingerprint).toBe(1); // asked whether it was shown already before parsing it
  expect(seen.parsedHere).toBe(0);
  await expect(page.locator('[data-conn]')).toHaveCount(2);
  await page.close();
});

test('where the import worker cannot load, the file is read on the page\'s thread as before', async () => {
  const page = await viewer.open(async (p) => {
    await watchImportWorker(p);
    await p.route('**/import-worker-*.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
  });
  const log = writeCaptureLog(sample);
  await page.getByTestId('import-input').setInputFiles({ name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(log) });
  await expect(page.getByTestId('status')).toHaveText(/^Imported sample\.replyscope\.ndjson: \d+ connections$/);
  const seen = await importWorkerSeen(page);
  expect(seen.workers).toEqual(['replyscope-import']); // tried: it failed before it said anything
  expect(seen.posted).toEqual({});
  expect(seen.parsedHere).toBeGreaterThan(0); // the log's lines, here
  // A Worker refused outright (Chromium's answer to a page of an opaque origin) reads it here too, its error the same.
  await page.evaluate(() => {
    (window as unknown as { Worker: unknown }).Worker = function refused() {
      throw new DOMException("Script cannot be accessed from origin 'null'", 'SecurityError');
    };
  });
  await page.getByTestId('import-input').setInputFiles({ name: 'cut.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(`${log.slice(0, 40)}\n${log.slice(40)}`) });
  await expect(page.getByTestId('status')).toHaveText(/^Could not import cut\.replyscope\.ndjson: capture log line 1: not JSON/);
  await page.close();
});

/** Record which elements under `selector` change (attributes, text, children) until `collect` is called. */
async function watchMutations(page: Page, selector: string): Promise<() => Promise<{ rows: string[]; added: number }>> {
  await page.evaluate((sel) => {
    const w = window as unknown as { mutated: Set<Element>; added: number; mo: MutationObserver };
    w.mutated = new Set();
    w.added = 0;
    w.mo = new MutationObserver((list) => {
      for (const m of list) {
        const el = m.target instanceof Element ? m.target : m.target.parentElement;
        const row = el?.closest('[data-event], [data-block-type]');
        if (row) w.mutated.add(row);
        if (m.type === 'childList') w.added += m.addedNodes.length;
      }
    });
    w.mo.observe(document.querySelector(sel)!, { subtree: true, attributes: true, characterData: true, childList: true });
  }, selector);
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { mutated: Set<Element>; added: number; mo: MutationObserver };
      w.mo.disconnect();
      return {
        rows: [...w.mutated].map((e) => e.getAttribute('data-event') ?? `${e.getAttribute('data-block-type')}#${[...e.parentElement!.children].indexOf(e)}`),
        added: w.added,
      };
    });
}

test('a seek changes two event rows and only the bubble block the event touched', async () => {
  const page = await openViewer();
  await page.getByTestId('import-input').setInputFiles({ name: 's.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(writeCaptureLog(sample)) });
  await page.locator('[data-conn="tab1:1"]').click();
  // Park on the last text delta of the reply (the bubble has several blocks by then), then step once forward.
  const list = page.getByTestId('events');
  await page.getByLabel('Event type').selectOption('TEXT_BLOCK_DELTA');
  const analyzer = new CaptureAnalyzer();
  analyzer.push(sample.records);
  const lastDelta = analyzer.connection('tab1:1')!.events.filter((e) => e.type === 'TEXT_BLOCK_DELTA').at(-1)!.index;
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight)); // the list renders only what is on screen
  await page.locator(`[data-event="${lastDelta}"]`).click();
  await page.getByLabel('Event type').selectOption('');
  const from = Number(await page.locator('.vrow[aria-selected="true"]').getAttribute('data-event'));
  // Scroll the selected row to the top, so the next rows are on screen: stepping then scrolls nothing, adds no row.
  await list.evaluate((el, top) => (el.scrollTop = top), from * 20);
  await expect(page.locator(`.vrow[data-event="${from + 1}"]`)).toBeInViewport();
  await page.locator('[data-testid="bubble"] .bubble-head').click();
  const rowsCollect = await watchMutations(page, '[data-testid="events"]');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.vrow[aria-selected="true"]')).toHaveAttribute('data-event', String(from + 1));
  const rows = await rowsCollect();
  expect(rows.rows.sort()).toEqual([String(from), String(from + 1)].sort());
  expect(rows.added).toBe(0);

  // Back onto the delta: only the text block it appends to changes (and loses / gains the "touched" mark).
  const total = await page.locator('[data-testid="bubble"] .block').count();
  expect(total).toBeGreaterThan(2);
  const bubbleCollect = await watchMutations(page, '[data-testid="bubble"]');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.vrow[aria-selected="true"]')).toHaveAttribute('data-event', String(from));
  const blocks = (await bubbleCollect()).rows;
  const touched = await page.locator('[data-testid="bubble"] .block.touched').getAttribute('data-block-type');
  expect(touched).toBe('text');
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.length).toBeLessThanOrEqual(2); // this step's block, and the one the previous step touched
  expect(blocks.every((b) => b.startsWith('text#') || b.startsWith('tool_call#') || b.startsWith('thinking#'))).toBe(true);
  await page.close();
});

test('live records append rows; rows already shown are left alone', async () => {
  const page = await openViewer();
  const recs = sample.records.filter((r) => (r.kind === 'connection' ? r.id === 'tab1:1' : 'conn' in r && r.conn === 'tab1:1'));
  const half = Math.floor(recs.length / 2);
  const ingest = (part: unknown[]) =>
    page.evaluate((p) => (window as unknown as { replyscopePanel: { store: { ingest(r: unknown[]): void } } }).replyscopePanel.store.ingest(p), part);
  await ingest(recs.slice(0, half));
  await page.locator('[data-conn="tab1:1"]').click();
  await page.locator('[data-testid="events"] [data-event]').first().click(); // stop following: selection stays put
  const inner = page.locator('[data-testid="events"] .vlist-inner');
  const height = async () => Number(/height:\s*([\d.]+)px/.exec((await inner.getAttribute('style')) ?? '')?.[1]);
  const before = await height();
  const collect = await watchMutations(page, '[data-testid="events"] .vlist-inner');
  await ingest(recs.slice(half));
  await expect.poll(height).toBeGreaterThan(before); // more rows (below the fold)
  const { rows } = await collect();
  expect(rows).toEqual([]); // no existing row re-rendered its attributes or text
  await page.close();
});

test('? shows the keyboard shortcuts; Escape closes them; Space plays and pauses', async () => {
  const page = await openViewer();
  await page.getByTestId('import-input').setInputFiles({ name: 's.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(writeCaptureLog(sample)) });
  await page.locator('[data-conn="tab1:1"]').click();
  await page.locator('[data-testid="bubble"] .bubble-head').click();
  await page.keyboard.press('?');
  const help = page.getByTestId('keyboard-help');
  await expect(help).toBeVisible();
  for (const key of ['←', 'Shift+→', 'Home', 'End', '[', ']', 'Space', '↑', '↓']) await expect(help.locator('kbd', { hasText: key }).first()).toBeVisible();
  // Keys do not reach the scrubber while the help is open.
  const pos = await page.getByTestId('step-pos').textContent();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('step-pos')).toHaveText(pos!);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(help).toBeVisible();
  await page.keyboard.press('?');
  await expect(help).toHaveCount(0);

  await page.keyboard.press('Home');
  await expect(page.getByTestId('step-pos')).toHaveText(/^step 1 \//);
  await page.getByLabel('Playback speed').selectOption('4');
  await page.locator('[data-testid="bubble"] .bubble-head').click();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('scrubber').getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect(page.getByTestId('step-pos')).not.toHaveText(/^step 1 \//); // playing moves on by itself
  await page.keyboard.press(' ');
  await expect(page.getByTestId('scrubber').getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await page.close();
});

/** An SSE body of `n` short AgentScope replies (ids `r0`…), each one text block of two deltas. */
function manyReplies(n: number): string {
  let i = 0;
  const ev = (reply: number, type: string, extra: string) =>
    `data: {"type":"${type}","reply_id":"r${reply}","id":"e${i++}","created_at":"2026-03-01T09:00:00"${extra}}\n\n`;
  const out: string[] = [];
  for (let r = 0; r < n; r++) {
    out.push(ev(r, 'REPLY_START', ',"session_id":"s","name":"Agent"'), ev(r, 'TEXT_BLOCK_START', `,"block_id":"b${r}"`));
    out.push(ev(r, 'TEXT_BLOCK_DELTA', `,"block_id":"b${r}","delta":"reply "`), ev(r, 'TEXT_BLOCK_DELTA', `,"block_id":"b${r}","delta":"${r}"`));
    out.push(ev(r, 'TEXT_BLOCK_END', `,"block_id":"b${r}"`), ev(r, 'REPLY_END', ',"session_id":"s","finished_reason":"completed","error":null'));
  }
  return out.join('');
}

test('the reply list renders only the rows in view: 5,000 replies, scrolled to the middle, zebra stripes kept', async () => {
  const page = await openViewer();
  const N = 5000;
  await page.getByTestId('import-input').setInputFiles({ name: 'many.sse', mimeType: 'text/event-stream', buffer: Buffer.from(manyReplies(N)) });
  await expect(page.getByTestId('status')).toContainText('Imported many.sse: 1 connection', { timeout: 60_000 });
  await page.locator('[data-conn]').first().click();
  const rows = page.getByTestId('replies').locator('[data-reply]');
  await expect(rows.first()).toHaveAttribute('data-reply', 'r0');
  expect(await rows.count()).toBeLessThan(100);
  const ids = async () => rows.evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.reply!.slice(1))));
  const bg = (id: number) => page.locator(`[data-reply="r${id}"] td`).first().evaluate((td) => getComputedStyle(td).backgroundColor);
  // The stripes as the whole table has them (no rows above r2 and r3 are left out at the top).
  const [plain, striped] = [await bg(2), await bg(3)];
  expect(plain).not.toBe(striped);

  // The list is as tall as all its rows: scrolling to row 2,501 brings rows around it (20 px each below the header).
  for (const target of [2501, 2502]) {
    await page.getByTestId('replies').evaluate((el, y) => { el.scrollTop = y; }, target * 20);
    await expect.poll(async () => (await ids()).includes(target)).toBe(true);
    const shown = await ids();
    expect(shown).toEqual(Array.from({ length: shown.length }, (_, k) => shown[0] + k)); // consecutive
    expect(shown.length).toBeLessThan(100);
    // Stripes follow the row's index, not its place among the rendered rows (odd indices are striped).
    for (const id of [target, target + 1, target + 2]) expect(await bg(id)).toBe(id % 2 ? striped : plain);
  }

  // A row down there selects its reply like any other.
  await page.locator('[data-reply="r2503"]').click();
  await expect(page.locator('[data-reply="r2503"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.bubble')).toContainText('reply 2503');
  await page.close();
});

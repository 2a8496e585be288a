// A large export does not hold the page: the file is written in slices, the dialog shows how far it has come between
// them, and Cancel stops it with nothing saved. Asserted structurally (no timings): the progress text is sampled on
// every animation frame, so each distinct value seen is a frame the page rendered while the export was under way.
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { useViewer } from './support/viewer.ts';

const viewer = useViewer('viewer-export');

/** Chunks of the generated stream; each ~560 bytes of SSE (some of it multi-byte): ~112 MB in all. */
const CHUNKS = 200_000;

/** A capture of one AgentScope reply streamed in `chunks` chunks, made in the page and handed to its store. */
async function loadLargeCapture(page: Page, chunks: number): Promise<number> {
  return page.evaluate(async (n) => {
    const t0 = Date.UTC(2026, 2, 1, 9);
    const ev = (type: string, extra: string) => `data: {"type":"${type}","reply_id":"r1","created_at":"2026-03-01T09:00:00"${extra}}\n\n`;
    const words = 'stream token déjà vu 数据 流式 🙂 reply model agent '.repeat(12);
    const records: unknown[] = [{
      kind: 'connection', id: 'big:1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'POST', url: 'https://api.example/stream',
      requestHeaders: [['accept', 'text/event-stream']], status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']],
      startTime: t0, responseTime: t0 + 5,
    }];
    const enc = new TextEncoder();
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const text = i === 0
        ? ev('REPLY_START', ',"session_id":"s","name":"Big"') + ev('TEXT_BLOCK_START', ',"block_id":"t"')
        : ev('TEXT_BLOCK_DELTA', `,"block_id":"t","delta":"${i} ${words}"`);
      const size = enc.encode(text).length;
      bytes += size;
      records.push({ kind: 'chunk', conn: 'big:1', t: t0 + 10 + i, bytes: size, text });
    }
    records.push({ kind: 'end', conn: 'big:1', t: t0 + 10 + n, state: 'complete' });
    const { store } = (window as unknown as { replyscopePanel: { store: { ingest(r: unknown[]): void; whenIdle(): Promise<void> } } }).replyscopePanel;
    store.ingest(records);
    await store.whenIdle();
    return bytes;
  }, chunks);
}

/** From now on, the export dialog's status text as it was at each animation frame, and the Blob URLs made. */
async function watchExport(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { seen: string[]; urls: number };
    w.seen = [];
    w.urls = 0;
    const create = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (obj: Blob | MediaSource) => {
      w.urls++;
      return create(obj);
    };
    const tick = () => {
      const text = document.querySelector('[data-testid="export-busy"]')?.textContent ?? '';
      if (text !== '' && text !== w.seen.at(-1)) w.seen.push(text);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: string[] }).seen);

/**
 * The save-file picker answered as a user choosing a file would: with a file of the origin's private file system (a
 * real file on disk, written through the browser's own FileSystemWritableFileStream). Playwright intercepts the real
 * picker (it rejects with AbortError).
 */
async function chooseFilesInOriginStorage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async ({ suggestedName }: { suggestedName: string }) => {
      const dir = await navigator.storage.getDirectory();
      (window as unknown as { chosen: string }).chosen = suggestedName;
      return dir.getFileHandle(suggestedName, { create: true });
    };
  });
}

/** The file the export was written to: its size, first and last characters. */
function chosenFile(page: Page): Promise<{ name: string; size: number; head: string; tail: string }> {
  return page.evaluate(async () => {
    const name = (window as unknown as { chosen: string }).chosen;
    const file = await (await (await navigator.storage.getDirectory()).getFileHandle(name)).getFile();
    return { name, size: file.size, head: await file.slice(0, 40).text(), tail: await file.slice(Math.max(0, file.size - 40)).text() };
  });
}

test('a capture of ~110 MB exports as a capture log while the page keeps rendering, the dialog showing how far it has come', async () => {
  test.setTimeout(180_000);
  const page = await viewer.open();
  const bytes = await loadLargeCapture(page, CHUNKS);
  expect(bytes).toBeGreaterThan(100e6);
  await watchExport(page);
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await download;
  await expect(dialog).toHaveCount(0);
  // Several different progress texts, each one on screen at a frame: the page painted between the slices. (Made at
  // once, the dialog was not painted again until the file was saved.)
  const texts = (await seen(page)).filter((t) => /^Writing the capture log… \d+%/.test(t));
  expect(texts.length).toBeGreaterThan(3);
  const percents = texts.map((t) => Number(/(\d+)%/.exec(t)![1]));
  expect(percents).toEqual([...percents].sort((a, b) => a - b));
  // The file is the whole capture: its header, every record, the end.
  const saved = await readFile((await file.path())!, 'utf8');
  const lines = saved.trimEnd().split('\n');
  expect(lines).toHaveLength(CHUNKS + 3);
  expect(JSON.parse(lines[0])).toMatchObject({ kind: 'header', format: 'replyscope-capture' });
  expect(JSON.parse(lines.at(-1)!)).toMatchObject({ kind: 'end', conn: 'big:1', state: 'complete' });
  await page.close();
});

/** The viewer with the large capture loaded, exports watched and saved into origin storage, the dialog open on HAR. */
async function harExportOfLargeCapture(): Promise<{ page: Page; dialog: Locator; downloads: () => number }> {
  const page = await viewer.open();
  await loadLargeCapture(page, CHUNKS);
  await watchExport(page);
  await chooseFilesInOriginStorage(page);
  let count = 0;
  page.on('download', () => count++);
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export' });
  await dialog.getByLabel('HAR 1.2').check();
  return { page, dialog, downloads: () => count };
}

test('Cancel stops a HAR export mid-way: nothing is saved, the dialog says so and can export again', async () => {
  test.setTimeout(180_000);
  const { page, dialog, downloads } = await harExportOfLargeCapture();
  // Cancel is pressed as soon as the dialog shows the HAR's writing under way — from the page, at that moment: a
  // click from the test could come after the last slice on a fast machine, and the test would not know which.
  await page.evaluate(() => {
    const w = window as unknown as { cancelledAt: string };
    const status = document.querySelector('[data-testid="export-busy"]')!;
    const observer = new MutationObserver(() => {
      if (!/^Writing the HAR… \d+% · /.test(status.textContent ?? '')) return;
      observer.disconnect();
      w.cancelledAt = status.textContent ?? '';
      document.querySelector<HTMLButtonElement>('[data-testid="export-cancel"]')!.click();
    });
    observer.observe(status, { subtree: true, childList: true, characterData: true });
  });
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  const status = dialog.getByRole('status');
  await expect(status).toHaveText('Export cancelled — nothing was saved.', { timeout: 60_000 });
  const cancelledAt = await page.evaluate(() => (window as unknown as { cancelledAt: string }).cancelledAt);
  expect(cancelledAt).toMatch(/^Writing the HAR… \d+% · [\d.]+ [kM]B$/);
  expect(Number(/(\d+)%/.exec(cancelledAt)![1])).toBeLessThan(100);
  // Cancelled before its end: no file was made, none offered for download; the file chosen was left as it was (empty).
  expect(await page.evaluate(() => (window as unknown as { urls: number }).urls)).toBe(0);
  expect(downloads()).toBe(0);
  expect(await chosenFile(page)).toMatchObject({ size: 0 });
  await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  // The dialog is as before the export: its choices enabled, and Export makes a file.
  await expect(dialog.getByLabel('Capture log (.replyscope.ndjson)')).toBeEnabled();
  await dialog.getByLabel('Capture log (.replyscope.ndjson)').check();
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  expect((await download).suggestedFilename()).toMatch(/\.replyscope\.ndjson$/);
  expect(downloads()).toBe(1);
  await page.close();
});

test('a HAR larger than the browser keeps as a download (~570 MB) is written straight to the file chosen, as it is made', async () => {
  test.setTimeout(300_000);
  const { page, dialog, downloads } = await harExportOfLargeCapture();
  // Said before: the file is large, and where it will go.
  await expect(dialog.getByTestId('export-large')).toHaveText(/^A large file \(about \d+ MB\): Export asks where to save it and writes it there as it is made\.$/);
  await dialog.getByRole('button', { name: 'Export', exact: true }).click();
  await expect(dialog).toHaveCount(0, { timeout: 240_000 });
  const file = await chosenFile(page);
  expect(file.name).toMatch(/^replyscope-.*\.har$/);
  expect(file.size).toBeGreaterThan(520e6); // more than the Blob of a download could hold here (~500 MB)
  expect(file.head).toMatch(/^\{\n {2}"log": \{\n {4}"version": "1\.2"/);
  expect(file.tail).toMatch(/\n {4}\}\n {2}\}\n\}$/);
  expect(downloads()).toBe(0);
  const last = (await seen(page)).filter((t) => /^Writing the HAR…/.test(t)).at(-1);
  expect(last).toMatch(/ · \d+ MB$/);
  await page.close();
});

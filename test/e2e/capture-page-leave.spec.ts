// A page that leaves while it streams: what it read up to the moment it left is in the capture. The tap hands its
// records to the relay in batches; the batch still waiting when the document unloads used to be lost with it (a
// message posted then is never delivered), so the connection ended a few reads short. Now the tap hands that batch
// over synchronously as the page goes (src/extension/tap/handshake.ts, emitter.ts).
import { expect, test } from '@playwright/test';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';

let ext: ExtensionBrowser;
let server: TestServer;
let streaming = true;

// Reads the stream, counting what it read in sessionStorage after every read (synchronously: the count survives the
// navigation), and leaves right after a read once it has read `leaveAt` bytes — the read's records are then still in
// the tap's batch.
const APP = `<!doctype html><title>app</title><script>
window.run = async (leaveAt) => {
  const r = await fetch('/stream');
  const rd = r.body.getReader();
  let n = 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) return;
    n += value.length;
    sessionStorage.setItem('read', String(n));
    if (n >= leaveAt) { location.href = '/next'; return; }
  }
};
</script>`;

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(async (req, res) => {
    if (req.url === '/app' || req.url === '/next') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.url === '/app' ? APP : '<!doctype html><title>next</title>');
      return;
    }
    if (req.url === '/big') {
      // 1 MB of events in one go: a page that waits before reading gets reads past the tap's batch size.
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.end(`data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x'.repeat(1 << 20) })}\n\n`);
      return;
    }
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      for (let i = 0; streaming && !res.destroyed; i++) {
        // One frame a write, small and frequent, as a model streams tokens.
        await writeAndWait(res, `data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: `token ${i} ` })}\n\n`);
        await new Promise((r) => setTimeout(r, 2)); // a token every few milliseconds
      }
      res.end();
      return;
    }
    res.writeHead(404).end();
  });
});

test.afterAll(async () => {
  streaming = false;
  await server?.close();
  await ext?.close();
});

for (const leaveAt of [1, 3000]) {
  test(`a page that leaves mid-stream ${leaveAt === 1 ? 'right after its first read' : 'after some reads'}: the capture holds every byte it read`, async () => {
    const app = await ext.context.newPage();
    await app.goto(`${server.url}/app`);
    const panel = await ext.panelPage(await ext.tabIdFor(app));
    await expect(panel.getByTestId('status')).toContainText('Capturing');
    await panel.getByRole('checkbox', { name: 'Preserve log' }).check();
    await app.evaluate((n) => void (window as unknown as { run: (n: number) => Promise<void> }).run(n), leaveAt);
    await expect(app).toHaveTitle('next');
    const read = Number(await app.evaluate(() => sessionStorage.getItem('read')));
    expect(read).toBeGreaterThanOrEqual(leaveAt);
    // The page left: its connection ends (the document went away), holding what the page read — not a few reads short.
    // Unless a batch the tap had already posted was still on its way when the page went (its port's messages are
    // dropped with the document; a loaded machine gets there): then the capture says so, never a silent gap
    // (relay/tap-intake.ts). Seen in 1 run of 6 under load, the connection record itself in the batch lost.
    const row = panel.locator('[data-conn]').first();
    const saidLost = panel.getByText(/The page left while (a batch|\d+ batches) of records was on its way/);
    await expect(row.filter({ hasText: /aborted|error/ }).or(saidLost).first()).toBeVisible(); // the browser errors the page's read as it goes
    const held = await panel.evaluate(() => {
      const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; bytes?: number }[] } } } }).replyscopePanel;
      return store.capture().records.reduce((n, r) => n + (r.kind === 'chunk' ? r.bytes ?? 0 : 0), 0);
    });
    if (held !== read) {
      expect(held).toBeLessThan(read);
      await expect(saidLost).toBeVisible();
    }
    await panel.close();
    await app.close();
  });
}

test('streams open when the page reloads end as the page leaving, not as failed connections (Preserve log keeps them)', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const panel = await ext.panelPage(await ext.tabIdFor(app));
  await expect(panel.getByTestId('status')).toContainText('Capturing');
  await panel.getByRole('checkbox', { name: 'Preserve log' }).check();
  // A chat page's two ways to hold a stream open: a fetch it reads to the end, and an EventSource.
  await app.evaluate(() => {
    void fetch('/stream').then(async (r) => {
      const reader = (r.body as ReadableStream<Uint8Array>).getReader();
      while (!(await reader.read()).done);
    });
    new EventSource('/stream').onmessage = () => {};
  });
  const rows = panel.locator('[data-conn]');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).toContainText('live');
  await app.reload(); // the browser stops the page's loads as the new page commits
  await expect(panel.getByText('Navigated to')).toBeVisible();
  const ends = () => panel.evaluate(() => {
    const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; state?: string; error?: string }[] } } } }).replyscopePanel;
    return store.capture().records.filter((r) => r.kind === 'end').map((r) => ({ state: r.state, error: r.error }));
  });
  await expect.poll(async () => (await ends()).length).toBe(2);
  // Was: the fetch "error — TypeError: network error" (stream.network-error, "The connection failed"), the EventSource
  // "EventSource failed: … an answer other than 200 text/event-stream …" — for streams that were fine.
  for (const end of await ends()) {
    expect(end.state).toBe('aborted');
    expect(end.error).toMatch(/^the page left while it streamed/);
  }
  for (const row of await rows.all()) await expect(row).toContainText('aborted');
  await rows.first().click();
  await panel.getByRole('tab', { name: /Diagnostics/ }).click();
  await panel.getByRole('checkbox', { name: 'All connections' }).check();
  const diagnostics = panel.getByTestId('diagnostics');
  await expect(diagnostics.getByText('stream.aborted')).toBeVisible();
  await expect(diagnostics).toContainText('the stream ended with its page: the page left while it streamed');
  await expect(diagnostics.getByText('stream.network-error')).toHaveCount(0);
  await panel.screenshot({ path: test.info().outputPath('reloaded-streams.png') });
  await panel.close();
  await app.close();
});

test('a page script that dispatches a pagehide of its own does not make the capture drop what is on its way', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const panel = await ext.panelPage(await ext.tabIdFor(app));
  await expect(panel.getByTestId('status')).toContainText('Capturing');
  const read = await app.evaluate(async () => {
    const r = await fetch('/big');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the body piles up: reads past the tap's batch size
    const reader = (r.body as ReadableStream<Uint8Array>).getReader();
    let n = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return n;
      n += value.length;
      // A read past the batch size went out on the tap's port in this task. Now a record waits in the tap's next
      // batch (its note of a socket opened) and the page fakes leaving: a hand-off then would overtake that batch.
      new WebSocket(`ws://127.0.0.1:9/socket-${n}`);
      window.dispatchEvent(new Event('pagehide'));
    }
  });
  await expect(panel.locator('[data-conn]').first()).toContainText('complete');
  const capture = await panel.evaluate(() => {
    const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; bytes?: number; text?: string }[] } } } }).replyscopePanel;
    const records = store.capture().records;
    return { held: records.reduce((n, r) => n + (r.kind === 'chunk' ? r.bytes ?? 0 : 0), 0), notes: records.flatMap((r) => (r.kind === 'notice' ? [r.text ?? ''] : [])) };
  });
  expect(capture.held).toBe(read);
  expect(capture.notes.filter((t) => /page left/.test(t))).toEqual([]);
  await panel.close();
  await app.close();
});

test('a frame written with document.open() that goes away mid-stream: the capture holds every byte it read', async () => {
  // A chat widget's way: an about:blank iframe filled with document.open/write. open() erases every listener of the
  // document and its window — the tap's pagehide one with them — so the frame's last batch was lost as it went.
  const { page, tabId } = await ext.openWatchedPage(`${server.url}/next`);
  const read = await page.evaluate(async () => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const w = frame.contentWindow as Window & typeof globalThis;
    w.document.open();
    w.document.write('<!doctype html><title>widget</title><body>widget</body>');
    w.document.close();
    const reader = ((await w.fetch('/stream')).body as ReadableStream<Uint8Array>).getReader();
    let n = 0;
    while (n < 3000) n += ((await reader.read()).value as Uint8Array).length;
    frame.remove(); // right after a read: its records are still in the tap's batch
    return n;
  });
  // The frame went away: its stream ends (aborted with it), holding what the frame read. Unless a batch the tap had
  // posted was still on its way as the frame went (dropped with its document, as a page's that leaves): then the capture
  // says so, never a silent gap. (Failing in loaded CI runs with no record at all was another loss: the frame went
  // before the background answered its relay's hello — see the test at the end of this file.)
  const lostNotice = (records: CaptureRecord[]) => records.some((r) => r.kind === 'notice' && /^The page left while (a batch|\d+ batches) of records was on its way/.test(r.text));
  await expect.poll(async () => {
    const records = await ext.records(tabId);
    return records.some((r) => r.kind === 'end') || lostNotice(records);
  }).toBe(true);
  const records = await ext.records(tabId);
  const held = records.reduce((n, r) => n + (r.kind === 'chunk' ? r.bytes : 0), 0);
  if (held !== read) {
    expect(held).toBeLessThan(read);
    expect(lostNotice(records)).toBe(true);
  }
  await page.close();
});

test('a frame that goes away as its first stream begins, before the background answered its hello: the panel gets its capture', async () => {
  // A document's relay is silent until it captures something; then it says hello and the background answers (attach)
  // if a panel watches. A frame gone before that answer came back took its capture with it, unseen: under load, the
  // document.open() test above lost its whole stream so. Here the frame goes in the very task its first record was
  // made (no task between: the answer cannot have come), so the relay learns of the record only on the leave hand-off.
  const { page, tabId } = await ext.openWatchedPage(`${server.url}/next`);
  await page.evaluate(async () => {
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const w = frame.contentWindow as Window & typeof globalThis;
    await w.fetch('/stream'); // the tap noted the connection as this resolved; its batch waits for the timer
    frame.remove();
  });
  await expect.poll(async () => (await ext.records(tabId)).flatMap((r) => (r.kind === 'connection' ? [new URL(r.url).pathname] : []))).toEqual(['/stream']);
  // And it ended as its document went away (told by the background's capture when the frame's port closed).
  expect((await ext.records(tabId)).filter((r) => r.kind === 'end').map((r) => r.state)).toEqual(['aborted']);
  await page.close();
});

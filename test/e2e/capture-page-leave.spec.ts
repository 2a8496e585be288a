// A page that leaves while it streams: what it read up to the moment it left is in the capture. The tap hands its
// records to the relay in batches; the batch still waiting when the document unloads used to be lost with it (a
// message posted then is never delivered), so the connection ended a few reads short. Now the tap hands that batch
// over synchronously as the page goes (src/extension/tap/leave-handoff.ts).
import { expect, test } from '@playwright/test';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';

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
    const row = panel.locator('[data-conn]').first();
    await expect(row).toContainText(/aborted|error/); // the browser errors the page's read as it goes
    const held = await panel.evaluate(() => {
      const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; bytes?: number }[] } } } }).replyscopePanel;
      return store.capture().records.reduce((n, r) => n + (r.kind === 'chunk' ? r.bytes ?? 0 : 0), 0);
    });
    expect(held).toBe(read);
    await panel.close();
    await app.close();
  });
}

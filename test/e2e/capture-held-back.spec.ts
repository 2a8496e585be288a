// A stream held back on its way (stream.held-back), in real Chromium with the built extension: the same reply served
// by a 127.0.0.1 server twice — once event by event as each is made, once as a buffering proxy serves it (everything
// written at once when the reply is done). The events' created_at is stamped by the server as it makes each one, the
// way AgentScope stamps its events; the page reads both alike. Only the buffered one is told, in the core's reading
// of the extension's capture and in the panel's Diagnostics view, at its first event (the one that waited longest).
import { expect, test } from '@playwright/test';
import { CaptureAnalyzer } from '../../panel/core-bridge.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';

let ext: ExtensionBrowser;
let server: TestServer;

const STEP_MS = 120;
const DELTAS = ['The ', 'answer ', 'comes ', 'one ', 'token ', 'at ', 'a ', 'time ', 'here.', ''];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The reply's events, each stamped when made, `STEP_MS` apart (~1.4 s in all); `emit` gets each as it is made. */
async function makeReply(emit: (frame: string) => Promise<unknown>): Promise<void> {
  const types = [
    { type: 'REPLY_START', session_id: 's', name: 'Friday' },
    { type: 'TEXT_BLOCK_START', block_id: 't1' },
    ...DELTAS.filter(Boolean).map((delta) => ({ type: 'TEXT_BLOCK_DELTA', block_id: 't1', delta })),
    { type: 'TEXT_BLOCK_END', block_id: 't1' },
    { type: 'REPLY_END', session_id: 's' },
  ];
  for (const [k, e] of types.entries()) {
    if (k > 0) await sleep(STEP_MS);
    await emit(`data: ${JSON.stringify({ ...e, id: `e${k}`, created_at: new Date().toISOString(), reply_id: 'r1' })}\n\n`);
  }
}

const APP = `<!doctype html><title>chat</title><pre id="out"></pre>
<script>
async function read(path) {
  const res = await fetch(path, { headers: { accept: 'text/event-stream' } });
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  document.getElementById('out').textContent += path + ' ' + text.split('\\n\\n').length + '\\n';
}
</script>`;

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(async (req, res) => {
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(APP);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    if (req.url === '/streamed') {
      await makeReply((frame) => writeAndWait(res, frame));
    } else {
      // A buffering proxy: nothing reaches the page until the upstream reply is done, then all of it in one write.
      const held: string[] = [];
      await makeReply(async (frame) => held.push(frame));
      await writeAndWait(res, held.join(''));
    }
    res.end();
  });
});
test.afterAll(async () => {
  await server?.close();
  await ext?.close();
});

test('a stream a proxy buffered is told as held back; the same reply streamed is not', async () => {
  const { page: app, tabId } = await ext.openWatchedPage(`${server.url}/app`);
  const panel = await ext.panelPage(tabId);
  await app.evaluate(() => (window as unknown as { read(p: string): Promise<void> }).read('/streamed'));
  await app.evaluate(() => (window as unknown as { read(p: string): Promise<void> }).read('/buffered'));

  await expect.poll(async () => (await ext.records(tabId)).filter((r) => r.kind === 'end').length).toBe(2);
  const analyzer = new CaptureAnalyzer();
  analyzer.push(await ext.records(tabId));
  const [streamed, buffered] = analyzer.connections();
  expect(streamed.record.url).toMatch(/\/streamed$/);
  expect(streamed.diagnostics.map((d) => d.code)).toEqual([]);
  const held = buffered.diagnostics.filter((d) => d.code === 'stream.held-back');
  expect(held).toHaveLength(1);
  expect(held[0]).toMatchObject({ severity: 'warning', index: 0 });
  // The first event waited for the whole reply to be made: ~1.4 s more than the last (a second or more, at least).
  const waited = Number(/reached the page ([\d.]+) s later/.exec(held[0].message)?.[1]);
  expect(waited).toBeGreaterThanOrEqual(1);

  // The panel: the buffered connection's Diagnostics view names it; the streamed one's has no finding.
  await panel.locator('[data-conn]', { hasText: '/buffered' }).click();
  await panel.getByRole('tab', { name: 'Diagnostics' }).click();
  await expect(panel.locator('[data-testid="diagnostics"] [data-code="stream.held-back"]')).toHaveCount(1);
  await expect(panel.getByTestId('diagnostics')).toContainText('The stream was held back on its way');
  // The fix it names is set as code (the catalogue's `backticks`), not shown with its backticks.
  await expect(panel.getByTestId('diagnostics').locator('code', { hasText: 'X-Accel-Buffering: no' })).toHaveCount(1);
  await expect(panel.getByTestId('diagnostics')).not.toContainText('`');
  await panel.screenshot({ path: test.info().outputPath('held-back.png') });
  await panel.locator('[data-conn]', { hasText: '/streamed' }).click();
  await expect(panel.locator('[data-testid="diagnostics"] [data-code="stream.held-back"]')).toHaveCount(0);
  await panel.close();
  await app.close();
});

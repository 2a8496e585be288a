// A chat page posts its whole conversation with every turn. Under a small capture cap those request bodies used to
// outweigh the streams: every new chunk evicted all data and the capture kept only connection records. Now the old
// bodies go first (src/extension/retirement.ts): a panel opened after the session, and one watching all along, show
// the newest turns' replies, and an old turn says its body was not kept, and why.
import { expect, test, type Page } from '@playwright/test';
import { launchWithExtension, setCaptureLimit, type ExtensionBrowser } from './support/extension.ts';
import { startServer, type TestServer } from './support/server.ts';
import { COMPACT_FACTOR } from '../../src/extension/panel-compaction.ts';

let ext: ExtensionBrowser;
let server: TestServer;

const LIMIT = 1024 * 1024; // the smallest cap the settings accept
const TURNS = 40;
const GROWTH = 60_000; // characters the conversation grows by each turn: ~49 MB posted in all

// Each turn posts the conversation so far and reads the reply the way the AgentScope web UI does.
const APP = `<!doctype html><title>chat</title><script>
let history = '';
async function turn(i) {
  history += 'x'.repeat(${GROWTH});
  const r = await fetch('/chat?turn=' + i, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ history }) });
  await r.text();
}
window.chat = async () => { for (let i = 0; i < ${TURNS}; i++) await turn(i); document.title = 'done'; };
</script>`;

function replyFrames(turn: number): string {
  const id = `r${turn}`;
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  return [
    ev({ type: 'REPLY_START', reply_id: id, session_id: 's', name: 'Friday' }),
    ev({ type: 'TEXT_BLOCK_START', reply_id: id, block_id: `${id}-t` }),
    ...Array.from({ length: 20 }, (_, k) => ev({ type: 'TEXT_BLOCK_DELTA', reply_id: id, block_id: `${id}-t`, delta: `turn ${turn} part ${k}. ` })),
    ev({ type: 'TEXT_BLOCK_END', reply_id: id, block_id: `${id}-t` }),
    ev({ type: 'REPLY_END', reply_id: id, session_id: 's' }),
  ].join('');
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  await setCaptureLimit(ext, LIMIT);
  server = await startServer(async (req, res) => {
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(APP);
      return;
    }
    const turn = /^\/chat\?turn=(\d+)$/.exec(req.url ?? '');
    if (turn && req.method === 'POST') {
      for await (const _ of req); // the posted conversation
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }).end(replyFrames(Number(turn[1])));
      return;
    }
    res.writeHead(404).end();
  });
});

test.afterAll(async () => {
  await server?.close();
  await ext?.close();
});

async function checkTurn(panel: Page, turn: number): Promise<void> {
  await panel.locator('[data-conn]', { hasText: `turn=${turn}` }).first().click();
  await panel.keyboard.press('End');
  await expect(panel.getByTestId('bubble')).toContainText(`turn ${turn} part 19.`);
}

for (const when of ['after the session', 'watching all along'] as const) {
  test(`a chat posting its conversation each turn keeps its newest replies under the cap (panel ${when})`, async () => {
    const app = await ext.context.newPage();
    await app.goto(`${server.url}/app`);
    const tabId = await ext.tabIdFor(app);
    const live = when === 'watching all along' ? await ext.panelPage(tabId) : undefined;
    await app.evaluate(() => void (window as unknown as { chat: () => Promise<void> }).chat());
    await expect(app).toHaveTitle('done', { timeout: 60_000 });
    const panel = live ?? (await ext.panelPage(tabId));
    await expect(panel.locator('[data-conn]', { hasText: `turn=${TURNS - 1}` })).toContainText('complete');
    if (live) {
      // Watching all along, the panel was handed the bounded capture anew as the bodies piled up (panel-compaction.ts
      // counts them): it holds a few times the cap, not the ~49 MB the page posted.
      const held = await panel.evaluate(() => {
        const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; bytes?: number; requestBody?: { text?: string } }[] } } } }).replyscopePanel;
        return store.capture().records.reduce((n, r) => n + (r.kind === 'chunk' ? r.bytes ?? 0 : 0) + (r.requestBody?.text?.length ?? 0), 0);
      });
      expect(held).toBeLessThanOrEqual(2 * COMPACT_FACTOR * LIMIT + GROWTH * TURNS);
    }
    // The newest turns' replies are whole, not only the last one's.
    for (const turn of [TURNS - 1, TURNS - 3, TURNS - 5]) await checkTurn(panel, turn);
    // The oldest turn the panel still lists lost its body: the size stays, its details say the content was not kept, and why.
    if (when === 'after the session') {
      await panel.locator('[data-conn]').first().click();
      await expect(panel.getByTestId('connection-details').getByText(/^Request body · [\d.]+ kB \(not kept\)$/i)).toBeVisible();
      await expect(panel.getByTestId('request-body-gone')).toHaveText(/^Let go to keep the capture within its memory cap/);
      await panel.screenshot({ path: test.info().outputPath('request-body-gone.png') });
    }
    await panel.close();
    await app.close();
  });
}

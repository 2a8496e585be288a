// A stream resumed on a new connection, in real Chromium with the built extension: a page reads SSE over fetch with a
// hand-written reader (as @microsoft/fetch-event-source does; the package is not installed here) and, when the server
// cuts the response mid-reply, reconnects with the last id it dispatched as Last-Event-ID; the server resumes after it.
// The capture holds two connections; the panel shows the second as the continuation of the first — the reply whole,
// the scrubber from where the page stood, no orphan — and the core reads the extension's capture the same way.
// A second page sends the id in the URL's query instead (`?lastEventId=`, as event-source-polyfill does), an id the
// server sent on a frame without data (`id: c4` and a blank line): the spec's reader takes it as its last event ID.
import { expect, test, type Page } from '@playwright/test';
import { CaptureAnalyzer } from '../../panel/core-bridge.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { deferred, startServer, writeAndWait, type TestServer } from './support/server.ts';

let ext: ExtensionBrowser;
let server: TestServer;
/** The Last-Event-ID of each /stream request, in order (undefined: none sent). */
const sent: (string | undefined)[] = [];
/** The first response breaks off when the test resolves this (once the page shows what it got). */
const cut = deferred();

const REPLY = 'reply-resumed';
const DELTAS = ['The answer ', 'comes in ', 'two halves: ', 'this one ', 'after the cut.'];
// Made 1 ms apart (made seconds apart and served in a moment, they would be a held-back stream: stream.held-back).
const EVENTS = [
  { type: 'REPLY_START', session_id: 's', name: 'Friday', role: 'assistant' },
  { type: 'TEXT_BLOCK_START', block_id: 't1' },
  ...DELTAS.map((delta) => ({ type: 'TEXT_BLOCK_DELTA', block_id: 't1', delta })),
  { type: 'TEXT_BLOCK_END', block_id: 't1' },
  { type: 'REPLY_END', session_id: 's' },
].map((e, k) => ({ ...e, id: `evt-${k}`, reply_id: REPLY, created_at: `2026-03-01T09:00:00.${String(k).padStart(3, '0')}000` }));
const frame = (k: number) => `id: e${k}\ndata: ${JSON.stringify(EVENTS[k])}\n\n`;
/** The first response sends events 0–3 whole, then frame 4 without its blank line, and breaks off. */
const CUT = 4;

// The page's client: one fetch after another, each resuming from the last id it dispatched (an SSE reader that
// dispatches a frame at its blank line, as the spec's EventSource does); the text the user sees in #out.
const APP = `<!doctype html><title>chat</title><button id="go" onclick="run()">go</button><pre id="out"></pre>
<script>
async function run() {
  let lastId = '', ended = false, text = '';
  for (let attempt = 0; attempt < 5 && !ended; attempt++) {
    const headers = { accept: 'text/event-stream' };
    if (lastId) headers['Last-Event-ID'] = lastId;
    try {
      const res = await fetch('/stream', { headers });
      const reader = res.body.getReader();
      const dec = new TextDecoder();
      let buf = '', id, data = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        for (let nl = buf.indexOf('\\n'); nl !== -1; nl = buf.indexOf('\\n')) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line === '') {
            if (data.length) {
              const ev = JSON.parse(data.join('\\n'));
              if (ev.type === 'TEXT_BLOCK_DELTA') text += ev.delta;
              if (ev.type === 'REPLY_END') ended = true;
              if (id !== undefined) lastId = id;
              document.getElementById('out').textContent = text;
            }
            id = undefined;
            data = [];
          } else if (line.startsWith('data: ')) data.push(line.slice(6));
          else if (line.startsWith('id: ')) id = line.slice(4);
        }
      }
    } catch (e) {
      // The server cut the response: reconnect with the last id dispatched.
    }
  }
  document.title = ended ? 'done' : 'gave up';
}
</script>`;

// The query page: the same reader, but it takes the id of every frame it dispatches, one without data too (the spec's
// EventSource does), and resumes with it in the query — no header.
const APP_Q = APP.replace("const headers = { accept: 'text/event-stream' };\n    if (lastId) headers['Last-Event-ID'] = lastId;",
  "const headers = { accept: 'text/event-stream' };")
  .replace("await fetch('/stream', { headers })", "await fetch('/q/stream' + (lastId ? '?lastEventId=' + encodeURIComponent(lastId) : ''), { headers })")
  .replace("if (id !== undefined) lastId = id;\n              document", "document")
  .replace("            id = undefined;", "            if (id !== undefined) lastId = id;\n            id = undefined;");
/** The query page's stream: events 0–3 without ids, then the server's mark of how far it got, a frame without data. */
const CHECKPOINT = 'c4';
const sentQ: (string | null)[] = [];
const cutQ = deferred();
const plain = (k: number) => `data: ${JSON.stringify(EVENTS[k])}\n\n`;

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(async (req, res) => {
    if (req.url === '/q/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(APP_Q);
      return;
    }
    if (req.url?.startsWith('/q/stream')) {
      const lastId = new URL(req.url, 'http://x').searchParams.get('lastEventId');
      sentQ.push(req.headers['last-event-id'] === undefined ? lastId : 'a header was sent');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      if (lastId === null) {
        for (let k = 0; k < CUT; k++) await writeAndWait(res, plain(k));
        await writeAndWait(res, `id: ${CHECKPOINT}\n\n`);
        await writeAndWait(res, plain(CUT).slice(0, -1));
        await cutQ.promise;
        res.socket?.end();
        return;
      }
      for (let k = CUT; k < EVENTS.length; k++) await writeAndWait(res, plain(k));
      res.end();
      return;
    }
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(APP);
      return;
    }
    if (req.url !== '/stream') {
      res.writeHead(404).end();
      return;
    }
    const last = req.headers['last-event-id'];
    const lastId = typeof last === 'string' ? last : undefined;
    sent.push(lastId);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    if (lastId === undefined) {
      for (let k = 0; k < CUT; k++) await writeAndWait(res, frame(k));
      // Mid-reply, inside a frame: its id and data lines arrived, its blank line never does. The socket is closed
      // without the body's last chunk: the page's reader fails (a network error) and the client reconnects.
      await writeAndWait(res, frame(CUT).slice(0, -1));
      await cut.promise;
      res.socket?.end();
      return;
    }
    // Resume after the id the client sent.
    for (let k = Number(lastId.slice(1)) + 1; k < EVENTS.length; k++) await writeAndWait(res, frame(k));
    res.end();
  });
});
test.afterAll(async () => {
  cut.resolve();
  cutQ.resolve();
  await server?.close();
  await ext?.close();
});

const bubbleText = async (panel: Page) =>
  (await panel.getByTestId('bubble').locator('[data-block-type="text"] .block-text').allTextContents()).join('');

test('a fetch reader that reconnects with Last-Event-ID: the panel continues its reply on the new connection', async () => {
  const { page: app, tabId } = await ext.openWatchedPage(`${server.url}/app`);
  const panel = await ext.panelPage(tabId);
  await app.click('#go');
  // The page has dispatched frames 0–3; then the server breaks the response off.
  await expect(app.locator('#out')).toHaveText(DELTAS.slice(0, CUT - 2).join(''));
  cut.resolve();
  await expect(app).toHaveTitle('done');
  // The page resumed from the last frame it dispatched: frame 4 broke off before its blank line.
  expect(sent).toEqual([undefined, `e${CUT - 1}`]);
  const shown = DELTAS.join('');
  await expect(app.locator('#out')).toHaveText(shown);

  // The core, on the extension's own capture of the tab: the second connection continues the first.
  await expect.poll(async () => (await ext.records(tabId)).filter((r) => r.kind === 'end').length).toBe(2);
  const analyzer = new CaptureAnalyzer();
  analyzer.push(await ext.records(tabId));
  const [first, second] = analyzer.connections();
  expect(first.state).toBe('error');
  expect(second.resumes).toMatchObject({ conn: first.record.id, eventId: `e${CUT - 1}`, events: CUT, continuing: [REPLY] });
  const reply = second.replies[0];
  expect(reply.continuesConnection).toBe(first.record.id);
  const final = reply.history.at(reply.history.length - 1) as { content: { text: string }[]; finished_reason: string };
  expect(final.content[0].text).toBe(shown);
  expect(final.finished_reason).toBe('completed');
  expect(second.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['info stream.resumed']);

  // The panel: the list says which connection each is to the other.
  const rows = panel.locator('[data-conn]');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('resumed by #2');
  await expect(rows.nth(1)).toContainText(`resumes #1 from id "e${CUT - 1}"`);
  // Its one diagnostic is the info that says so: no orphan, no unknown block (the Diag cell is neither orange nor red).
  await expect(rows.nth(1).locator('td').nth(5)).toHaveText('1');
  await expect(rows.nth(1).locator('td').nth(5)).toHaveClass(/\bdim\b/);
  await rows.nth(1).click();
  await expect(panel.getByTestId('resumes')).toContainText(`#1 from id "e${CUT - 1}" (Last-Event-ID) — the page had ${CUT} of its events; reply ${REPLY} continues here`);
  // The reply, whole, at its last step.
  const replyRow = panel.locator(`[data-reply="${REPLY}"]`);
  await expect(replyRow).toHaveAttribute('aria-selected', 'true');
  await expect(replyRow.locator('.resume-mark')).toBeVisible();
  await expect.poll(() => bubbleText(panel)).toBe(shown);
  // The scrubber starts from what the page had: step 1 is the first event here applied to the carried message.
  const n = EVENTS.length - CUT;
  await expect(panel.getByTestId('step-pos')).toContainText(`step ${n} / ${n}`);
  await expect(panel.getByTestId('step-continues')).toHaveText(`(continues #1 from id "e${CUT - 1}")`);
  await panel.keyboard.press('Home');
  await expect(panel.getByTestId('step-pos')).toContainText(`step 1 / ${n}`);
  await expect.poll(() => bubbleText(panel)).toBe(DELTAS.slice(0, CUT - 1).join(''));
  await panel.keyboard.press('ArrowRight');
  await expect.poll(() => bubbleText(panel)).toBe(DELTAS.slice(0, CUT).join(''));
  await panel.keyboard.press('End');
  await panel.screenshot({ path: test.info().outputPath('resumed-connection.png') });

  // The timeline: the text block began before this connection (an open left edge), and it draws.
  await panel.locator('[data-tab="timeline"]').click();
  await expect(panel.getByTestId('timeline').locator('[data-continued]').first()).toBeAttached();
  await panel.screenshot({ path: test.info().outputPath('resumed-connection-timeline.png') });
  await panel.locator('[data-tab="events"]').click();

  // "#1" goes to the connection it resumes, which says its reply went on on #2: not a reply the page was left with.
  await rows.nth(1).getByRole('button', { name: 'Show connection #1' }).click();
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByTestId('resumed-by')).toContainText(`#2 from id "e${CUT - 1}", after ${CUT} events`);
  await expect(replyRow.locator('td').nth(1)).toHaveText('on #2');
  await expect(panel.getByTestId('unfinished')).toHaveText(/before the reply finished\. The page's stream went on: #2 resumed it from id "e3" and continues this reply\.$/);
  await panel.screenshot({ path: test.info().outputPath('resumed-by.png') });
  // Its "never ended" findings are info now, naming the connection as the list does.
  await panel.locator('[data-tab="diagnostics"]').click();
  const notEnded = panel.locator('[data-code="as.reply-not-ended"]');
  await expect(notEnded.locator('.badge')).toHaveText('info');
  await expect(notEnded).toContainText(`The page's stream goes on: connection #2 resumed it from id "e${CUT - 1}".`);
  await panel.screenshot({ path: test.info().outputPath('resumed-by-diagnostics.png') });
});

test('a fetch reader that resumes with the id in the query, an id sent without data: the panel links it and says so', async () => {
  expect(APP_Q).toContain("'/q/stream' + (lastId ?");
  expect(APP_Q).not.toContain('Last-Event-ID');
  const { page: app, tabId } = await ext.openWatchedPage(`${server.url}/q/app`);
  const panel = await ext.panelPage(tabId);
  await app.click('#go');
  await expect(app.locator('#out')).toHaveText(DELTAS.slice(0, CUT - 2).join(''));
  cutQ.resolve();
  await expect(app).toHaveTitle('done');
  expect(sentQ).toEqual([null, CHECKPOINT]);
  await expect(app.locator('#out')).toHaveText(DELTAS.join(''));

  await expect.poll(async () => (await ext.records(tabId)).filter((r) => r.kind === 'end').length).toBe(2);
  const analyzer = new CaptureAnalyzer();
  analyzer.push(await ext.records(tabId));
  const [first, second] = analyzer.connections();
  expect(second.record.url).toBe(`${server.url}/q/stream?lastEventId=${CHECKPOINT}`);
  expect(second.resumes).toMatchObject({ conn: first.record.id, eventId: CHECKPOINT, query: 'lastEventId', idOnly: true, frame: CUT, events: CUT, continuing: [REPLY] });
  expect(first.frames.idOnlyFrames()).toMatchObject([{ id: CHECKPOINT, before: CUT }]);
  expect(second.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['info stream.resumed']);
  const reply = second.replies[0];
  expect((reply.history.at(reply.history.length - 1) as { content: { text: string }[] }).content[0].text).toBe(DELTAS.join(''));

  const rows = panel.locator('[data-conn]');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('resumed by #2');
  await expect(rows.nth(1)).toContainText(`resumes #1 from id "${CHECKPOINT}" in the query`);
  await rows.nth(1).click();
  await expect(panel.getByTestId('resumes')).toContainText(`#1 from id "${CHECKPOINT}" (query lastEventId) — the page had ${CUT} of its events; reply ${REPLY} continues here`);
  await expect.poll(() => bubbleText(panel)).toBe(DELTAS.join(''));
  await panel.screenshot({ path: test.info().outputPath('resumed-from-query.png') });
});

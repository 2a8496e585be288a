// Firefox page-leave checks, run by smoke.mjs: a page that navigates away (same origin) right after a read of an SSE
// stream the server keeps open — the way test/e2e/capture-page-leave.spec.ts checks it in Chromium.
//
// The page counts what it read into sessionStorage synchronously after each read (the count survives the navigation)
// and the error its reader's `closed` gives; the next page reports both. With the extension, a panel (a tab,
// ?tabId=N) watches the tab with Preserve log ticked, and after the navigation:
//   - its capture holds every byte the page read before leaving, exactly (the server's bytes, no more than it sent);
//   - the connection ends "aborted", told as the page leaving;
//   - it still lists the old page's connection, under a "Navigated to" row.
// Without the extension (after parity.mjs uninstalled it), the same page: its reader gets the same error as it leaves.
import { createServer } from 'node:http';

const LEAVE_AT = [1, 3000]; // leave right after the first read, and after some reads

const APP = `<!doctype html><meta charset="utf-8"><title>leave</title><script>
window.run = async (id, leaveAt) => {
  sessionStorage.clear();
  const r = await fetch('/l/stream?id=' + id);
  const rd = r.body.getReader();
  rd.closed.then(() => sessionStorage.setItem('closed', 'resolved'), (e) => sessionStorage.setItem('closed', e && e.name ? e.name + ': ' + e.message : String(e)));
  let n = 0;
  for (;;) {
    const { done, value } = await rd.read();
    if (done) return;
    n += value.length;
    sessionStorage.setItem('read', String(n));
    if (n >= leaveAt) { location.href = '/l/next'; return; }
  }
};
</script>`;
const NEXT = '<!doctype html><meta charset="utf-8"><title>next</title>';

/** The server: /l/app, /l/next, /l/stream?id=… (a token a frame every few ms until the page's connection closes). */
async function startServer() {
  const sent = new Map(); // id → the bytes written so far
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/l/app' || url.pathname === '/l/next') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(url.pathname === '/l/app' ? APP : NEXT);
    if (url.pathname !== '/l/stream') return res.writeHead(404).end();
    const id = url.searchParams.get('id');
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    const out = [];
    sent.set(id, out);
    for (let i = 0; !res.destroyed && !res.writableEnded; i++) {
      const frame = Buffer.from(`data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: `token ${i} ` })}\n\n`, 'utf8');
      res.write(frame);
      out.push(frame);
      await new Promise((r) => setTimeout(r, 2)); // a token every few milliseconds, as a model streams them
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    sent: (id) => Buffer.concat(sent.get(id) ?? []),
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Starts the server; `withExtension()` runs the checks (extension installed), `withoutExtension()` the bare runs. */
export async function startPageLeaveChecks(ctx) {
  const { browser, helper, openExtensionPage, check, poll, log, base, screenshot } = ctx;
  const server = await startServer();
  const seen = {}; // run name → what the next page reported

  /** Has the app in `page` read the stream and leave after `leaveAt` bytes; what the next page reports. */
  async function leave(page, id, leaveAt) {
    await page.evaluate((i, n) => void window.run(i, n), id, leaveAt);
    await poll(() => page.evaluate(() => location.pathname === '/l/next' && document.readyState === 'complete'), `the page to leave for /l/next (${id})`);
    const report = await poll(() => page.evaluate(() => (sessionStorage.getItem('closed') ? { ...sessionStorage } : null)), `the next page's report (${id})`).catch(() => page.evaluate(() => ({ ...sessionStorage })));
    return { read: Number(report.read), closed: report.closed ?? null };
  }

  async function withExtension() {
    for (const leaveAt of LEAVE_AT) {
      const id = `with-${leaveAt}`;
      const page = await browser.newPage();
      await page.goto(`${server.origin}/l/app?run=${id}`);
      const tabId = await poll(() => helper.evaluate(async (u) => (await browser.runtime.getBackgroundPage()).replyscopeDebug.tabIdOf(u), `${server.origin}/l/app?run=${id}`), 'the leave tab\'s id');
      const panel = await openExtensionPage(`${base}/panel/index.html?tabId=${tabId}`);
      await panel.setViewport({ width: 1280, height: 800 });
      await poll(() => panel.evaluate(() => /Capturing/.test(document.querySelector('[data-testid="status"]')?.textContent ?? '')), 'the leave panel to be capturing');
      // Preserve log, as a user ticks it (the panel tells the extension, whose status confirms it).
      await panel.evaluate(() => [...document.querySelectorAll('label')].find((l) => /Preserve log/.test(l.textContent)).querySelector('input').click());
      await poll(() => panel.evaluate(() => [...document.querySelectorAll('label')].find((l) => /Preserve log/.test(l.textContent)).querySelector('input').checked), 'Preserve log ticked');

      const report = await leave(page, id, leaveAt);
      seen[id] = report;
      const sent = server.sent(id);
      log(`page left after ${report.read} bytes (server sent ${sent.length}); its reader's closed:`, JSON.stringify(report.closed));
      check(report.read >= leaveAt && report.read <= sent.length, `leave at ${leaveAt}: the page read ${report.read} bytes before leaving, no more than the server sent`, JSON.stringify({ report, sent: sent.length }));

      // The panel's capture (Preserve log kept the old page's document): the connection's bytes and its end.
      const capture = await poll(() => panel.evaluate((i) => {
        const records = replyscopePanel.store.capture().records;
        const conn = records.find((r) => r.kind === 'connection' && r.url.endsWith(`/l/stream?id=${i}`));
        const end = conn && records.find((r) => r.kind === 'end' && r.conn === conn.id);
        if (!end) return null;
        const chunks = records.filter((r) => r.kind === 'chunk' && r.conn === conn.id).map((c) => (c.text !== undefined ? { text: c.text } : { base64: c.base64 }));
        return { chunks, end, notices: records.filter((r) => r.kind === 'notice').map((r) => r.text) };
      }, id), `the old page's connection to end in the panel's capture (${id})`).catch((e) => ({ chunks: [], end: undefined, notices: [e.message] }));
      const bytes = Buffer.concat(capture.chunks.map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64, 'base64'))));
      log('capture end', JSON.stringify(capture.end), 'notices', JSON.stringify(capture.notices));
      check(bytes.length === report.read && bytes.equals(sent.subarray(0, report.read)), `leave at ${leaveAt}: the capture holds every byte the page read (${report.read}), exactly the server's`, JSON.stringify({ captured: bytes.length, read: report.read, notices: capture.notices }));
      check(capture.end?.state === 'aborted' && /^the page left while it streamed/.test(capture.end.error ?? ''), `leave at ${leaveAt}: the connection ends "aborted", the page left while it streamed`, JSON.stringify(capture.end));

      // What the panel shows: the old page's connection, aborted, above the row saying where the tab went.
      const rows = await poll(() => panel.evaluate((i) => {
        const texts = [...document.querySelectorAll('[data-conn]')].map((e) => e.textContent);
        const boundary = [...document.querySelectorAll('.page-boundary-text')].map((e) => e.textContent);
        return texts.some((t) => t.includes(`id=${i}`) && /aborted/.test(t)) && boundary.length ? { texts, boundary } : null;
      }, id), `the old page's connection listed after the navigation (${id})`).catch(async (e) => ({ error: e.message }));
      check(!rows.error && rows.boundary.some((b) => b.includes('/l/next')), `leave at ${leaveAt}: with Preserve log the panel still lists the old page's connection (aborted) after "Navigated to …/l/next"`, JSON.stringify(rows));
      if (leaveAt === LEAVE_AT.at(-1)) await panel.screenshot({ path: screenshot('page-leave') });
      await panel.close();
      await page.close();
    }
  }

  /** The same page without the extension (uninstalled): its reader gets the same error as it leaves. */
  async function withoutExtension() {
    for (const leaveAt of LEAVE_AT) {
      const page = await browser.newPage();
      const id = `without-${leaveAt}`;
      await page.goto(`${server.origin}/l/app?run=${id}`);
      const report = await leave(page, id, leaveAt);
      log(`without the extension: page left after ${report.read} bytes; its reader's closed:`, JSON.stringify(report.closed));
      const w = seen[`with-${leaveAt}`];
      check(report.read >= leaveAt && report.read <= server.sent(id).length && w?.closed === report.closed, `leave at ${leaveAt}: the page's reader gets what it gets without the extension as the page leaves (${JSON.stringify(report.closed)})`, JSON.stringify({ with: w, without: report }));
      await page.close();
    }
  }

  return { withExtension, withoutExtension, close: () => server.close() };
}

// Firefox page-leave checks, run by smoke.mjs: a page that navigates away (same origin) right after it got some of an
// SSE stream the server keeps open — read by fetch, by an EventSource and by a streaming XHR — the way
// test/e2e/capture-page-leave.spec.ts checks it in Chromium. The page and server: page-leave-app.mjs.
//
// Firefox stops the page's loads as the navigation begins, right after `beforeunload`, and runs `pagehide` only once
// the next page answered: a fetch body fails ("TypeError: Error in input stream"), an EventSource turns CLOSED with no
// error event, an XHR gets a `loadend` alone (src/extension/tap/emitter.ts, eventsource-tap.ts, xhr-tap.ts). With the
// extension, a panel (a tab, ?tabId=N) watches the tab with Preserve log ticked, and after the navigation:
//   - its capture holds all the page got before leaving, exactly (the server's bytes, or messages, no more than sent);
//   - the connection ends "aborted", told as the page leaving by the tap (not the watcher's "its document went away");
//   - it still lists the old page's connection, under a "Navigated to" row.
// Without the extension (after parity.mjs uninstalled it), the same page sees the stream end as it did with it.
import { startPageLeaveServer } from './page-leave-app.mjs';

// Each transport leaves right after the first it got, and after some.
const RUNS = [['fetch', 1], ['fetch', 3000], ['eventsource', 1], ['eventsource', 30], ['xhr', 1], ['xhr', 3000]];
const UNIT = { fetch: 'bytes', eventsource: 'messages', xhr: 'bytes' };

/** Starts the server; `withExtension()` runs the checks (extension installed), `withoutExtension()` the bare runs. */
export async function startPageLeaveChecks(ctx) {
  const { browser, helper, openExtensionPage, check, poll, log, base, screenshot } = ctx;
  const server = await startPageLeaveServer();
  const seen = {}; // run name → what the next page reported

  /**
   * Has the app in `page` stream by `transport` and leave after `leaveAt`; what the next page reports, and the id of the
   * run it reports on. Firefox now and then takes the page away before it fails its loads (seen in a CI run with the
   * extension: the page's fetch reader never settled, and the capture's end was the watcher's "its document went
   * away"; and in a run without it, not in the back/forward cache either) — then the scenario, a stream the browser
   * fails as the page begins to leave, did not happen:
   * such a run is tried again in the same tab (a new stream id), at most twice, and the log says so with what `pagehide`
   * said of the back/forward cache.
   */
  async function leave(page, transport, id, leaveAt) {
    for (let attempt = 1; ; attempt++) {
      const run = attempt === 1 ? id : `${id}-again${attempt}`;
      if (attempt > 1) await page.goto(`${server.origin}/l/app?run=${run}`);
      await page.evaluate((t, i, n) => void window.run(t, i, n), transport, run, leaveAt);
      await poll(() => page.evaluate(() => location.pathname === '/l/next' && document.readyState === 'complete'), `the page to leave for /l/next (${run})`);
      // A fetch reader's `closed` settles as the body fails; what an EventSource or XHR fired came before pagehide.
      const settled = (s) => transport !== 'fetch' || s.closed;
      const report = await poll(() => page.evaluate(() => ({ ...sessionStorage })).then((s) => settled(s) && s), `the next page's report (${run})`, 5000).catch(() => page.evaluate(() => ({ ...sessionStorage })));
      // What the page saw of the stream's end: its reader's error (fetch), or the events fired as it left.
      const out = { id: run, read: Number(report.read), saw: transport === 'fetch' ? report.closed ?? null : JSON.parse(report.events ?? 'null') };
      if (settled(report) || attempt === 3) return out;
      log(`${transport}: the page left before its stream ended (its reader never settled; pagehide persisted: ${report.persisted}) — again`);
    }
  }

  /** What the page got, as the server sent it: its first `read` bytes or messages. */
  const sentUpTo = (transport, id, read) => (transport === 'eventsource' ? server.messages(id).slice(0, read) : server.sent(id).subarray(0, read));
  const total = (transport, id) => (transport === 'eventsource' ? server.messages(id).length : server.sent(id).length);

  async function withExtension() {
    for (const [transport, leaveAt] of RUNS) {
      const name = `${transport}, leaving at ${leaveAt} ${UNIT[transport]}`;
      const first = `with-${transport}-${leaveAt}`;
      const page = await browser.newPage();
      await page.goto(`${server.origin}/l/app?run=${first}`);
      const tabId = await poll(() => helper.evaluate(async (u) => (await browser.runtime.getBackgroundPage()).replyscopeDebug.tabIdOf(u), `${server.origin}/l/app?run=${first}`), 'the leave tab\'s id');
      const panel = await openExtensionPage(`${base}/panel/index.html?tabId=${tabId}`);
      await panel.setViewport({ width: 1280, height: 800 });
      await poll(() => panel.evaluate(() => /Capturing/.test(document.querySelector('[data-testid="status"]')?.textContent ?? '')), 'the leave panel to be capturing');
      // Preserve log, as a user ticks it (the panel tells the extension, whose status confirms it).
      await panel.evaluate(() => [...document.querySelectorAll('label')].find((l) => /Preserve log/.test(l.textContent)).querySelector('input').click());
      await poll(() => panel.evaluate(() => [...document.querySelectorAll('label')].find((l) => /Preserve log/.test(l.textContent)).querySelector('input').checked), 'Preserve log ticked');

      const report = await leave(page, transport, `with-${transport}-${leaveAt}`, leaveAt);
      const id = report.id; // the run the page reported on (see leave)
      seen[`${transport}-${leaveAt}`] = report;
      log(`${transport}: page left after ${report.read} ${UNIT[transport]} (server sent ${total(transport, id)}); it saw:`, JSON.stringify(report.saw));
      check(report.read >= leaveAt && report.read <= total(transport, id), `${name}: the page got ${report.read} ${UNIT[transport]} before leaving, no more than the server sent`, JSON.stringify({ report, sent: total(transport, id) }));

      // The panel's capture (Preserve log kept the old page's document): the connection's data and its end.
      const capture = await poll(() => panel.evaluate((i) => {
        const records = replyscopePanel.store.capture().records;
        const conn = records.find((r) => r.kind === 'connection' && r.url.endsWith(`/l/stream?id=${i}`));
        const end = conn && records.find((r) => r.kind === 'end' && r.conn === conn.id);
        if (!end) return null;
        const chunks = records.filter((r) => r.kind === 'chunk' && r.conn === conn.id).map((c) => (c.text !== undefined ? { text: c.text } : { base64: c.base64 }));
        const messages = records.filter((r) => r.kind === 'message' && r.conn === conn.id).map((m) => m.data);
        return { transport: conn.transport, chunks, messages, end, notices: records.filter((r) => r.kind === 'notice').map((r) => r.text) };
      }, id), `the old page's connection to end in the panel's capture (${id})`).catch((e) => ({ chunks: [], messages: [], end: undefined, notices: [e.message] }));
      log('capture end', JSON.stringify(capture.end));
      if (transport === 'eventsource') {
        const want = sentUpTo(transport, id, report.read);
        check(capture.transport === 'eventsource' && JSON.stringify(capture.messages) === JSON.stringify(want), `${name}: the capture holds every message the page got (${report.read}), exactly the server's`, JSON.stringify({ captured: capture.messages.length, read: report.read, first: capture.messages[0], notices: capture.notices }));
      } else {
        const bytes = Buffer.concat(capture.chunks.map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64, 'base64'))));
        check(capture.transport === transport && bytes.equals(sentUpTo(transport, id, report.read)), `${name}: the capture holds every byte the page got (${report.read}), exactly the server's`, JSON.stringify({ transport: capture.transport, captured: bytes.length, read: report.read, notices: capture.notices }));
      }
      check(capture.end?.state === 'aborted' && /^the page left while it streamed/.test(capture.end.error ?? ''), `${name}: the connection ends "aborted", the page left while it streamed`, JSON.stringify(capture.end));

      // What the panel shows: the old page's connection, aborted, above the row saying where the tab went.
      const rows = await poll(() => panel.evaluate((i) => {
        const texts = [...document.querySelectorAll('[data-conn]')].map((e) => e.textContent);
        const boundary = [...document.querySelectorAll('.page-boundary-text')].map((e) => e.textContent);
        return texts.some((t) => t.includes(`id=${i}`) && /aborted/.test(t)) && boundary.length ? { texts, boundary } : null;
      }, id), `the old page's connection listed after the navigation (${id})`).catch(async (e) => ({ error: e.message }));
      check(!rows.error && rows.boundary.some((b) => b.includes('/l/next')), `${name}: with Preserve log the panel still lists the old page's connection (aborted) after "Navigated to …/l/next"`, JSON.stringify(rows));
      if (leaveAt === 3000 || leaveAt === 30) await panel.screenshot({ path: screenshot(`page-leave-${transport}`) });
      await panel.close();
      await page.close();
    }
  }

  /** The same page without the extension (uninstalled): it sees the stream end as it did with the extension. */
  async function withoutExtension() {
    for (const [transport, leaveAt] of RUNS) {
      const page = await browser.newPage();
      await page.goto(`${server.origin}/l/app?run=without-${transport}-${leaveAt}`);
      const report = await leave(page, transport, `without-${transport}-${leaveAt}`, leaveAt);
      const id = report.id;
      log(`without the extension: ${transport}: page left after ${report.read} ${UNIT[transport]}; it saw:`, JSON.stringify(report.saw));
      const w = seen[`${transport}-${leaveAt}`];
      check(report.read >= leaveAt && report.read <= total(transport, id) && JSON.stringify(w?.saw) === JSON.stringify(report.saw), `${transport}, leaving at ${leaveAt} ${UNIT[transport]}: the page sees what it sees without the extension as it leaves (${JSON.stringify(report.saw)})`, JSON.stringify({ with: w, without: report }));
      await page.close();
    }
  }

  return { withExtension, withoutExtension, close: () => server.close() };
}

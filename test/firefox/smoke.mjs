// Firefox smoke test for Replyscope (dist-firefox/, `npm run build:firefox`), driven over WebDriver BiDi by
// puppeteer-core — Playwright drives only its own patched Firefox, which cannot be downloaded here; Debian's Firefox
// ESR speaks BiDi. Plain JavaScript: most of it runs inside pages and uses their globals (the extension's `browser`).
//
//   npm run test:firefox            node test/firefox/smoke.mjs [DIST]; FIREFOX overrides /usr/bin/firefox-esr
//
// 1. A loopback server serves /app (a page that reads /stream with a reader) and /stream (AgentScope SSE frames,
//    written in small pieces, one of them cut inside a multi-byte UTF-8 character).
// 2. Firefox ESR (headless) starts with the extension installed as a temporary add-on (BiDi webExtension.install)
//    and a fixed moz-extension UUID (pref extensions.webextensions.uuids).
// 3. Asserts: the page got exactly the server's bytes; the background's debug hook captured exactly those bytes;
//    the panel (panel/index.html?tabId=N opened as a normal tab) lists the connection as complete and shows the
//    reply text in its bubble. Screenshots of the panel: test-results/firefox/panel-firefox*.png.
// 4. The same stream read by EventSource and by XMLHttpRequest: the page gets it unchanged, the capture has both
//    (EventSource: every dispatched message; XHR: the exact bytes), the panel lists three rows (screenshot *-3.png).
// 5. The same events over a WebSocket (ws on the same server): the page gets every message, the capture records the
//    socket from its first agent event (the page's send and a hello before it kept), as a `websocket` connection.
// 6. text() of a stream whose connection drops, and of one aborted while text() waits: the page gets the error the
//    browser's own Response gives (the same body served as text/plain, which the tap leaves alone); the capture ends
//    them "error" and "aborted".
// 7. A synchronous XHR of the stream (no readystatechange before DONE): the page gets the body, the capture has it.
// 8. A stream request answered 401 with a JSON message: the panel's connection details show the message.
// 9. A capture log imported into the panel is read in its import worker (a module Worker from moz-extension:, under
//    the extension's CSP): the panel lists its connection, the worker posted its records.
// 10–15. parity.mjs (see its header): a stream read before the panel was opened is listed; cancel, abort, gzip,
//    NDJSON, clone()/tee(), fetch's identity and streams in frames, each run with the extension and again after it
//    is uninstalled: the page's observations are the same, the capture holds what the page read with the right end.
// 17. page-leave.mjs (see its header): a page that navigates away mid-stream — read by fetch, EventSource and a
//    streaming XHR — watched by a panel with Preserve log: the capture holds all the page got, the stream ends
//    "aborted" as the page leaving, the panel still lists it; without the extension (after parity.mjs) the page sees
//    the stream end as it did with it (its reader's error, the events fired).
// Harness notes: launched with -remote-allow-system-access (BiDi refuses moz-extension: navigation otherwise);
// puppeteer's goto to a moz-extension: URL never resolves (Firefox's NavigationManager throws on the process switch),
// so extension pages are opened without awaiting goto and polled. DUMPIO=1 prints Firefox's own output.
// Exit 0 on success, 1 on failure; the last line counts the checks (.ci/run adds them to its totals).
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { WebSocketServer } from 'ws';
import { startPageLeaveChecks } from './page-leave.mjs';
import { runParityChecks } from './parity.mjs';

const DIST = path.resolve(process.argv[2] ?? 'dist-firefox');
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const SCREENSHOT = process.env.SCREENSHOT ?? path.resolve('test-results/firefox/panel-firefox.png');
for (const [what, file, fix] of [['Firefox', FIREFOX, 'apt-get install -y firefox-esr, or set FIREFOX'], ['the Firefox build', path.join(DIST, 'manifest.json'), 'npm run build:firefox']]) {
  if (!existsSync(file)) {
    console.error(`firefox smoke: ${what} not found at ${file} (${fix})`);
    console.log('firefox smoke: 0 passed, 1 failed');
    process.exit(1);
  }
}
mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
const UUID = '7d1f3c2a-5b6e-4c8d-9a0b-1c2d3e4f5a6b';
const GECKO_ID = JSON.parse(readFileSync(path.join(DIST, 'manifest.json'), 'utf8')).browser_specific_settings.gecko.id;
const BASE = `moz-extension://${UUID}`;
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s]`, ...a);

// ---- the stream ----
const REPLY = 'r1';
const DELTAS = ['Hello ', 'from ', 'Firefox — ', 'héllo ✓ 🙂 ', 'done.'];
const TEXT = DELTAS.join('');
const ev = (o) => `data: ${JSON.stringify({ reply_id: REPLY, ...o })}\n\n`;
const FRAMES = [
  ev({ type: 'REPLY_START', session_id: 's', name: 'n' }),
  ev({ type: 'TEXT_BLOCK_START', block_id: 't1' }),
  ...DELTAS.map((delta) => ev({ type: 'TEXT_BLOCK_DELTA', block_id: 't1', delta })),
  ev({ type: 'TEXT_BLOCK_END', block_id: 't1' }),
  ev({ type: 'REPLY_END', session_id: 's' }),
];
const STEPS = FRAMES.length;
const DENIED = '{"error":{"type":"authentication_error","message":"invalid x-api-key"}}';
const BODY = Buffer.from(FRAMES.join(''), 'utf8');
// Write pieces: each frame on its own, except that the frame with the emoji is cut inside the emoji's 4 bytes.
function pieces() {
  const out = [];
  for (const f of FRAMES) {
    const b = Buffer.from(f, 'utf8');
    const i = b.indexOf(Buffer.from('🙂', 'utf8'));
    if (i >= 0) out.push(b.subarray(0, i + 2), b.subarray(i + 2));
    else out.push(b);
  }
  return out;
}

const APP = `<!doctype html><meta charset="utf-8"><title>chat</title><button id="go" onclick="run()">go</button><pre id="out"></pre>
<script>
async function run() {
  const r = await fetch('/stream');
  const rd = r.body.getReader();
  const parts = [];
  const d = new TextDecoder();
  for (;;) {
    const { done, value } = await rd.read();
    if (done) break;
    parts.push(...value);
    document.getElementById('out').textContent += d.decode(value, { stream: true });
  }
  window.__bytes = parts;
  document.title = 'done';
}
function runES() {
  const es = new EventSource('/stream?es');
  const got = [];
  es.onmessage = (e) => {
    got.push(e.data);
    if (JSON.parse(e.data).type === 'REPLY_END') { es.close(); window.__es = got; document.title = 'es done'; }
  };
}
function runWS() {
  const ws = new WebSocket(location.origin.replace('http', 'ws') + '/socket');
  const got = [];
  ws.onopen = () => ws.send('{"type":"chat","text":"hi"}');
  ws.onmessage = (e) => got.push(e.data);
  ws.onclose = () => { window.__ws = got; document.title = 'ws done'; };
}
// (6) text() of a body that fails: the error the page gets, for a captured stream and for the same body under a type
// the tap leaves alone (the browser's own Response) — a network error mid-body, and an abort while text() waits.
async function runFailures() {
  const out = {};
  for (const type of ['event-stream', 'plain']) {
    const errorOf = (p) => p.then(() => 'resolved', (e) => e.name + ': ' + e.message);
    out[type + ' broken'] = await errorOf(fetch('/broken?' + type).then((r) => r.text()));
    const ctrl = new AbortController();
    const r = await fetch('/held?' + type, { signal: ctrl.signal });
    const text = r.text();
    ctrl.abort();
    out[type + ' aborted'] = await errorOf(text);
  }
  window.__failures = out;
  document.title = 'failures done';
}
// (7) A synchronous XHR (open(…, false)): the browser fires readystatechange only at DONE.
function runSyncXHR() {
  const x = new XMLHttpRequest();
  x.open('GET', '/stream?sync', false);
  x.send();
  window.__syncXhr = x.responseText;
}
function runXHR() {
  const x = new XMLHttpRequest();
  x.open('GET', '/stream?xhr');
  x.onload = () => { window.__xhr = x.responseText; document.title = 'xhr done'; };
  x.send();
}
</script>`;

let passed = 0;
let failed = 0;
function check(ok, what, detail) {
  log(`${ok ? 'PASS' : 'FAIL'} ${what}${!ok && detail !== undefined ? `\n       ${detail}` : ''}`);
  if (ok) passed++;
  else failed++;
  return ok;
}
async function poll(fn, what, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const server = createServer(async (req, res) => {
  if (req.url === '/app') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(APP);
  } else if (req.url.startsWith('/stream')) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.flushHeaders();
    for (const p of pieces()) {
      res.write(p);
      await new Promise((r) => setTimeout(r, 40));
    }
    res.end();
  } else if (req.url === '/denied') {
    // (8) A stream request refused with a JSON error: its message is what to see.
    res.writeHead(401, { 'content-type': 'application/json' }).end(DENIED);
  } else if (req.url.startsWith('/broken') || req.url.startsWith('/held')) {
    // (6) One frame, then the connection drops (/broken) or stays open until the page goes (/held).
    res.writeHead(200, { 'content-type': req.url.endsWith('?plain') ? 'text/plain' : 'text/event-stream', 'cache-control': 'no-store' });
    res.write(FRAMES[0], () => req.url.startsWith('/broken') && res.socket?.destroy());
  } else res.writeHead(404).end();
});
// (5) The stream's events over a socket: a hello first, then one event per text message, then a clean close.
const WS_MESSAGES = ['{"type":"hello"}', ...FRAMES.map((f) => f.slice('data: '.length, -2))];
const sockets = new WebSocketServer({ server, path: '/socket' });
sockets.on('connection', (ws) => {
  for (const m of WS_MESSAGES) ws.send(m);
  ws.close(1000);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const ORIGIN = `http://127.0.0.1:${server.address().port}`;

let browser;
const profile = mkdtempSync(path.join(tmpdir(), 'replyscope-ff-'));
async function main() {
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    dumpio: Boolean(process.env.DUMPIO), // Firefox's stdout/stderr (extension console errors land there)
    // Lets BiDi navigate a tab to a moz-extension: URL (otherwise "Navigation to ... is not allowed in this context").
    args: ['-remote-allow-system-access'],
    userDataDir: profile,
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: UUID }) },
  });
  log('launched', await browser.version());
  const installed = await browser.installExtension(DIST);
  check(installed === GECKO_ID, `extension installed as temporary add-on (${installed})`);

  // The app page: the browser's first tab.
  const app = (await browser.pages())[0] ?? (await browser.newPage());
  app.on('console', (m) => log('app console:', m.text()));
  await app.goto(`${ORIGIN}/app`);

  // An extension page. puppeteer's goto never sees a moz-extension load finish (the tab changes process), so start it
  // and poll until the page's realm is the extension's.
  async function openExtensionPage(url) {
    const p = await browser.newPage();
    p.on('console', (m) => log('panel console:', m.text()));
    p.on('pageerror', (e) => log('panel error:', e.message));
    p.goto(url).catch(() => {});
    await poll(() => p.evaluate((u) => location.href === u && document.readyState === 'complete', url), `extension page ${url}`);
    return p;
  }
  const helper = await openExtensionPage(`${BASE}/src/extension/devtools.html`);
  const perms = await helper.evaluate(() => browser.permissions.getAll());
  log('permissions', JSON.stringify(perms));
  // The tab id of the app page, the way the e2e helper finds it: the background asks each tab's relay for its URL.
  const tabId = await poll(
    () => helper.evaluate(async (u) => (await browser.runtime.getBackgroundPage()).replyscopeDebug.tabIdOf(u), `${ORIGIN}/app`),
    'the relay in the app page to answer (tabIdOf)',
  );
  log('app tab id', tabId);
  await helper.evaluate(async (id) => (await browser.runtime.getBackgroundPage()).replyscopeDebug.watch(id), tabId);

  const panel = await openExtensionPage(`${BASE}/panel/index.html?tabId=${tabId}`);
  await panel.setViewport({ width: 1280, height: 800 });
  const empty = await poll(() => panel.evaluate(() => document.querySelector('[data-testid="empty"]')?.textContent), 'panel empty state');
  check(/No agent streams yet/.test(empty), 'panel connected to the tab and waiting for streams', empty);

  await app.click('#go');
  await poll(() => app.evaluate(() => document.title === 'done'), 'the page to finish reading', 20000);

  // (1) The page got exactly the server's bytes.
  const got = Buffer.from(await app.evaluate(() => window.__bytes));
  check(got.equals(BODY), `page received the server's ${BODY.length} bytes unchanged`, `got ${got.length} bytes: ${JSON.stringify(got.toString('utf8').slice(0, 200))}`);

  // (2a) The background's capture (debug hook): one fetch connection whose chunks rebuild exactly those bytes.
  const records = await poll(
    () =>
      helper.evaluate(async (id) => {
        const r = (await browser.runtime.getBackgroundPage()).replyscopeDebug.records(id);
        return r.some((x) => x.kind === 'end') ? JSON.parse(JSON.stringify(r)) : null;
      }, tabId),
    'an end record in the capture',
  );
  const conns = records.filter((r) => r.kind === 'connection');
  const chunks = records.filter((r) => r.kind === 'chunk');
  const end = records.find((r) => r.kind === 'end');
  const captured = Buffer.concat(chunks.map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64, 'base64'))));
  check(conns.length === 1 && conns[0].transport === 'fetch' && conns[0].url === `${ORIGIN}/stream`, 'capture has the fetch connection', JSON.stringify(conns));
  check(captured.equals(BODY), `captured chunks (${chunks.length}) rebuild the exact bytes`, `captured ${captured.length} bytes`);
  check(end?.state === 'complete', `connection ended "complete"`, JSON.stringify(end));

  // (2b) The panel lists it and shows the reply.
  const row = await poll(
    () => panel.evaluate(() => { const r = document.querySelector('[data-conn]'); return r && /complete/.test(r.textContent) ? r.textContent : null; }),
    'a complete connection row in the panel',
  );
  check(row.includes('/stream'), 'panel lists the /stream connection as complete', row);
  await panel.click('[data-conn]');
  const pos = await poll(() => panel.evaluate(() => document.querySelector('[data-testid="step-pos"]')?.textContent), 'step position');
  check(new RegExp(`^step ${STEPS} / ${STEPS}\\b`).test(pos), `scrubber at the last step (${STEPS})`, pos);
  const bubble = await poll(
    () => panel.evaluate(() => [...document.querySelectorAll('[data-testid="bubble"] [data-block-type="text"] .block-text')].map((e) => e.textContent).join('')),
    'bubble text',
  );
  check(bubble === TEXT, 'bubble shows the reconstructed reply text', JSON.stringify(bubble));
  const status = await panel.evaluate(() => document.querySelector('[data-testid="status"]')?.textContent ?? '');
  log('panel status:', JSON.stringify(status));
  await panel.screenshot({ path: SCREENSHOT });
  log('screenshot', SCREENSHOT);

  // (3) EventSource and XMLHttpRequest through the same tap.
  await app.evaluate(() => runES());
  await poll(() => app.evaluate(() => document.title === 'es done'), 'the EventSource to finish', 20000);
  const esGot = await app.evaluate(() => window.__es);
  const esWant = FRAMES.map((f) => f.slice('data: '.length, -2));
  check(JSON.stringify(esGot) === JSON.stringify(esWant), 'EventSource: page got every message unchanged', JSON.stringify(esGot));
  await app.evaluate(() => runXHR());
  await poll(() => app.evaluate(() => document.title === 'xhr done'), 'the XHR to finish', 20000);
  check((await app.evaluate(() => window.__xhr)) === BODY.toString('utf8'), 'XHR: page got the body unchanged');
  // The tab's records once `ends` connections have ended in them (the background's debug hook).
  const recordsWithEnds = (ends, what) =>
    poll(
      () =>
        helper.evaluate(async (id, n) => {
          const r = (await browser.runtime.getBackgroundPage()).replyscopeDebug.records(id);
          return r.filter((x) => x.kind === 'end').length >= n ? JSON.parse(JSON.stringify(r)) : null;
        }, tabId, ends),
      what,
    );
  const all = await recordsWithEnds(3, 'three ended connections in the capture');
  const connOf = (suffix) => all.find((r) => r.kind === 'connection' && r.url === `${ORIGIN}/stream${suffix}`);
  const es = connOf('?es');
  const xhr = connOf('?xhr');
  check(es?.transport === 'eventsource', 'capture has the EventSource connection', JSON.stringify(all.filter((r) => r.kind === 'connection')));
  const esMsgs = all.filter((r) => r.kind === 'message' && r.conn === es?.id).map((r) => r.data);
  check(JSON.stringify(esMsgs) === JSON.stringify(esWant), `EventSource: captured ${esMsgs.length} messages equal the page's`, JSON.stringify(esMsgs));
  check(xhr?.transport === 'xhr', 'capture has the XHR connection');
  const xhrBytes = Buffer.concat(all.filter((r) => r.kind === 'chunk' && r.conn === xhr?.id).map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64, 'base64'))));
  check(xhrBytes.equals(BODY), 'XHR: captured chunks rebuild the exact bytes', `captured ${xhrBytes.length} bytes`);
  log('ends', JSON.stringify(all.filter((r) => r.kind === 'end').map((r) => [r.conn, r.state])));
  const rows = await poll(() => panel.evaluate(() => { const r = [...document.querySelectorAll('[data-conn]')].map((e) => e.textContent); return r.length >= 3 ? r : null; }), 'three rows in the panel');
  log('panel rows', JSON.stringify(rows));
  // What the panel says about the EventSource connection (informational).
  await panel.evaluate(() => document.querySelectorAll('[data-conn]')[1].click());
  await panel.evaluate(() => document.querySelector('[data-tab="diagnostics"]').click());
  const diag = await poll(() => panel.evaluate(() => document.querySelector('[data-testid="diagnostics"]')?.innerText), 'diagnostics view').catch((e) => e.message);
  log('EventSource diagnostics:', JSON.stringify(diag));
  await panel.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-3.png') });

  // (5) WebSocket, through the constructor trap.
  await app.evaluate(() => runWS());
  await poll(() => app.evaluate(() => document.title === 'ws done'), 'the WebSocket to close', 20000);
  const wsGot = await app.evaluate(() => window.__ws);
  check(JSON.stringify(wsGot) === JSON.stringify(WS_MESSAGES), 'WebSocket: page got every message unchanged', JSON.stringify(wsGot));
  const withSocket = await recordsWithEnds(4, 'the socket ended in the capture');
  const socket = withSocket.find((r) => r.kind === 'connection' && r.transport === 'websocket');
  check(socket?.url === `${ORIGIN.replace('http', 'ws')}/socket`, 'capture has the WebSocket connection', JSON.stringify(withSocket.filter((r) => r.kind === 'connection')));
  const wsMsgs = withSocket.filter((r) => r.kind === 'message' && r.conn === socket?.id).map((r) => (r.type === 'send' ? `sent ${r.data}` : r.data));
  const wsWant = ['sent {"type":"chat","text":"hi"}', ...WS_MESSAGES]; // sent at open, before any message
  check(JSON.stringify(wsMsgs) === JSON.stringify(wsWant), `WebSocket: captured the page's send and its ${WS_MESSAGES.length} messages (the hello kept)`, JSON.stringify(wsMsgs));
  check(withSocket.some((r) => r.kind === 'end' && r.conn === socket?.id && r.state === 'complete'), 'WebSocket: the clean close ends it as complete');

  // (6) A captured body's text() fails as the browser's own does. Firefox rejects a constructed Response's text() with
  // an AbortError whatever broke its stream: a dropped connection read as the user's Stop (no error shown).
  await app.evaluate(() => runFailures());
  await poll(() => app.evaluate(() => document.title === 'failures done'), 'the failing reads to settle', 20000);
  const failures = await app.evaluate(() => window.__failures);
  log('text() failures', JSON.stringify(failures));
  check(/^TypeError/.test(failures['plain broken']) && failures['event-stream broken'].split(':')[0] === failures['plain broken'].split(':')[0], 'text() of a captured stream whose connection drops rejects with the browser\'s own error (TypeError)', JSON.stringify(failures));
  check(/^AbortError/.test(failures['plain aborted']) && failures['event-stream aborted'] === failures['plain aborted'], 'text() of a captured stream aborted by its signal rejects as the browser\'s own', JSON.stringify(failures));
  const withFailures = await recordsWithEnds(6, 'the failing streams ended in the capture');
  const endOf = (suffix) => {
    const conn = withFailures.find((r) => r.kind === 'connection' && r.url === `${ORIGIN}${suffix}`);
    return withFailures.find((r) => r.kind === 'end' && r.conn === conn?.id)?.state;
  };
  check(endOf('/broken?event-stream') === 'error' && endOf('/held?event-stream') === 'aborted', 'capture ends the dropped stream "error" and the aborted one "aborted"', JSON.stringify([endOf('/broken?event-stream'), endOf('/held?event-stream')]));

  // (7) A synchronous XHR of the stream: the page gets the body at once, the capture has it too.
  await app.evaluate(() => runSyncXHR());
  check((await app.evaluate(() => window.__syncXhr)) === BODY.toString('utf8'), 'sync XHR: page got the body unchanged');
  const withSync = await recordsWithEnds(7, 'the synchronous XHR ended in the capture');
  const sync = withSync.find((r) => r.kind === 'connection' && r.url === `${ORIGIN}/stream?sync`);
  const syncBytes = Buffer.concat(withSync.filter((r) => r.kind === 'chunk' && r.conn === sync?.id).map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64, 'base64'))));
  check(sync?.transport === 'xhr' && syncBytes.equals(BODY) && withSync.some((r) => r.kind === 'end' && r.conn === sync.id && r.state === 'complete'), 'sync XHR: captured whole, ended "complete"', JSON.stringify(sync));

  // (8) A stream request answered 401 with a JSON message: the panel shows the message (no event carries it).
  const denied = await app.evaluate(async () => (await fetch('/denied', { headers: { accept: 'text/event-stream' } })).status);
  check(denied === 401, 'error answer: page got the 401');
  await poll(() => panel.evaluate(() => { const r = [...document.querySelectorAll('[data-conn]')].find((e) => e.textContent.includes('/denied')); r?.click(); return !!r; }), 'the /denied row in the panel');
  const shown = await poll(() => panel.evaluate(() => document.querySelector('[data-testid="error-body"]')?.innerText), 'the error answer\'s body in the connection details').catch((e) => e.message);
  check(shown.includes('invalid x-api-key') && shown.includes('authentication_error'), 'panel shows the error answer\'s body (the server\'s message)', JSON.stringify(shown));
  await panel.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-8.png') });

  // (9) An import, read in the panel's import worker: the Worker the panel starts is watched from the page.
  const importedLog = [
    { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'firefox-smoke', created: new Date(0).toISOString() },
    { kind: 'connection', id: 'imported:1', transport: 'fetch', frameUrl: `${ORIGIN}/app`, method: 'GET', url: `${ORIGIN}/imported`, requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1, responseTime: 2 },
    { kind: 'chunk', conn: 'imported:1', t: 3, bytes: BODY.length, text: BODY.toString('utf8') },
    { kind: 'end', conn: 'imported:1', t: 4, state: 'complete' },
  ].map((r) => `${JSON.stringify(r)}\n`).join('');
  await panel.evaluate((text) => {
    const seen = { workers: 0, posted: [] };
    window.__importSeen = seen;
    const RealWorker = window.Worker;
    window.Worker = class extends RealWorker {
      constructor(url, options) {
        super(url, options);
        seen.workers++;
        this.addEventListener('message', (e) => seen.posted.push(e.data?.type));
      }
    };
    const files = new DataTransfer();
    files.items.add(new File([text], 'imported.replyscope.ndjson'));
    const input = document.querySelector('[data-testid="import-input"]');
    input.files = files.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }, importedLog);
  const importStatus = await poll(() => panel.evaluate(() => { const s = document.querySelector('[data-testid="status"]')?.textContent ?? ''; return /^(Imported|Could not)/.test(s) ? s : null; }), 'the import to end');
  check(importStatus === 'Imported imported.replyscope.ndjson: 1 connection', 'import: the panel lists the imported capture log\'s connection', importStatus);
  const importSeen = await panel.evaluate(() => window.__importSeen);
  check(importSeen.workers === 1 && importSeen.posted.includes('records') && importSeen.posted.at(-1) === 'read', 'import: the file was read in the panel\'s import worker (moz-extension:, the extension\'s CSP)', JSON.stringify(importSeen));

  // (17) page-leave.mjs, with the extension; (10–16) parity.mjs: each scenario with the extension and again without
  // it (it uninstalls the extension: last); then (17) without it.
  const screenshot = (name) => SCREENSHOT.replace(/\.png$/, `-${name}.png`);
  const leave = await startPageLeaveChecks({ browser, helper, openExtensionPage, check, poll, log, base: BASE, screenshot });
  try {
    await leave.withExtension();
    await runParityChecks({
      browser, helper, openExtensionPage, check, poll, log, base: BASE, geckoId: GECKO_ID,
      frames: FRAMES, body: BODY, text: TEXT, steps: STEPS, screenshot,
    });
    await leave.withoutExtension();
  } finally {
    leave.close();
  }
}

try {
  await main();
} catch (e) {
  check(false, 'smoke test ran to the end', e?.stack ?? String(e));
} finally {
  await browser?.close().catch(() => {});
  sockets.close();
  server.closeAllConnections();
  server.close();
  rmSync(profile, { recursive: true, force: true, maxRetries: 10 });
}
console.log(`firefox smoke: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

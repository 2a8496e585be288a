// Firefox parity checks, run by smoke.mjs after its own: what a Firefox user's page gets with the extension is what it
// gets without it, and the capture holds what the page read, with the right end state.
//
// Each scenario runs in a page of its own server (two ports: two origins, for the cross-origin iframe), once with the
// extension and once more after the extension is uninstalled (BiDi webExtension.uninstall) — the same Firefox, so
// "without the extension" is the browser's own behaviour, not a remembered value. Observations are plain JSON.
//   cancel / abort / abort-reason  the page cancels its reader or aborts mid-stream: what its reads and `closed` give;
//                                   the server sees the connection close; the capture ends "cancelled" / "aborted"
//   gzip / ndjson                   a gzip-encoded SSE body and an NDJSON stream: the decoded bytes, captured exactly
//   clone / tee                     Response.clone() and body.tee(), both branches read: each gets every byte
//   identity                        fetch's toString/name/length/own keys, illegal invocation and bad-URL errors,
//                                   instanceof Response, the Response.prototype.body getter on a tapped response
//   frames                          a cross-origin iframe, srcdoc, about:blank (the parent calls its fetch), blob:,
//                                   data: and a sandboxed srcdoc: each frame's stream captured in the tab, as a subframe
// Before any of that, a stream the page read before the panel was opened: the panel (a tab, ?tabId=N) lists it.
// Screenshots of the panel's events view (scrubber) and timeline: test-results/firefox/panel-firefox-*.png.
import { createServer } from 'node:http';
import { createGzip, constants as zlib } from 'node:zlib';

const HOLD_AFTER = 2; // frames a held stream sends before it waits for the page to go
// A held stream then sends an SSE comment now and then, as agents' heartbeats do: Firefox closes the connection of a
// body the page cancelled only when more of it arrives (so does Firefox without the extension; a silent stream stays
// open until the socket times out).
const HEARTBEAT = ': beat\n\n';

/** The page's scenarios (a string: it runs in Firefox). Each resolves to plain JSON observations. */
const APP = (other) => `<!doctype html><meta charset="utf-8"><title>parity</title><body><script>
const bytesOf = async (rd, until = Infinity) => { const out = []; while (out.length < until) { const { done, value } = await rd.read(); if (done) break; out.push(...value); } return out; };
const settle = (p) => p.then((v) => ({ ok: v === undefined ? 'undefined' : JSON.stringify(v) }), (e) => ({ error: e && e.name ? e.name + ': ' + e.message : String(e) }));
window.frameTexts = {};
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => cspViolations.push(e.violatedDirective + ' ' + e.sourceFile));
addEventListener('message', (e) => { if (e.data && e.data.frame) frameTexts[e.data.frame] = e.data.text; });
window.scenarios = {
  async early(run) { const r = await fetch('/p/stream?kind=sse&id=early-' + run); return { bytes: await bytesOf(r.body.getReader()) }; },
  async cancel(run, heldBytes) {
    const r = await fetch('/p/stream?kind=sse&hold=1&id=cancel-' + run);
    const rd = r.body.getReader();
    const bytes = await bytesOf(rd, heldBytes);
    return { bytes, cancel: await settle(rd.cancel('stop')), next: await settle(rd.read()), closed: await settle(rd.closed), bodyUsed: r.bodyUsed };
  },
  async abort(run, heldBytes, reason) {
    const ctrl = new AbortController();
    const r = await fetch('/p/stream?kind=sse&hold=1&id=' + (reason ? 'abort-reason-' : 'abort-') + run, { signal: ctrl.signal });
    const rd = r.body.getReader();
    const bytes = await bytesOf(rd, heldBytes);
    reason ? ctrl.abort(reason) : ctrl.abort();
    return { bytes, next: await settle(rd.read()), closed: await settle(rd.closed), text: await settle(r.text()) };
  },
  async gzip(run) { const r = await fetch('/p/stream?kind=gzip&id=gzip-' + run); return { encoding: r.headers.get('content-encoding'), bytes: await bytesOf(r.body.getReader()) }; },
  async ndjson(run) { const r = await fetch('/p/stream?kind=ndjson&id=ndjson-' + run); return { bytes: await bytesOf(r.body.getReader()) }; },
  async clone(run) {
    const r = await fetch('/p/stream?kind=sse&id=clone-' + run);
    const c = r.clone();
    const [a, b] = await Promise.all([r.text(), c.text()]);
    return { a, b, cloneIsResponse: c instanceof Response, sameUrl: c.url === r.url, type: c.type, used: [r.bodyUsed, c.bodyUsed] };
  },
  async tee(run) {
    const r = await fetch('/p/stream?kind=sse&id=tee-' + run);
    const [x, y] = r.body.tee();
    const [a, b] = await Promise.all([bytesOf(x.getReader()), bytesOf(y.getReader())]);
    return { a, b, locked: r.body.locked };
  },
  async identity(run) {
    const r = await fetch('/p/stream?kind=sse&id=identity-' + run);
    const getter = Object.getOwnPropertyDescriptor(Response.prototype, 'body').get;
    const protoBody = getter.call(r);
    const out = {
      toString: fetch.toString(), string: String(fetch), name: fetch.name, length: fetch.length, typeofFetch: typeof fetch,
      hasPrototype: 'prototype' in fetch, sameAsWindow: window.fetch === fetch, enumerableKeys: Object.keys(fetch),
      instanceOfResponse: r instanceof Response, protoIsResponse: Object.getPrototypeOf(r) === Response.prototype,
      bodyIsStream: r.body instanceof ReadableStream, bodySame: r.body === r.body, enumerableResponseKeys: Object.keys(r),
      protoGetterIsStream: protoBody instanceof ReadableStream,
      illegal: await settle(Promise.resolve().then(() => fetch.call({}, '/p/stream?kind=plain&id=illegal-' + run))),
      badUrl: await settle(Promise.resolve().then(() => fetch('http://[bad'))),
      // Documented (README, Limits): the tap shows through these.
      nativeToString: Function.prototype.toString.call(fetch), ownKeys: Reflect.ownKeys(fetch).map(String), protoGetterLocked: protoBody.locked,
      stackOrigin: await fetch('http://[bad').catch((e) => String(e.stack).match(/[a-z]+-extension:/)?.[0] ?? 'page only'),
    };
    out.text = await r.text();
    out.cspViolations = cspViolations; // a CSP report the page could see
    return out;
  },
  async frames(run) {
    const origin = location.origin;
    const script = (id) => '<script>fetch(' + JSON.stringify(origin + '/p/stream?kind=sse&cors=1&id=' + id) + ').then((r) => r.text()).then((text) => parent.postMessage({ frame: ' + JSON.stringify(id) + ', text }, "*"));<\\/script>';
    const add = (set) => { const f = document.createElement('iframe'); set(f); document.body.append(f); return f; };
    add((f) => { f.src = ${JSON.stringify(other)} + '/p/frame?id=cross-' + run; });
    add((f) => { f.srcdoc = script('srcdoc-' + run); });
    add((f) => { f.src = URL.createObjectURL(new Blob([script('blob-' + run)], { type: 'text/html' })); });
    add((f) => { f.src = 'data:text/html,' + encodeURIComponent(script('data-' + run)); });
    add((f) => { f.sandbox.add('allow-scripts'); f.srcdoc = script('sandboxed-' + run); });
    const blank = add(() => {});
    frameTexts['blank-' + run] = await blank.contentWindow.fetch('/p/stream?kind=sse&id=blank-' + run).then((r) => r.text());
    const ids = ['cross', 'srcdoc', 'blob', 'data', 'sandboxed', 'blank'].map((k) => k + '-' + run);
    while (!ids.every((id) => id in frameTexts)) await new Promise((r) => setTimeout(r, 50));
    return Object.fromEntries(ids.map((id) => [id.replace('-' + run, ''), frameTexts[id]]));
  },
};
</script>`;

const FRAME = `<!doctype html><script>const id = new URLSearchParams(location.search).get('id');
fetch('/p/stream?kind=sse&id=' + id).then((r) => r.text()).then((text) => parent.postMessage({ frame: id, text }, '*'));</script>`;

/** The parity server: /p/app, /p/frame, /p/stream?kind=sse|gzip|ndjson|plain&id=…[&hold=1][&cors=1], on two ports. */
async function startServer(frames) {
  const ndjson = frames.map((f) => `${f.slice('data: '.length, -2)}\n`);
  const closedEarly = new Set(); // ids whose connection the page closed before the body ended
  const waiters = [];
  let other = '';
  const handler = async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/p/app') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(APP(other));
    if (url.pathname === '/p/frame') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(FRAME);
    if (url.pathname !== '/p/stream') return res.writeHead(404).end();
    const id = url.searchParams.get('id');
    const kind = url.searchParams.get('kind');
    const headers = { 'content-type': { ndjson: 'application/x-ndjson', plain: 'text/plain' }[kind] ?? 'text/event-stream', 'cache-control': 'no-store' };
    if (url.searchParams.has('cors')) headers['access-control-allow-origin'] = '*';
    if (kind === 'gzip') headers['content-encoding'] = 'gzip';
    res.writeHead(200, headers);
    res.flushHeaders();
    let ended = false;
    res.on('close', () => {
      if (!ended) closedEarly.add(id);
      for (const w of waiters.splice(0)) w();
    });
    const out = kind === 'gzip' ? createGzip() : res;
    if (kind === 'gzip') out.pipe(res);
    const pieces = kind === 'ndjson' ? ndjson : frames;
    const hold = url.searchParams.has('hold');
    for (const [i, p] of pieces.entries()) {
      if (hold && i === HOLD_AFTER) {
        // Held open until the page goes, beating from a while after the held frames (the page has read them by then).
        let beat;
        const start = setTimeout(() => (beat = setInterval(() => res.write(HEARTBEAT), 100)), 300);
        res.on('close', () => (clearTimeout(start), clearInterval(beat)));
        return;
      }
      out.write(p);
      if (kind === 'gzip') out.flush(zlib.Z_SYNC_FLUSH);
      await new Promise((r) => setTimeout(r, 15));
    }
    ended = true;
    out.end();
  };
  const listen = async () => {
    const s = createServer(handler);
    await new Promise((r) => s.listen(0, '127.0.0.1', r));
    s.origin = `http://127.0.0.1:${s.address().port}`;
    return s;
  };
  const main = await listen();
  const second = await listen();
  other = second.origin;
  return {
    origin: main.origin,
    /** Resolves once the server saw `id`'s connection closed before its body ended. */
    async closed(id, poll) {
      return poll(() => closedEarly.has(id), `the server to see ${id} closed`).catch(() => false);
    },
    close() {
      for (const s of [main, second]) {
        s.closeAllConnections();
        s.close();
      }
    },
  };
}

/** Runs the parity checks (see the top). `ctx` comes from smoke.mjs; the extension is uninstalled at the end. */
export async function runParityChecks(ctx) {
  const { browser, helper, openExtensionPage, check, poll, log, frames, body, text, steps, geckoId, screenshot } = ctx;
  const server = await startServer(frames);
  const ndjsonBody = Buffer.from(frames.map((f) => `${f.slice('data: '.length, -2)}\n`).join(''), 'utf8');
  const held = Buffer.from(frames.slice(0, HOLD_AFTER).join(''), 'utf8');
  // The background's debug hook (smoke.mjs's header), from the extension's helper page.
  const hook = {
    tabIdOf: (url) => helper.evaluate(async (u) => (await browser.runtime.getBackgroundPage()).replyscopeDebug.tabIdOf(u), url),
    watch: (id) => helper.evaluate(async (i) => (await browser.runtime.getBackgroundPage()).replyscopeDebug.watch(i), id),
    records: (id) => helper.evaluate(async (i) => JSON.parse(JSON.stringify((await browser.runtime.getBackgroundPage()).replyscopeDebug.records(i))), id),
  };
  const pageErrors = {}; // the errors each run's page (and its frames) reported in the web console
  const openApp = async (run) => {
    const page = await browser.newPage();
    pageErrors[run] = [];
    page.on('pageerror', (e) => pageErrors[run].push(e.message));
    await page.goto(`${server.origin}/p/app?run=${run}`);
    return page;
  };
  const play = (page, name, run, ...args) => page.evaluate((n, r, a) => scenarios[n](r, ...a), name, run, args);
  const all = ['cancel', 'abort', 'abort-reason', 'gzip', 'ndjson', 'clone', 'tee', 'identity', 'frames'];
  const playAll = async (page, run) => {
    const out = {};
    for (const name of all) out[name] = await play(page, name === 'abort-reason' ? 'abort' : name, run, ...(name.startsWith('cancel') || name.startsWith('abort') ? [held.length, name === 'abort-reason' ? 'why' : undefined] : []));
    return out;
  };

  try {
    // (10) A stream the page read before any panel was opened: the panel opened afterwards lists it.
    const app = await openApp('with');
    const early = await play(app, 'early', 'with');
    check(Buffer.from(early.bytes).equals(body), 'before the panel: page read the stream unchanged');
    const tabId = await poll(() => hook.tabIdOf(`${server.origin}/p/app?run=with`), 'the parity tab\'s id');
    const panel = await openExtensionPage(`${ctx.base}/panel/index.html?tabId=${tabId}`);
    const panelErrors = [];
    panel.on('pageerror', (e) => panelErrors.push(e.message));
    await panel.setViewport({ width: 1280, height: 800 });
    const earlyRow = await poll(() => panel.evaluate(() => [...document.querySelectorAll('[data-conn]')].map((e) => e.textContent).find((t) => t.includes('early-with'))), 'the earlier connection in the panel').catch((e) => e.message);
    check(/complete/.test(earlyRow), 'a panel opened after the stream lists the earlier connection as complete', earlyRow);
    await panel.evaluate(() => [...document.querySelectorAll('[data-conn]')].find((e) => e.textContent.includes('early-with')).click());
    const pos = await poll(() => panel.evaluate(() => document.querySelector('[data-testid="step-pos"]')?.textContent), 'step position').catch((e) => e.message);
    const bubble = await panel.evaluate(() => [...document.querySelectorAll('[data-testid="bubble"] [data-block-type="text"] .block-text')].map((e) => e.textContent).join(''));
    check(new RegExp(`^step ${steps} / ${steps}\\b`).test(pos) && bubble === text, 'its reply is rebuilt at the last step', JSON.stringify([pos, bubble]));
    // The scrubber, moved to the first step, and the timeline, by screenshot.
    await panel.evaluate(() => document.querySelector('[data-testid="scrubber"] input[type="range"]')?.focus());
    await panel.keyboard.press('Home');
    const first = await poll(() => panel.evaluate(() => { const t = document.querySelector('[data-testid="step-pos"]')?.textContent; return /^step 1 \//.test(t) ? t : null; }), 'the scrubber at step 1').catch((e) => e.message);
    check(/^step 1 \//.test(first), 'the scrubber moves to the first step (Home)', first);
    await panel.screenshot({ path: screenshot('scrubber') });
    await panel.evaluate(() => document.querySelector('[data-tab="timeline"]').click());
    const bars = await poll(() => panel.evaluate(() => document.querySelector('[data-testid="timeline"] svg, [data-testid="timeline"] canvas') ? document.querySelector('[data-testid="timeline"]').getBoundingClientRect().height : 0), 'the timeline').catch(() => 0);
    check(bars > 0, 'the timeline view draws', String(bars));
    await panel.screenshot({ path: screenshot('timeline') });
    await panel.evaluate(() => document.querySelector('[data-tab="events"]')?.click());

    // Every scenario with the extension, the capture read through the debug hook.
    await hook.watch(tabId);
    const withExt = await playAll(app, 'with');
    const closedWith = {};
    for (const id of ['cancel-with', 'abort-with', 'abort-reason-with']) closedWith[id] = await server.closed(id, poll);
    const ids = ['cancel', 'abort', 'abort-reason', 'gzip', 'ndjson', 'clone', 'tee', 'identity', 'cross', 'srcdoc', 'blob', 'data', 'sandboxed', 'blank'].map((k) => `${k}-with`);
    const records = await poll(async () => {
      const r = await hook.records(tabId);
      const endedIds = new Set(r.filter((x) => x.kind === 'end').map((x) => r.find((c) => c.kind === 'connection' && c.id === x.conn)?.url.match(/id=([^&]+)/)?.[1]));
      return ids.every((id) => endedIds.has(id)) ? r : null;
    }, 'every parity stream ended in the capture', 8000).catch(async (e) => {
      const r = await hook.records(tabId);
      log(e.message, JSON.stringify(r.filter((x) => x.kind === 'connection' || x.kind === 'end').map((x) => x.url ?? `${x.conn} ${x.state}`)));
      return r;
    });
    const capture = (id) => {
      const conn = records.find((r) => r.kind === 'connection' && new URL(r.url).searchParams.get('id') === id);
      const bytes = Buffer.concat(records.filter((r) => r.kind === 'chunk' && r.conn === conn?.id).map((c) => (c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.base64, 'base64'))));
      return { conn, bytes, end: records.find((r) => r.kind === 'end' && r.conn === conn?.id) };
    };

    // Now without it: uninstalled, a fresh page, the same scenarios.
    await browser.uninstallExtension(geckoId);
    const bare = await openApp('without');
    const without = await playAll(bare, 'without');
    const closedWithout = {};
    for (const id of ['cancel-without', 'abort-without', 'abort-reason-without']) closedWithout[id] = await server.closed(id, poll);
    log('parity observations without the extension', JSON.stringify({ ...without, identity: { ...without.identity, text: '…' } }));

    // (11) Cancel and abort mid-stream.
    for (const name of ['cancel', 'abort', 'abort-reason']) {
      const { bytes, ...w } = withExt[name];
      const { bytes: _, ...wo } = without[name];
      check(JSON.stringify(w) === JSON.stringify(wo) && Buffer.from(bytes).subarray(0, held.length).equals(held), `${name}: the page's reads, cancel and closed are as without the extension`, `with ${JSON.stringify(w)}\n       without ${JSON.stringify(wo)}`);
      check(closedWith[`${name}-with`] && closedWithout[`${name}-without`], `${name}: the server sees the connection close`, JSON.stringify({ closedWith, closedWithout }));
      const cap = capture(`${name}-with`);
      const want = name === 'cancel' ? 'cancelled' : 'aborted';
      check(cap.bytes.equals(Buffer.from(bytes)) && cap.end?.state === want, `${name}: the capture holds the bytes the page read and ends "${want}"`, JSON.stringify({ bytes: cap.bytes.length, end: cap.end }));
    }
    // (12) gzip-encoded SSE and NDJSON: decoded bytes for the page, the same in the capture.
    for (const [name, want] of [['gzip', body], ['ndjson', ndjsonBody]]) {
      check(JSON.stringify(withExt[name]) === JSON.stringify(without[name]) && Buffer.from(withExt[name].bytes).equals(want), `${name}: the page gets the decoded bytes, as without the extension`, JSON.stringify(withExt[name]).slice(0, 200));
      const cap = capture(`${name}-with`);
      check(cap.bytes.equals(want) && cap.end?.state === 'complete', `${name}: the capture holds exactly those bytes, ended "complete"`, JSON.stringify({ bytes: cap.bytes.length, transport: cap.conn?.transport, end: cap.end }));
    }
    // (13) clone() and tee(): both branches get every byte; the capture has the stream once, complete.
    for (const name of ['clone', 'tee']) {
      const w = withExt[name];
      check(JSON.stringify(w) === JSON.stringify(without[name]) && Buffer.from(w.a).equals(body) && JSON.stringify(w.a) === JSON.stringify(w.b), `${name}: both branches get every byte, as without the extension`, `with ${JSON.stringify(w).slice(0, 300)}\n       without ${JSON.stringify(without[name]).slice(0, 300)}`);
      const cap = capture(`${name}-with`);
      check(cap.bytes.equals(body) && cap.end?.state === 'complete', `${name}: captured once, exactly, ended "complete"`, JSON.stringify({ bytes: cap.bytes.length, end: cap.end }));
    }
    // (14) fetch's identity and the Response it returns.
    // Documented (README, Limits): the tap shows through these — the wrapper's source, its own toString, and the
    // Response.prototype.body getter called on a tapped response, which gives the body the tap reads (locked).
    const { nativeToString: nw, ownKeys: kw, protoGetterLocked: lw, stackOrigin: sw, ...idWith } = withExt.identity;
    const { nativeToString: nwo, ownKeys: kwo, protoGetterLocked: lwo, stackOrigin: swo, ...idWithout } = without.identity;
    const differing = Object.keys(idWithout).filter((k) => JSON.stringify(idWith[k]) !== JSON.stringify(idWithout[k]));
    check(differing.length === 0, 'fetch identity: toString, name, length, errors, instanceof Response, the prototype body getter are as without the extension', differing.map((k) => `${k}: ${JSON.stringify(idWith[k])} vs ${JSON.stringify(idWithout[k])}`).join('\n       '));
    check(capture('identity-with').end?.state === 'complete', 'fetch identity: that response was captured (a tapped one was compared)');
    log('documented differences: Function.prototype.toString.call(fetch)', JSON.stringify(nw.slice(0, 60)), 'vs', JSON.stringify(nwo), '; Reflect.ownKeys(fetch)', JSON.stringify(kw), 'vs', JSON.stringify(kwo), '; Response.prototype.body getter locked', lw, 'vs', lwo, '; an error through fetch: stack frame of', sw, 'vs', swo);
    // (15) Streams in frames: each frame's page got the bytes; the tab's capture has each, as a subframe.
    check(JSON.stringify(withExt.frames) === JSON.stringify(without.frames) && Object.values(withExt.frames).every((t) => t === body.toString('utf8')), 'frames: every frame\'s page got the stream, as without the extension', JSON.stringify(Object.keys(withExt.frames)));
    for (const kind of ['cross', 'srcdoc', 'blank', 'blob', 'data', 'sandboxed']) {
      const cap = capture(`${kind}-with`);
      check(cap.bytes.equals(body) && cap.end?.state === 'complete' && cap.conn?.isSubframe === true, `frames: the ${kind} frame's stream captured exactly, as a subframe`, JSON.stringify({ conn: cap.conn && { frameUrl: cap.conn.frameUrl, isSubframe: cap.conn.isSubframe }, bytes: cap.bytes.length, end: cap.end?.state }));
    }
    check(panelErrors.length === 0, 'the panel threw no errors', panelErrors.join('\n       '));
    // (16) The extension adds nothing to the page's web console (zod's eval probe in the relay once did, per frame).
    check(JSON.stringify(pageErrors.with) === JSON.stringify(pageErrors.without), 'the page\'s console gets the same errors as without the extension (none)', `with ${JSON.stringify(pageErrors.with)}\n       without ${JSON.stringify(pageErrors.without)}`);
  } finally {
    server.close();
  }
}

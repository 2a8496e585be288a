// Limits and faults, part two (issue 7): a ~GB stream against the default 64 MB per-document cap with the page
// renderer's memory (JS heap + ArrayBuffers of the page world and the relay: one isolate) sampled while it flows, with and without the extension, 20 tabs streaming at once (one focused), and faults mid-stream
// — the page reloaded, a back/forward navigation, the extension itself reloaded. The page must never be affected;
// the capture holds exactly what the page got, or says where it stopped. Figures are printed as `robust-faults: …`.
//
// Size of the big stream: ROBUST_SIZE_MB, else 1024 with ROBUST_FULL=1, else 200.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import { chromium, expect, test, type Page } from '@playwright/test';
import type { CaptureRecord, EvictionRecord } from '../../src/core/capture/model.ts';
import { captured, connectionsMatching, waitForCapture } from './support/capture.ts';
import { CHROMIUM, launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { readAllInPage } from './support/page-read.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';

const MiB = 1024 * 1024;
const BIG_BYTES = Number(process.env.ROBUST_SIZE_MB ?? (process.env.ROBUST_FULL === '1' ? 1024 : 200)) * MiB;
// The late-panel check streams just past the cap by default: the panel then analyses ~64 MB of kept chunks, which
// is what its runtime is made of. ROBUST_EVICT_MB sets another size.
const EVICT_BYTES = Number(process.env.ROBUST_EVICT_MB ?? 80) * MiB;
const DEFAULT_CAP = 64 * MiB; // DEFAULT_CAPTURE_LIMIT_BYTES of src/extension/settings.ts

let ext: ExtensionBrowser;
let server: TestServer;
const sent = new Map<string, { chunks: Buffer[]; closed: Promise<void> }>();
const bigSent = new Map<string, { bytes: number; fnv: number }>();

// ---- the big stream: generated frame by frame (never held in memory), ASCII only so text length = byte length ----
const FRAME = 64 * 1024;
const HEAD = 'data: {"type":"REPLY_START","reply_id":"r","session_id":"s","name":"n"}\n\ndata: {"type":"TEXT_BLOCK_START","reply_id":"r","block_id":"b"}\n\n';
const TAIL = 'data: {"type":"REPLY_END","reply_id":"r","session_id":"s"}\n\n';
function frame(i: number): Buffer {
  const prefix = `data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${i}:`;
  const suffix = '"}\n\n';
  // The filler depends on i so a lost, repeated or reordered frame changes the checksum.
  return Buffer.from(prefix + String.fromCharCode(97 + (i % 26)).repeat(FRAME - prefix.length - suffix.length) + suffix);
}
function* bigPieces(total: number): Generator<Buffer> {
  let sentBytes = HEAD.length;
  yield Buffer.from(HEAD);
  for (let i = 0; sentBytes < total; i++, sentBytes += FRAME) yield frame(i);
  yield Buffer.from(TAIL);
}

/** FNV-1a over bytes, continued from `h` — the same function runs in the page, the service worker and here. */
function fnv(h: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619);
  return h >>> 0;
}
const FNV0: number = 0x811c9dc5;

async function handler(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  const id = url.searchParams.get('id') ?? '';
  if (url.pathname === '/app' || url.pathname === '/other') {
    res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(`<!doctype html><title>${url.pathname}${url.search}</title>`);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' });
  if (url.pathname === '/big') {
    let h = FNV0;
    let bytes = 0;
    for (const piece of bigPieces(Number(url.searchParams.get('size')))) {
      if (res.destroyed) return;
      h = fnv(h, piece);
      bytes += piece.length;
      await writeAndWait(res, piece); // backpressure: generate only as fast as the page reads
    }
    bigSent.set(id, { bytes, fnv: h >>> 0 });
    res.end();
    return;
  }
  // /drip: a small AgentScope reply, one delta every `gap` ms; every byte sent is logged.
  const log = { chunks: [] as Buffer[], closed: new Promise<void>((r) => res.once('close', () => r())) };
  sent.set(id, log);
  const write = async (s: string) => {
    const b = Buffer.from(s);
    log.chunks.push(b);
    await writeAndWait(res, b);
  };
  const n = Number(url.searchParams.get('n') ?? 10);
  const gap = Number(url.searchParams.get('gap') ?? 0);
  await write(HEAD);
  for (let i = 0; i < n && !res.destroyed; i++) {
    if (gap) await new Promise((r) => setTimeout(r, gap));
    await write(`data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"${id} piece ${i} ü😀 "}\n\n`);
  }
  if (res.destroyed) return;
  log.chunks.push(Buffer.from(TAIL));
  res.end(TAIL);
}

const bytesOf = (id: string) => Buffer.concat(sent.get(id)?.chunks ?? []);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Page-side reader of the big stream: keeps nothing, only a byte count and the running FNV-1a. */
function readBig(page: Page, url: string): Promise<{ len: number; fnv: number; error?: string }> {
  return page.evaluate(async ([url, fnvSource, h0]) => {
    const f = new Function(`return (${fnvSource})`)() as (h: number, b: Uint8Array) => number;
    let h = h0;
    let len = 0;
    try {
      const reader = (await fetch(url)).body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        h = f(h, r.value);
        len += r.value.length;
      }
    } catch (e) {
      return { len, fnv: h >>> 0, error: String(e) };
    }
    return { len, fnv: h >>> 0 };
  }, [url, fnv.toString(), FNV0] as const);
}

/**
 * Samples a page renderer's memory until stopped: CDP Runtime.getHeapUsage, JS heap + ArrayBuffer backing stores (the
 * relay keeps fetch chunks as bytes) of the one isolate the page's world and the relay share.
 */
async function sampleHeap(page: Page): Promise<{ stop(): Promise<{ peak: number; samples: number }> }> {
  const cdp = await page.context().newCDPSession(page);
  let peak = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const u = await cdp.send('Runtime.getHeapUsage').catch(() => undefined);
      if (u) {
        peak = Math.max(peak, u.usedSize + u.backingStorageSize);
        samples++;
      }
      await new Promise((r) => setTimeout(r, 200)); // a sampling interval, not a wait for something to happen
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await cdp.detach().catch(() => undefined);
      return { peak, samples };
    },
  };
}

async function heapNow(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, backingStorageSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize + backingStorageSize;
}

const mb = (n: number) => (n / MiB).toFixed(1);

async function openApp(tag: string): Promise<{ page: Page; tabId: number }> {
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app?${tag}`);
  const tabId = await ext.tabIdFor(page);
  await ext.watch(tabId);
  return { page, tabId };
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(handler);
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

test(`a ${mb(BIG_BYTES)} MiB stream with the default 64 MB cap: the page gets every byte; the renderer's memory settles within the cap`, async () => {
  test.setTimeout(180_000);
  await ext.debug(async () => chrome.storage.local.remove('replyscope.captureLimitBytes')); // the default cap
  // Baseline: the same reader in a Chromium without the extension.
  const plain = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  let baselinePeak = 0;
  try {
    const p = await plain.newPage();
    await p.goto(`${server.url}/app?plain`);
    const heap = await sampleHeap(p);
    const got = await readBig(p, `/big?id=plain&size=${BIG_BYTES}`);
    baselinePeak = (await heap.stop()).peak;
    expect(got).toEqual({ len: bigSent.get('plain')!.bytes, fnv: bigSent.get('plain')!.fnv });
  } finally {
    await plain.close();
  }

  // With the extension, no panel watching while the stream runs (the relay alone holds the capture).
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app?big`);
  const tabId = await ext.tabIdFor(page);
  const heap = await sampleHeap(page);
  const started = Date.now();
  const got = await readBig(page, `/big?id=big&size=${BIG_BYTES}`);
  const seconds = (Date.now() - started) / 1000;
  const { peak, samples } = await heap.stop();
  const server_ = bigSent.get('big')!;
  expect(got.error).toBeUndefined();
  expect(got.len).toBe(server_.bytes);
  expect(got.fnv).toBe(server_.fnv);
  console.log(`robust-faults: big stream ${got.len} B in ${seconds.toFixed(1)} s (${mb(got.len / seconds)} MiB/s) with the extension; page byte count and FNV-1a equal the server's`);
  console.log(`robust-faults: page renderer memory (JS heap + ArrayBuffers: page and relay) peak ${mb(peak)} MiB with the extension (${samples} samples), ${mb(baselinePeak)} MiB without`);

  // Right as the stream ends the relay may still be working off a backlog: batches the tap posted while the page's
  // read kept the thread busy, and evicted chunks waiting for their idle-time digest (bounded at a quarter of the
  // cap). Once it has caught up, the renderer holds the cap and the page's own few MB — and if it never gets there,
  // this fails.
  const atEnd = await heapNow(page);
  let settled = atEnd;
  await expect.poll(async () => (settled = await heapNow(page)), { timeout: 15_000 }).toBeLessThan(DEFAULT_CAP + 16 * MiB);
  console.log(`robust-faults: page renderer memory (JS heap + ArrayBuffers) as the stream ended: ${mb(atEnd)} MiB, once the relay caught up: ${mb(settled)} MiB (default cap ${mb(DEFAULT_CAP)} MiB)`);
  await page.close();
});

// The same stream with a panel watching: the relay then sends live, and while the page reads this fast it holds what
// it captured back until the burst pauses (relay/idle-outbox.ts) — here while the store evicts, since the stream is
// past the cap. In the browser: the page's bytes are exact, the watcher gets the stream's end, and the renderer
// settles within the cap once the relay has sent what it held. (The hold's bound itself is unit-tested.)
test(`the ${mb(BIG_BYTES)} MiB stream with a panel watching: held back during the burst, it still arrives; the renderer settles within the cap`, async () => {
  test.setTimeout(180_000);
  await ext.debug(async () => chrome.storage.local.remove('replyscope.captureLimitBytes'));
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app?watched`);
  const tabId = await ext.tabIdFor(page);
  await ext.watch(tabId);
  const heap = await sampleHeap(page);
  const got = await readBig(page, `/big?id=watched&size=${BIG_BYTES}`);
  const { peak } = await heap.stop();
  expect(got).toEqual({ len: bigSent.get('watched')!.bytes, fnv: bigSent.get('watched')!.fnv });
  await expect.poll(async () => (await ext.records(tabId)).some((r) => r.kind === 'end'), { timeout: 60_000 }).toBe(true);
  let settled = await heapNow(page);
  await expect.poll(async () => (settled = await heapNow(page)), { timeout: 15_000 }).toBeLessThan(DEFAULT_CAP + 16 * MiB);
  console.log(`robust-faults: watched big stream: page renderer memory peak ${mb(peak)} MiB, settled ${mb(settled)} MiB (default cap ${mb(DEFAULT_CAP)} MiB)`);
  await page.close();
});

// A separate, smaller stream than the big one: a late panel has to analyse everything kept (up to the 64 MB cap) before
// it shows anything, so this test's time is the panel's, not the stream's. (Before the digest bounded its strings, a
// single endless reply made the eviction record grow past Chrome's message size limit and the snapshot was lost.)
test(`a ${mb(EVICT_BYTES)} MiB reply with the default 64 MB cap: a panel that opens afterwards sees the eviction, which carries the still-open reply`, async () => {
  test.setTimeout(120_000);
  await ext.debug(async () => chrome.storage.local.remove('replyscope.captureLimitBytes'));
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app?evict`);
  const tabId = await ext.tabIdFor(page);
  const got = await readBig(page, `/big?id=evict&size=${EVICT_BYTES}`);
  expect(got).toEqual({ len: bigSent.get('evict')!.bytes, fnv: bigSent.get('evict')!.fnv });
  console.log(`robust-faults: late-panel stream ${got.len} B; page renderer memory (JS heap + ArrayBuffers) afterwards ${mb(await heapNow(page))} MiB`);

  // A panel that opens afterwards: the relay's snapshot. Summarise it inside the service worker (64 MB is too much
  // to ship through CDP): evictions, kept bytes and their FNV-1a.
  await ext.watch(tabId);
  const summarise = (d: import('../../src/extension/background/debug.ts').ReplyscopeDebug, [id, fnvSource, h0]: [number, string, number]) => {
    const f = new Function(`return (${fnvSource})`)() as (h: number, b: Uint8Array) => number;
    const recs = d.records(id) as CaptureRecord[];
    const conn = recs.find((r) => r.kind === 'connection' && r.url.includes('id=evict'));
    if (!conn || conn.kind !== 'connection') return undefined;
    const own = recs.filter((r) => 'conn' in r && r.conn === conn.id);
    const enc = new TextEncoder();
    let h = h0;
    let kept = 0;
    let base64Chunks = 0;
    for (const r of own) {
      if (r.kind !== 'chunk') continue;
      if (r.base64 !== undefined) base64Chunks++;
      const b = enc.encode(r.text ?? ''); // the stream is ASCII: every chunk decodes as text
      h = f(h, b);
      kept += b.length;
    }
    const evictions = own.filter((r) => r.kind === 'evicted') as EvictionRecord[];
    const end = own.find((r) => r.kind === 'end');
    const derivedChars = JSON.stringify(evictions[evictions.length - 1]?.derived ?? null).length;
    return { kept, fnv: h >>> 0, base64Chunks, evictions, derivedChars, end: end?.kind === 'end' ? end.state : undefined };
  };
  let summary: ReturnType<typeof summarise>;
  await expect
    .poll(async () => {
      summary = await ext.debug(summarise, [tabId, fnv.toString(), FNV0]);
      return summary !== undefined && summary.end !== undefined;
    }, { timeout: 30_000 })
    .toBe(true);
  const s = summary!;
  const evictedBytes = s.evictions.reduce((n, r) => n + r.bytes, 0);
  console.log(`robust-faults: snapshot after the stream: ${s.evictions.length} eviction records, ${evictedBytes} B evicted, ${s.kept} B kept (cap ${DEFAULT_CAP} B), end ${s.end}; the last eviction's derived state is ${s.derivedChars} chars`);
  expect(s.base64Chunks).toBe(0);
  expect(s.end).toBe('complete');
  expect(s.kept).toBeLessThanOrEqual(DEFAULT_CAP);
  expect(evictedBytes + s.kept).toBe(got.len); // nothing lost silently
  // The kept bytes are exactly the server's last `kept` bytes.
  let h = FNV0;
  let offset = 0;
  for (const piece of bigPieces(EVICT_BYTES)) {
    const from = Math.max(0, evictedBytes - offset);
    if (from < piece.length) h = fnv(h, piece.subarray(from));
    offset += piece.length;
  }
  expect(s.fnv).toBe(h);
  // The eviction says what the evicted part amounted to: reply r, already started, its text so far.
  const last = s.evictions[s.evictions.length - 1];
  expect(last.derived?.incomplete).toBeUndefined();
  expect(last.derived?.replies.map((r) => r.id)).toEqual(["r"]);
  expect(last.derived?.replies[0].ended).toBeFalsy(); // REPLY_END comes after the eviction point

  // The panel (same snapshot) continues the reply after the eviction point.
  const opened = Date.now();
  const panel = await ext.panelPage(tabId);
  await panel.locator('[data-conn]').first().click();
  await expect(panel.getByText(/oldest events \(memory cap\)/)).toBeVisible({ timeout: 30_000 });
  console.log(`robust-faults: panel opened afterwards shows the connection's eviction notice after ${((Date.now() - opened) / 1000).toFixed(1)} s`);
  // The reply continues after the eviction point — its scrubber says so — and the ~60 MB of text kept is shown as a
  // bounded window (laying out all of it took the panel about a minute before LongText).
  await panel.locator('[data-reply="r"]').click();
  await expect(panel.getByTestId('step-pos')).toContainText('(continues after evicted events)', { timeout: 30_000 });
  const bar = panel.getByTestId('bubble').getByTestId('elided');
  await expect(bar).toContainText(/[\d,]+ characters not shown/);
  const hidden = Number((await bar.textContent())!.match(/([\d,]+) characters/)![1].replace(/,/g, ''));
  expect(hidden).toBeGreaterThan(10 * MiB); // (the text grows while the panel still works off its backlog)
  console.log(`robust-faults: the reply's scrubber and bubble shown after ${((Date.now() - opened) / 1000).toFixed(1)} s; ${hidden} characters of its text elided from the layout`);
  // Showing the reply's steps as they came in left a flat copy of its text in every checkpoint the bubble and diff
  // had read (readable-copies.ts): the panel's heap passed 2.7 GB here and Chrome killed the renderer in CI.
  const panelHeap = await heapNow(panel);
  console.log(`robust-faults: the panel's JS heap once the reply is shown: ${mb(panelHeap)} MiB (kept ${mb(s.kept)} MiB of stream)`);
  expect(panelHeap).toBeLessThan(20 * DEFAULT_CAP);
  await panel.close({ runBeforeUnload: false });
  await ext.debug((d, id: number) => d.unwatch(id), tabId);
  await page.close();
});

test('20 tabs streaming at once, one focused: every page body and every capture exact, each tab sees only its own', async () => {
  test.setTimeout(120_000);
  const tabs: { page: Page; tabId: number }[] = [];
  for (let i = 0; i < 20; i++) tabs.push(await openApp(`tab${i}`));
  await tabs[7].page.bringToFront(); // the one focused tab; the others are in the background
  const hidden = (await Promise.all(tabs.map((t) => t.page.evaluate(() => document.visibilityState)))).filter((v) => v === 'hidden').length;
  const results = await Promise.all(tabs.map((t, i) => readAllInPage(t.page, `/drip?id=t${i}&n=${100 + i}&gap=5`)));
  for (const [i, r] of results.entries()) {
    expect(r.error).toBeUndefined();
    expect(r.sha).toBe(sha(bytesOf(`t${i}`)));
  }
  for (const [i, t] of tabs.entries()) {
    const cap = await waitForCapture(ext, t.tabId, `id=t${i}&`);
    expect(cap.bytes.equals(bytesOf(`t${i}`))).toBe(true);
    expect(cap.end?.state).toBe('complete');
    // Only its own stream: no other tab's connection shows up in this tab's capture.
    const urls = (await ext.records(t.tabId)).filter((r) => r.kind === 'connection').map((r) => (r.kind === 'connection' ? r.url : ''));
    expect(urls).toEqual([expect.stringContaining(`id=t${i}&`)]);
  }
  console.log(`robust-faults: 20 tabs (${hidden} reported document.visibilityState=hidden), ${results.reduce((n, r) => n + r.len, 0)} B in all, every page body and capture exact`);
  for (const t of tabs) {
    await ext.debug((d, id: number) => d.unwatch(id), t.tabId);
    await t.page.close();
  }
});

/** Starts a /drip read in the page without awaiting it (the document may go away), and waits until data flows. */
async function startDrip(page: Page, id: string, n = 400): Promise<void> {
  void readAllInPage(page, `/drip?id=${id}&n=${n}&gap=10`).catch(() => undefined);
  await expect.poll(() => bytesOf(id).length).toBeGreaterThan(1500);
}

async function prefixAndEnd(tabId: number, id: string): Promise<{ kept: number; end: string }> {
  await expect.poll(async () => (await ext.debug((d, t: number) => d.documents(t), tabId)).some((doc) => doc.gone)).toBe(true);
  const records = await ext.records(tabId);
  const [conn] = connectionsMatching(records, `id=${id}&`);
  expect(conn).toBeDefined();
  const cap = captured(records, conn);
  expect(bytesOf(id).subarray(0, cap.bytes.length).equals(cap.bytes)).toBe(true); // a prefix of what was sent
  return { kept: cap.bytes.length, end: cap.end ? `${cap.end.state}${cap.end.error ? ` (${cap.end.error})` : ''}` : 'none — document gone' };
}

test('the page reloaded mid-stream: the capture (preserve log) is a prefix of a document marked gone, the reloaded page captures again', async () => {
  const { page, tabId } = await openApp('reload');
  await ext.debug((d, id: number) => d.setPreserveLog(id, true), tabId);
  await startDrip(page, 'rl');
  await page.reload();
  await sent.get('rl')?.closed;
  const old = await prefixAndEnd(tabId, 'rl');
  console.log(`robust-faults: page reload mid-stream — ${old.kept} of ${bytesOf('rl').length} B captured, end: ${old.end}`);
  const r = await readAllInPage(page, '/drip?id=rl2&n=20');
  expect(r.sha).toBe(sha(bytesOf('rl2')));
  expect((await waitForCapture(ext, tabId, 'id=rl2&')).bytes.equals(bytesOf('rl2'))).toBe(true);
  await page.close();
});

// Playwright's Chromium runs with --disable-back-forward-cache, so the page comes back as a new document here;
// robust-bfcache.spec.ts runs a browser with the cache on and checks a real restore.
test('a back/forward navigation mid-stream: the page comes back, the capture is a prefix of a document marked gone', async () => {
  const { page, tabId } = await openApp('bfcache');
  await ext.debug((d, id: number) => d.setPreserveLog(id, true), tabId);
  await page.evaluate(() => addEventListener('pageshow', (e) => ((window as unknown as { restored: boolean }).restored = e.persisted)));
  await startDrip(page, 'bf');
  await page.goto(`${server.url}/other?x`);
  await page.goBack();
  expect(await page.title()).toBe('/app?bfcache');
  const restored = await page.evaluate(() => (window as unknown as { restored?: boolean }).restored === true);
  await sent.get('bf')?.closed;
  const old = await prefixAndEnd(tabId, 'bf');
  console.log(`robust-faults: back/forward mid-stream (restored from bfcache: ${restored}) — ${old.kept} of ${bytesOf('bf').length} B captured, end: ${old.end}`);
  await page.close();
});

// Last: it unloads the extension for the rest of this browser. In this harness (Debian Chromium 156, extension given
// by --load-extension) chrome.runtime.reload() does not bring the extension back: its pages answer chrome-error and no
// worker starts again within 10 s. So only the page side can be checked here; the orphaned relay's side (what a new
// instance / panel would say, and a page reload capturing again) is reported to the lead as not testable this way.
test('the extension reloaded mid-stream: the page gets every byte', async () => {
  const { page, tabId } = await openApp('extreload');
  const reading = readAllInPage(page, '/drip?id=er&n=300&gap=10');
  await expect.poll(() => bytesOf('er').length).toBeGreaterThan(1500);
  const before = (await waitForCapture(ext, tabId, 'id=er&', () => true)).bytes.length;
  const worker = await ext.serviceWorker();
  await worker.evaluate(() => chrome.runtime.reload()).catch(() => undefined); // the worker dies while answering
  const sentWhenReloaded = bytesOf('er').length;
  const r = await reading;
  expect(r.error).toBeUndefined();
  expect(r.sha).toBe(sha(bytesOf('er'))); // the page is unaffected
  const probe = await ext.context.newPage();
  await probe.goto(`chrome-extension://${ext.extensionId}/src/extension/devtools.html`).catch(() => undefined);
  const back = probe.url().startsWith('chrome-extension://');
  console.log(`robust-faults: extension reload mid-stream — page got all ${r.len} B (reloaded at ${sentWhenReloaded} B sent, ${before} B captured by then); extension back afterwards: ${back}, live workers: ${ext.context.serviceWorkers().length}`);
  await probe.close();
  await page.close();
});

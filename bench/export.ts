// `npm run bench:export [-- --quick] [-- --node-only]`: what writing an export costs the page, made at once (in one
// task, the HAR from exportHar's object, as the panel wrote files before) and in slices (the parts the panel now
// drains a slice at a time, export-writer.ts).
// - Node, on a generated AgentScope session (~300 MB of body; --quick ~60 MB): the time to write each format, and the
//   longest stretch of work between two parts of the sliced writer — the longest the page can be held by one slice
//   (a slice ends at the first part after 12 ms).
// - Chromium, the standalone viewer with a capture made in the page (~300 MB; --quick ~110 MB), exported through the
//   dialog: the time until the file is saved (downloaded, or — past what a download holds — written to the file
//   chosen, here one of the origin's private file system), the frames painted meanwhile, their longest interval and
//   the long tasks (over 50 ms).
// Figures, not budgets: tests assert no timings (test/e2e/viewer-export-progress.spec.ts asserts the structure).
import { statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { generateCapture } from './capture-gen.ts';
import { gc, quantile } from './stats.ts';
import { makeHeader, captureLogParts } from '../src/core/capture/capture-log.ts';
import { exportHar } from '../src/core/capture/har.ts';
import { jsonParts } from '../src/core/capture/json-parts.ts';
import { harParts } from '../src/core/capture/har-parts.ts';
import type { Capture } from '../src/core/capture/model.ts';
import { buildViewer } from '../panel/dev/build-viewer.ts';
import { serveStatic, type StaticServer } from '../panel/dev/serve-static.ts';
import { makeTempDir, removeTempDir } from '../test/temp-dir.ts';

const quick = process.argv.includes('--quick');
const nodeOnly = process.argv.includes('--node-only');
const log = (s: string) => process.stdout.write(`${s}\n`);

/** The file made in one task, as the panel made it before: its parts drained into one count (not one string). */
function atOnce(parts: () => Iterable<string>): { ms: number; chars: number } {
  const t = performance.now();
  let chars = 0;
  for (const p of parts()) chars += p.length;
  return { chars, ms: performance.now() - t };
}

function inSlices(parts: Iterable<string>): { ms: number; chars: number; longestMs: number; p99Ms: number } {
  const gaps: number[] = [];
  let chars = 0;
  let longest = 0;
  const t0 = performance.now();
  let last = t0;
  for (const p of parts) {
    const now = performance.now();
    gaps.push(now - last);
    longest = Math.max(longest, now - last);
    last = now;
    chars += p.length;
  }
  const sorted = Float64Array.from(gaps).sort();
  return { ms: last - t0, chars, longestMs: longest, p99Ms: sorted[Math.floor(0.99 * (sorted.length - 1))] };
}

function nodeFigures(): void {
  const events = quick ? 300_000 : 1_450_000;
  const g = generateCapture({ events });
  const capture: Capture = { header: makeHeader('bench', { created: '2026-03-01T00:00:00.000Z' }), records: g.records };
  log(`Node ${process.version}: ${g.events.toLocaleString('en')} events, ${(g.bodyBytes / 1e6).toFixed(0)} MB of body, ${g.records.length.toLocaleString('en')} records`);
  for (const [name, once, sliced] of [
    ['capture log', () => captureLogParts(capture), () => captureLogParts(capture)],
    // (made at once: exportHar's object, then written; joined into one string it is more than a string holds)
    ['HAR', () => jsonParts(exportHar(capture), 2), () => harParts(capture)],
  ] as const) {
    gc(); // (what one run left is not collected in the next)
    const a = atOnce(once);
    gc();
    const s = inSlices(sliced());
    log(`  ${name}: at once ${(a.ms / 1000).toFixed(1)} s in one task (${(a.chars / 1e6).toFixed(0)} M chars); ` +
      `in slices ${(s.ms / 1000).toFixed(1)} s (${(s.chars / 1e6).toFixed(0)} M chars), between two parts at most ${s.longestMs.toFixed(0)} ms, p99 ${s.p99Ms.toFixed(2)} ms`);
  }
}

/** In the page: one AgentScope reply in `n` chunks of ~560 bytes (some multi-byte), handed to the viewer's store. */
const LOAD = `async (n) => {
  const t0 = Date.UTC(2026, 2, 1, 9);
  const words = 'stream token déjà vu 数据 流式 🙂 reply model agent '.repeat(12);
  const records = [{ kind: 'connection', id: 'big:1', transport: 'fetch', frameUrl: '', method: 'POST', url: 'https://api.example/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: t0, responseTime: t0 + 5 }];
  const enc = new TextEncoder();
  for (let i = 0; i < n; i++) {
    const text = 'data: {"type":"TEXT_BLOCK_DELTA","reply_id":"r1","block_id":"t","delta":"' + i + ' ' + words + '"}\\n\\n';
    records.push({ kind: 'chunk', conn: 'big:1', t: t0 + 10 + i, bytes: enc.encode(text).length, text });
  }
  records.push({ kind: 'end', conn: 'big:1', t: t0 + 10 + n, state: 'complete' });
  const { store } = window.replyscopePanel;
  store.ingest(records);
  await store.whenIdle();
}`;

/** The save-file picker answered with a file of the origin's private file system (Playwright intercepts the real one). */
const CHOOSE_IN_ORIGIN_STORAGE = `(() => {
  window.showSaveFilePicker = async ({ suggestedName }) => {
    window.__chosen = suggestedName;
    return (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true });
  };
})()`;
const CHOSEN_SIZE = `(async () => window.__chosen
  ? (await (await (await navigator.storage.getDirectory()).getFileHandle(window.__chosen)).getFile()).size : 0)()`;
/** The chosen file removed (the private file system has a quota). */
const REMOVE_CHOSEN = `(async () => window.__chosen && (await navigator.storage.getDirectory()).removeEntry(window.__chosen))()`;

const WATCH = `(() => {
  window.__frames = []; window.__long = [];
  if (window.__watching) return;
  window.__watching = true;
  const loop = (t) => { window.__frames.push(t); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
})()`;

async function browserFigures(): Promise<void> {
  const chunks = quick ? 200_000 : 540_000;
  // The viewer's build and the browser's profile, removed however the run ends (a build or a launch that failed too).
  const tmp = makeTempDir('replyscope-bench-export-');
  let server: StaticServer | undefined;
  let context: BrowserContext | undefined;
  try {
    await buildViewer(path.join(tmp, 'viewer'));
    server = await serveStatic(path.join(tmp, 'viewer'));
    // A profile on disk: the private file system of one in memory (a private window) has a small quota.
    context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'], viewport: { width: 1400, height: 860 },
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/index.html`);
    await page.evaluate(`(${LOAD})(${chunks})`);
    await page.evaluate(CHOOSE_IN_ORIGIN_STORAGE); // a file too large to download goes to a file chosen (export-writer.ts)
    log(`Chromium: one reply in ${chunks.toLocaleString('en')} chunks (~${Math.round((chunks * 560) / 1e6)} MB), exported through the dialog`);
    for (const [name, label] of [['capture log', 'Capture log (.replyscope.ndjson)'], ['HAR', 'HAR 1.2']]) {
      await page.evaluate(WATCH);
      await page.getByRole('button', { name: 'Export…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Export' });
      await dialog.getByLabel(label).check();
      const t0 = await page.evaluate('performance.now()') as number;
      const downloaded = page.waitForEvent('download', { timeout: 600_000 }).then(async (d) => statSync((await d.path())!).size).catch(() => 0);
      await dialog.getByRole('button', { name: 'Export', exact: true }).click();
      const failed = dialog.getByRole('alert').waitFor({ timeout: 600_000 }).then(async () => {
        throw new Error(`the export failed: ${await dialog.getByRole('alert').textContent()}`);
      }, () => undefined); // (no alert before the page closed: nothing failed)
      await Promise.race([dialog.waitFor({ state: 'detached', timeout: 600_000 }), failed]);
      const t1 = await page.evaluate('performance.now()') as number;
      const frames = (await page.evaluate('window.__frames') as number[]).filter((t) => t >= t0 && t <= t1);
      const gaps = frames.slice(1).map((t, i) => t - frames[i]);
      const long = await page.evaluate('window.__long') as number[];
      const chosen = await page.evaluate(CHOSEN_SIZE) as number;
      const where = chosen ? `written to the file chosen: ${(chosen / 1e6).toFixed(0)} MB` : `downloaded: ${((await downloaded) / 1e6).toFixed(0)} MB`;
      log(`  ${name}: ${((t1 - t0) / 1000).toFixed(1)} s until saved (${where}); ${frames.length} frames painted meanwhile, ` +
        `longest interval ${gaps.length ? Math.max(...gaps).toFixed(0) : '—'} ms, p95 ${gaps.length ? quantile(gaps, 0.95).toFixed(0) : '—'} ms; ` +
        `long tasks: ${long.length}, longest ${long.length ? Math.max(...long).toFixed(0) : '—'} ms`);
      await page.evaluate(REMOVE_CHOSEN);
      await page.evaluate('window.__frames = []; window.__long = []; window.__chosen = undefined');
    }
  } finally {
    await context?.close();
    await server?.close();
    removeTempDir(tmp);
  }
}

nodeFigures();
if (!nodeOnly) await browserFigures();

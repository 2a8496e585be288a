// Browser set-up for the UI figures: a private build of the extension (other engineers rebuild dist/ all the time),
// Chromium with and without it, and a loopback server with an app page that reads an SSE stream the way the
// AgentScope web UI does (fetch reader, TextDecoder, split on "\n", JSON.parse each "data: " line).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { makeTempDir, removeTempDir } from '../test/temp-dir.ts';

export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const repoRoot = path.resolve(import.meta.dirname, '..');

/** `vite build` into bench/.cache/dist (the repo's own build, so the benchmark runs the code in this tree). */
export function buildExtension(): string {
  const out = path.join(import.meta.dirname, '.cache', 'dist');
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(path.join(out, 'manifest.json'))) throw new Error(`vite build wrote no manifest to ${out}`);
  return out;
}

const BASE_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-renderer-backgrounding', '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium, headless, with the extension at `dist` loaded or (dist undefined) with none — same flags otherwise. */
export async function launch(dist: string | undefined): Promise<Browser> {
  const profile = makeTempDir('replyscope-bench-');
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: dist ? [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`, ...BASE_ARGS] : BASE_ARGS,
    });
  } catch (err) {
    removeTempDir(profile);
    throw err;
  }
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        removeTempDir(profile);
      }
    },
  };
}

/**
 * The app page: `window.readStream(path)` reads the stream and resolves with its time and long tasks. With `keep`,
 * the page also keeps a copy of every chunk, as a tap must (the floor of any capture that holds the bytes in the page).
 */
const APP_HTML = `<!doctype html><meta charset="utf-8"><title>app</title><body><pre id="out"></pre><script>
const longTasks = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) longTasks.push(e); }).observe({ type: 'longtask', buffered: true });
window.readStream = async (path, keep) => {
  const before = longTasks.length;
  const t0 = performance.now();
  const res = await fetch(path);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const copies = [];
  let buffer = '', events = 0, last, copyMs = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (keep) {
      const c0 = performance.now();
      copies.push(value.slice());
      copyMs += performance.now() - c0;
    }
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\\n');
    buffer = lines.pop();
    for (const line of lines) if (line.startsWith('data: ')) { last = JSON.parse(line.slice(6)); events++; }
  }
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 0)); // let the observer deliver the last entries
  const tasks = longTasks.slice(before);
  document.getElementById('out').textContent = events + ' events, last ' + (last && last.type);
  return { ms, events, longTasks: tasks.length, longTaskMs: tasks.reduce((s, e) => s + e.duration, 0), copyMs, copied: copies.length };
};
</script>`;

export interface StreamServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves /app and the SSE bodies in `streams` (path → body). A body is written in 64 KiB pieces as fast as the
 * socket takes them, or, with `rate` (events per second), in 10 ms ticks of rate/100 frames.
 */
export async function startStreamServer(streams: Record<string, { body: Buffer; frameEnds?: number[]; rate?: number }>): Promise<StreamServer> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(APP_HTML);
      return;
    }
    const s = streams[url];
    if (!s) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    void writeBody(res, s).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function writeBody(res: http.ServerResponse, s: { body: Buffer; frameEnds?: number[]; rate?: number }): Promise<void> {
  const write = (b: Buffer) => new Promise<void>((resolve) => (res.write(b) ? resolve() : res.once('drain', () => resolve())));
  if (s.rate && s.frameEnds) {
    const perTick = Math.max(1, Math.round(s.rate / 100));
    const start = Date.now();
    let from = 0;
    for (let f = 0, tick = 0; f < s.frameEnds.length; f += perTick, tick++) {
      const to = s.frameEnds[Math.min(s.frameEnds.length, f + perTick) - 1];
      await write(s.body.subarray(from, to));
      from = to;
      const due = start + (tick + 1) * 10 - Date.now(); // pace by the wall clock, not by sleeping a fixed 10 ms
      if (due > 0) await new Promise((r) => setTimeout(r, due));
    }
  } else {
    for (let i = 0; i < s.body.length; i += 65536) await write(s.body.subarray(i, i + 65536));
  }
  res.end();
}

/** Byte offsets just after each frame ("\n\n") of an SSE body. */
export function frameEnds(body: Buffer): number[] {
  const out: number[] = [];
  for (let i = body.indexOf('\n\n'); i !== -1; i = body.indexOf('\n\n', i + 2)) out.push(i + 2);
  return out;
}

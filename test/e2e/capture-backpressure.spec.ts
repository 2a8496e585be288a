// A slow page reader keeps its backpressure: the tap reads the network only when the page pulls, so the server's
// writes are throttled as without the extension. Measured on the server side: how far the server's written bytes
// run ahead of what the page has read. With backpressure that lead is bounded by what the network path buffers
// (kernel socket buffers + Chromium's data pipe, ~10–15 MB on loopback); a tee branch that drains the network would
// let it grow to nearly the whole ~100 MB stream. The same measurement on an untapped stream shows the method works.
// Also checks the per-document memory cap: a small limit forces eviction, and kept + evicted bytes add up exactly.
import { expect, test, type Page } from '@playwright/test';
import { startAgentServer, type AgentServer } from './support/agent-server.ts';
import { launchWithExtension, setCaptureLimit, type ExtensionBrowser } from './support/extension.ts';

let ext: ExtensionBrowser;
let server: AgentServer;
let page: Page;

const PIECES = 1500; // × 65 kB ≈ 98 MB
const LIMIT = 8 * 1024 * 1024;

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startAgentServer();
  // A small capture cap (the default is 64 MB), set the way the panel does: storage.local.
  await setCaptureLimit(ext, LIMIT);
  page = await ext.context.newPage();
  await page.goto(`${server.url}/app`);
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

type WindowWithReader = Window & { __reader: ReadableStreamDefaultReader<Uint8Array> };

/** Opens the stream in the page without reading, then reads it in ~1 MB steps; returns the server's largest lead. */
async function serverLead(id: string, type: string): Promise<{ maxLead: number; total: number; pageBytes: number }> {
  await page.evaluate(async ({ url }) => {
    const res = await fetch(url);
    (window as unknown as WindowWithReader).__reader = res.body!.getReader();
  }, { url: `/stream?id=${id}&big=${PIECES}&type=${encodeURIComponent(type)}` });
  const log = await server.arrived(id);
  // The server first fills whatever the path buffers, until the socket pushes back.
  await expect.poll(() => log.pushedBack, { message: 'server never felt backpressure' }).toBeGreaterThan(0);
  let read = 0;
  let lead = log.written;
  for (;;) {
    const n = await page.evaluate(async () => {
      let got = 0;
      while (got < 1024 * 1024) {
        const r = await (window as unknown as WindowWithReader).__reader.read();
        if (r.done) return got === 0 ? -1 : got;
        got += r.value.byteLength;
      }
      return got;
    });
    if (n < 0) break;
    read += n;
    lead = Math.max(lead, log.written - read);
  }
  return { maxLead: lead, total: log.written, pageBytes: read };
}

test('a slow reader throttles the server as without the extension; the memory cap evicts oldest chunks', async () => {
  const untapped = await serverLead('bp-plain', 'text/plain');
  const tapped = await serverLead('bp-sse', 'text/event-stream');
  console.log(`server lead over the page: untapped ${untapped.maxLead} B, tapped ${tapped.maxLead} B of ${tapped.total} B`);
  expect(tapped.total).toBeGreaterThan(PIECES * 65_000);
  expect(untapped.pageBytes).toBe(untapped.total);
  expect(tapped.pageBytes).toBe(tapped.total);
  const bound = tapped.total * 0.4;
  expect(untapped.maxLead, 'the measurement itself sees a bounded lead').toBeLessThan(bound);
  expect(tapped.maxLead, 'the tap keeps the backpressure').toBeLessThan(bound);

  // Eviction: the capture kept at most the cap, and what it kept plus what it evicted is the whole stream.
  const tabId = await ext.tabIdFor(page);
  await ext.watch(tabId);
  let summary = { kept: 0, evicted: 0, evictedChunks: 0, ended: '' };
  await expect
    .poll(async () => {
      summary = await ext.debug((d, id: number) => {
        const recs = d.records(id);
        const conn = recs.find((r) => r.kind === 'connection' && r.url.includes('id=bp-sse')) as { id: string } | undefined;
        const out = { kept: 0, evicted: 0, evictedChunks: 0, ended: '' };
        for (const r of recs) {
          if (!conn || !('conn' in r) || r.conn !== conn.id) continue;
          if (r.kind === 'chunk') out.kept += r.bytes;
          if (r.kind === 'evicted') {
            out.evicted += r.bytes;
            out.evictedChunks += r.chunks;
          }
          if (r.kind === 'end') out.ended = r.state;
        }
        return out;
      }, tabId);
      return summary.ended;
    })
    .toBe('complete');
  expect(summary.kept).toBeLessThanOrEqual(LIMIT);
  expect(summary.evictedChunks).toBeGreaterThan(0);
  expect(summary.kept + summary.evicted).toBe(tapped.total);
});

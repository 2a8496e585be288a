// Large chunks in real Chromium: a page that reads slower than the network gets its body in chunks of up to 2 MiB,
// and the tap copies each such chunk in a task of its own before handing it over (src/extension/tap/body-tap.ts).
// The body is multibyte UTF-8, so chunk ends cut characters and the tap's payloads carry the cut bytes over. Checked:
// the page actually got large chunks, page and capture get the server's bytes, and a page that cancels after its
// first large chunk finds in the capture exactly what it read.
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { waitForCapture } from './support/capture.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';

const LARGE_CHUNK = 256 * 1024; // body-tap.ts's threshold
const BODY = Buffer.from(Array.from({ length: 60_000 }, (_, i) => `data: {"n":${i},"text":"日本語のテキスト ✓ ${i}"}\n\n`).join(''));

let ext: ExtensionBrowser;
let server: TestServer;
let page: Page;
let tabId: number;

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(async (req, res) => {
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    for (let i = 0; i < BODY.length; i += 100_003) await writeAndWait(res, BODY.subarray(i, i + 100_003));
    res.end();
  });
  ({ page, tabId } = await ext.openWatchedPage(`${server.url}/app`));
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

interface SlowRead {
  len: number;
  sha: string;
  sizes: number[];
}

/**
 * Opens the stream, lets the network fill Chromium's buffers before each read (so reads return large chunks), and
 * reads until the end or, with `cancelAfterLarge`, cancels after the first chunk of at least LARGE_CHUNK bytes.
 */
function slowRead(id: string, cancelAfterLarge: boolean): Promise<SlowRead> {
  return page.evaluate(async ({ url, cancelAfterLarge, large }) => {
    const reader = (await fetch(url)).body!.getReader();
    const parts: Uint8Array[] = [];
    const sizes: number[] = [];
    for (;;) {
      await new Promise((r) => setTimeout(r, 30)); // a page busy with other work: data piles up meanwhile
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      sizes.push(value.byteLength);
      if (cancelAfterLarge && value.byteLength >= large) {
        await reader.cancel('enough');
        break;
      }
    }
    const all = new Uint8Array(await new Blob(parts as BlobPart[]).arrayBuffer());
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', all))].map((b) => b.toString(16).padStart(2, '0')).join('');
    return { len: all.length, sha: digest, sizes };
  }, { url: `/stream?id=${id}`, cancelAfterLarge, large: LARGE_CHUNK });
}

test('a slow page gets large chunks: page and capture get the server bytes, cut characters included', async () => {
  const got = await slowRead('large-all', false);
  expect(Math.max(...got.sizes), 'the page got large chunks (else this test proves nothing)').toBeGreaterThanOrEqual(LARGE_CHUNK);
  expect(got.len).toBe(BODY.length);
  expect(got.sha).toBe(sha(BODY));
  const cap = await waitForCapture(ext, tabId, 'id=large-all');
  expect(cap.end?.state).toBe('complete');
  expect(cap.bytes.length).toBe(BODY.length);
  expect(sha(cap.bytes)).toBe(sha(BODY));
});

test('a page that cancels after its first large chunk: the capture holds exactly what the page read', async () => {
  const got = await slowRead('large-cancel', true);
  expect(got.sizes.at(-1)).toBeGreaterThanOrEqual(LARGE_CHUNK);
  expect(got.len).toBeLessThan(BODY.length);
  const cap = await waitForCapture(ext, tabId, 'id=large-cancel');
  expect(cap.end?.state).toBe('cancelled');
  expect(cap.bytes.length).toBe(got.len);
  expect(sha(cap.bytes)).toBe(got.sha);
  expect(got.sha).toBe(sha(BODY.subarray(0, got.len)));
});

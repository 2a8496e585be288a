// The whole chain: a page streams AgentScope events through fetch (GET with heartbeats, POST, gzip, CRLF, UTF-8 split
// across chunks), EventSource and XHR; the capture is exported as a capture log, and the `replyscope` CLI — a separate
// process reading only that file — reconstructs exactly the messages the server's events describe.
import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeCaptureLog, makeHeader } from '../../src/core/capture/capture-log.ts';
import { agentEvents } from './support/agent-server.ts';
import { waitForCapture } from './support/capture.ts';
import { launchWithExtension, repoRoot, type ExtensionBrowser } from './support/extension.ts';
import { startServer, type TestServer } from './support/server.ts';
import { useTempDir } from './support/temp-dir.ts';

const run = promisify(execFile);

let ext: ExtensionBrowser;
let server: TestServer;
let page: Page;
let tabId: number;
const exported = useTempDir('rs-replay-'); // where the capture log is written for the CLI

// One reply per transport, each with its own text, so a mix-up between connections would show.
const TEXTS: Record<string, string[]> = {
  get: ['Héllo, ', 'wörld ', '世界 ', '🙂🙂', ' done'],
  post: ['Posted ', 'answer ', 'ünïcode ✓'],
  gzip: ['Compressed ', 'body'],
  crlf: ['Windows ', 'line ', 'endings'],
  es: ['Event', 'Source ', 'stream'],
  xhr: ['XHR ', 'incremental ', 'text'],
};

function body(kind: string): Buffer {
  const eol = kind === 'crlf' ? '\r\n' : '\n';
  return Buffer.from(`:${eol}${eol}` + agentEvents(`reply-${kind}`, TEXTS[kind], eol).join(''), 'utf8');
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>app</title>');
      return;
    }
    const kind = url.pathname.slice(1);
    if (!(kind in TEXTS)) {
      res.writeHead(404).end();
      return;
    }
    for await (const _ of req); // drain the request body
    const bytes = body(kind);
    if (kind === 'gzip') {
      const { gzipSync } = await import('node:zlib');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' }).end(gzipSync(bytes));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    // Cut every 7 bytes: chunk boundaries fall inside lines and inside multi-byte characters.
    for (let i = 0; i < bytes.length; i += 7) {
      res.write(bytes.subarray(i, i + 7));
      await new Promise((r) => setImmediate(r));
    }
    res.end();
  });
  ({ page, tabId } = await ext.openWatchedPage(`${server.url}/app`));
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

test('every transport: capture log → replyscope replay reconstructs the server’s messages', async () => {
  await page.evaluate(async () => {
    const drain = async (res: Response) => {
      const reader = res.body!.getReader();
      while (!(await reader.read()).done);
    };
    await drain(await fetch('/get'));
    await drain(await fetch('/post', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"hi"}' }));
    await drain(await fetch('/gzip'));
    await drain(await fetch('/crlf'));
    await new Promise<void>((resolve) => {
      const es = new EventSource('/es');
      es.onmessage = (e) => {
        if (JSON.parse(e.data).type === 'REPLY_END') {
          es.close();
          resolve();
        }
      };
    });
    await new Promise<void>((resolve) => {
      const xhr = new XMLHttpRequest();
      xhr.open('GET', '/xhr');
      xhr.onloadend = () => resolve();
      xhr.send();
    });
  });
  for (const kind of Object.keys(TEXTS)) {
    await waitForCapture(ext, tabId, `/${kind}`, (c) => c.end !== undefined || (kind === 'es' && c.messages.length >= TEXTS.es.length + 4));
  }
  const records = await ext.records(tabId);
  const file = path.join(exported(), 'capture.replyscope.ndjson');
  writeFileSync(file, writeCaptureLog({ header: makeHeader('replyscope-e2e', { pageUrl: page.url() }), records }));

  const { stdout } = await run(process.execPath, [path.join(repoRoot, 'bin/replyscope.js'), 'replay', file], { maxBuffer: 64 << 20 });
  const out = JSON.parse(stdout) as { url: string; dialect: string; replies: { id: string; final: any }[] }[];
  for (const [kind, text] of Object.entries(TEXTS)) {
    const conn = out.find((c) => new URL(c.url).pathname === `/${kind}`);
    expect(conn, kind).toBeDefined();
    expect(conn!.dialect).toBe('agentscope');
    expect(conn!.replies.map((r) => r.id)).toEqual([`reply-${kind}`]);
    const final = conn!.replies[0].final;
    expect(final.content.map((b: any) => [b.type, b.id, b.text])).toEqual([['text', 'b1', text.join('')]]);
    expect(final.finished_reason).toBe('completed');
    expect(final.name).toBe('Friday');
  }

  // The validator finds nothing wrong with these clean streams (info-level notes such as EventSource's are fine).
  const check = await run(process.execPath, [path.join(repoRoot, 'bin/replyscope.js'), 'validate', file, '--json']);
  const diags = JSON.parse(check.stdout) as { severity: string; code: string }[];
  expect(diags.filter((d) => d.severity !== 'info')).toEqual([]);
});

// Passthrough fuzz: random streams from a loopback server, read by the page in random ways, in real Chromium with
// the built extension. In every run the page must get exactly the server's bytes (or, after a fault, a prefix of
// them and the error it caused), and the capture must hold exactly the bytes the page got, ending with the state
// that explains where and why it stopped. One browser for all streams; ROBUST_RUNS (default 40) and ROBUST_SEED
// (default 1) choose the run: `ROBUST_RUNS=1000 npx playwright test robust-passthrough` is the full run.
import { createHash } from 'node:crypto';
import type http from 'node:http';
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import type { CaptureRecord, EvictionRecord } from '../../src/core/capture/model.ts';
import { passthroughSpecs, type PassthroughSpec } from '../fuzz/passthrough-gen.ts';
import { captured, connectionsMatching } from './support/capture.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { startServer, type TestServer } from './support/server.ts';

const RUNS = Number(process.env.ROBUST_RUNS ?? 40);
const SEED = Number(process.env.ROBUST_SEED ?? 1);

interface Served {
  spec: PassthroughSpec;
  sent: Buffer[];
  done: Promise<void>;
}

let ext: ExtensionBrowser;
let server: TestServer;
let page: Page;
let tabId: number;
const served = new Map<string, Served>();

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/app') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>passthrough</title><p>passthrough fuzz');
    return;
  }
  const s = served.get(url.searchParams.get('id') ?? '');
  if (!s) {
    res.writeHead(404).end();
    return;
  }
  const { spec } = s;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', ...(spec.gzip ? { 'content-encoding': 'gzip' } : {}) });
  res.flushHeaders(); // the head goes out now: a close at byte 0 is then a body that fails, not a failed request
  const gz = spec.gzip ? zlib.createGzip() : undefined;
  gz?.pipe(res);
  const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
  // Resolves once the bytes are handed to the socket (gzip: flushed through the compressor first), or the page left.
  const write = (chunk: Buffer) => Promise.race([closed, new Promise<void>((resolve) => {
    if (gz) {
      gz.write(chunk);
      gz.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve());
    } else res.write(chunk, () => resolve());
  })]);
  let at = 0;
  for (const [i, n] of spec.pieces.entries()) {
    if (spec.delays[i]) await wait(spec.delays[i]);
    let piece = Buffer.from(spec.body.subarray(at, at + n));
    if (spec.closeAfter !== undefined && at + piece.length > spec.closeAfter) piece = piece.subarray(0, spec.closeAfter - at);
    if (piece.length) {
      if (res.destroyed) return; // the page went away (abort/cancel)
      s.sent.push(piece);
      await write(piece);
    }
    at += piece.length;
    if (spec.closeAfter !== undefined && at >= spec.closeAfter) {
      await new Promise<void>((r) => setImmediate(r));
      res.socket?.destroy(); // mid-body: no terminating chunk, the browser sees a network error
      return;
    }
  }
  if (gz) gz.end();
  else res.end();
}

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startServer((req, res) => {
    const s = served.get(new URL(req.url ?? '/', 'http://x').searchParams.get('id') ?? '');
    const p = serve(req, res);
    if (s) s.done = p;
    return p;
  });
  ({ page, tabId } = await ext.openWatchedPage(`${server.url}/app`));
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
});

interface PageResult {
  error?: string;
  len: number;
  sha: string;
  /** Second branch of a clone. */
  clone?: { len: number; sha: string; error?: string };
}

/** Reads one stream in the page as the spec says; returns length + SHA-256 of what the page got. */
function readInPage(url: string, spec: PassthroughSpec): Promise<PageResult> {
  const opts = { read: spec.read, slowRead: spec.slowRead, abortAfter: spec.abortAfter, cancelAfter: spec.cancelAfter };
  return page.evaluate(async ({ url, opts }) => {
    const hex = async (bytes: Uint8Array) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const ctrl = new AbortController();
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const readAll = async (body: ReadableStream<Uint8Array>, faults: boolean) => {
      const reader = body.getReader();
      const parts: Uint8Array[] = [];
      let len = 0;
      let error: string | undefined;
      try {
        for (;;) {
          if (opts.slowRead) await sleep(opts.slowRead);
          const { done, value } = await reader.read();
          if (done) break;
          parts.push(value);
          len += value.length;
          if (faults && opts.abortAfter !== undefined && len >= opts.abortAfter) ctrl.abort();
          if (faults && opts.cancelAfter !== undefined && len >= opts.cancelAfter) {
            await reader.cancel('page has enough');
            break;
          }
        }
      } catch (e) {
        error = `${(e as Error).name}: ${(e as Error).message}`;
      }
      const all = new Uint8Array(len);
      let at = 0;
      for (const p of parts) {
        all.set(p, at);
        at += p.length;
      }
      return { len, sha: await hex(all), ...(error ? { error } : {}) };
    };
    const ofText = async (t: string) => {
      const b = new TextEncoder().encode(t);
      return { len: b.length, sha: await hex(b) };
    };
    try {
      const res = await fetch(url, { signal: ctrl.signal });
      switch (opts.read) {
        case 'reader':
          return await readAll(res.body!, true);
        case 'text':
          return await ofText(await res.text());
        case 'json':
          return await ofText(JSON.stringify(await res.json()));
        case 'arrayBuffer': {
          const b = new Uint8Array(await res.arrayBuffer());
          return { len: b.length, sha: await hex(b) };
        }
        case 'clone-reader': {
          const copy = res.clone();
          const [a, b] = await Promise.all([readAll(res.body!, true), readAll(copy.body!, false)]);
          return { ...a, clone: b };
        }
        case 'clone-text': {
          const copy = res.clone();
          const [a, b] = await Promise.all([res.text().then(ofText), copy.text().then(ofText)]);
          return { ...a, clone: b };
        }
      }
    } catch (e) {
      return { len: 0, sha: '', error: `${(e as Error).name}: ${(e as Error).message}` };
    }
    return { len: 0, sha: '', error: 'unknown read mode' };
  }, { url, opts });
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** What the page should have received for `sent` (text modes decode and re-encode; json re-serialises). */
function expectedPage(spec: PassthroughSpec, sent: Buffer): { len: number; sha: string } {
  if (spec.read === 'text' || spec.read === 'clone-text') {
    const b = Buffer.from(new TextDecoder().decode(sent));
    return { len: b.length, sha: sha(b) };
  }
  if (spec.read === 'json') {
    const b = Buffer.from(JSON.stringify(JSON.parse(new TextDecoder().decode(sent))));
    return { len: b.length, sha: sha(b) };
  }
  return { len: sent.length, sha: sha(sent) };
}

interface Figures {
  runs: number;
  bytes: number;
  modes: Record<string, number>;
  faults: Record<string, number>;
  gzip: number;
  oneByteWrites: number;
  drips: number;
  slowReads: number;
  longLines: number;
  eightMbLines: number;
  exactComplete: number;
  stoppedPrecisely: number;
  evictions: number;
  failures: string[];
}

test(`passthrough fuzz: ${RUNS} random streams (seed ${SEED}), page and capture get the server's bytes`, async () => {
  test.setTimeout(120_000 + RUNS * 3_000);
  const f: Figures = { runs: 0, bytes: 0, modes: {}, faults: {}, gzip: 0, oneByteWrites: 0, drips: 0, slowReads: 0, longLines: 0, eightMbLines: 0, exactComplete: 0, stoppedPrecisely: 0, evictions: 0, failures: [] };
  const specs = passthroughSpecs(SEED, RUNS);
  for (const [i, spec] of specs.entries()) {
    const id = `s${SEED}-${i}`;
    const entry: Served = { spec, sent: [], done: Promise.resolve() };
    served.set(id, entry);
    const fault = spec.closeAfter !== undefined ? 'close' : spec.abortAfter !== undefined ? 'abort' : spec.cancelAfter !== undefined ? 'cancel' : 'none';
    f.runs++;
    f.modes[spec.read] = (f.modes[spec.read] ?? 0) + 1;
    f.faults[fault] = (f.faults[fault] ?? 0) + 1;
    if (spec.gzip) f.gzip++;
    f.oneByteWrites += spec.pieces.filter((n) => n === 1).length;
    if (spec.delays.some((d) => d > 0)) f.drips++;
    if (spec.slowRead) f.slowReads++;
    if (spec.body.length > 60_000) f.longLines++;
    if (spec.body.length > 8_000_000) f.eightMbLines++;
    const fail = (why: string) => f.failures.push(`run ${i} (${spec.read}, fault ${fault}, gzip ${spec.gzip}, ${spec.body.length} B): ${why}`);

    const got = await readInPage(`/p?id=${id}`, spec);
    await entry.done;
    const sent = Buffer.concat(entry.sent);
    f.bytes += sent.length;
    // The capture: wait for its end record (every way a body can stop ends in one).
    let records: CaptureRecord[] = [];
    const ended = await expect.poll(async () => {
      records = await ext.records(tabId);
      const c = connectionsMatching(records, `id=${id}`)[0];
      return c !== undefined && records.some((r) => r.kind === 'end' && r.conn === c.id);
    }, { timeout: 15_000 }).toBe(true).then(() => true, () => false);
    const conn = connectionsMatching(records, `id=${id}`)[0];
    if (!conn || !ended) {
      const cap = conn && captured(records, conn);
      fail(conn ? `the capture never ended (${cap?.bytes.length} B captured, page ${got.len} B, error ${got.error ?? 'none'}, sent ${sent.length} B)` : 'no connection in the capture');
      served.delete(id);
      await ext.debug((d, t: number) => d.clear(t), tabId);
      continue;
    }
    const cap = captured(records, conn);
    const evicted = cap.records.filter((r): r is EvictionRecord => r.kind === 'evicted').reduce((n, r) => n + r.bytes, 0);
    if (evicted) f.evictions++;
    const state = cap.end?.state;

    // Cancelling one branch of a clone leaves the other reading: the body (and its capture) completes.
    const cloneKeepsReading = fault === 'cancel' && spec.read === 'clone-reader';
    if (cloneKeepsReading) {
      if (!got.clone || got.clone.len !== sent.length || got.clone.sha !== sha(sent)) fail(`the clone got ${got.clone?.len} B ≠ ${sent.length} B`);
      if (got.len > sent.length || sha(sent.subarray(0, got.len)) !== got.sha) fail(`the cancelled branch got ${got.len} B that are not a prefix of what was sent`);
      if (state !== 'complete' || !cap.bytes.equals(sent)) fail(`capture ended '${state}' with ${cap.bytes.length} B; the clone read all ${sent.length} B`);
      else f.stoppedPrecisely++;
    } else if (fault === 'none') {
      const want = expectedPage(spec, sent);
      if (got.error) fail(`page error ${got.error}`);
      else if (got.len !== want.len || got.sha !== want.sha) fail(`page got ${got.len} B ≠ server's ${want.len} B (as the page reads them)`);
      if (got.clone && (got.clone.len !== want.len || got.clone.sha !== want.sha)) fail(`clone got ${got.clone.len} B ≠ ${want.len} B`);
      if (state !== 'complete') fail(`capture ended '${state}' (${cap.end?.error ?? ''}), expected complete`);
      if (evicted === 0 && !cap.bytes.equals(sent)) fail(`capture ${cap.bytes.length} B ≠ server's ${sent.length} B`);
      if (evicted > 0 && !sent.subarray(evicted).equals(cap.bytes)) fail(`after evicting ${evicted} B the capture is not the rest of the body`);
      if (!f.failures.length || !f.failures.at(-1)?.startsWith(`run ${i} `)) f.exactComplete++;
    } else {
      // A fault: the page got a prefix of what was sent, the capture holds exactly that prefix, and its end says why.
      const reader = spec.read === 'reader' || spec.read === 'clone-reader';
      const expectState = fault === 'close' ? 'error' : fault === 'abort' ? 'aborted' : 'cancelled';
      if (reader) {
        const prefix = sent.subarray(0, got.len);
        if (got.len > sent.length || sha(prefix) !== got.sha) fail(`page got ${got.len} B that are not a prefix of the ${sent.length} B sent`);
        if (evicted === 0 && !cap.bytes.equals(prefix)) fail(`capture ${cap.bytes.length} B ≠ the ${got.len} B the page got`);
      } else if (!sent.subarray(0, cap.bytes.length).equals(cap.bytes)) fail(`capture ${cap.bytes.length} B is not a prefix of the ${sent.length} B sent`);
      if (fault === 'close' && !got.error) fail('the server closed mid-body but the page saw no error');
      // A page that aborts/cancels only after the last byte may find the body already complete.
      const gotAll = reader && got.len === spec.body.length && fault !== 'close';
      if (state !== expectState && !(gotAll && state === 'complete')) fail(`capture ended '${state}' (${cap.end?.error ?? ''}), expected '${expectState}'`);
      else if (!f.failures.length || !f.failures.at(-1)?.startsWith(`run ${i} `)) f.stoppedPrecisely++;
    }
    served.delete(id);
    // Keep the per-tab capture small: each run is checked on its own.
    await ext.debug((d, t: number) => d.clear(t), tabId);
  }
  console.log(`passthrough figures: ${JSON.stringify({ ...f, failures: f.failures.length })}`);
  for (const x of f.failures.slice(0, 30)) console.log(`  ${x}`);
  expect(f.failures).toEqual([]);
});

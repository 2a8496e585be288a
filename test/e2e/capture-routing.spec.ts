// Routing and memory: per-tab isolation, iframes, service-worker restarts, navigation with/without preserve log,
// clear.
import { expect, test, type Page } from '@playwright/test';
import { startAgentServer, type AgentServer } from './support/agent-server.ts';
import { connectionsMatching, waitForCapture } from './support/capture.ts';
import { launchWithExtension, type ExtensionBrowser } from './support/extension.ts';

let ext: ExtensionBrowser;
let server: AgentServer;
let other: AgentServer; // a second origin, for the cross-origin iframe

test.beforeAll(async () => {
  ext = await launchWithExtension();
  server = await startAgentServer();
  other = await startAgentServer();
});

test.afterAll(async () => {
  await ext?.close();
  await server?.close();
  await other?.close();
});

async function openApp(query: string): Promise<{ page: Page; tabId: number }> {
  const page = await ext.context.newPage();
  await page.goto(`${server.url}/app?${query}`);
  const tabId = await ext.tabIdFor(page);
  await ext.watch(tabId);
  return { page, tabId };
}

function readAll(target: Page | import('@playwright/test').Frame, url: string): Promise<string> {
  return target.evaluate(async (u) => (await fetch(u)).text(), url);
}

test('two tabs streaming at once each see only their own capture', async () => {
  const a = await openApp('tab=a');
  const b = await openApp('tab=b');
  const readA = readAll(a.page, '/stream?id=two-a&stopAfter=2&then=hold');
  const readB = readAll(b.page, '/stream?id=two-b&stopAfter=2&then=hold');
  await Promise.all([server.arrived('two-a'), server.arrived('two-b')]);
  server.release('two-a');
  server.release('two-b');
  await Promise.all([readA, readB]);
  const capA = await waitForCapture(ext, a.tabId, 'id=two-a');
  const capB = await waitForCapture(ext, b.tabId, 'id=two-b');
  expect(capA.bytes.equals(Buffer.concat(server.log('two-a').sent))).toBe(true);
  expect(capB.bytes.equals(Buffer.concat(server.log('two-b').sent))).toBe(true);
  expect(connectionsMatching(await ext.records(a.tabId), 'id=two-b')).toEqual([]);
  expect(connectionsMatching(await ext.records(b.tabId), 'id=two-a')).toEqual([]);
  await a.page.close();
  await b.page.close();
});

test('a cross-origin iframe’s stream is captured in its tab and labelled as a subframe', async () => {
  const frameUrl = `${other.url}/frame`;
  const { page, tabId } = await openApp(`iframe=${encodeURIComponent(frameUrl)}`);
  const frame = page.frames().find((f) => f.url() === frameUrl);
  if (!frame) throw new Error('iframe not loaded');
  const text = await readAll(frame, '/stream?id=in-frame');
  expect(text).toBe(Buffer.concat(other.log('in-frame').sent).toString('utf8'));
  const top = await readAll(page, '/stream?id=in-top');
  expect(top.length).toBeGreaterThan(0);
  const inFrame = await waitForCapture(ext, tabId, 'id=in-frame');
  const inTop = await waitForCapture(ext, tabId, 'id=in-top');
  expect(inFrame.connection.isSubframe).toBe(true);
  expect(inFrame.connection.frameUrl).toBe(frameUrl);
  expect(inFrame.bytes.equals(Buffer.concat(other.log('in-frame').sent))).toBe(true);
  expect(inTop.connection.isSubframe).toBeUndefined();
  const docs = await ext.debug((d, id: number) => d.documents(id), tabId);
  expect(docs.find((d) => d.frameUrl === frameUrl)).toMatchObject({ isTop: false, siteOrigin: server.url });
  await page.close();
});

test('a same-origin srcdoc iframe (match_about_blank) is tapped too', async () => {
  const { page, tabId } = await openApp('tab=srcdoc');
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.srcdoc = `<script>fetch('/stream?id=srcdoc').then((r) => r.text()).then((t) => { parent.postMessage(t.length, '*'); });</script>`;
    document.body.append(frame);
  });
  const log = await server.arrived('srcdoc');
  const cap = await waitForCapture(ext, tabId, 'id=srcdoc');
  expect(cap.bytes.equals(Buffer.concat(log.sent))).toBe(true);
  expect(cap.connection.isSubframe).toBe(true);
  expect(cap.connection.frameUrl).toBe('about:srcdoc');
  await page.close();
});

test('blob:, data: and sandboxed srcdoc iframes (match_origin_as_fallback) are tapped too', async () => {
  // They were not: the page got its stream, the capture had nothing, and nothing said so.
  const { page, tabId } = await openApp('tab=blobframe');
  const origin = new URL(page.url()).origin;
  await page.evaluate((origin) => {
    const script = (id: string) => `<script>fetch('${origin}/stream?id=${id}&cors=1').then((r) => r.text());<\/script>`;
    const blob = document.createElement('iframe');
    blob.src = URL.createObjectURL(new Blob([script('blobframe')], { type: 'text/html' }));
    document.body.append(blob);
    const data = document.createElement('iframe');
    data.src = `data:text/html,${encodeURIComponent(script('dataframe'))}`;
    document.body.append(data);
    const sandboxed = document.createElement('iframe');
    sandboxed.sandbox.add('allow-scripts');
    sandboxed.srcdoc = script('sandboxed');
    document.body.append(sandboxed);
  }, origin);
  for (const id of ['blobframe', 'dataframe', 'sandboxed']) {
    const log = await server.arrived(id);
    const cap = await waitForCapture(ext, tabId, `id=${id}`);
    expect(cap.bytes.equals(Buffer.concat(log.sent)), id).toBe(true);
    expect(cap.connection.isSubframe, id).toBe(true);
  }
  await page.close();
});

test('an extension page connected as panel:<tabId> gets a snapshot, then live records', async () => {
  const { page, tabId } = await openApp('tab=panelport');
  await readAll(page, '/stream?id=before-panel');
  const panel = await ext.context.newPage();
  await panel.goto(`chrome-extension://${ext.extensionId}/src/extension/devtools.html`);
  await panel.evaluate((id) => {
    const w = window as unknown as { got: { type: string; urls: string[] }[] };
    w.got = [];
    const port = chrome.runtime.connect({ name: `panel:${id}` });
    port.onMessage.addListener((m: { type: string; records?: { kind: string; url?: string }[] }) => {
      w.got.push({ type: m.type, urls: (m.records ?? []).filter((r) => r.kind === 'connection').map((r) => r.url ?? '') });
    });
  }, tabId);
  const got = (): Promise<{ type: string; urls: string[] }[]> => panel.evaluate(() => (window as unknown as { got: { type: string; urls: string[] }[] }).got);
  await expect.poll(async () => (await got()).some((m) => m.type === 'snapshot' && m.urls.some((u) => u.includes('id=before-panel')))).toBe(true);
  await readAll(page, '/stream?id=after-panel');
  await expect.poll(async () => (await got()).some((m) => m.type === 'records' && m.urls.some((u) => u.includes('id=after-panel')))).toBe(true);
  await panel.close();
  await page.close();
});

test('a service-worker restart mid-stream loses nothing', async () => {
  const { page, tabId } = await openApp('tab=sw');
  const reading = readAll(page, '/stream?id=sw-restart&stopAfter=3&then=hold');
  const log = await server.arrived('sw-restart');
  await waitForCapture(ext, tabId, 'id=sw-restart', (c) => c.chunks.reduce((n, ch) => n + ch.bytes, 0) === log.written && log.sent.length === 3);
  await ext.restartServiceWorker();
  // The rest of the stream flows while the worker is gone.
  server.release('sw-restart');
  const text = await reading;
  expect(text).toBe(Buffer.concat(log.sent).toString('utf8'));
  await ext.watch(tabId); // wakes a fresh worker; its collector starts from nothing
  const cap = await waitForCapture(ext, tabId, 'id=sw-restart');
  expect(cap.bytes.equals(Buffer.concat(log.sent))).toBe(true);
  expect(cap.end?.state).toBe('complete');
  await page.close();
});

test('navigation drops the page that was left unless "preserve log" is on; clear empties the capture', async () => {
  const { page, tabId } = await openApp('tab=nav1');
  await readAll(page, '/stream?id=nav-1');
  await waitForCapture(ext, tabId, 'id=nav-1');
  await page.goto(`${server.url}/app?tab=nav2`);
  await readAll(page, '/stream?id=nav-2');
  await waitForCapture(ext, tabId, 'id=nav-2');
  await expect.poll(async () => connectionsMatching(await ext.records(tabId), 'id=nav-1').length).toBe(0);

  await ext.debug((d, id: number) => d.setPreserveLog(id, true), tabId);
  await page.goto(`${server.url}/app?tab=nav3`);
  await readAll(page, '/stream?id=nav-3');
  await waitForCapture(ext, tabId, 'id=nav-3');
  // Wait until the old document is known to be gone, then check it is still there.
  await expect.poll(async () => (await ext.debug((d, id: number) => d.documents(id), tabId)).filter((doc) => doc.gone).length).toBeGreaterThan(0);
  expect(connectionsMatching(await ext.records(tabId), 'id=nav-2')).toHaveLength(1);

  await ext.debug((d, id: number) => d.clear(id), tabId);
  await expect.poll(async () => (await ext.records(tabId)).filter((r) => r.kind === 'connection').length).toBe(0);
  await readAll(page, '/stream?id=nav-4');
  const after = await waitForCapture(ext, tabId, 'id=nav-4');
  expect(after.bytes.equals(Buffer.concat(server.log('nav-4').sent))).toBe(true);
  await page.close();
});

// The page cannot see or feed the capture: the tap is in place before the page's first script, hands its port to
// the relay before any page listener exists, leaves no global behind, and look-alike messages get nowhere.
// Also: the per-site switch.
import { chromium, expect, test, type Page } from '@playwright/test';
import type { AgentServer } from './support/agent-server.ts';
import { connectionsMatching, waitForCapture } from './support/capture.ts';
import { CHROMIUM, type ExtensionBrowser } from './support/extension.ts';
import { useWatchedAgentPage } from './support/watched-agent-page.ts';

let ext: ExtensionBrowser;
let server: AgentServer;
let page: Page;
let tabId: number;

useWatchedAgentPage((parts) => ({ ext, server, page, tabId } = parts));

async function streamInPage(id: string): Promise<void> {
  await page.evaluate(async (url) => {
    await (await fetch(url)).text();
  }, `/stream?id=${id}`);
}

test('the tap is installed before the first inline <head> script, keeping name and length', async () => {
  const first = await page.evaluate(() => (window as unknown as { __firstScript: unknown }).__firstScript);
  expect(first).toEqual({ fetchName: 'fetch', fetchLength: 1, esName: 'EventSource', xhrOpenLength: 2, tapped: true, looksNative: true });
});

test('the port handshake happened before any page listener: no listener ever saw a port', async () => {
  await streamInPage('order-probe');
  await waitForCapture(ext, tabId, 'id=order-probe');
  // The first inline script listened (capture phase) for 'message' and both handshake event names.
  expect(await page.evaluate(() => (window as unknown as { __leakedPorts: string[] }).__leakedPorts)).toEqual([]);
});

test('look-alike messages and forged handshakes from the page get nothing into the capture', async () => {
  const fake = {
    type: 'records',
    records: [{ kind: 'connection', id: 'evil:1', transport: 'fetch', frameUrl: 'x', method: 'GET', url: 'https://evil.example/fake', requestHeaders: [], startTime: 1 }],
  };
  const outcome = await page.evaluate((fake) => {
    const results: string[] = [];
    // 1. window.postMessage look-alikes (what a naive relay would listen to).
    window.postMessage(fake, '*');
    window.postMessage({ source: 'replyscope', ...fake }, '*');
    // 2. A forged port offer: a page-made channel pretending to be the tap.
    const channel = new MessageChannel();
    const accepted = !window.dispatchEvent(new MessageEvent('replyscope:tap-port', { ports: [channel.port2], cancelable: true }));
    results.push(accepted ? 'offer accepted' : 'offer ignored');
    channel.port1.postMessage(fake);
    // 3. A forged "relay ready", hoping the tap hands its port to the page.
    let stolen = false;
    window.addEventListener('replyscope:tap-port', (e) => {
      if ((e as MessageEvent).ports.length) stolen = true;
    });
    window.dispatchEvent(new Event('replyscope:relay-ready'));
    results.push(stolen ? 'port stolen' : 'no port');
    return results;
  }, fake);
  expect(outcome).toEqual(['offer ignored', 'no port']);
  // A real stream after the attempts still flows, and nothing from the page made it in.
  await streamInPage('after-forgery');
  await waitForCapture(ext, tabId, 'id=after-forgery');
  const records = await ext.records(tabId);
  expect(connectionsMatching(records, 'evil.example')).toEqual([]);
  expect(records.some((r) => 'conn' in r && r.conn === 'evil:1')).toBe(false);
});

test('a page\'s own dispatchEvent() on an EventSource records nothing: only what the browser dispatched', async () => {
  // It recorded text the server never sent, fake connections on each forged "open", a forged "error" as an end.
  await page.evaluate(async () => {
    const es = new EventSource('/es?id=forged');
    await new Promise((r) => es.addEventListener('open', r, { once: true }));
    es.dispatchEvent(new MessageEvent('message', { data: '{"forged":"by the page"}', lastEventId: 'FAKE' }));
    es.dispatchEvent(new Event('error'));
    es.dispatchEvent(new Event('open'));
    await new Promise((r) => es.addEventListener('done', r, { once: true }));
    es.close();
  });
  // (Named events are recorded when the page listens for them: it listens for "done".)
  await expect.poll(async () => (await ext.records(tabId)).filter((r) => r.kind === 'message' && r.type === 'done').length).toBe(1);
  const records = await ext.records(tabId);
  expect(records.some((r) => r.kind === 'message' && (r.data.includes('forged') || r.lastEventId === 'FAKE'))).toBe(false);
  // One connection (a reconnect continues it), none for the forged open.
  expect(connectionsMatching(records, 'id=forged')).toHaveLength(1);
});

test('credentials a request carries are masked in the capture: headers and JSON body keys named for keys and tokens (a body past the cap too), a URL\'s userinfo, padding bounded', async () => {
  await page.evaluate(async (port) => {
    await (await fetch('/stream?id=secret-headers', { headers: { 'x-goog-api-key': 'AIzaSECRET1', 'x-auth-token': 'SECRET2', 'anthropic-api-key': 'sk-ant-SECRET3', 'x-request-id': 'req-1' } })).text();
    await (await fetch('/stream?id=secret-body', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: { id: 'm', api: 'openai-completions', provider: 'p' }, context: { messages: [] }, options: { apiKey: 'sk-SECRET6', temperature: 0.5 } }) })).text();
    // Past the 1 MiB cap and read as bytes (a Blob): cut before it is masked, its head is masked as the start of JSON.
    await (await fetch('/stream?id=secret-cut-body', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: new Blob([JSON.stringify({ options: { apiKey: 'sk-SECRET7', temperature: 0.5 }, prompt: 'x'.repeat(1 << 20) })]) })).text();
    const x = new XMLHttpRequest();
    x.open('GET', `http://alice:SECRET4@127.0.0.1:${port}/stream?id=userinfo`);
    await new Promise((r) => { x.onloadend = r; x.send(); });
    history.replaceState(null, '', `${location.pathname}${location.search}#${'a'.repeat(1 << 20)}`); // a 1 MiB frame URL
    await (await fetch('/stream?id=padded')).text();
  }, new URL(page.url()).port);
  const headers = (await waitForCapture(ext, tabId, 'id=secret-headers')).connection.requestHeaders;
  expect(Object.fromEntries(headers)).toMatchObject({ 'x-goog-api-key': '•••', 'x-auth-token': '•••', 'anthropic-api-key': '•••', 'x-request-id': 'req-1' });
  const body = JSON.parse((await waitForCapture(ext, tabId, 'id=secret-body')).connection.requestBody?.text ?? '{}');
  expect(body.options).toEqual({ apiKey: '•••', temperature: 0.5 }); // pi's proxy request can carry the key
  expect(body.model).toEqual({ id: 'm', api: 'openai-completions', provider: 'p' });
  const cutBody = (await waitForCapture(ext, tabId, 'id=secret-cut-body')).connection.requestBody;
  expect(cutBody).toMatchObject({ truncated: true, size: (1 << 20) + 65 });
  expect(cutBody?.text?.startsWith('{"options":{"apiKey":"•••","temperature":0.5},"prompt":"xxx')).toBe(true);
  expect((await waitForCapture(ext, tabId, 'id=userinfo')).connection.url).toMatch(/^http:\/\/•••@127\.0\.0\.1:\d+\/stream\?id=userinfo$/);
  expect((await waitForCapture(ext, tabId, 'id=padded')).connection.frameUrl.length).toBeLessThan(9 * 1024);
  expect(JSON.stringify(await ext.records(tabId))).not.toMatch(/SECRET/);
});

test('no global is added to the page (compared with Chromium without the extension)', async () => {
  const names = (p: Page): Promise<string[]> =>
    p.evaluate(() => [...Object.getOwnPropertyNames(window), ...Object.getOwnPropertySymbols(window).map(String)].sort());
  const plainBrowser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const plain = await plainBrowser.newPage();
    await plain.goto(`${server.url}/app`);
    const withExtension = await ext.context.newPage();
    await withExtension.goto(`${server.url}/app`);
    expect(await names(withExtension)).toEqual(await names(plain));
    await withExtension.close();
  } finally {
    await plainBrowser.close();
  }
});

test('per-site switch: off stops capturing this origin, on resumes', async () => {
  const origin = server.url;
  const setDisabled = (list: string[]): Promise<void> =>
    ext.debug(async (_d, l: string[]) => {
      await chrome.storage.local.set({ 'replyscope.disabledSites': l });
    }, list);
  await setDisabled([origin]);
  await page.reload();
  await streamInPage('while-off');
  // The watcher knows the reloaded page (it reports itself switched off) — so the silence below is not a dead pipe.
  await expect.poll(async () => (await ext.debug((d, id: number) => d.documents(id), tabId)).some((doc) => doc.isTop && !doc.siteEnabled)).toBe(true);
  expect(connectionsMatching(await ext.records(tabId), 'id=while-off')).toEqual([]);
  // The panel says why it is empty (it said "No agent streams yet — reload the page").
  const panel = await ext.panelPage(tabId);
  await expect(panel.getByTestId('empty')).toContainText(`Capture is off for ${origin}.`);
  await panel.close();
  await setDisabled([]);
  await page.reload();
  await streamInPage('while-on');
  await waitForCapture(ext, tabId, 'id=while-on');
  expect(connectionsMatching(await ext.records(tabId), 'id=while-off')).toEqual([]);
});

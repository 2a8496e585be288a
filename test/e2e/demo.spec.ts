// The demo end to end in Chromium with the built extension: the demo page plays every AgentScope scenario (clicking
// Allow in the confirmation one) and every pi scenario through the real streamProxy; the page shows the intended
// final messages, the extension captures the streams byte for byte as the page received them, the captured session
// stream rebuilds every reply's intended message, and the panel shows the replies and the broken stream's diagnostics.

import { test, expect, type Page } from '@playwright/test';
import { distDir, launchWithExtension, type ExtensionBrowser } from './support/extension.ts';
import { unpackedExtensionId } from '../../src/demo/launch-chromium.ts';
import { captured, connectionsMatching } from './support/capture.ts';
import { launchDemo } from '../../src/demo/main.ts';
import type { DemoServer } from '../../src/demo/server.ts';
import { SCENARIOS } from '../../src/demo/scenarios/index.ts';
import { PI_SCENARIOS } from '../../src/demo/pi/pi-scenarios.ts';
import { factsOf, reconstruct } from '../unit/demo/support.ts';

test.describe.configure({ mode: 'serial' });

let demo: DemoServer;
let ext: ExtensionBrowser;
let page: Page;
let tabId: number;

test.beforeAll(async () => {
  demo = await launchDemo({ port: 0, fast: true, heartbeatMs: 30_000 });
  ext = await launchWithExtension();
  ({ page, tabId } = await ext.openWatchedPage(`${demo.url}/`));
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
});

test.afterAll(async () => {
  await ext?.close();
  await demo?.close();
});

/** The data frames (JSON text) of a captured SSE body, read the way the AgentScope web UI reads them. */
function dataFrames(bytes: Buffer): string[] {
  return bytes.toString('utf8').split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6).trim());
}

test('npm start predicts the extension id Chromium gives dist/ (it seeds DevTools settings with it)', () => {
  expect(unpackedExtensionId(distDir())).toBe(ext.extensionId);
});

test('every AgentScope scenario plays in the page with its intended outcome', async () => {
  for (const [i, scenario] of SCENARIOS.entries()) {
    await page.selectOption('#scenario', scenario.name);
    await page.click('#send');
    if (scenario.hitl === 'confirm') {
      const allow = page.locator('[data-action="allow"]');
      await expect(allow).toBeVisible();
      await allow.click();
    }
    const bubble = page.locator('.bubble.assistant').nth(i);
    await expect(bubble).toHaveAttribute('data-phase', 'done');
    await expect(bubble).toHaveAttribute('data-finished-reason', scenario.intent.finished_reason ?? '');
    for (const text of scenario.intent.texts) await expect(bubble.locator('.block.text', { hasText: text })).toHaveCount(1);
  }
  // Images are decoded by the browser from the reconstructed data blocks.
  const image = page.locator('.bubble.assistant').nth(SCENARIOS.findIndex((s) => s.name === 'image')).locator('img.data').first();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(48);
  // The broken scenario shows what the reference would skip or raise on.
  const broken = page.locator('.bubble.assistant').nth(SCENARIOS.findIndex((s) => s.name === 'broken'));
  await expect(broken.locator('.warn')).toHaveCount(3);
  await expect(page.locator('#custom-log')).toContainText('state_updated');
});

test('the captured session stream rebuilds every reply as intended', async () => {
  let frames: string[] = [];
  await expect.poll(async () => {
    const records = await ext.records(tabId);
    const [conn] = connectionsMatching(records, '/stream?agent_id=');
    frames = conn ? dataFrames(captured(records, conn).bytes) : [];
    return frames.filter((f) => f.includes('"REPLY_END"')).length;
  }).toBe(SCENARIOS.length);
  const { replies } = reconstruct(frames);
  expect(replies).toHaveLength(SCENARIOS.length);
  SCENARIOS.forEach((s, i) => {
    const want = s.name === 'external' ? { ...s.intent, toolResults: s.intent.toolResults?.map(({ text: _t, ...r }) => r) } : s.intent;
    expect(factsOf(replies[i], want), s.name).toEqual(want);
  });
});

test('every pi scenario runs through the real streamProxy and is captured', async () => {
  const sentBody = (i: number) => PI_SCENARIOS[i].frames.map((f) => `data: ${JSON.stringify(f.event)}\n\n`).join('');
  for (const [i, scenario] of PI_SCENARIOS.entries()) {
    await page.selectOption('#pi-scenario', scenario.name);
    await page.click('#pi-send');
    await expect(page.locator('#pi-out [data-pi-stop-reason]')).toHaveAttribute('data-pi-stop-reason', scenario.intent.stopReason);
    for (const text of scenario.intent.texts) await expect(page.locator('#pi-out .block.text', { hasText: text })).toHaveCount(1);
    if (scenario.intent.errorMessage) await expect(page.locator('#pi-out .error-box')).toHaveText(scenario.intent.errorMessage);
    await expect(page.locator('#pi-send')).toBeEnabled();
    // Wait until the capture has this request and everything the page read of it.
    await expect.poll(async () => {
      const records = await ext.records(tabId);
      const conn = connectionsMatching(records, '/api/stream')[i];
      if (!conn) return false;
      const c = captured(records, conn);
      // streamProxy stops reading when a frame makes it throw (pi-broken): the page never reads the rest, so the
      // connection stays open with the bytes up to that frame. Otherwise the body is read to its end.
      return scenario.name === 'pi-broken' ? c.bytes.toString('utf8').includes('"toolcall_delta"') : c.end?.state === 'complete';
    }).toBe(true);
  }
  const records = await ext.records(tabId);
  const conns = connectionsMatching(records, '/api/stream');
  expect(conns).toHaveLength(PI_SCENARIOS.length);
  conns.forEach((conn, i) => {
    const body = JSON.parse(conn.requestBody?.text ?? '{}') as { model?: { id?: string }; options?: { metadata?: { scenario?: string } } };
    expect(body.model?.id).toBe('claude-sonnet-4-5');
    expect(body.options?.metadata?.scenario).toBe(PI_SCENARIOS[i].name);
    const got = captured(records, conn).bytes.toString('utf8');
    if (PI_SCENARIOS[i].name === 'pi-broken') expect(sentBody(i).startsWith(got)).toBe(true);
    else expect(got).toBe(sentBody(i));
  });
});

test('the panel lists every reply with its outcome and shows the broken stream’s diagnostics', async ({}, testInfo) => {
  const replyIds = await page.locator('.bubble.assistant[data-reply-id]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.replyId!));
  expect(replyIds).toHaveLength(SCENARIOS.length);
  const panel = await ext.panelPage(tabId);
  await panel.locator('tr', { hasText: '/sessions/' }).first().click();
  for (const [i, id] of replyIds.entries()) {
    const row = panel.locator(`[data-testid="replies"] [data-reply="${id}"]`);
    await expect(row.locator('td').nth(1)).toHaveText(SCENARIOS[i].intent.finished_reason ?? 'streaming');
  }
  await panel.locator(`[data-reply="${replyIds[SCENARIOS.findIndex((s) => s.name === 'broken')]}"]`).click();
  await panel.getByRole('tab', { name: 'Diagnostics' }).or(panel.getByRole('button', { name: 'Diagnostics' })).first().click();
  await panel.screenshot({ path: testInfo.outputPath('panel-broken-diagnostics.png') });
  for (const code of ['as.delta-before-start', 'as.foreign-reply-id', 'as.invalid-base64', 'as.block-not-ended']) {
    await expect(panel.locator(`[data-testid="diagnostics"] [data-code="${code}"]`)).toHaveCount(1);
  }
  await panel.close();
});

test('over a WebSocket (?transport=websocket) the session plays the same, and the capture records the socket', async ({}, testInfo) => {
  const played = SCENARIOS.filter((s) => !s.hitl && s.name !== 'broken').slice(0, 3);
  await page.goto(`${demo.url}/?transport=websocket`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#conn-state')).toHaveText('connected (WebSocket)');
  for (const [i, scenario] of played.entries()) {
    await page.selectOption('#scenario', scenario.name);
    await page.click('#send');
    const bubble = page.locator('.bubble.assistant').nth(i);
    await expect(bubble).toHaveAttribute('data-phase', 'done');
    for (const text of scenario.intent.texts) await expect(bubble.locator('.block.text', { hasText: text })).toHaveCount(1);
  }
  // The socket's messages are the events: the capture rebuilds each reply as intended.
  let texts: string[] = [];
  await expect.poll(async () => {
    const records = await ext.records(tabId);
    const [conn] = connectionsMatching(records, '/ws?agent_id=');
    texts = conn ? captured(records, conn).messages.map((m) => m.data) : [];
    return texts.filter((t) => t.includes('"REPLY_END"')).length;
  }).toBe(played.length);
  const { replies } = reconstruct(texts);
  played.forEach((s, i) => expect(factsOf(replies[i], s.intent), s.name).toEqual(s.intent));
  const panel = await ext.panelPage(tabId);
  await panel.locator('tr', { hasText: '/ws?agent_id=' }).first().click();
  await expect(panel.locator('[data-testid="replies"] [data-reply]')).toHaveCount(played.length);
  await panel.screenshot({ path: testInfo.outputPath('panel-websocket-session.png') });
  await panel.close();
});

// Real DevTools: with DevTools open on a tab, the extension's DevTools page runs and adds the Replyscope panel for
// that tab; shown (as a user picks its tab), the panel inside DevTools lists the tab's streams — the page's own from
// the tap, a Worker's from DevTools' network log. (The panel's UI is tested through panel/index.html?tabId=N.)
import { expect, test } from '@playwright/test';
import { startAgentServer } from './support/agent-server.ts';
import { devtoolsTargets, waitForDevtoolsPage } from './support/devtools.ts';
import { launchWithExtension } from './support/extension.ts';

test('DevTools opens with the Replyscope panel for the inspected tab, which lists the page\'s and a Worker\'s streams', async () => {
  const ext = await launchWithExtension({ extraArgs: ['--auto-open-devtools-for-tabs'] });
  const server = await startAgentServer();
  const targets = await devtoolsTargets(ext);
  try {
    const page = await ext.context.newPage();
    await page.goto(`${server.url}/app`);
    const tabId = await ext.tabIdFor(page);
    await waitForDevtoolsPage(ext, tabId);
    // Show the panel as a click on its tab would: DevTools' embedder API names an extension's panel by origin + title.
    for (const t of (await targets.list()).filter((x) => x.type === 'page' && x.url.startsWith('devtools://'))) {
      await targets.evaluate(t.targetId, `DevToolsAPI.showPanel(${JSON.stringify(`chrome-extension://${ext.extensionId}Replyscope`)}), true`);
    }
    const panelFrame = async () => (await targets.list()).find((t) => t.type === 'iframe' && t.url.endsWith(`/panel/index.html?tabId=${tabId}`));
    await expect.poll(async () => (await panelFrame()) !== undefined, { timeout: 15_000 }).toBe(true);

    await page.evaluate(async () => (await fetch('/stream?id=in-page')).text());
    await page.evaluate((u) => new Promise((resolve) => {
      const w = new Worker(URL.createObjectURL(new Blob([`fetch(${JSON.stringify(u)}).then((r) => r.text()).then((t) => postMessage(t))`], { type: 'text/javascript' })));
      w.onmessage = (e) => resolve(e.data);
    }), `${server.url}/stream?id=in-worker`);
    const rows = async () => {
      const frame = await panelFrame();
      return frame ? targets.evaluate<string[]>(frame.targetId, `[...document.querySelectorAll('[data-testid="connections"] tbody tr[data-conn]')]
        .map((r) => new URL(r.getAttribute('title').split('\\n')[0].split(' ').pop()).searchParams.get('id'))`) : [];
    };
    await expect.poll(rows, { timeout: 15_000 }).toEqual(['in-page', 'in-worker']);
  } finally {
    await targets.close();
    await ext.close();
    await server.close();
  }
});

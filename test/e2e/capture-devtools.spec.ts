// Real DevTools: with DevTools open on a tab, the extension's DevTools page runs and adds the Replyscope panel for
// that tab (the panel's own UI is tested through panel/index.html?tabId=N in a normal tab).
import { test } from '@playwright/test';
import { startAgentServer } from './support/agent-server.ts';
import { waitForDevtoolsPage } from './support/devtools.ts';
import { launchWithExtension } from './support/extension.ts';

test('DevTools opens with the Replyscope panel for the inspected tab', async () => {
  const ext = await launchWithExtension({ extraArgs: ['--auto-open-devtools-for-tabs'] });
  const server = await startAgentServer();
  try {
    const page = await ext.context.newPage();
    await page.goto(`${server.url}/app`);
    await waitForDevtoolsPage(ext, await ext.tabIdFor(page));
  } finally {
    await ext.close();
    await server.close();
  }
});

// Real DevTools: with DevTools open on a tab, the extension's DevTools page runs and adds the Replyscope panel for
// that tab (the panel's own UI is tested through panel/index.html?tabId=N in a normal tab).
import { expect, test } from '@playwright/test';
import { startAgentServer } from './support/agent-server.ts';
import { launchWithExtension } from './support/extension.ts';

test('DevTools opens with the Replyscope panel for the inspected tab', async () => {
  const ext = await launchWithExtension({ extraArgs: ['--auto-open-devtools-for-tabs'] });
  const server = await startAgentServer();
  try {
    const page = await ext.context.newPage();
    await page.goto(`${server.url}/app`);
    const tabId = await ext.tabIdFor(page);
    const cdp = await ext.context.browser()!.newBrowserCDPSession();
    // The DevTools page is an iframe target inside DevTools; read its document.title through a (non-flat) session.
    const titleOf = async (targetId: string): Promise<string> => {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
      const answer = new Promise<string>((resolve) => {
        const onMessage = (event: { sessionId: string; message: string }): void => {
          const msg = JSON.parse(event.message) as { id?: number; result?: { result?: { value?: string } } };
          if (event.sessionId !== sessionId || msg.id !== 1) return;
          cdp.off('Target.receivedMessageFromTarget', onMessage);
          resolve(msg.result?.result?.value ?? '');
        };
        cdp.on('Target.receivedMessageFromTarget', onMessage);
      });
      await cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression: 'document.title', returnByValue: true } }),
      });
      const title = await answer;
      await cdp.send('Target.detachFromTarget', { sessionId });
      return title;
    };
    await expect
      .poll(async () => {
        const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; url: string }[] };
        const pages = targetInfos.filter((t) => t.url.endsWith('/src/extension/devtools.html'));
        return Promise.all(pages.map((t) => titleOf(t.targetId)));
      }, { timeout: 30_000 })
      .toContain(`Replyscope panel created for tab ${tabId}`);
  } finally {
    await ext.close();
    await server.close();
  }
});

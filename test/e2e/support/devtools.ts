// Real DevTools in the test browser (launched with `--auto-open-devtools-for-tabs`): the extension's DevTools page is
// an iframe target inside DevTools, reached through a non-flat CDP session of the browser.
import { expect } from '@playwright/test';
import type { ExtensionBrowser } from './extension.ts';

/** Waits until the extension's DevTools page of `tabId` has added the Replyscope panel (its title says so). */
export async function waitForDevtoolsPage(ext: ExtensionBrowser, tabId: number): Promise<void> {
  const cdp = await ext.context.browser()!.newBrowserCDPSession();
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
  try {
    await expect
      .poll(async () => {
        const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; url: string }[] };
        const pages = targetInfos.filter((t) => t.url.endsWith('/src/extension/devtools.html'));
        return Promise.all(pages.map((t) => titleOf(t.targetId)));
      }, { timeout: 30_000 })
      .toContain(`Replyscope panel created for tab ${tabId}`);
  } finally {
    await cdp.detach();
  }
}

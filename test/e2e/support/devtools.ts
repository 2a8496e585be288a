// Real DevTools in the test browser (launched with `--auto-open-devtools-for-tabs`). DevTools' own frontend is a page
// target (devtools://devtools/…), the extension's DevTools page and its panels are iframe targets inside it: each is
// reached through a non-flat CDP session of the browser, where a script is evaluated and its value returned.
import { expect } from '@playwright/test';
import type { ExtensionBrowser } from './extension.ts';

export interface DevtoolsTargets {
  /** The URLs and ids of the browser's targets now. */
  list(): Promise<{ targetId: string; type: string; url: string }[]>;
  /** Evaluates `expression` (awaiting a promise) in the target and returns its value (JSON). */
  evaluate<T>(targetId: string, expression: string): Promise<T>;
  close(): Promise<void>;
}

export async function devtoolsTargets(ext: ExtensionBrowser): Promise<DevtoolsTargets> {
  const cdp = await ext.context.browser()!.newBrowserCDPSession();
  let ids = 0;
  return {
    async list() {
      return ((await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] }).targetInfos;
    },
    async evaluate<T>(targetId: string, expression: string): Promise<T> {
      const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
      const id = ++ids;
      type Answer = { id?: number; result?: { result?: { value?: unknown } }; error?: unknown };
      const answer = new Promise<Answer>((resolve) => {
        const onMessage = (event: { sessionId: string; message: string }): void => {
          const msg = JSON.parse(event.message) as Answer;
          if (event.sessionId !== sessionId || msg.id !== id) return;
          cdp.off('Target.receivedMessageFromTarget', onMessage);
          resolve(msg);
        };
        cdp.on('Target.receivedMessageFromTarget', onMessage);
      });
      await cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method: 'Runtime.evaluate', params: { expression, returnByValue: true, awaitPromise: true } }),
      });
      const msg = await answer;
      await cdp.send('Target.detachFromTarget', { sessionId });
      if (msg.error) throw new Error(`evaluate in ${targetId}: ${JSON.stringify(msg.error)}`);
      return msg.result?.result?.value as T;
    },
    close: () => cdp.detach(),
  };
}

/** Waits until the extension's DevTools page of `tabId` has added the Replyscope panel (its title says so). */
export async function waitForDevtoolsPage(ext: ExtensionBrowser, tabId: number): Promise<void> {
  const targets = await devtoolsTargets(ext);
  try {
    await expect
      .poll(async () => {
        const pages = (await targets.list()).filter((t) => t.url.endsWith('/src/extension/devtools.html'));
        return Promise.all(pages.map((t) => targets.evaluate<string>(t.targetId, 'document.title')));
      }, { timeout: 30_000 })
      .toContain(`Replyscope panel created for tab ${tabId}`);
  } finally {
    await targets.close();
  }
}

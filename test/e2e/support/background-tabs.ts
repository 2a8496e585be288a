// Real background tabs: pages whose document.visibilityState is 'hidden' and whose timers are throttled, as in a
// user's browser. launchWithExtension() cannot give those, whatever the flags:
//   - Playwright enables CDP focus emulation (Emulation.setFocusEmulationEnabled) on every page it attaches to, and in
//     Chromium that also keeps the page visible (checked on 156: turned on from a CDP session, a background tab reports
//     'visible'; turned off, 'hidden' again). Every page then reports 'visible' — tabs opened in the background with
//     chrome.tabs.create({ active: false }), tabs switched away from with chrome.tabs.update, headless or headed under
//     Xvfb, with or without Playwright's anti-throttling flags.
//   - chromium.connectOverCDP(…, { noDefaults: true }) is Playwright's documented way not to enable focus emulation
//     (for the default context). So this helper starts Chromium itself (cdp-chromium.ts) — headless, the extension
//     loaded, and without --disable-background-timer-throttling, --disable-backgrounding-occluded-windows,
//     --disable-renderer-backgrounding — and connects over CDP. Tabs are opened in the one window by the extension's service worker; every tab but the
//     window's active one is then hidden, and its timers run at most once a second.
//
//   const bg = await launchWithBackgroundTabs();
//   const { page, tabId } = await bg.openTab(url, { active: false });   // a watched background tab
//   await bg.activate(tabId);                                            // make it the window's active tab
//   const cap = await waitForCapture(bg, tabId, 'id=x&');
import type { Page } from '@playwright/test';
import { spawnChromium } from './cdp-chromium.ts';
import { distDir, evaluateDebug, extensionArgs, type ExtensionBrowser } from './extension.ts';

export type BackgroundTabsBrowser = Pick<ExtensionBrowser, 'context' | 'extensionId' | 'serviceWorker' | 'watch' | 'records' | 'debug' | 'close'> & {
  /** A new tab at `url` in the one window, watched like an open panel would; in the background unless `active`. */
  openTab(url: string, options?: { active?: boolean }): Promise<{ page: Page; tabId: number }>;
  /** Makes the tab the window's active (visible) tab; the one active before becomes hidden. */
  activate(tabId: number): Promise<void>;
};

export async function launchWithBackgroundTabs(): Promise<BackgroundTabsBrowser> {
  const { context, close } = await spawnChromium(extensionArgs(distDir()));
  const isOurs = (url: string) => url.startsWith('chrome-extension://'); // the only extension loaded
  const worker = context.serviceWorkers().find((w) => isOurs(w.url())) ?? (await context.waitForEvent('serviceworker', { predicate: (w) => isOurs(w.url()) }));
  const extensionId = new URL(worker.url()).host;
  const windowId = await worker.evaluate(async () => (await chrome.tabs.query({}))[0].windowId);

  const debug: ExtensionBrowser['debug'] = (fn, arg) => evaluateDebug(worker, fn, arg);

  const bg: BackgroundTabsBrowser = {
    context,
    extensionId,
    serviceWorker: async () => worker,
    debug,
    async watch(tabId) {
      await debug((d, id: number) => d.watch(id), tabId);
    },
    async records(tabId) {
      return debug((d, id: number) => d.records(id), tabId);
    },
    async openTab(url, { active = false } = {}) {
      // Tabs are opened one at a time, so the next page Playwright attaches to is this one.
      const attached = context.waitForEvent('page');
      const tabId = await worker.evaluate(
        async ([url, windowId, active]) => (await chrome.tabs.create({ url, windowId, active })).id!,
        [url, windowId, active] as const,
      );
      const page = await attached;
      await page.waitForURL(url);
      await bg.watch(tabId);
      return { page, tabId };
    },
    async activate(tabId) {
      await worker.evaluate(async (id) => void (await chrome.tabs.update(id, { active: true })), tabId);
    },
    close,
  };
  return bg;
}

/** The page's document.visibilityState now. */
export const visibility = (page: Page): Promise<DocumentVisibilityState> => page.evaluate(() => document.visibilityState);

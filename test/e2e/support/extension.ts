// Launching Chromium with the built extension, for every e2e spec (one browser per spec file).
//
//   const ext = await launchWithExtension();          // dist/ (or $REPLYSCOPE_DIST), /usr/bin/chromium, headless
//   const page = await ext.context.newPage();
//   await page.goto(server.url + '/app');
//   const tabId = await ext.tabIdFor(page);            // the chrome tab id of that page
//   await ext.watch(tabId);                            // collect its capture like a panel would
//   await expect.poll(() => ext.records(tabId)).toContainEqual(expect.objectContaining({ kind: 'end' }));
//   await ext.panelPage(tabId);                        // panel/index.html?tabId=N in a normal tab
//   await ext.restartServiceWorker();                  // stop the worker through CDP, wait for the new one
//   await ext.close();
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from '@playwright/test';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import type { ReplyscopeDebug } from '../../../src/extension/background/debug.ts';
import { makeTempDir, removeTempDir } from './temp-dir.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

export function distDir(): string {
  return path.resolve(repoRoot, process.env.REPLYSCOPE_DIST ?? 'dist');
}

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** The current service worker (a new one after restartServiceWorker()). */
  serviceWorker(): Promise<Worker>;
  tabIdFor(page: Page): Promise<number>;
  /** A new tab at `url` whose capture is watched (like an open panel): the usual start of a capture test. */
  openWatchedPage(url: string): Promise<{ page: Page; tabId: number }>;
  watch(tabId: number): Promise<void>;
  records(tabId: number): Promise<CaptureRecord[]>;
  debug<T>(fn: DebugFn<T>, arg?: unknown): Promise<T>;
  panelPage(tabId: number): Promise<Page>;
  restartServiceWorker(): Promise<Worker>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  dist?: string;
  headless?: boolean;
  extraArgs?: string[];
  /** Playwright defaults to drop, e.g. '--disable-back-forward-cache' for a real bfcache. */
  ignoreDefaultArgs?: string[];
}

/** Flags that keep the test browser quiet and predictable, for every launcher. */
export const QUIET_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The Chromium flags that load the built extension `dist` (and QUIET_ARGS). */
export function extensionArgs(dist: string): string[] {
  return [`--disable-extensions-except=${dist}`, `--load-extension=${dist}`, ...QUIET_ARGS];
}

type DebugFn<T> = (debug: ReplyscopeDebug, arg: any) => T | Promise<T>;

/** Runs `fn` in the service worker `worker` on the background's replyscopeDebug hook (src/extension/background/debug.ts). */
export function evaluateDebug<T>(worker: Worker, fn: DebugFn<T>, arg?: unknown): Promise<T> {
  return worker.evaluate(
    ([source, a]) => {
      const f = new Function(`return (${source})`)() as (d: unknown, a: unknown) => unknown;
      return f((globalThis as unknown as { replyscopeDebug: unknown }).replyscopeDebug, a);
    },
    [fn.toString(), arg] as const,
  ) as Promise<T>;
}

export async function launchWithExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const dist = options.dist ?? distDir();
  if (!existsSync(path.join(dist, 'manifest.json'))) {
    throw new Error(`No built extension at ${dist} — run \`npm run build\` first (or set REPLYSCOPE_DIST).`);
  }
  // The browser's user-data dir: removed once its context has closed — by close(), once Chromium has exited, or when it
  // closed otherwise (a crash, a spec that closed ext.context itself; the exit hook of temp-dir.ts takes what is left).
  const profile = makeTempDir('replyscope-profile-');
  let context: BrowserContext | undefined;
  let first: Worker;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: options.headless ?? true,
      ...(options.ignoreDefaultArgs ? { ignoreDefaultArgs: options.ignoreDefaultArgs } : {}),
      args: [...extensionArgs(dist), ...(options.extraArgs ?? [])],
    });
    context.once('close', () => {
      try {
        removeTempDir(profile);
      } catch {
        // (Chromium's helpers still writing into it: close() removes it once they are gone)
      }
    });
    first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  } catch (err) {
    // Launched half-way (no service worker: a broken build): the spec gets no ext to close, so nothing must be left.
    await context?.close().catch(() => {});
    removeTempDir(profile);
    throw err;
  }
  const extensionId = new URL(first.url()).host;
  const isOurs = (w: Worker): boolean => w.url().startsWith(`chrome-extension://${extensionId}/`);
  let stopped = false;

  const serviceWorker = async (): Promise<Worker> => {
    const live = context.serviceWorkers().filter(isOurs);
    const worker = live.length ? live[live.length - 1] : await context.waitForEvent('serviceworker', { predicate: isOurs });
    if (stopped) {
      // After restartServiceWorker() Playwright keeps the same Worker object, which answers again once a new
      // worker runs. Wake one the way a panel does: runtime.connect from an extension page.
      stopped = false;
      const waker = await context.newPage();
      await waker.goto(`chrome-extension://${extensionId}/src/extension/devtools.html`);
      await waker.evaluate(() => void chrome.runtime.connect({ name: 'wake' }));
      await worker.evaluate(() => 1);
      await waker.close();
    }
    return worker;
  };

  const debug = async <T>(fn: DebugFn<T>, arg?: unknown): Promise<T> => evaluateDebug(await serviceWorker(), fn, arg);

  const ext: ExtensionBrowser = {
    context,
    extensionId,
    serviceWorker,
    async tabIdFor(page) {
      const url = page.url();
      // The relay answers only once it is loaded; poll briefly instead of sleeping.
      for (let attempt = 0; attempt < 50; attempt++) {
        const id = await debug((d, u: string) => d.tabIdOf(u), url);
        if (id !== undefined && id !== null) return id;
        await page.waitForLoadState('domcontentloaded');
        await new Promise((r) => setImmediate(r));
      }
      throw new Error(`No tab with a Replyscope relay at ${url}`);
    },
    async openWatchedPage(url) {
      const page = await context.newPage();
      await page.goto(url);
      const tabId = await ext.tabIdFor(page);
      await ext.watch(tabId);
      return { page, tabId };
    },
    async watch(tabId) {
      await debug((d, id: number) => d.watch(id), tabId);
    },
    async records(tabId) {
      return debug((d, id: number) => d.records(id), tabId);
    },
    debug,
    async panelPage(tabId) {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/panel/index.html?tabId=${tabId}`);
      return page;
    },
    async restartServiceWorker() {
      // What DevTools' "Stop" does: ServiceWorker.stopAllWorkers from a session in the extension's own origin.
      // (Target.closeTarget only detaches the target; the worker keeps running.) The next serviceWorker() call
      // wakes a new one.
      const old = await serviceWorker();
      const helper = await context.newPage();
      await helper.goto(`chrome-extension://${extensionId}/src/extension/devtools.html`);
      const cdp = await context.newCDPSession(helper);
      const workerStopped = new Promise<void>((resolve) => {
        cdp.on('ServiceWorker.workerVersionUpdated', (event: { versions: { scriptURL: string; runningStatus: string }[] }) => {
          if (event.versions.some((v) => v.scriptURL === old.url() && v.runningStatus === 'stopped')) resolve();
        });
      });
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.stopAllWorkers');
      await workerStopped;
      stopped = true;
      await cdp.detach();
      await helper.close();
      return old;
    },
    async close() {
      try {
        await context.close();
      } finally {
        removeTempDir(profile);
      }
    },
  };
  return ext;
}

/** Sets the user's capture cap the way the panel's setting does (storage.local); `null` goes back to the default. */
export async function setCaptureLimit(ext: ExtensionBrowser, bytes: number | null): Promise<void> {
  await ext.debug(async (_d, limit: number | null) => {
    if (limit === null) await chrome.storage.local.remove('replyscope.captureLimitBytes');
    else await chrome.storage.local.set({ 'replyscope.captureLimitBytes': limit });
  }, bytes);
}

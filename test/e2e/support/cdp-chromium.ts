// Chromium started by the test itself and driven over CDP — for what Playwright's own launch cannot give:
//   - real background tabs: Playwright enables focus emulation on every page it launches, which keeps pages
//     'visible'; connecting with { noDefaults: true } leaves it off (see background-tabs.ts);
//   - reloading the extension: an extension loaded with --load-extension does not come back after
//     chrome.runtime.reload(), but one loaded through CDP (Extensions.loadUnpacked, which needs
//     --enable-unsafe-extension-debugging) is reloaded by loading its folder again, like chrome://extensions does.
//
//   const cdp = await spawnChromium(['--load-extension=…']);   // headless, own profile
//   cdp.context.pages() …; await cdp.close();
import { spawn } from 'node:child_process';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { CHROMIUM } from './extension.ts';
import { makeTempDir, removeTempDir } from './temp-dir.ts';

export interface CdpChromium {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function spawnChromium(args: string[]): Promise<CdpChromium> {
  const profile = makeTempDir('replyscope-cdp-profile-');
  const proc = spawn(CHROMIUM, [
    '--headless',
    `--user-data-dir=${profile}`,
    '--remote-debugging-port=0',
    '--no-default-browser-check',
    '--password-store=basic',
    ...args,
    'about:blank', // the one window every tab opens in
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  // ('error': it could not be started at all, and no 'exit' may follow.)
  const exited = new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.once('error', () => resolve());
  });
  /** Waits for Chromium to be gone (killed unless `closing`), then removes its profile: no helper writes into it then. */
  const stop = async (closing: boolean): Promise<void> => {
    if (!closing) proc.kill('SIGKILL');
    await exited;
    removeTempDir(profile);
  };
  // Chromium prints its CDP endpoint on stderr; keep draining stderr after that so the pipe never fills.
  let log = '';
  let browser: Browser;
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      proc.stderr.on('data', (data: Buffer) => {
        log = (log + data.toString()).slice(-4000);
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(log);
        if (m) resolve(m[1]);
      });
      void exited.then(() => reject(new Error(`Chromium exited before listening:\n${log}`)));
    });
    // noDefaults: no focus emulation (see the top of this file).
    browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  } catch (err) {
    await stop(false); // the caller gets nothing to close
    throw err;
  }
  return {
    browser,
    context: browser.contexts()[0],
    async close() {
      // Disconnecting Playwright leaves a browser it did not launch running: close it over CDP, then wait for it.
      const closing = await browser.newBrowserCDPSession().then((cdp) => cdp.send('Browser.close')).then(() => true, () => false);
      await stop(closing);
    },
  };
}

// The standalone viewer for e2e specs: built once per spec file into a temp dir, served on 127.0.0.1, one browser.
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { buildViewer } from '../../../panel/dev/build-viewer.ts';
import { serveStatic, type StaticServer } from '../../../panel/dev/serve-static.ts';
import { CHROMIUM } from './extension.ts';
import { useTempDir } from './temp-dir.ts';

export interface ViewerEnv {
  readonly browser: Browser;
  /** Origin serving the viewer's files (`${url}/index.html`). */
  readonly url: string;
  /** A new page on the empty viewer; a page error fails the test. `prepare`: run on the page before it loads. */
  open(prepare?: (page: Page) => Promise<void>): Promise<Page>;
  /** A new page of `size` (1400 × 860) with the file `name` of `buffer` imported; a page error fails the test. */
  imported(name: string, buffer: Buffer, size?: { width: number; height: number }): Promise<Page>;
}

/** Registers beforeAll/afterAll hooks that build and serve the viewer; read the fields inside tests. */
export function useViewer(name: string): ViewerEnv {
  let browser: Browser | undefined;
  let server: StaticServer | undefined;
  const built = useTempDir(`replyscope-${name}-`);
  test.beforeAll(async () => {
    await buildViewer(built());
    server = await serveStatic(built());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  test.afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const env: ViewerEnv = {
    get browser() {
      if (!browser) throw new Error('viewer browser used outside a test');
      return browser;
    },
    get url() {
      if (!server) throw new Error('viewer server used outside a test');
      return server.url;
    },
    async open(prepare) {
      const page = await env.browser.newPage({ viewport: { width: 1400, height: 860 } });
      page.on('pageerror', (err) => {
        throw err;
      });
      await prepare?.(page);
      await page.goto(`${env.url}/index.html`);
      await expect(page.getByTestId('empty')).toBeVisible();
      return page;
    },
    async imported(name, buffer, size = { width: 1400, height: 860 }) {
      const page = await env.browser.newPage({ viewport: size });
      page.on('pageerror', (err) => {
        throw err;
      });
      await page.goto(`${env.url}/index.html`);
      await page.getByTestId('import-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
      await expect(page.getByTestId('status')).toContainText(`Imported ${name}`);
      return page;
    },
  };
  return env;
}

/**
 * Holds an export's last step — the file's Blob read back — until the returned function lets it go: the export is
 * "in progress" for as long as the test looks, as a big one is for seconds.
 */
export async function holdExportReadBack(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const real = Blob.prototype.arrayBuffer;
    const w = window as unknown as { release: () => void };
    const gate = new Promise<void>((resolve) => (w.release = resolve));
    Blob.prototype.arrayBuffer = function (this: Blob) {
      return gate.then(() => real.call(this));
    };
  });
  return () => page.evaluate(() => (window as unknown as { release: () => void }).release());
}

// Figure "page overhead": the app page reads a large SSE stream from a loopback server in Chromium, once in a
// browser with the extension loaded and its panel open on that tab, once in the same browser build without the
// extension; runs alternate. Reported: median of the per-pair time ratios, and the extra long tasks (≥ 50 ms) the
// page's main thread had with the extension.
import type { Page } from '@playwright/test';
import { launchWithExtension, type ExtensionBrowser } from '../test/e2e/support/extension.ts';
import { generateSseBody } from './capture-gen.ts';
import { launch, startStreamServer, type Browser } from './browser-env.ts';
import { profileRead, type PageProfile } from './page-profile.ts';
import { median } from './stats.ts';

interface ReadResult {
  ms: number;
  events: number;
  longTasks: number;
  longTaskMs: number;
}

export interface PageOverheadResult {
  ratio: number;
  ratios: number[];
  plainMs: number;
  extMs: number;
  /** median long tasks with the extension minus without. */
  extraLongTasks: number;
  plainLongTasks: number[];
  extLongTasks: number[];
  bodyBytes: number;
  events: number;
  /** One more read with the extension, under the CPU profiler (see page-profile.ts). */
  profile: PageProfile;
}

async function read(page: Page, path: string): Promise<ReadResult> {
  // Source text, not a function: tsx's keepNames helper (`__name`) does not exist in the page.
  return page.evaluate(`window.readStream(${JSON.stringify(path)})`) as Promise<ReadResult>;
}

export async function measurePageOverhead(dist: string, opts: { megabytes: number; runs: number; log: (m: string) => void }): Promise<PageOverheadResult> {
  // ~206 bytes per generated event.
  const { body, events } = generateSseBody({ events: Math.round((opts.megabytes * 1e6) / 206) });
  const server = await startStreamServer({ '/stream': { body } });
  let plain: Browser | undefined;
  let ext: ExtensionBrowser | undefined;
  try {
    plain = await launch(undefined);
    ext = await launchWithExtension({ dist });
    const runPlain = async (): Promise<ReadResult> => {
      const app = await (plain as Browser).context.newPage();
      await app.goto(`${server.url}/app`);
      const r = await read(app, '/stream');
      await app.close();
      return r;
    };
    const runExt = async (profile?: (p: PageProfile) => void): Promise<ReadResult> => {
      const e = ext as ExtensionBrowser;
      const app = await e.context.newPage();
      await app.goto(`${server.url}/app`);
      const panel = await e.panelPage(await e.tabIdFor(app));
      await panel.getByTestId('empty').waitFor();
      let r: ReadResult | undefined;
      if (profile) profile(await profileRead(app, async (page) => (r = await read(page, '/stream'))));
      else r = await read(app, '/stream');
      // Let the panel finish with this stream before the next run, so its work does not land in a plain run.
      await panel.locator('[data-conn]', { hasText: 'complete' }).first().waitFor({ timeout: 300_000 });
      await panel.close();
      await app.close();
      return r as ReadResult;
    };
    await runPlain(); // warm-up of both browsers (first navigation, caches), not counted
    await runExt();
    const a: ReadResult[] = [];
    const b: ReadResult[] = [];
    for (let i = 0; i < opts.runs; i++) {
      if (i % 2 === 0) {
        a.push(await runPlain());
        b.push(await runExt());
      } else {
        b.push(await runExt());
        a.push(await runPlain());
      }
      opts.log(`  run ${i + 1}: without ${a[i].ms.toFixed(0)} ms (${a[i].longTasks} long tasks), with ${b[i].ms.toFixed(0)} ms (${b[i].longTasks})`);
      if (a[i].events !== events || b[i].events !== events) throw new Error(`the page read ${a[i].events}/${b[i].events} of ${events} events`);
    }
    let profile: PageProfile | undefined;
    await runExt((p) => (profile = p));
    const ratios = b.map((r, i) => r.ms / a[i].ms);
    const plainLongTasks = a.map((r) => r.longTasks);
    const extLongTasks = b.map((r) => r.longTasks);
    return {
      ratio: median(ratios),
      ratios,
      plainMs: median(a.map((r) => r.ms)),
      extMs: median(b.map((r) => r.ms)),
      extraLongTasks: median(extLongTasks) - median(plainLongTasks),
      plainLongTasks,
      extLongTasks,
      bodyBytes: body.length,
      events,
      profile: profile as PageProfile,
    };
  } finally {
    await ext?.close();
    await plain?.close();
    await server.close();
  }
}

// Figure "page overhead": the app page reads a large SSE stream from a loopback server in Chromium, once in a
// browser with the extension loaded and its panel open on that tab, once in the same browser build without the
// extension; runs alternate. Reported: median of the per-pair time ratios, and the extra long tasks (≥ 50 ms) the
// page's main thread had with the extension. A third run per round, in the browser without the extension, has the
// page keep a copy of every chunk itself: the floor of any capture that holds the bytes in the page, as the tap must
// (for streams that began before DevTools opened, and across service-worker restarts) — see README "Performance".
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
  /** With `keep`: the page's own time copying the chunks, and how many it copied. */
  copyMs: number;
  copied: number;
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
  /** Long tasks per run of the page keeping its own copies (no extension): the floor of the long-task figure too. */
  copyLongTasks: number[];
  /** median long tasks of the copying page minus without. */
  copyExtraLongTasks: number;
  bodyBytes: number;
  events: number;
  /** One more read with the extension, under the CPU profiler (see page-profile.ts). */
  profile: PageProfile;
  /** The page keeping a copy of each chunk itself, no extension, vs without: median per-round ratio, and its spread. */
  copyRatio: number;
  copyRatios: number[];
  /** Median time the page spent copying (ms) and chunks per read. */
  copyMs: number;
  chunks: number;
}

async function read(page: Page, path: string, keep = false): Promise<ReadResult> {
  // Source text, not a function: tsx's keepNames helper (`__name`) does not exist in the page.
  return page.evaluate(`window.readStream(${JSON.stringify(path)}, ${keep})`) as Promise<ReadResult>;
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
    const runPlain = async (keep = false): Promise<ReadResult> => {
      const app = await (plain as Browser).context.newPage();
      await app.goto(`${server.url}/app`);
      const r = await read(app, '/stream', keep);
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
    const c: ReadResult[] = [];
    for (let i = 0; i < opts.runs; i++) {
      // The copying run sits between the two others, so it is as near in time to each as they are to each other.
      if (i % 2 === 0) {
        a.push(await runPlain());
        c.push(await runPlain(true));
        b.push(await runExt());
      } else {
        b.push(await runExt());
        c.push(await runPlain(true));
        a.push(await runPlain());
      }
      opts.log(`  run ${i + 1}: without ${a[i].ms.toFixed(0)} ms (${a[i].longTasks} long tasks), with ${b[i].ms.toFixed(0)} ms (${b[i].longTasks}); ` +
        `the page copying its chunks ${c[i].ms.toFixed(0)} ms (copies ${c[i].copyMs.toFixed(0)} ms, ${c[i].longTasks} long tasks)`);
      if (a[i].events !== events || b[i].events !== events || c[i].events !== events) throw new Error(`the page read ${a[i].events}/${b[i].events}/${c[i].events} of ${events} events`);
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
      copyLongTasks: c.map((r) => r.longTasks),
      copyExtraLongTasks: median(c.map((r) => r.longTasks)) - median(plainLongTasks),
      bodyBytes: body.length,
      events,
      profile: profile as PageProfile,
      copyRatio: median(c.map((r, i) => r.ms / a[i].ms)),
      copyRatios: c.map((r, i) => r.ms / a[i].ms),
      copyMs: median(c.map((r) => r.copyMs)),
      chunks: median(c.map((r) => r.copied)),
    };
  } finally {
    await ext?.close();
    await plain?.close();
    await server.close();
  }
}

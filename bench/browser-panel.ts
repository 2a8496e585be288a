// Panel figures, in the real extension panel (panel/index.html?tabId=N) fed by the real tap:
// - scrubbing: a reply of 100,000 events (20,000 with --quick) is selected; → is held (key repeat at ~30/s, trusted
//   key events through CDP) and then the slider is dragged end to end; every frame interval is recorded with rAF
//   in the panel, and the figure is the share of frames longer than 20 ms;
// - live ingest: a stream arrives at 5,000 events/s while the panel follows it; a key is pressed every 250 ms and its
//   input latency (Event Timing: from the key event to the next paint) is recorded; the figure is the 95th percentile.
import type { Page } from '@playwright/test';
import { launchWithExtension, type ExtensionBrowser } from '../test/e2e/support/extension.ts';
import { generateSseBody } from './capture-gen.ts';
import { frameEnds, startStreamServer } from './browser-env.ts';
import { quantile } from './stats.ts';

export interface ScrubResult {
  slowShare: number;
  frames: number;
  p95FrameMs: number;
  replyEvents: number;
  steps: number;
}

export interface LiveResult {
  p95Ms: number;
  maxMs: number;
  presses: number;
  events: number;
  rate: number;
}

// Code evaluated in the panel is passed as source text: tsx compiles this file with esbuild's keepNames, which wraps
// inner functions in a `__name` helper that does not exist in the page.
const START_FRAMES = `(() => {
  window.__frames = []; window.__stop = false; let last;
  const loop = (t) => { if (last !== undefined) window.__frames.push(t - last); last = t; if (!window.__stop) requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
})()`;
const STOP_FRAMES = '(window.__stop = true, window.__frames)';
const START_LATENCY = `(() => {
  window.__latency = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'keydown') window.__latency.push(e.duration); })
    .observe({ type: 'event', durationThreshold: 16 });
})()`;

/** Starts recording rAF intervals in the page; the returned function stops and returns them. */
async function recordFrames(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(START_FRAMES);
  return () => page.evaluate(STOP_FRAMES) as Promise<number[]>;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens the app and the panel on its tab, reads `path` in the app, selects the (first) connection in the panel. */
async function openStream(ext: ExtensionBrowser, url: string, path: string, waitComplete: boolean): Promise<{ app: Page; panel: Page; done: Promise<unknown> }> {
  const app = await ext.context.newPage();
  await app.goto(`${url}/app`);
  const panel = await ext.panelPage(await ext.tabIdFor(app));
  await panel.getByTestId('empty').waitFor();
  const done = app.evaluate(`window.readStream(${JSON.stringify(path)})`);
  const row = panel.locator('[data-conn]').first();
  if (waitComplete) {
    await done;
    await panel.locator('[data-conn]', { hasText: 'complete' }).first().waitFor({ timeout: 600_000 });
  }
  await row.click();
  return { app, panel, done };
}

export async function measureScrub(dist: string, replyEvents: number, log: (m: string) => void): Promise<ScrubResult> {
  const { body, longestReply } = generateSseBody({ events: 1, longReplyEvents: replyEvents });
  const server = await startStreamServer({ '/reply': { body } });
  const ext = await launchWithExtension({ dist });
  try {
    const { panel } = await openStream(ext, server.url, '/reply', true);
    await panel.locator(`[data-reply="${longestReply.id}"]`).click();
    const slider = panel.getByTestId('step-slider');
    await slider.focus();
    await panel.keyboard.press('Home');
    const stop = await recordFrames(panel);
    // Hold →: the OS repeats the key ~30 times a second.
    const holdUntil = Date.now() + 4000;
    await panel.keyboard.down('ArrowRight');
    while (Date.now() < holdUntil) {
      await pause(33);
      await panel.keyboard.down('ArrowRight'); // a repeat keydown while the key is held
    }
    await panel.keyboard.up('ArrowRight');
    // Drag the slider from one end to the other over ~3 s.
    const box = await slider.boundingBox();
    if (!box) throw new Error('the step slider is not visible');
    const y = box.y + box.height / 2;
    await panel.mouse.move(box.x + 2, y);
    await panel.mouse.down();
    for (let i = 1; i <= 90; i++) {
      await panel.mouse.move(box.x + 2 + ((box.width - 4) * i) / 90, y);
      await pause(33);
    }
    await panel.mouse.up();
    const frames = await stop();
    const steps = Number(/step \d+ \/ (\d+)/.exec(await panel.getByTestId('step-pos').innerText())?.[1] ?? NaN);
    log(`  ${frames.length} frames, ${frames.filter((f) => f > 20).length} over 20 ms, reply of ${steps} steps`);
    return { slowShare: frames.filter((f) => f > 20).length / Math.max(1, frames.length), frames: frames.length, p95FrameMs: quantile(frames, 0.95), replyEvents: longestReply.events, steps };
  } finally {
    await ext.close();
    await server.close();
  }
}

export async function measureLive(dist: string, events: number, rate: number, log: (m: string) => void): Promise<LiveResult> {
  const { body } = generateSseBody({ events });
  const server = await startStreamServer({ '/live': { body, frameEnds: frameEnds(body), rate } });
  const ext = await launchWithExtension({ dist });
  try {
    const { panel, done } = await openStream(ext, server.url, '/live', false);
    await panel.evaluate(START_LATENCY);
    await panel.getByTestId('step-slider').focus();
    let presses = 0;
    let finished = false;
    void done.then(() => (finished = true));
    while (!finished) {
      await panel.keyboard.press(presses % 2 ? 'ArrowRight' : 'ArrowLeft');
      presses++;
      await pause(250);
    }
    await pause(100); // the last entries
    const reported = (await panel.evaluate('window.__latency')) as number[];
    // Presses under the 16 ms threshold report nothing: count them as 16 ms (an upper bound).
    const all = [...reported, ...Array.from({ length: Math.max(0, presses - reported.length) }, () => 16)];
    log(`  ${presses} key presses while streaming, ${reported.length} over 16 ms, slowest ${Math.max(0, ...reported).toFixed(0)} ms`);
    return { p95Ms: quantile(all, 0.95), maxMs: Math.max(16, ...reported), presses, events, rate };
  } finally {
    await ext.close();
    await server.close();
  }
}

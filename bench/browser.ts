// The browser figures: page overhead (with vs without the extension) and the panel's scrubbing / live-ingest
// responsiveness. They need Chromium (/usr/bin/chromium) and build the extension from this tree first.
import { existsSync } from 'node:fs';
import { buildExtension, CHROMIUM } from './browser-env.ts';
import { measurePageOverhead } from './browser-page.ts';
import { measureLive, measureScrub } from './browser-panel.ts';
import { figure, type Figure } from './report.ts';
import { spread } from './stats.ts';

export async function browserFigures(opts: { quick: boolean; page: boolean; panel: boolean; log: (m: string) => void }): Promise<Figure[]> {
  const out: Figure[] = [];
  if (!existsSync(CHROMIUM)) {
    const skipped = `no Chromium at ${CHROMIUM}`;
    if (opts.page) out.push(figure({ figure: 'page overhead (time)', value: NaN, budget: 1.05, unit: 'ratio', direction: 'max', skipped }));
    if (opts.panel) out.push(figure({ figure: 'panel scrub: frames over 20 ms', value: NaN, budget: 0.05, unit: 'ratio', direction: 'max', skipped }));
    return out;
  }
  opts.log('building the extension (vite build → bench/.cache/dist)…');
  const dist = buildExtension();
  if (opts.page) {
    const megabytes = opts.quick ? 10 : 50;
    opts.log(`page overhead: ${megabytes} MB SSE stream, with vs without the extension (panel open), alternated…`);
    const r = await measurePageOverhead(dist, { megabytes, runs: opts.quick ? 5 : 9, log: opts.log });
    const p = r.profile;
    const share = (ms: number) => `${((100 * ms) / p.totalMs).toFixed(1)}%`;
    opts.log(`  profiled run: the tap ${p.tapMs.toFixed(0)} ms, the relay ${p.relayMs.toFixed(0)} ms of the page thread's ${p.totalMs.toFixed(0)} ms; most: ${p.top} ${p.topMs.toFixed(0)} ms`);
    out.push(figure({
      figure: 'page overhead (time)', value: r.ratio, budget: 1.05, unit: 'ratio', direction: 'max',
      baseline: `without extension ${r.plainMs.toFixed(0)} ms vs with ${r.extMs.toFixed(0)} ms for ${(r.bodyBytes / 1e6).toFixed(0)} MB (${r.events} events); ` +
        `CPU profile of the page's thread: tap ${share(p.tapMs)}, relay ${share(p.relayMs)} (most: ${p.top}, ${share(p.topMs)}); ` +
        `floor — the page keeping a copy of each chunk itself, no extension: ${r.copyRatio.toFixed(3)}× (spread ${spread(r.copyRatios, 3)}; ` +
        `its copies ${r.copyMs.toFixed(0)} ms for ${r.chunks} chunks)`,
      spread: spread(r.ratios, 3),
      detail: { plainMs: r.plainMs, extMs: r.extMs, bodyBytes: r.bodyBytes, events: r.events, profileMs: p.totalMs, tapMs: p.tapMs, relayMs: p.relayMs, top: p.top, topMs: p.topMs,
        copyRatio: r.copyRatio, copySpread: spread(r.copyRatios, 3), copyMs: r.copyMs, chunks: r.chunks },
    }));
    out.push(figure({
      figure: 'page extra long tasks', value: r.extraLongTasks, budget: 0, unit: 'ratio', direction: 'max',
      baseline: `long tasks per run without ${r.plainLongTasks.join('/')} vs with ${r.extLongTasks.join('/')}; ` +
        `floor — the page keeping its own copies: ${r.copyLongTasks.join('/')} (median ${r.copyExtraLongTasks >= 0 ? '+' : ''}${r.copyExtraLongTasks})`,
      detail: { plainLongTasks: r.plainLongTasks.join(','), extLongTasks: r.extLongTasks.join(','), copyLongTasks: r.copyLongTasks.join(','), copyExtraLongTasks: r.copyExtraLongTasks },
    }));
  }
  if (opts.panel) {
    const replyEvents = opts.quick ? 20_000 : 100_000;
    opts.log(`panel scrub: hold → and drag the slider over a ${replyEvents.toLocaleString('en')}-event reply…`);
    const s = await measureScrub(dist, replyEvents, opts.log);
    out.push(figure({
      figure: 'panel scrub: frames over 20 ms', value: s.slowShare, budget: 0.05, unit: 'ratio', direction: 'max',
      baseline: `${s.frames} frames (rAF), p95 ${s.p95FrameMs.toFixed(1)} ms; reply of ${s.steps} steps`,
      detail: { frames: s.frames, p95FrameMs: s.p95FrameMs, steps: s.steps },
    }));
    const events = opts.quick ? 25_000 : 50_000;
    opts.log(`panel live ingest: ${events} events at 5,000 events/s, key presses every 250 ms…`);
    const l = await measureLive(dist, events, 5000, opts.log);
    out.push(figure({
      figure: 'panel input latency at 5k events/s (p95)', value: l.p95Ms, budget: 100, unit: 'ms', direction: 'max',
      baseline: `${l.presses} key presses (Event Timing), slowest ${l.maxMs.toFixed(0)} ms`,
      detail: { p95Ms: l.p95Ms, maxMs: l.maxMs, presses: l.presses, events: l.events },
    }));
  }
  return out;
}

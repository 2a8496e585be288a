// Which event the pointer is on in the timeline chart: what a hover shows and a click seeks to. Apart from the chart
// (Timeline.tsx), whose pointer handlers ask it: a question about the lanes and the chart's scale alone, not about
// what the chart draws or holds.
import type { TimelineLane } from '../../src/core/analysis/timeline.ts';
import { AXIS_H, LANE_H } from './timeline-layout.ts';

/** How far (px) from an event, outside the lane's bars, the pointer still finds it. */
const HIT_PX = 12;

/** Events a lane knows about (span starts, ticks, ends), to find the one nearest to a pointer. */
function laneEvents(lane: TimelineLane): { t: number; event: number }[] {
  const out: { t: number; event: number }[] = [];
  for (const s of lane.spans) {
    out.push({ t: s.start, event: s.startEvent });
    for (const tk of s.ticks) out.push(tk);
    if (s.endEvent !== undefined) out.push({ t: s.end, event: s.endEvent });
  }
  return out;
}

/**
 * The event nearest the pointer (`px`, `py` in the chart) in its lane — within reach: inside one of the lane's bars, or
 * a few pixels from an event. Without a limit, a click on empty space zoomed in far from any event seeked minutes away,
 * off-screen. `x` and `tAt`: a time's place on the chart and the time at a place; `labelW`: where the plot begins.
 */
export function nearestEvent(
  lanes: readonly TimelineLane[],
  px: number,
  py: number,
  { x, tAt, labelW }: { x: (t: number) => number; tAt: (px: number) => number; labelW: number },
): { t: number; event: number } | undefined {
  const lane = lanes[Math.floor((py - AXIS_H) / LANE_H)];
  if (!lane || px < labelW) return undefined;
  const t = tAt(px);
  const inBar = lane.spans.some((s) => x(s.start) <= px && px <= Math.max(x(s.start) + 3, x(s.end))); // as drawn
  let best: { t: number; event: number } | undefined;
  for (const c of laneEvents(lane)) if (!best || Math.abs(c.t - t) < Math.abs(best.t - t)) best = c;
  return best && (inBar || Math.abs(x(best.t) - px) <= HIT_PX) ? best : undefined;
}

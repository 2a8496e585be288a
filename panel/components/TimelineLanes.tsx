// The timeline chart's lanes: a row each — its label, its spans as bars, their delta ticks and a reply's marks — and
// the band across the selected reply's lanes. Apart from the chart (Timeline.tsx), which holds the view, the pointer
// and the buttons: this is the drawing of the rows alone, with its one-per-pixel thinning of points, ticks and marks.
import type { TimelineLane } from '../../src/core/analysis/timeline.ts';
import { laneIds, shortIdsIn } from '../lib/timeline-words.ts';
import { AXIS_H, LANE_H } from './timeline-layout.ts';

/**
 * `x`: a time's place on the chart (px), the plot `plotW` px wide from `labelW`; `labelTexts`: the lanes' labels as they
 * fit the label column; `markedReply`: the reply whose lanes are marked; `continuedTitle`: what an open left edge
 * says (where its span began: the evicted part, and what evicted it, or the connection resumed).
 * In the chart's SVG, which defines the clips (#plot, #labels).
 */
export function TimelineLanes({ lanes, x, labelW, plotW, width, labelTexts, laneName, replyNumber, replyName, markedReply, continuedTitle }: {
  lanes: readonly TimelineLane[];
  x: (t: number) => number;
  labelW: number;
  plotW: number;
  width: number;
  labelTexts: readonly string[] | undefined;
  laneName: (lane: TimelineLane) => string;
  replyNumber: ReadonlyMap<string, number>;
  replyName: ReadonlyMap<string, string>;
  markedReply: string | undefined;
  continuedTitle: string;
}) {
  return (
    <>
      {/* The selected reply's lanes, marked across the chart (they sit in every group of lanes). */}
      {lanes.map((lane, li) => lane.replyId !== undefined && lane.replyId === markedReply ? (
        <g key={lane.id} class="tl-band" data-reply-lane={lane.id}>
          <rect x={0} y={AXIS_H + li * LANE_H} width={width} height={LANE_H} />
          <rect class="tl-band-edge" x={0} y={AXIS_H + li * LANE_H} width={3} height={LANE_H} />
        </g>
      ) : null)}
      {lanes.map((lane, li) => {
        const y = AXIS_H + li * LANE_H;
        const n = lane.replyId === undefined ? undefined : replyNumber.get(lane.replyId);
        const label = laneName(lane);
        let lastPointPx = -1;
        return (
          <g key={lane.id} class={`kind-${lane.kind}${lane.replyId !== undefined && lane.replyId === markedReply ? ' tl-selected' : ''}`} data-lane={lane.id}>
            <text class="lane-label" x={4} y={y + 13} clip-path="url(#labels)">
              <title>{n !== undefined ? `${label}\nreply ${replyName.get(lane.replyId!) ?? lane.replyId}` : label}</title>
              {labelTexts?.[li] ?? shortIdsIn(label, laneIds(lane))}
            </text>
            <g clip-path="url(#plot)">
              {lane.spans.map((sp, si) => {
                const x0 = x(sp.start);
                const w = Math.max(3, x(sp.end) - x0);
                // One point (a CUSTOM notification, a hint) per pixel: a lane of thousands of notifications drew a
                // rectangle each.
                if (sp.startEvent === sp.endEvent) {
                  const px = Math.round(x0);
                  if (px === lastPointPx) return null;
                  lastPointPx = px;
                }
                let lastPx = -1;
                let lastMarkPx = -1;
                return (
                  <g key={si}>
                    <rect class="tl-span" x={x0} y={y + 3} width={w} height={LANE_H - 6} rx={2} fill="var(--kind)" opacity={sp.open ? 0.35 : 0.6} stroke={sp.open ? 'var(--kind)' : 'none'} stroke-dasharray={sp.open ? '3 2' : undefined} />
                    {sp.continued ? ( // began before the evicted part, or on the connection this one resumes: an open left edge
                      <path class="tl-continued" d={`M${x0 + 5} ${y + 3} L${x0} ${y + LANE_H / 2} L${x0 + 5} ${y + LANE_H - 3}`} fill="none" stroke="var(--fg)" stroke-width="1.5" data-continued="">
                        <title>{continuedTitle}</title>
                      </path>
                    ) : null}
                    {sp.ticks.map((tk) => {
                      const px = Math.round(x(tk.t));
                      if (px < labelW || px > labelW + plotW) return null;
                      // A reply's marks (interrupt, iteration limit, confirm…) stand out from delta ticks; one per pixel
                      // too (a stream could send thousands).
                      if (tk.mark) {
                        if (px === lastMarkPx) return null;
                        lastMarkPx = px;
                        return <line key={tk.event} class="tl-mark" data-mark={tk.mark} x1={px} x2={px} y1={y + 1} y2={y + LANE_H - 1} />;
                      }
                      if (px === lastPx) return null; // one tick per pixel
                      lastPx = px;
                      return <line key={tk.event} class="tl-tick" x1={px} x2={px} y1={y + 4} y2={y + LANE_H - 4} stroke="var(--fg)" opacity="0.45" />;
                    })}
                  </g>
                );
              })}
            </g>
          </g>
        );
      })}
    </>
  );
}

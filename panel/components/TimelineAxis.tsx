// The timeline chart's time axis row: what it counts, in its corner over the label column, and its labelled ticks.
// Apart from the chart (Timeline.tsx) because it is drawn apart — an element that stays in view (sticky) above the
// chart's own SVG, which scrolls under it.
import type { Timeline as TL } from '../../src/core/analysis/timeline.ts';
import type { AxisTick } from '../lib/axis-ticks.ts';
import { AXIS_H } from './timeline-layout.ts';

const AXIS_TITLE: Record<TL['axis'], string> = {
  arrival: 'arrival time',
  created_at: 'event created_at (no arrival times in this capture)',
  index: 'event index (no times in this capture)',
};

/** `x`: a time's place on the chart (px); `labelW`, `width`: the label column's width and the chart's. */
export function TimelineAxis({ axis, ticks, x, labelW, width }: {
  axis: TL['axis'];
  ticks: readonly AxisTick[];
  x: (t: number) => number;
  labelW: number;
  width: number;
}) {
  // The time axis stays in view (sticky): the chart scrolls down to a selected reply's lanes, and the Table opens
  // under every lane. What it counts is said in its corner, over the label column (cut to it: the title holds it
  // whole).
  return (
    <div class="tl-sticky" style={{ marginBottom: `-${AXIS_H}px` }}>
      <span class="tl-axis-title" style={{ width: `${labelW - 8}px` }} title={`axis: ${AXIS_TITLE[axis]}`}>axis: {AXIS_TITLE[axis]}</span>
      <svg class="tl-axis" width={width} height={AXIS_H} aria-hidden="true">
        {ticks.map(({ t, label }) => (
          <g key={t}>
            <line class="axis" x1={x(t)} x2={x(t)} y1={AXIS_H - 4} y2={AXIS_H} opacity="0.5" />
            <text class="axis-text" x={x(t) + 2} y={12}>
              {axis === 'index' ? `#${Math.round(t)}` : label}
            </text>
          </g>
        ))}
      </svg>
    </div>
  );
}

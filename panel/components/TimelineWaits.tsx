// The timeline chart's waits and gaps: bands across every lane — hatched where a reply waits on its client (the user's
// confirmation, an external execution), shaded over a gap in the stream — and the waits' labels, stacked so that
// overlapping waits stay readable. Apart from the chart (Timeline.tsx): drawn from the timeline's waits alone, behind
// the lanes, and the labels' stacking is a small layout of its own.
import { waitText, type Timeline as TL } from '../../src/core/analysis/timeline.ts';
import { lengthText } from '../lib/timeline-words.ts';
import { AXIS_H, LANE_H } from './timeline-layout.ts';

/** Line height of the wait labels, and a width per character that is at least the bold 10 px label's. */
const WAIT_LABEL_H = 12;
const WAIT_LABEL_CHAR_W = 6.5;

/**
 * The labels of the human-in-the-loop waits wide enough to hold one, each on the lowest line (counted up from the
 * bottom lane) where it runs into no label before it. Waits of several replies overlap in time — a confirmation of one
 * agent while another waits for an external execution — and their labels, all on one line, were drawn over each
 * other, unreadable.
 */
function waitLabels(tl: TL, x: (t: number) => number): { x: number; row: number; text: string }[] {
  const rowEnds: number[] = [];
  const out: { x: number; row: number; text: string }[] = [];
  const shown = tl.waits.filter((w) => w.kind === 'human' && x(w.end) - x(w.start) > 70).sort((a, b) => a.start - b.start);
  for (const w of shown) {
    const text = `${waitText(w)} · ${lengthText(tl, w.end - w.start)}`;
    const x0 = x(w.start) + 4;
    let row = rowEnds.findIndex((end) => end <= x0);
    if (row < 0) row = rowEnds.length;
    rowEnds[row] = x0 + text.length * WAIT_LABEL_CHAR_W + 8;
    out.push({ x: x0, row, text });
  }
  return out;
}

/** `x`: a time's place on the chart (px). In the chart's SVG, which defines the clip (#plot) and the hatch (#hatch). */
export function TimelineWaits({ tl, x }: { tl: TL; x: (t: number) => number }) {
  return (
    <g clip-path="url(#plot)">
      {tl.waits.map((w, i) => (
        <rect
          key={i}
          class={`tl-wait tl-wait-${w.kind}`}
          x={x(w.start)}
          y={AXIS_H}
          width={Math.max(1, x(w.end) - x(w.start))}
          height={tl.lanes.length * LANE_H}
          fill={w.kind === 'human' ? 'url(#hatch)' : 'var(--bg-alt)'}
          opacity={w.kind === 'gap' ? 0.8 : 1}
        >
          <title>{`${waitText(w)}: ${w.label} · ${lengthText(tl, w.end - w.start)}${w.open ? ' (unanswered)' : ''}`}</title>
        </rect>
      ))}
      {waitLabels(tl, x).map((l, i) => (
        <text key={`l${i}`} class="axis-text wait-label" x={l.x} y={AXIS_H + tl.lanes.length * LANE_H - 4 - l.row * WAIT_LABEL_H}>
          {l.text}
        </text>
      ))}
    </g>
  );
}

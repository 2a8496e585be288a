// The timeline's time axis: where its ticks go (a round step, a label every ~90 px) and what they say — one format for
// the whole axis, chosen by its step and its largest time. Each label was formatMs'd on its own: "20.00 s", "40.00 s"
// beside "1 min 0 s", "1 min 20 s".

export interface AxisTick {
  /** On the axis (ms, as the timeline's times). */
  t: number;
  label: string;
}

/** A round step (1, 2 or 5 × a power of ten) that puts a label every ~90 px of `px`. */
export function niceStep(range: number, px: number): number {
  const target = (range / Math.max(1, px)) * 90;
  const pow = 10 ** Math.floor(Math.log10(Math.max(target, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (pow * m >= target) return pow * m;
  return pow * 10;
}

/** Decimals a step of `step` units needs (0.2 → 1, 0.05 → 2), at most `max`. */
function decimals(step: number, max: number): number {
  return step >= 1 ? 0 : Math.min(max, Math.ceil(-Math.log10(step) - 1e-9));
}

/**
 * Labels for times `rel` ms from the axis's origin, in one unit for all, by how far the view reaches (`reach`, ms from
 * the origin): milliseconds under a second, seconds under a minute, m:ss past it ("0:40", "1:00", "1:20"), with the
 * decimals the step needs.
 */
export function tickLabels(rel: readonly number[], step: number, reach = Math.max(0, ...rel.map(Math.abs))): string[] {
  if (reach < 1000 && step < 1000) {
    const d = decimals(step, 3);
    return rel.map((r) => `${r.toFixed(d)} ms`);
  }
  const d = decimals(step / 1000, 6); // zoomed in to microseconds on a long axis: "1:01.00005"
  if (reach < 60_000) return rel.map((r) => `${(r / 1000).toFixed(d)} s`);
  const unit = 10 ** -d;
  return rel.map((r) => {
    const s = Math.round(Math.abs(r) / 1000 / unit) * unit; // rounded first: 59.99 s is "1:00", not "0:60"
    const m = Math.floor(s / 60 + 1e-9);
    const sec = (s - m * 60).toFixed(d).padStart(d ? d + 3 : 2, '0');
    return `${r < 0 ? '-' : ''}${m}:${sec}`;
  });
}

/** The ticks of the view [v0, v1] of a `px`-wide plot, at round times from `origin` (at most 200). */
export function axisTicks(v0: number, v1: number, origin: number, px: number): AxisTick[] {
  const step = niceStep(v1 - v0, px);
  const ts: number[] = [];
  const first = Math.ceil((v0 - origin) / step);
  for (let i = first; origin + i * step <= v1 && ts.length < 200; i++) ts.push(origin + i * step);
  // By the view's reach, not its last tick: an 88 s axis with ticks at 0 and 50 s reads "0:00", "0:50".
  const labels = tickLabels(ts.map((t) => t - origin), step, Math.max(Math.abs(v0 - origin), Math.abs(v1 - origin)));
  return ts.map((t, i) => ({ t, label: labels[i] }));
}

// The timeline's time axis: where its ticks go (a round step, a label every ~90 px) and what they say — one format for
// the whole axis, chosen by its step and its largest time. Each label was formatMs'd on its own: "20.00 s", "40.00 s"
// beside "1 min 0 s", "1 min 20 s". The chart's other times (its tooltip's, its waits' and its table's lengths) read
// in the same words: the tooltip said "10.53 s" and "1 min 23 s" under an axis of "0:20", "1:20".

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

type Unit = 'ms' | 's' | 'm:ss';

/**
 * The unit of times that reach `reach` ms from the origin, told apart to `resolution` ms: milliseconds under a second,
 * seconds under a minute, m:ss past it.
 */
function unitOf(reach: number, resolution: number): Unit {
  if (reach < 1000 && resolution < 1000) return 'ms';
  return reach < 60_000 ? 's' : 'm:ss';
}

/** `rel` ms in `unit`, with the decimals `resolution` (ms) needs. */
function inUnit(rel: number, unit: Unit, resolution: number): string {
  if (unit === 'ms') return `${rel.toFixed(decimals(resolution, 3))} ms`;
  const d = decimals(resolution / 1000, 6); // zoomed in to microseconds on a long axis: "1:01.00005"
  if (unit === 's') return `${(rel / 1000).toFixed(d)} s`;
  const unitS = 10 ** -d;
  const s = Math.round(Math.abs(rel) / 1000 / unitS) * unitS; // rounded first: 59.99 s is "1:00", not "0:60"
  const m = Math.floor(s / 60 + 1e-9);
  const sec = (s - m * 60).toFixed(d).padStart(d ? d + 3 : 2, '0');
  return `${rel < 0 ? '-' : ''}${m}:${sec}`;
}

/**
 * Labels for times `rel` ms from the axis's origin, in one unit for all, by how far the view reaches (`reach`, ms from
 * the origin): milliseconds under a second, seconds under a minute, m:ss past it ("0:40", "1:00", "1:20"), with the
 * decimals the step needs.
 */
export function tickLabels(rel: readonly number[], step: number, reach = Math.max(0, ...rel.map(Math.abs))): string[] {
  const unit = unitOf(reach, step);
  return rel.map((r) => inUnit(r, unit, step));
}

/** How far the view [v0, v1] reaches from `origin`, either way. */
const reachOf = (v0: number, v1: number, origin: number) => Math.max(Math.abs(v0 - origin), Math.abs(v1 - origin));

/** The next finer round step: 50 → 20 → 10 → 5. */
export function finerStep(step: number): number {
  const pow = 10 ** Math.floor(Math.log10(step) + 1e-9);
  const m = Math.round(step / pow);
  return m >= 5 ? 2 * pow : m >= 2 ? pow : pow / 2;
}

/** Where the axis's labels must fit, and how wide one is. */
export interface LabelRoom {
  /** How far (px) past the plot's end a label may reach (a label is drawn from 2 px right of its tick). */
  pastEnd: number;
  /** Width (px) of a label as drawn. */
  width: (label: string) => number;
}

/** Without a font to measure in: a width per character at least a digit's of the 10 px axis font. */
const APPROX_LABEL_CHAR_PX = 6.5;
/** Labels closer than this (px) read as one. */
const LABEL_GAP = 8;

export interface Axis {
  /** Between the round ticks (ms); their labels' resolution. */
  step: number;
  /** The ticks whose label fits (`room`), at least two when two labels fit in the plot at all. */
  ticks: AxisTick[];
}

/**
 * The ticks of the view [v0, v1] of a `px`-wide plot, at round times from `origin` (at most 200), each whose label
 * fits in `room`. A step that leaves fewer than two labels — a docked panel's ~350 px plot of 1:43 had its ticks at
 * 0:00 (before the view) and 1:40 (no room for its label), "0:50" alone — gives way to a finer one while the labels
 * still stand apart; short of that (a plot of a label or two), the view's start is labelled.
 */
export function axisScale(v0: number, v1: number, origin: number, px: number, room: LabelRoom = { pastEnd: Infinity, width: (l) => l.length * APPROX_LABEL_CHAR_PX }): Axis {
  const range = v1 - v0;
  const pxOf = (t: number) => ((t - v0) / range) * px;
  const fits = (t: number, label: string) => pxOf(t) + 2 + room.width(label) <= px + room.pastEnd;
  const round = (step: number): AxisTick[] => {
    const ts: number[] = [];
    for (let i = Math.ceil((v0 - origin) / step); origin + i * step <= v1 && ts.length < 200; i++) ts.push(origin + i * step);
    // By the view's reach, not its last tick: an 88 s axis with ticks at 0 and 50 s reads "0:00", "0:50".
    const labels = tickLabels(ts.map((t) => t - origin), step, reachOf(v0, v1, origin));
    return ts.map((t, i) => ({ t, label: labels[i] })).filter((k) => fits(k.t, k.label));
  };
  /** Whether labels a step apart stand clear of each other. */
  const apart = (step: number, ticks: AxisTick[]) => (step / range) * px >= Math.max(0, ...ticks.map((k) => room.width(k.label))) + LABEL_GAP;
  let step = niceStep(range, px);
  let ticks = round(step);
  while (ticks.length < 2) {
    const finer = finerStep(step);
    const next = round(finer);
    if (!apart(finer, next)) break;
    [step, ticks] = [finer, next];
  }
  if (ticks.length >= 2 || !(range > 0)) return { step, ticks };
  // The view's start, in the step's words, and the round ticks clear of its label.
  const [start] = tickLabels([v0 - origin], step, reachOf(v0, v1, origin));
  const clear = room.width(start) + LABEL_GAP;
  return { step, ticks: [{ t: v0, label: start }, ...ticks.filter((k) => pxOf(k.t) >= clear)].filter((k) => fits(k.t, k.label)) };
}

/** The ticks of the view [v0, v1] of a `px`-wide plot, at round times from `origin` (at most 200). */
export function axisTicks(v0: number, v1: number, origin: number, px: number, room?: LabelRoom): AxisTick[] {
  return axisScale(v0, v1, origin, px, room).ticks;
}

/**
 * The time `t` as the axis of the view [v0, v1] (a `px`-wide plot, times from `origin`) reads it — in its unit — to
 * a tenth of a millisecond on an axis of milliseconds, to the millisecond on one of seconds or m:ss ("0:10.530"),
 * finer when the view is zoomed in further: the chart's tooltip. `step`: the axis's (axisScale), when it took a finer
 * one than its ~90 px.
 */
export function axisTime(t: number, v0: number, v1: number, origin: number, px: number, step = niceStep(v1 - v0, px)): string {
  const unit = unitOf(reachOf(v0, v1, origin), step);
  return inUnit(t - origin, unit, Math.min(step, unit === 'ms' ? 0.1 : 1));
}

/**
 * A length of `ms` in the axis's words, in the unit its own size calls for: under a millisecond to the hundredth
 * ("0.25 ms"), then to the whole millisecond ("6 ms", "340 ms", as formatMs did), from a second to
 * three significant digits ("2.00 s", "10.5 s") — and past a minute m:ss to the second, "1:23" (it read "1 min 23 s").
 */
export function axisDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  // Rounded first: 999.6 ms is "1.00 s", not "1000 ms"; past a minute, to the second.
  const sig = Number(Math.abs(ms).toPrecision(3));
  const a = sig >= 60_000 ? Math.round(Math.abs(ms) / 1000) * 1000 : sig;
  if (a === 0) return '0 ms';
  const resolution = a >= 60_000 ? 1000 : a >= 1 ? Math.max(1, 10 ** (Math.floor(Math.log10(a)) - 2)) : 0.01;
  return inUnit(ms < 0 ? -a : a, unitOf(a, resolution), resolution);
}

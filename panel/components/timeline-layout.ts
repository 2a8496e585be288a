// The timeline chart's rows and label column: the sizes the chart (Timeline.tsx) and the parts it draws in files of
// their own (its axis, lanes and waits) all place things by — kept in one place, for them to line up.

/** The label column's least width (it grows to the longest label, up to a third of the chart: lib/text-fit.ts). */
export const LABEL_MIN_W = 170;
/** The lane labels' font: .lane-label's size (styles.css) in the panel's family; the axis's, .axis-text's. */
export const labelFont = (px = 11): string => `${px}px ${typeof document === 'undefined' ? 'sans-serif' : getComputedStyle(document.body).fontFamily}`;
export const LANE_H = 18;
export const AXIS_H = 22;

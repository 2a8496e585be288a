// Widths of SVG label text, measured in the label's font with a canvas (SVG text does not ellipsize by itself).
// The timeline's lane labels were cut at 25 characters in a fixed 170 px column: "tool result call-plot · plot_csv"
// showed as "tool result call-plot · …" — the tool's name gone — with room to spare beside it on a wide panel, and a
// label of wide letters could still run into the bars.
import { headOf } from '../../src/core/diagnostics/shown.ts';

/** Without a canvas (no DOM), a width per character at least that of the 11 px label font's average. */
const APPROX_CHAR_PX = 6.5;

let context: CanvasRenderingContext2D | null | undefined;

/** Width in px of `text` drawn in `font` (a CSS font shorthand). */
export function textWidth(text: string, font: string): number {
  context ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!context) return text.length * APPROX_CHAR_PX;
  context.font = font;
  return context.measureText(text).width;
}

/** `text` as is when it fits in `maxPx`, else its longest head (whole characters) that fits with a "…". */
export function fitText(text: string, maxPx: number, font: string): string {
  if (textWidth(text, font) <= maxPx) return text;
  let lo = 0;
  let hi = text.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (textWidth(`${headOf(text, mid)}…`, font) <= maxPx) lo = mid;
    else hi = mid - 1;
  }
  return `${headOf(text, lo)}…`;
}

export interface LabelColumn {
  /** Width of the column, the gap before the plot included. */
  width: number;
  /** Each label as drawn: whole, or cut with a "…" to the column. */
  texts: string[];
}

/** Space between a label and the plot. */
const LABEL_GAP = 12;

/**
 * A column for `labels` beside a plot in a box `boxWidth` px wide: as wide as the longest label needs, at least
 * `minWidth`, and at most a third of the box (never below `minWidth`), so that the plot keeps most of the room.
 */
export function labelColumn(labels: readonly string[], boxWidth: number, font: string, minWidth: number): LabelColumn {
  let longest = 0;
  for (const l of labels) longest = Math.max(longest, textWidth(l, font));
  const max = Math.max(minWidth, Math.floor(boxWidth / 3));
  const width = Math.min(max, Math.max(minWidth, Math.ceil(longest) + LABEL_GAP));
  const room = width - LABEL_GAP;
  return { width, texts: labels.map((l) => fitText(l, room, font)) };
}

// Where the timeline's pane scrolls by itself: to the lanes of the reply just selected (its block lanes sat far below
// the model-call lanes, out of view, and nothing moved) and to the table its Table button opens (drawn under every
// lane, the button looked as if it did nothing). Only then: a user who scrolled the chart is otherwise left there.
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';
import type { TimelineLane } from '../../src/core/analysis/timeline.ts';

/**
 * The lanes that show a reply, as [first, last] indexes: its blocks' (text, tool calls…), which come after every
 * reply's reply and model-call lanes — else whatever lanes it has; undefined when it has none.
 */
export function replyLaneRange(lanes: readonly TimelineLane[], replyId: string): [number, number] | undefined {
  let any: [number, number] | undefined;
  let blocks: [number, number] | undefined;
  lanes.forEach((lane, i) => {
    if (lane.replyId !== replyId) return;
    any = any ? [any[0], i] : [i, i];
    if (lane.kind !== 'reply' && lane.kind !== 'model-call') blocks = blocks ? [blocks[0], i] : [i, i];
  });
  return blocks ?? any;
}

/** Where `el` starts in `scroller`'s content (px from its top, whatever it is scrolled to). */
function contentTop(scroller: HTMLElement, el: Element): number {
  return el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/** The height of the pane's toolbar and time axis, which stay at its top (sticky) and cover what is scrolled under. */
function stickyHeight(scroller: HTMLElement): number {
  return scroller.querySelector<HTMLElement>(':scope > .tl-sticky')?.offsetHeight ?? 0;
}

/** Content from `top` to `bottom` in view under the toolbar: left as it is when it is, else scrolled to its top. */
function scrollToRange(scroller: HTMLElement, top: number, bottom: number): void {
  const header = stickyHeight(scroller);
  const viewTop = scroller.scrollTop + header;
  const viewBottom = scroller.scrollTop + scroller.clientHeight;
  if (top >= viewTop && bottom <= viewBottom) return;
  scroller.scrollTop = top - header;
}

/**
 * On selecting a reply (and on opening the chart with one selected): its lanes come into view — unless `pickedHere`
 * says the chart itself selected it (a click on another reply's lane, a button of the table).
 */
export function useRevealReplyLanes(box: RefObject<HTMLElement | null>, lanes: readonly TimelineLane[] | undefined, replyId: string | undefined,
  connId: string | undefined, geometry: { axisH: number; laneH: number }, pickedHere: () => boolean): void {
  useEffect(() => {
    if (pickedHere()) return;
    const scroller = box.current;
    const svg = scroller?.querySelector(':scope > svg');
    const range = lanes && replyId !== undefined ? replyLaneRange(lanes, replyId) : undefined;
    if (!scroller || !svg || !range) return;
    const y = contentTop(scroller, svg) + geometry.axisH;
    scrollToRange(scroller, y + range[0] * geometry.laneH, y + (range[1] + 1) * geometry.laneH);
  }, [replyId, connId]);
}

/**
 * The table just opened comes into view, and focus goes to its grid's one tab stop (its first button; the grid's
 * arrow keys go on from there). `opened` is set by the button and read once.
 */
export function useRevealTable(box: RefObject<HTMLElement | null>, opened: { current: boolean }, tableId: string): void {
  useEffect(() => {
    if (!opened.current) return;
    const scroller = box.current;
    const table = scroller?.querySelector<HTMLElement>(`#${tableId}`);
    // Not drawn yet: this is an earlier render's effect, run late (Preact runs it before the next render's).
    if (!scroller || !table) return;
    opened.current = false;
    const top = contentTop(scroller, table);
    scrollToRange(scroller, top, top + table.offsetHeight);
    table.querySelector<HTMLElement>('[role="grid"] [tabindex="0"]')?.focus({ preventScroll: true });
  });
}

// Where the timeline's pane scrolls by itself: to the table its Table button opens (drawn under every lane, the
// button looked as if it did nothing). Only then: a user who scrolled the chart is otherwise left there.
import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/** Where `el` starts in `scroller`'s content (px from its top, whatever it is scrolled to). */
function contentTop(scroller: HTMLElement, el: Element): number {
  return el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
}

/** The height of the pane's toolbar, which stays at its top (sticky) and covers what is scrolled under it. */
function stickyHeight(scroller: HTMLElement): number {
  return scroller.querySelector<HTMLElement>(':scope > .tabs')?.offsetHeight ?? 0;
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

// The timeline's hover tooltip, kept inside the chart's pane and below its time axis: placed beside the pointer once
// its size is known (lib/popup-place.ts), before it is painted.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { placeBeside } from '../lib/popup-place.ts';

/** `x`, `y`: the pointer, in the window (clientX, clientY). The pane is the tooltip's offset parent (`.timeline`). */
export function TimelineTooltip({ x, y, text }: { x: number; y: number; text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const pane = el?.offsetParent;
    if (!el || !(pane instanceof HTMLElement)) return;
    // In the pane's scrolled content, as the tooltip's left and top are; its view is the part scrolled into sight,
    // under the sticky time axis: a tooltip placed above a pointer in a short pane (a panel docked to the side shows
    // four or five lanes) covered the axis's labels.
    const r = pane.getBoundingClientRect();
    const axis = pane.querySelector<HTMLElement>(':scope > .tl-sticky')?.offsetHeight ?? 0;
    const [left, top] = [pane.scrollLeft, pane.scrollTop + axis];
    const height = Math.max(0, pane.clientHeight - axis);
    el.style.maxHeight = `${Math.max(0, height - 8)}px`; // cut rather than reach over the axis
    const at = placeBeside(
      x - r.left - pane.clientLeft + left,
      y - r.top - pane.clientTop + pane.scrollTop,
      { width: el.offsetWidth, height: el.offsetHeight },
      { left, top, width: pane.clientWidth, height },
    );
    el.style.left = `${at.left}px`;
    el.style.top = `${at.top}px`;
  }, [x, y, text]);
  return <div class="tl-tooltip mono" ref={ref}>{text}</div>;
}

// The laid-out width of an element, kept current as it is resized (a split dragged, DevTools docked narrower): for
// parts that change what they say when narrow, which CSS alone cannot (a select's option text).
import { useLayoutEffect, useState } from 'preact/hooks';

/** Pass `ref` as the element's ref (a callback: the element may mount later); `width` is 0 until measured. */
export function useWidth(): { ref: (el: HTMLElement | null) => void; width: number } {
  const [el, setEl] = useState<HTMLElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    if (!el) return;
    const read = () => setWidth(el.clientWidth);
    read();
    if (typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return { ref: setEl, width };
}

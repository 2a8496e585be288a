// Fixed-height row windowing for long lists: which rows are visible, from the scroll offset and viewport height
// the browser reports through events (never read during render, so rendering forces no layout). Rows all have the
// same height, so every question — which rows to render, where row i sits, is it visible — is O(1); a
// measuring virtualizer recomputes an O(n) measurement table whenever the row count changes, i.e. on every live
// flush.
import { useLayoutEffect, useState } from 'preact/hooks';

export interface RowWindow {
  /** Pass as `ref` of the scroll container (a callback ref: the container may mount after the list does). */
  ref: (el: HTMLElement | null) => void;
  /** The container is mounted and measured: `reveal` works from here on. */
  ready: boolean;
  /** First and one-past-last row to render (overscan included). */
  start: number;
  end: number;
  /** The container's width in px as last reported (0 until measured): lists drop columns when narrow. */
  width: number;
  /** Scroll so that row i is visible; rows already visible do not move, others are centred. */
  reveal(i: number): void;
}

export function useRowWindow(count: number, rowHeight: number, headerHeight = 0, overscan = 8): RowWindow {
  const [view, setView] = useState({ top: 0, height: 600, width: 0, measured: false });
  const [el, setEl] = useState<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (!el) return;
    const read = () => setView({ top: el.scrollTop, height: el.clientHeight, width: el.clientWidth, measured: true });
    read();
    el.addEventListener('scroll', read, { passive: true });
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(read) : undefined;
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      ro?.disconnect();
    };
  }, [el]);

  const body = Math.max(0, view.height - headerHeight);
  const first = Math.floor(view.top / rowHeight);
  const visible = Math.ceil(body / rowHeight) + 1;
  return {
    ref: setEl,
    ready: el !== null && view.measured,
    width: view.width,
    start: Math.max(0, Math.min(count, first - overscan)),
    end: Math.min(count, first + visible + overscan),
    reveal(i: number) {
      if (!el || i < 0 || i >= count) return;
      const y = i * rowHeight;
      // Fully visible below the sticky header: leave the scroll position alone.
      if (y >= view.top && y + rowHeight <= view.top + body) return;
      el.scrollTop = Math.max(0, y - body / 2 + rowHeight / 2);
    },
  };
}

// Two panes and a draggable (and keyboard-movable) divider. The first pane has the fixed size, the second grows.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

interface Props {
  direction: 'row' | 'column';
  /** Initial size of the first pane in px. */
  initial: number;
  /**
   * Size the first pane to its content (px) until the user resizes it — e.g. a table with three rows should not
   * take a fixed third of the screen — capped at `autoMaxFraction` of the split.
   */
  auto?: number;
  autoMaxFraction?: number;
  /**
   * Until the user picks a size, `initial` is at most this fraction of the split: a default sized for a wide window
   * (the replies pane's 460 px) left a 900 px window's event list too narrow for its columns.
   */
  initialMaxFraction?: number;
  min?: number;
  /** Remembered across reloads under this key (localStorage, when available). */
  storageKey?: string;
  label: string;
  children: [ComponentChildren, ComponentChildren];
}

function load(key: string | undefined, fallback: number): number {
  if (!key) return fallback;
  try {
    const v = Number(localStorage.getItem(`replyscope.split.${key}`));
    return Number.isFinite(v) && v > 0 ? v : fallback;
  } catch {
    return fallback; // storage can be unavailable (opaque origins, disabled storage)
  }
}

export function SplitPane({ direction, initial, auto, autoMaxFraction = 0.4, initialMaxFraction, min = 60, storageKey, label, children }: Props) {
  const stored = load(storageKey, NaN);
  const [size, setSize] = useState(() => (Number.isNaN(stored) ? initial : stored));
  const [picked, setPicked] = useState(() => !Number.isNaN(stored));
  // Following the content until the user picks a size (a stored size counts as picked).
  const [fitting, setFitting] = useState(() => auto !== undefined && Number.isNaN(stored));
  const root = useRef<HTMLDivElement>(null);
  const horizontal = direction === 'row';
  // The separator's value, measured once laid out: read while rendering, it was the size before the render (a
  // screen reader heard the previous size after each arrow key) and nothing at all on a split rendered only once.
  const [percent, setPercent] = useState<number | undefined>(undefined);
  useEffect(() => {
    const el = root.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const measure = () => setPercent(percentShown());
    // The split (the window, a parent split) and its first pane (a key, a drag, the content it fits) change the share.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, []);

  const commit = (v: number) => {
    const box = root.current?.getBoundingClientRect();
    const total = box ? (horizontal ? box.width : box.height) : Infinity;
    const next = Math.max(min, Math.min(v, total - min));
    setSize(next);
    setFitting(false);
    setPicked(true);
    if (storageKey) {
      try {
        localStorage.setItem(`replyscope.split.${storageKey}`, String(Math.round(next)));
      } catch {
        /* not persisted: fine */
      }
    }
  };

  const onPointerDown = (e: PointerEvent) => {
    const target = e.currentTarget as HTMLElement;
    target.setPointerCapture(e.pointerId);
    const start = horizontal ? e.clientX : e.clientY;
    const from = shown();
    const move = (ev: PointerEvent) => commit(from + (horizontal ? ev.clientX : ev.clientY) - start);
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const delta = e.shiftKey ? 50 : 10;
    const dec = horizontal ? 'ArrowLeft' : 'ArrowUp';
    const inc = horizontal ? 'ArrowRight' : 'ArrowDown';
    if (e.key === dec || e.key === inc) {
      e.preventDefault();
      e.stopPropagation();
      commit(shown() + (e.key === inc ? delta : -delta));
    }
  };

  const fit = fitting && auto !== undefined;
  const px = fit ? Math.max(min, auto) : size;
  const length = !fit && !picked && initialMaxFraction !== undefined ? `min(${px}px, ${Math.round(initialMaxFraction * 100)}%)` : `${px}px`;
  // A size picked in a wide window must not take the whole of a narrow one: the second pane keeps at least 30% (or
  // `min`), so the event pane does not vanish when DevTools is docked narrow.
  const cap = fit ? `${Math.round(autoMaxFraction * 100)}%` : `calc(100% - max(${min}px, 30%))`;
  function percentShown(): number | undefined {
    const box = root.current?.getBoundingClientRect();
    const total = box ? (horizontal ? box.width : box.height) : 0;
    return total > 0 ? Math.round((100 * shown()) / total) : undefined;
  }
  /** The first pane's size as laid out (the cap may have cut it). */
  function shown(): number {
    const pane = root.current?.firstElementChild;
    if (!pane) return size;
    const r = pane.getBoundingClientRect();
    return horizontal ? r.width : r.height;
  }

  return (
    <div class={`split ${direction}`} ref={root}>
      <div class="pane" style={horizontal ? { width: length, maxWidth: cap } : { height: length, maxHeight: cap }}>
        {children[0]}
      </div>
      <div
        class="divider"
        role="separator"
        aria-label={label}
        aria-orientation={horizontal ? 'vertical' : 'horizontal'}
        // A share of the split in percent (the separator's default range is 0–100), as last laid out.
        aria-valuenow={percent}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKeyDown}
      />
      <div class="pane grow">{children[1]}</div>
    </div>
  );
}

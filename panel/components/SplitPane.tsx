// Two panes and a draggable (and keyboard-movable) divider. The first pane has the set size, the second grows.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';

interface Props {
  direction: 'row' | 'column';
  /**
   * Initial size of the first pane: px, or a CSS length of the split's ("50%", a clamp() of shares and px), which
   * follows the window — a list sized in px when a docked DevTools opened short stayed that small when it was made
   * taller; a pane sized for a wide window left a 900 px one's event list too narrow for its columns.
   */
  initial: number | string;
  /**
   * Size the first pane to its content (px) until the user resizes it — e.g. a table with three rows should not
   * take a fixed third of the screen — capped at `autoMax` (a CSS length; 40% of the split by default).
   */
  auto?: number;
  autoMax?: string;
  min?: number;
  /**
   * The least the first pane is given of a size the user picked (a CSS length of the split; `min` px by default): a
   * share picked in a wide window is a narrow window's sliver — the replies' 19% of 1600 px left a 600 px one's names
   * a letter each.
   */
  least?: string;
  /**
   * The least the second pane keeps, whatever the first pane's size (a CSS length of the split; 30% and `min` px at
   * least by default): a share picked in a tall window left a DevTools docked below (340 px) no room under the
   * connections for the event list and the message.
   */
  keep?: string;
  /**
   * The first pane is a list of `row` px rows under `head` px (its title and table header): capped, or at a size
   * picked, it is cut between two rows (the cap rounded down, a size picked to the nearest), and the arrow keys move
   * its divider a row. A DevTools docked below (1400 × 340) showed one and a half connections, the half row read as
   * if it were the list's last. Its size fitted to its content (`auto`) is left as given.
   */
  rows?: { head: number; row: number };
  /** Remembered across reloads under this key (localStorage, when available). */
  storageKey?: string;
  label: string;
  children: [ComponentChildren, ComponentChildren];
}

/**
 * A size the user picked: the first pane's share of the split, so that it keeps its proportion when the window (a
 * docked DevTools) is resized — or px, as stored before shares were, until the split is first measured.
 */
type Picked = { share: number } | { px: number };

function load(key: string | undefined): Picked | undefined {
  if (!key) return undefined;
  try {
    const v = Number(localStorage.getItem(`replyscope.split.${key}`));
    if (!Number.isFinite(v) || v <= 0) return undefined;
    return v <= 1 ? { share: v } : { px: v };
  } catch {
    return undefined; // storage can be unavailable (opaque origins, disabled storage)
  }
}

function save(key: string | undefined, share: number): void {
  if (!key) return;
  try {
    localStorage.setItem(`replyscope.split.${key}`, String(Math.round(share * 10_000) / 10_000));
  } catch {
    /* not persisted: fine */
  }
}

/**
 * `length` (a CSS length of the split) as the head and whole rows (`how`: the rows rounded down, or to the nearest), in
 * CSS (the split's length is the layout's). One row at least: a length short of the head and a row is left as it is
 * (a window too short for a row), or, to the nearest, made one row where it is nearer.
 */
function wholeRows(length: string, rows: { head: number; row: number }, how: 'down' | 'nearest'): string {
  const one = rows.head + rows.row;
  return `max(min(${length}, ${one}px), calc(${rows.head}px + round(${how}, ${length} - ${rows.head}px, ${rows.row}px)))`;
}

export function SplitPane({ direction, initial, auto, autoMax = '40%', min = 60, least, keep, rows, storageKey, label, children }: Props) {
  // Held with the key it was read under: a split that changes direction (the stacked layout, useMediaQuery.ts) changes
  // its key too, and its size is that key's — a width's share picked beside is no height's share stacked.
  const [held, setHeld] = useState<{ key: string | undefined; picked: Picked | undefined }>(() => ({ key: storageKey, picked: load(storageKey) }));
  const picked = useMemo(() => (held.key === storageKey ? held.picked : load(storageKey)), [held, storageKey]);
  const setPicked = (p: Picked) => setHeld({ key: storageKey, picked: p });
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
  // A size stored in px by an earlier version becomes the share it has of this split.
  useLayoutEffect(() => {
    if (picked && 'px' in picked) commit(picked.px);
  }, []);

  /** The split's length along the divider's axis, as laid out. */
  const total = () => {
    const box = root.current?.getBoundingClientRect();
    return box ? (horizontal ? box.width : box.height) : 0;
  };
  const commit = (v: number) => {
    const length = total();
    if (!(length > 0)) return; // not laid out (hidden): nothing to take a share of
    const share = Math.max(min, Math.min(v, length - min)) / length;
    setPicked({ share });
    save(storageKey, share);
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
    // A row of a list cut between rows: 10 px was rounded back to where the divider was.
    const delta = rows ? (e.shiftKey ? 3 : 1) * rows.row : e.shiftKey ? 50 : 10;
    const dec = horizontal ? 'ArrowLeft' : 'ArrowUp';
    const inc = horizontal ? 'ArrowRight' : 'ArrowDown';
    if (e.key === dec || e.key === inc) {
      e.preventDefault();
      e.stopPropagation();
      commit(shown() + (e.key === inc ? delta : -delta));
    }
  };

  const fit = auto !== undefined && picked === undefined;
  // A picked size is stored as it was picked (the window may grow back) and bounded here, as laid out: the first pane
  // keeps `least`, the second `keep`.
  const given = fit ? `${Math.max(min, auto)}px`
    : picked ? ('share' in picked ? `max(${least ?? `${min}px`}, ${(picked.share * 100).toFixed(3)}%)` : `${picked.px}px`)
    : typeof initial === 'string' ? initial : `${initial}px`;
  const length = rows && !fit ? wholeRows(given, rows, 'nearest') : given;
  // A size picked in a wide window must not take the whole of a narrow one: the second pane keeps at least 30% (or
  // `min`, or `keep`), so the event pane does not vanish when DevTools is docked narrow.
  const most = fit ? autoMax : `calc(100% - ${keep ?? `max(${min}px, 30%)`})`;
  const cap = rows ? wholeRows(most, rows, 'down') : most;
  function percentShown(): number | undefined {
    const length = total();
    return length > 0 ? Math.round((100 * shown()) / length) : undefined;
  }
  /** The first pane's size as laid out (the cap may have cut it). */
  function shown(): number {
    const pane = root.current?.firstElementChild;
    if (!pane) return 0;
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

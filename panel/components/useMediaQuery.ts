// Whether a media query matches the panel's window, kept current as DevTools is docked, undocked or resized: for
// layouts CSS alone cannot switch (which pane a split puts beside which, a tab that exists only in one of them).
import { useEffect, useState } from 'preact/hooks';

export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof matchMedia === 'function' && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const list = matchMedia(query);
    const update = () => setMatches(list.matches);
    update(); // it may have changed between the first render and this effect
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query]);
  return matches;
}

/**
 * DevTools docked to the side (a panel under 600 px wide, typically 360–540): the panes stack — connections, replies,
 * the event list, the step — each the panel's whole width, as side by side the replies took a third of it and the
 * message and its event were left ~100 px columns. styles.css switches the same width's rules (STACKED there).
 */
export const STACKED = '(max-width: 599px)';

export const useStackedLayout = (): boolean => useMediaQuery(STACKED);

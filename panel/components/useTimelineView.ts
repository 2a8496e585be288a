// The part of the timeline a zoomed-in chart shows, as state: back to the whole when the connection changes, and moved
// to keep the selected step in sight. Apart from the chart (Timeline.tsx), which zooms and pans it from its buttons,
// wheel and drags: what the view is kept as, and when it moves by itself, in one place.
import { useEffect, useState } from 'preact/hooks';
import type { Timeline as TL } from '../../src/core/analysis/timeline.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';

/** The view ([start, end] on the axis; undefined: the whole timeline) and its setter. */
export function useTimelineView(
  tl: TL | undefined,
  conn: ConnectionView | undefined,
  selectedEvent: number | undefined,
): [[number, number] | undefined, (view: [number, number] | undefined) => void] {
  const [view, setView] = useState<[number, number] | undefined>(undefined);
  useEffect(() => setView(undefined), [conn?.record.id]);
  // Zoomed in, the view follows the selected step: moved with the keys (End, [ ]) the cursor left the view and
  // only a mouse could pan back to it.
  useEffect(() => {
    if (!view || !tl || !conn || selectedEvent === undefined) return;
    const pos = tl.times[selectedEvent - (conn.events[0]?.index ?? 0)];
    if (pos === undefined || !Number.isFinite(pos) || (pos >= view[0] && pos <= view[1])) return;
    const span = view[1] - view[0];
    const end = tl.end > tl.start ? tl.end : tl.start + 1;
    const a = Math.max(tl.start, Math.min(pos - span / 2, end - span));
    setView([a, a + span]);
  }, [selectedEvent]);
  return [view, setView];
}

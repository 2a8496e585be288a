// "related: #468, #470": the other events a diagnostic names (`Diagnostic.related` — the deltas a START came too late
// for, the START a duplicate repeats, the event that waited least), each a button that selects that event. The core
// filled them and the messages said "listed as related", but the panel showed none of them. Shown wherever a
// diagnostic is: the event pane's Diagnostics and the Diagnostics tab.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { eventByIndex } from '../store/lookups.ts';

/** Listed before "+N more": a run of orphan deltas can relate thousands of events. */
const FIRST = 5;
/** Listed at most once "+N more" is pressed: a button each, and the Diagnostics tab may list 200 occurrences. */
const EXPANDED = 200;

interface Props {
  conn: ConnectionView;
  related: readonly number[] | undefined;
  /** Selects event `index` of `conn` (the caller knows whether the connection must be selected first). */
  onSelect: (index: number) => void;
}

export function RelatedEvents({ conn, related, onSelect }: Props) {
  const [expanded, setExpanded] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  // "+N more" goes once pressed: focus goes on to the first event it showed, not to the document.
  const moreFocused = useRef(false);
  useLayoutEffect(() => {
    if (!expanded || !moreFocused.current) return;
    moreFocused.current = false;
    box.current?.querySelectorAll<HTMLElement>('button.event-link')[FIRST]?.focus();
  }, [expanded]);
  if (!related || related.length === 0) return null;
  const shown = related.slice(0, expanded ? EXPANDED : FIRST);
  const more = related.length - shown.length;
  return (
    <span class="related-events" data-testid="related-events" ref={box}>
      <span class="dim">related: </span>
      {shown.map((index, i) => (
        <span key={index}>
          {i ? ', ' : null}
          <EventLink conn={conn} index={index} onSelect={onSelect} />
        </span>
      ))}
      {more > 0 && !expanded ? (
        <>
          {', '}
          <button class="event-link" aria-label={`Show ${more} more related events`} title={`Show ${more} more related events`} onClick={(e) => {
            moreFocused.current = document.activeElement === e.currentTarget;
            setExpanded(true);
          }}>
            +{more} more
          </button>
        </>
      ) : more > 0 ? (
        <span class="dim">, … and {more} more</span>
      ) : null}
    </span>
  );
}

/** "#468": selects the event; an event the capture no longer holds (evicted under the memory cap) is plain text. */
function EventLink({ conn, index, onSelect }: { conn: ConnectionView; index: number; onSelect: (index: number) => void }) {
  const ev = eventByIndex(conn, index);
  if (!ev) return <span class="dim" title={`Event #${index} is no longer in the capture (evicted)`}>#{index}</span>;
  const name = `Show related event #${index} (${ev.type})`;
  return (
    <button
      class="event-link"
      aria-label={name}
      title={name}
      onClick={(e) => {
        // Inside a row that selects on click (the Diagnostics tab's occurrence): this event, not the row's.
        e.stopPropagation();
        // The pane this link is in re-renders for the event chosen, and this link may go with it (its event has no
        // related events): focus then goes to the pane, not to the document — the next Tab started over at the toolbar.
        const pane = e.currentTarget.parentElement?.closest<HTMLElement>('[tabindex]');
        onSelect(index);
        requestAnimationFrame(() => {
          const at = document.activeElement;
          if (pane?.isConnected && (at === null || at === document.body)) pane.focus();
        });
      }}
    >
      #{index}
    </button>
  );
}

// The timeline as text: a table with a row per lane — what it is, whose, its first and last event, how long, whether
// it ended, its deltas, marks and waits — and buttons that move the step to the lane's first, last, previous or next
// event. The chart is one image to a screen reader; this is its equivalent, opened from the timeline's "Table" button
// (closed, it costs nothing and shows nothing). Rows come from the same Timeline the chart draws, so they follow it.
//
// One row per lane, never per event (src/core/analysis/timeline-text.ts): the previous/next event is found when a
// button is pressed. Rows are built once per timeline, not per step: the selected step is read only by the caption.
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { Timeline as TL, TimelineLane } from '../../src/core/analysis/timeline.ts';
import { gapSummary, laneStep, summariseLanes } from '../../src/core/analysis/timeline-text.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { contentsText, lengthText, plural, stateText } from '../lib/timeline-words.ts';
import { eventByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';

/** Rows drawn at most: a session of thousands of replies has tens of thousands of lanes. */
export const TABLE_ROWS_MAX = 500;

export const TABLE_ID = 'timeline-text';

function SelectedStep({ store }: { store: PanelStore }) {
  const k = store.selectedEvent.value;
  return <>{k === undefined ? 'No step selected.' : `Selected step: event #${k}.`}</>;
}

export function TimelineTable({ store, conn, tl, laneName, replyName }: {
  store: PanelStore;
  conn: ConnectionView;
  tl: TL;
  /** The lane's name as the chart labels it (with its reply's number when there are several). */
  laneName: (lane: TimelineLane) => string;
  replyName: (replyId: string) => string;
}) {
  // What a button did, for a screen reader (its focus stays on the button; the step moved elsewhere on screen).
  const [said, setSaid] = useState('');
  const rows = useMemo(() => {
    const go = (name: string, event: number | undefined, none: string) => {
      if (event === undefined) {
        setSaid(`${name}: ${none}`);
        return;
      }
      store.selectEvent(event);
      setSaid(`${name}: event #${event} ${eventByIndex(conn, event)?.type ?? ''}`.trim());
    };
    return summariseLanes(tl, TABLE_ROWS_MAX).map((s) => {
      const name = laneName(s.lane);
      const at = (event: number, what: string): ComponentChildren => (
        <button class="tl-go" aria-label={`${what} event of ${name}: #${event}`} onClick={() => go(name, event, '')}>#{event}</button>
      );
      return (
        <tr key={s.lane.id} data-lane={s.lane.id}>
          <th scope="row">{name}</th>
          <td class="tl-reply">{s.lane.replyId !== undefined ? replyName(s.lane.replyId) : 'none'}</td>
          <td>{at(s.firstEvent, 'First')}</td>
          <td>{at(s.lastEvent, 'Last')}</td>
          <td>{lengthText(tl, s.end - s.start)}</td>
          <td>{stateText(s)}</td>
          <td>{contentsText(tl, s)}</td>
          <td class="tl-steps">
            <button aria-label={`Previous event of ${name}`} onClick={() => go(name, laneStep(s.lane, store.selectedEvent.peek(), -1), 'no earlier event')}>Previous</button>
            <button aria-label={`Next event of ${name}`} onClick={() => go(name, laneStep(s.lane, store.selectedEvent.peek(), 1), 'no later event')}>Next</button>
          </td>
        </tr>
      );
    });
  }, [tl, conn, laneName, replyName]);
  const gaps = useMemo(() => gapSummary(tl.waits), [tl]);

  return (
    <section id={TABLE_ID} class="tl-text" aria-label="Timeline as text" data-testid="timeline-table">
      <table class="tl-table">
        <caption>
          {plural(tl.lanes.length, 'lane')} on the {tl.axis === 'index' ? 'event index' : tl.axis === 'created_at' ? 'created_at' : 'arrival time'} axis. <SelectedStep store={store} />
        </caption>
        <thead>
          <tr>
            <th scope="col">Lane</th>
            <th scope="col">Reply</th>
            <th scope="col">First event</th>
            <th scope="col">Last event</th>
            <th scope="col">Duration</th>
            <th scope="col">State</th>
            <th scope="col">Contents</th>
            <th scope="col">Step through</th>
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
      {tl.lanes.length > TABLE_ROWS_MAX ? <p>The first {TABLE_ROWS_MAX} of {tl.lanes.length} lanes are listed.</p> : null}
      {gaps.longest ? (
        <p>
          {plural(gaps.count, 'silence')} longer than {lengthText(tl, 2000)}; the longest {lengthText(tl, gaps.longest.end - gaps.longest.start)}, from
          event #{gaps.longest.startEvent} to #{gaps.longest.endEvent}.
        </p>
      ) : null}
      <span class="sr-only" role="status">{said}</span>
    </section>
  );
}

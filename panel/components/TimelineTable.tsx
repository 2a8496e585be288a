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
import { CUSTOM_OTHER, waitText } from '../../src/core/analysis/timeline.ts';
import { gapSummary, laneStep, summariseLanes, type LaneSummary } from '../../src/core/analysis/timeline-text.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { formatMs } from '../lib/format.ts';
import { eventByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';

/** Rows drawn at most: a session of thousands of replies has tens of thousands of lanes. */
export const TABLE_ROWS_MAX = 500;

export const TABLE_ID = 'timeline-text';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A length on the axis in words: time, or (no times in the input) events. */
function lengthText(tl: TL, d: number): string {
  return tl.axis === 'index' ? plural(Math.round(d), 'event') : formatMs(d);
}

/**
 * Whether the lane's block ended — by its last span: a reply resumed after a confirmation (REPLY_START again, no
 * REPLY_END before the wait) has an earlier span nothing closed, yet it did end; "not ended" said otherwise.
 */
function stateText(s: LaneSummary): string {
  if (s.lane.spans.every((sp) => sp.startEvent === sp.endEvent)) return 'instant';
  const last = s.lane.spans[s.lane.spans.length - 1];
  const continued = s.continued ? ', began before the evicted part' : '';
  if (last.open) return `not ended${continued}${s.spans > 1 ? ` (${s.openSpans} of ${plural(s.spans, 'span')} open)` : ''}`;
  const earlier = s.openSpans ? `; ${plural(s.openSpans, 'earlier span')} never closed` : s.spans > 1 ? ` (${plural(s.spans, 'span')})` : '';
  return `ended${continued}${earlier}`;
}

function contentsText(tl: TL, s: LaneSummary): string {
  const parts: string[] = [];
  if (s.deltas) parts.push(plural(s.deltas, 'delta'));
  if (s.lane.kind === 'custom' && !s.lane.id.endsWith(CUSTOM_OTHER)) parts.push(plural(s.events, 'notification'));
  else if (s.markCount) {
    const listed = s.marks.map((m) => `${m.mark} #${m.event}`).join(', ');
    parts.push(`${plural(s.markCount, 'mark')}: ${listed}${s.markCount > s.marks.length ? ', …' : ''}`);
  }
  for (const w of s.waits) {
    parts.push(`${waitText(w)} #${w.startEvent}${w.open ? ', unanswered' : ` → #${w.endEvent}`} (${lengthText(tl, w.end - w.start)})`);
  }
  if (!parts.length) parts.push(plural(s.events, 'event'));
  return parts.join('; ');
}

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
          <td>{s.lane.replyId !== undefined ? replyName(s.lane.replyId) : 'none'}</td>
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

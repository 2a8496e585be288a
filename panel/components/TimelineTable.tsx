// The timeline as text: a table with a row per lane — what it is, whose, its first and last event, how long, whether
// it ended, its deltas, marks and waits — and buttons that move the step to the lane's first, last, previous or next
// event. The chart is one image to a screen reader; this is its equivalent, opened from the timeline's "Table" button
// (closed, it costs nothing and shows nothing). Rows come from the same Timeline the chart draws, so they follow it.
//
// One row per lane, never per event (src/core/analysis/timeline-text.ts): the previous/next event is found when a
// button is pressed. Rows are built once per timeline, not per step: the selected step is read only by the caption.
// A grid with one tab stop: four buttons a row made up to 2,000 tab stops between the chart and what follows it, so
// only one button is in the tab order and the arrow keys move between them (Home/End along a row, Ctrl+Home/End to
// the first/last row, Page Up/Down by ten rows) — the data grid pattern of the ARIA practices.
import type { ComponentChildren } from 'preact';
import { useMemo, useRef, useState } from 'preact/hooks';
import type { Timeline as TL, TimelineLane } from '../../src/core/analysis/timeline.ts';
import { gapSummary, laneStep, summariseLanes } from '../../src/core/analysis/timeline-text.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { beganBefore, contentsText, idPieces, laneIds, lengthText, longNameParts, plural, stateText } from '../lib/timeline-words.ts';
import { eventByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';

/** Rows drawn at most: a session of thousands of replies has tens of thousands of lanes. */
export const TABLE_ROWS_MAX = 500;

export const TABLE_ID = 'timeline-text';

/** The buttons of a row, in order: first event, last event, previous, next. */
const COLUMNS = 4;

/** Where a key moves the grid's focus from [row, col] among `rows` rows; undefined for other keys. */
export function gridMove(key: string, ctrl: boolean, [row, col]: [number, number], rows: number): [number, number] | undefined {
  const clampRow = (r: number) => Math.max(0, Math.min(rows - 1, r));
  switch (key) {
    case 'ArrowRight': return [row, Math.min(COLUMNS - 1, col + 1)];
    case 'ArrowLeft': return [row, Math.max(0, col - 1)];
    case 'ArrowDown': return [clampRow(row + 1), col];
    case 'ArrowUp': return [clampRow(row - 1), col];
    case 'PageDown': return [clampRow(row + 10), col];
    case 'PageUp': return [clampRow(row - 10), col];
    case 'Home': return ctrl ? [0, col] : [row, 0];
    case 'End': return ctrl ? [rows - 1, col] : [row, COLUMNS - 1];
    default: return undefined;
  }
}

/**
 * `text` with the `ids` in it unbroken, a long one shortened ("e6336d1f…edbf"): the whole id is its title and, for a
 * screen reader, what it reads in its place.
 */
function IdText({ text, ids }: { text: string; ids: readonly string[] }) {
  return (
    <>
      {idPieces(text, ids).map((p, i) =>
        'text' in p ? p.text
          : p.short === p.id ? <span key={i} class="tl-id">{p.id}</span>
          : <span key={i} class="tl-id" title={p.id}><span aria-hidden="true">{p.short}</span><span class="sr-only">{p.id}</span></span>,
      )}
    </>
  );
}

/**
 * `text` that may wrap after the underscores of its long names (REQUIRE_EXTERNAL_EXECUTION): whole, such a name set
 * the Contents column's least width, and a docked panel's table ran out of its pane. Shorter names stay whole.
 */
function Breakable({ text }: { text: string }) {
  return <>{longNameParts(text).map((part, i) => (i ? <><wbr />{part}</> : part))}</>;
}

function SelectedStep({ store }: { store: PanelStore }) {
  const k = store.selectedEvent.value;
  return <>{k === undefined ? 'No step selected.' : `Selected step: event #${k}.`}</>;
}

export function TimelineTable({ store, conn, tl, laneName, replyName, select = store.selectEvent }: {
  store: PanelStore;
  conn: ConnectionView;
  tl: TL;
  /** The lane's name as the chart labels it (with its reply's number when there are several). */
  laneName: (lane: TimelineLane) => string;
  replyName: (replyId: string) => string;
  /** Selects an event its buttons go to (the chart's own pick: no scroll to the reply it selects). */
  select?: (event: number) => void;
}) {
  // What a button did, for a screen reader (its focus stays on the button; the step moved elsewhere on screen).
  const [said, setSaid] = useState('');
  // The one button in the tab order: [row, column] (see the top of the file).
  const [focus, setFocus] = useState<[number, number]>([0, 0]);
  const grid = useRef<HTMLTableElement>(null);
  const lanes = useMemo(() => summariseLanes(tl, TABLE_ROWS_MAX), [tl]);
  const [fr, fc] = focus[0] < lanes.length ? focus : [0, 0];
  const rows = useMemo(() => {
    const go = (name: string, event: number | undefined, none: string) => {
      if (event === undefined) {
        setSaid(`${name}: ${none}`);
        return;
      }
      select(event);
      setSaid(`${name}: event #${event} ${eventByIndex(conn, event)?.type ?? ''}`.trim());
    };
    return lanes.map((s, r) => {
      const name = laneName(s.lane);
      const roving = (c: number) => ({ tabIndex: r === fr && c === fc ? 0 : -1, 'data-cell': `${r}:${c}`, onFocus: () => setFocus([r, c]) });
      const at = (event: number, what: string, c: number): ComponentChildren => (
        <button class="tl-go" {...roving(c)} aria-label={`${what} event of ${name}: #${event}`} onClick={() => go(name, event, '')}>#{event}</button>
      );
      return (
        <tr key={s.lane.id} data-lane={s.lane.id}>
          <th scope="row"><IdText text={name} ids={laneIds(s.lane)} /></th>
          <td class="tl-reply">{s.lane.replyId !== undefined ? <IdText text={replyName(s.lane.replyId)} ids={[s.lane.replyId]} /> : 'none'}</td>
          <td>{at(s.firstEvent, 'First', 0)}</td>
          <td>{at(s.lastEvent, 'Last', 1)}</td>
          <td class="tl-length">{lengthText(tl, s.end - s.start)}</td>
          <td>{stateText(s, beganBefore(conn))}</td>
          <td><div class="tl-contents"><Breakable text={contentsText(tl, s)} /></div></td>
          <td>
            <div class="tl-steps">
              <button {...roving(2)} aria-label={`Previous event of ${name}`} onClick={() => go(name, laneStep(s.lane, store.selectedEvent.peek(), -1), 'no earlier event')}>Previous</button>
              <button {...roving(3)} aria-label={`Next event of ${name}`} onClick={() => go(name, laneStep(s.lane, store.selectedEvent.peek(), 1), 'no later event')}>Next</button>
            </div>
          </td>
        </tr>
      );
    });
  }, [lanes, tl, conn, laneName, replyName, select, fr, fc]);
  const onKeyDown = (e: KeyboardEvent) => {
    const to = gridMove(e.key, e.ctrlKey || e.metaKey, [fr, fc], lanes.length);
    if (!to) return;
    e.preventDefault(); // not the pane's scroll, nor the scrubber's step keys
    e.stopPropagation();
    setFocus(to);
    grid.current?.querySelector<HTMLButtonElement>(`[data-cell="${to[0]}:${to[1]}"]`)?.focus();
  };
  const gaps = useMemo(() => gapSummary(tl.waits), [tl]);

  return (
    <section id={TABLE_ID} class="tl-text" aria-label="Timeline as text" data-testid="timeline-table">
      <table class="tl-table" role="grid" ref={grid} onKeyDown={onKeyDown}>
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

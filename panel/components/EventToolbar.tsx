// The event list's tools — its search, its type choice, "Hide heartbeats" and what they leave shown — drawn in the
// connection views' tab bar (app.tsx puts them there), not in the list: a component of its own beside the list
// (EventList.tsx), the two sharing only the store's filters.
import { batch } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { frameMatcher } from '../store/event-rows.ts';
import { frameByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';
import { FilterStatus } from './FilterStatus.tsx';
import { typeNameParts } from '../lib/type-name-parts.ts';

export function EventToolbar({ store }: { store: PanelStore }) {
  const f = store.filters;
  const types = store.eventTypes.value;
  const chosen = [...f.eventTypes.value][0] ?? '';
  return (
    <>
      <input
        type="search"
        placeholder="Search events"
        aria-label="Search events"
        value={f.eventText.value}
        onInput={(e) => (f.eventText.value = (e.currentTarget as HTMLInputElement).value)}
      />
      {/* The type chosen, shown over the select cut in the middle as the event list cuts it: the select showed the head
          of its option's text — at 800 px "TEXT_BLO", which is each TEXT_BLOCK_* alike. The options stay whole names
          with their counts, as picked from. */}
      <span class="type-filter">
        <select
          aria-label="Event type"
          class={chosen ? 'type-chosen' : undefined}
          title={chosen || undefined}
          value={chosen}
          onChange={(e) => {
            const v = (e.currentTarget as HTMLSelectElement).value;
            f.eventTypes.value = new Set(v ? [v] : []);
          }}
        >
          <option value="">All types</option>
          {/* A type chosen on another connection stays chosen: it is listed here too, with none of its events. */}
          {chosen && !types.some(([t]) => t === chosen) ? <option value={chosen}>{chosen} (0)</option> : null}
          {types.map(([t, n]) => (
            <option key={t} value={t}>
              {t} ({n})
            </option>
          ))}
        </select>
        {chosen ? <ChosenType type={chosen} count={types.find(([t]) => t === chosen)?.[1] ?? 0} /> : null}
      </span>
      <label title="Hide heartbeat / comment frames and a socket's messages that are no agent events (what the page sent stays)">
        <input
          type="checkbox"
          checked={f.hideHeartbeats.value}
          onChange={(e) => {
            const hide = (e.currentTarget as HTMLInputElement).checked;
            batch(() => {
              f.hideHeartbeats.value = hide;
              // A selected frame goes with its row (the list's own rule: what the page sent stays shown).
              const conn = store.selectedConnection.value;
              const sel = store.selectedFrame.value;
              const frame = conn && sel !== undefined ? frameByIndex(conn, sel) : undefined;
              const shown = frameMatcher({ text: f.eventText.value, types: f.eventTypes.value, hideHeartbeats: hide });
              if (hide && frame && !shown(frame)) store.selectedFrame.value = undefined;
            });
          }}
        />
        Hide heartbeats
      </label>
      <FilterStatus filter={`${f.eventText.value}\n${chosen}\n${f.hideHeartbeats.value}`} text={rowsShown(store.eventRows.value?.count ?? 0)} />
    </>
  );
}

/**
 * A chosen type's name over its select (styles.css `.type-filter`): its last word kept, the rest cut with "…"; its
 * count after it where the whole name leaves room, else none (the line under the tabs says how many rows match). The
 * filter is kept wide enough for the last word (`.type-filter-least`).
 */
function ChosenType({ type, count }: { type: string; count: number }) {
  const { head, tail } = typeNameParts(type);
  return (
    <>
      <span class="type-filter-name" aria-hidden="true">
        <span class="type-filter-type">
          <span class="type-head">{head}</span>
          {tail ? <span class="type-tail">{tail}</span> : null}
        </span>
        <span class="type-filter-count">{`\u00a0(${count})`}</span>
      </span>
      {/* Unseen, no height: the width the name above needs at its narrowest (its last word and the head's "…"), which
          the filter keeps — laid over the select, the name itself takes no room. */}
      {tail ? <span class="type-filter-least" aria-hidden="true">{tail}</span> : null}
    </>
  );
}

/**
 * Heartbeat / comment frames counted so far, per frame list: a live connection's list grows in place, and counting it
 * from its start on every refresh made each one O(frames) while a filter was set (the live panel's budget, see
 * docs/performance.md). A list that shrank (never, today) is counted again.
 */
const beatsCounted = new WeakMap<object, { frames: number; beats: number }>();

/** Rows of the list with no filter: every event and every heartbeat / comment frame (the rows a filter can hide). */
function allRows(conn: ConnectionView): number {
  const frames = conn.frames;
  let c = beatsCounted.get(frames);
  if (!c || c.frames > frames.length) beatsCounted.set(frames, (c = { frames: 0, beats: 0 }));
  for (; c.frames < frames.length; c.frames++) if (frames.heartbeat(c.frames)) c.beats++;
  return conn.events.length + c.beats;
}

/**
 * What the event filter left, in sight, on a line of its own under the tabs while a filter is set ("4 of 492 rows
 * match"), and whether the selected event is among them. It was said only to screen readers (FilterStatus): a search
 * left the user counting rows, and the selected event — filtered out while the scrubber and the panes below still
 * show it — was nowhere in the list without a word why. (A line of its own: beside the search, a docked panel's tab
 * bar had no room for it.)
 */
export function FilterCount({ store }: { store: PanelStore }) {
  const f = store.filters;
  const conn = store.selectedConnection.value;
  const rows = store.eventRows.value;
  const on = f.eventText.value !== '' || f.eventTypes.value.size > 0 || f.hideHeartbeats.value;
  // Counted while a filter is set only (a pass over the frames), again when the connection grows.
  const all = useMemo(() => (on && conn ? allRows(conn) : 0), [on, conn, conn?.frames.length, conn?.events.length]);
  if (!on || !conn || !rows) return null;
  const selected = store.selectedFrame.value === undefined ? store.selectedEvent.value : undefined;
  const hidden = selected !== undefined && rows.rowOfEvent(selected) < 0 ? selected : undefined;
  const count = `${rows.count.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} ${all === 1 ? 'row' : 'rows'} match`;
  const note = hidden === undefined ? '' : `the selected event, #${hidden}, is hidden by the filter (the panes below still show it)`;
  return (
    <div class="filter-count" data-testid="event-filter-count" title={note ? `${count} · ${note}` : count}>
      {count}{note ? <span class="warn"> · {note}</span> : null}
    </div>
  );
}

const rowsShown = (n: number) => (n === 0 ? 'No events match' : `${n} ${n === 1 ? 'row' : 'rows'} shown`);

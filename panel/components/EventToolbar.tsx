// The event list's tools — its search, its type choice, "Hide heartbeats" and what they leave shown — drawn in the
// connection views' tab bar (app.tsx puts them there), not in the list: a component of its own beside the list
// (EventList.tsx), the two sharing only the store's filters.
import { batch } from '@preact/signals';
import { frameMatcher } from '../store/event-rows.ts';
import { frameByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';
import { FilterStatus } from './FilterStatus.tsx';

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
      <select
        aria-label="Event type"
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

const rowsShown = (n: number) => (n === 0 ? 'No events match' : `${n} ${n === 1 ? 'row' : 'rows'} shown`);

// The event list: virtualized (only visible rows exist in the DOM), so 100k+ events scroll without jank.
// Columns: index, relative time, type (colour per block kind), block/tool-call id, preview, validation status.
import { useComputed } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { eventRole } from '../../src/core/analysis/timeline.ts';
import type { EventView } from '../../src/core/analysis/types.ts';
import { formatRelative, truncate } from '../lib/format.ts';
import { eventRows, eventTypeCounts, type EventRow } from '../store/filters.ts';
import type { PanelStore } from '../store/store.ts';
import { useVirtualizer } from './useVirtualizer.ts';

const ROW = 20;

function statusOf(e: EventView): { text: string; cls: string } {
  if (!e.valid) return { text: 'invalid', cls: 'err' };
  if (e.diagnostics.some((d) => d.severity === 'error')) return { text: 'error', cls: 'err' };
  if (e.diagnostics.some((d) => d.severity === 'warning')) return { text: 'warning', cls: 'warn' };
  if (e.extras.length) return { text: 'extras', cls: 'dim' };
  return { text: 'ok', cls: 'ok' };
}

export function kindClass(e: EventView): string {
  const role = eventRole(e);
  return role ? `kind-${role.kind}` : '';
}

export function EventToolbar({ store }: { store: PanelStore }) {
  const conn = store.selectedConnection.value;
  const f = store.filters;
  const types = conn ? eventTypeCounts(conn) : [];
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
        {types.map(([t, n]) => (
          <option key={t} value={t}>
            {t} ({n})
          </option>
        ))}
      </select>
      <label title="Hide heartbeat / comment frames">
        <input
          type="checkbox"
          checked={f.hideHeartbeats.value}
          onChange={(e) => (f.hideHeartbeats.value = (e.currentTarget as HTMLInputElement).checked)}
        />
        Hide heartbeats
      </label>
    </>
  );
}

export function EventList({ store }: { store: PanelStore }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useComputed<EventRow[]>(() => {
    void store.revision.value; // the analyzer appends to a connection's event array in place
    const conn = store.selectedConnection.value;
    const f = store.filters;
    return conn ? eventRows(conn, f.eventText.value, f.eventTypes.value, f.hideHeartbeats.value) : [];
  }).value;
  const conn = store.selectedConnection.value;
  const selected = store.selectedEvent.value;
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    paddingStart: ROW, // room for the sticky header row
  });

  // Keep the selected event visible when it moves (scrubbing, following a live reply, diagnostics jumps); new rows
  // alone do not scroll, so a user reading elsewhere in the list is not pulled back.
  useEffect(() => {
    if (selected === undefined) return;
    const i = rows.findIndex((r) => r.kind === 'event' && r.event.index === selected);
    if (i >= 0) v.scrollToIndex(i, { align: 'auto' });
  }, [selected]);

  if (!conn) return <div class="empty">Select a connection to see its events.</div>;
  if (conn.events.length === 0 && conn.frames.length === 0) return <div class="empty">No events in this stream yet.</div>;
  const origin = conn.record.startTime;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const eventsOnly = rows.filter((r): r is Extract<EventRow, { kind: 'event' }> => r.kind === 'event');
    const i = eventsOnly.findIndex((r) => r.event.index === selected);
    const next = eventsOnly[Math.max(0, Math.min(eventsOnly.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (next) store.selectEvent(next.event.index);
  };

  return (
    <div class="vlist" ref={scrollRef} tabIndex={0} onKeyDown={onKeyDown} aria-label="Events" data-testid="events">
      <div class="vhead" role="row">
        <span class="num">#</span>
        <span class="num">Time</span>
        <span>Type</span>
        <span>Block</span>
        <span>Data</span>
        <span>Status</span>
      </div>
      <div class="vlist-inner" style={{ height: `${v.getTotalSize() - ROW}px` }}>
        {v.getVirtualItems().map((item) => {
          const row = rows[item.index];
          const top = item.start - ROW;
          if (!row) return null;
          if (row.kind === 'heartbeat') {
            return (
              <div key={`f${row.frameIndex}`} class={`vrow heartbeat${item.index % 2 ? ' odd' : ''}`} style={{ top: `${top}px` }}>
                <span class="num">·</span>
                <span class="num">{formatRelative(row.t, origin)}</span>
                <span>heartbeat</span>
                <span />
                <span>{truncate(row.data ? `: ${row.data}` : ':', 200)}</span>
                <span />
              </div>
            );
          }
          const e = row.event;
          const st = statusOf(e);
          return (
            <div
              key={`e${e.index}`}
              class={`vrow${item.index % 2 ? ' odd' : ''}${st.cls === 'err' ? ' has-error' : ''}`}
              style={{ top: `${top}px` }}
              aria-selected={e.index === selected}
              onClick={() => store.selectEvent(e.index)}
              data-event={e.index}
            >
              <span class="num">{e.index}</span>
              <span class="num">{formatRelative(e.t, origin)}</span>
              <span class={`type-cell ${kindClass(e)}`} title={e.type}>
                {e.type}
              </span>
              <span title={e.blockId}>{e.blockId ?? ''}</span>
              <span class="mono" title={truncate(e.preview, 500)}>
                {truncate(e.preview, 300)}
              </span>
              <span class={`status-cell ${st.cls}`}>{st.text}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

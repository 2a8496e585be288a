// The event list: windowed (only visible rows exist in the DOM), so 100k+ events scroll without jank, and
// incremental (rows come from the store's EventRowIndex; memoised rows re-render only when they change).
// Columns: index, relative time, type (colour per block kind), block/tool-call id, preview, validation status.
import { batch } from '@preact/signals';
import { memo } from 'preact/compat';
import { useEffect, useRef } from 'preact/hooks';
import { eventRole } from '../../src/core/analysis/timeline.ts';
import type { EventView } from '../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../src/core/diagnostics/types.ts';
import { formatElapsed, truncate } from '../lib/format.ts';
import type { EventRow } from '../store/filters.ts';
import { frameMatcher, type RowsSnapshot } from '../store/event-rows.ts';
import { extraDiagnostics, frameByIndex } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';
import { useRowWindow } from './useRowWindow.ts';
import { EdgeSpacedText } from './EdgeSpacedText.tsx';
import { FilterStatus } from './FilterStatus.tsx';

const ROW = 20;

/** `extra`: the connection's diagnostics told at this event (see extraDiagnostics). */
function statusOf(e: EventView, extra: readonly Diagnostic[] | undefined): { text: string; cls: string } {
  if (!e.valid) return { text: 'invalid', cls: 'err' };
  const diagnostics = extra ? [...e.diagnostics, ...extra] : e.diagnostics;
  if (diagnostics.some((d) => d.severity === 'error')) return { text: 'error', cls: 'err' };
  if (diagnostics.some((d) => d.severity === 'warning')) return { text: 'warning', cls: 'warn' };
  if (e.extras.length) return { text: 'extras', cls: 'dim' };
  return { text: 'ok', cls: 'ok' };
}

export function kindClass(e: EventView): string {
  const role = eventRole(e);
  return role ? `kind-${role.kind}` : '';
}

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

interface RowProps {
  row: EventRow;
  /** Position in the filtered list (aria-rowindex is this + 2: the header is row 1). */
  index: number;
  top: number;
  odd: boolean;
  selected: boolean;
  origin: number;
  onSelect: (index: number) => void;
  onSelectFrame: (frameIndex: number) => void;
  /** The connection's diagnostics told at this row's event (a prop of its own: rows without any stay memoised). */
  extra?: readonly Diagnostic[];
}

/** One row; memoised, so a seek re-renders the two rows whose selection changed and a flush only the new ones. */
const Row = memo(function Row({ row, index, top, odd, selected, origin, onSelect, onSelectFrame, extra }: RowProps) {
  if (row.kind === 'heartbeat') {
    return (
      <div
        class={`vrow heartbeat${odd ? ' odd' : ''}`}
        style={{ top: `${top}px` }}
        role="row"
        id={rowId(row)}
        aria-rowindex={index + 2}
        aria-selected={selected}
        onClick={() => onSelectFrame(row.frameIndex)}
        data-frame={row.frameIndex}
      >
        <span role="gridcell" class="num">·</span>
        <span role="gridcell" class="num">{formatElapsed(row.t, origin)}</span>
        <span role="gridcell">{row.sent ? 'sent' : row.foreign ? 'other message' : 'heartbeat'}</span>
        <span role="gridcell" />
        <span role="gridcell" title={truncate(row.data, 2000)}>{truncate(row.foreign || row.sent ? row.data : row.data ? `: ${row.data}` : ':', 200)}</span>
        <span role="gridcell" />
      </div>
    );
  }
  const e = row.event;
  const st = statusOf(e, extra);
  return (
    <div
      class={`vrow${odd ? ' odd' : ''}${st.cls === 'err' ? ' has-error' : ''}`}
      style={{ top: `${top}px` }}
      role="row"
      id={rowId(row)}
      aria-rowindex={index + 2}
      aria-selected={selected}
      onClick={() => onSelect(e.index)}
      data-event={e.index}
    >
      <span role="gridcell" class="num">{e.index}</span>
      <span role="gridcell" class="num">{formatElapsed(e.t, origin)}</span>
      <span role="gridcell" class={`type-cell ${kindClass(e)}`} title={e.type}>
        {e.type}
      </span>
      <span role="gridcell" title={e.blockId}>{e.blockId ?? ''}</span>
      <span role="gridcell" class="mono" title={truncate(e.preview, 500)}>
        <EdgeSpacedText text={truncate(e.preview, 300)} />
      </span>
      <span role="gridcell" class={`status-cell ${st.cls}`}>{st.text}</span>
    </div>
  );
});

/** The DOM id of a row (the list's active descendant when selected). */
function rowId(row: EventRow): string {
  return row.kind === 'event' ? `event-row-${row.event.index}` : `frame-row-${row.frameIndex}`;
}

export function EventList({ store }: { store: PanelStore }) {
  const rows = store.eventRows.value;
  const conn = store.selectedConnection.value;
  const selected = store.selectedEvent.value;
  const selectedFrame = store.selectedFrame.value;
  const count = rows?.count ?? 0;
  const win = useRowWindow(count, ROW, ROW);
  const selectedRow = selected === undefined || !rows ? -1 : rows.rowOfEvent(selected);

  // Keep the selected event visible when it moves (scrubbing, following a live reply, diagnostics jumps) or the
  // filters change the rows around it; new rows alone do not scroll, so a user reading elsewhere is not pulled back.
  // A selected frame is the selected row instead: revealed when selected — by a key, or again after the capture was
  // replaced (a compacted live panel), when it was off-screen — or moved by the filters; the step moving on under it (a
  // followed reply) does not scroll away from it.
  const f = store.filters;
  useEffect(() => {
    if (selectedFrame === undefined && selectedRow >= 0) win.reveal(selectedRow);
  }, [selected, selectedRow >= 0, selectedFrame === undefined, win.ready, f.eventText.value, f.eventTypes.value, f.hideHeartbeats.value]);
  useEffect(() => {
    if (selectedFrame !== undefined && rows) win.reveal(rowOfFrame(rows, selectedFrame));
  }, [selectedFrame, win.ready, f.eventText.value, f.eventTypes.value, f.hideHeartbeats.value]);

  // The row a screen reader is told of (aria-activedescendant): it moves with the user, not with a followed live
  // stream — each arriving event moved it, and a focused list was read out row after row, many a second. While the
  // selection follows arrivals, a focused list keeps the row it had (or none, once that row scrolls out of the window).
  const told = useRef<{ frozen: boolean; id: string | undefined }>({ frozen: false, id: undefined });

  if (!conn || !rows) return <div class="empty">Select a connection to see its events.</div>;
  if (conn.events.length === 0 && conn.frames.length === 0) return <div class="empty">No events in this stream yet.</div>;
  const origin = conn.record.startTime;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const dir = e.key === 'ArrowDown' ? 1 : -1;
    // Walk from the selected row (a selected frame's, else the event's) to the next one.
    const from = selectedFrame !== undefined ? rowOfFrame(rows, selectedFrame) : -1;
    const at = from >= 0 ? from : selectedRow;
    const i = at < 0 ? (dir > 0 ? 0 : count - 1) : at + dir;
    const r = i >= 0 && i < count ? rows.at(i) : undefined;
    if (r?.kind === 'event') store.selectEvent(r.event.index);
    else if (r) store.selectFrame(r.frameIndex);
  };

  const extras = extraDiagnostics(conn);
  const items = [];
  let active: string | undefined; // the selected row, when it is rendered: what a screen reader announces
  const rendered = new Set<string>();
  for (let i = win.start; i < win.end; i++) {
    const row = rows.at(i);
    if (!row) continue;
    const isSelected = row.kind === 'event' ? selectedFrame === undefined && row.event.index === selected : row.frameIndex === selectedFrame;
    if (isSelected) active = rowId(row);
    rendered.add(rowId(row));
    items.push(
      <Row
        key={row.kind === 'event' ? `e${row.event.index}` : `f${row.frameIndex}`}
        row={row}
        index={i}
        top={i * ROW}
        odd={i % 2 === 1}
        selected={isSelected}
        origin={origin}
        onSelect={store.selectEvent}
        onSelectFrame={store.selectFrame}
        extra={row.kind === 'event' ? extras.get(row.event.index) : undefined}
      />,
    );
  }

  // Only while the list has focus (unfocused, nothing is read; on focus it must name the selected row).
  const focused = typeof document !== 'undefined' && document.activeElement?.getAttribute('data-testid') === 'events';
  if (!store.movedByArrival.value || !focused) told.current = { frozen: false, id: active };
  else if (!told.current.frozen) told.current = { frozen: true, id: told.current.id };
  // A kept row that left the window is not in the document: no active row then (an id must name an element).
  const activeShown = told.current.frozen && told.current.id !== undefined && !rendered.has(told.current.id) ? undefined : told.current.id;

  return (
    <div
      class="vlist"
      ref={win.ref}
      tabIndex={0}
      onKeyDown={onKeyDown}
      role="grid"
      aria-label="Events"
      aria-rowcount={count + 1}
      aria-activedescendant={activeShown}
      data-testid="events"
    >
      <div class="vhead" role="row" aria-rowindex={1}>
        <span role="columnheader" class="num">#</span>
        <span role="columnheader" class="num" title="Since the connection opened (m:ss.sss past a minute)">Time</span>
        <span role="columnheader">Type</span>
        <span role="columnheader">Block</span>
        <span role="columnheader">Data</span>
        <span role="columnheader">Status</span>
      </div>
      <div class="vlist-inner" role="rowgroup" style={{ height: `${count * ROW}px` }}>
        {items}
      </div>
      {count === 0 && !filtering(store) ? (
        // No filter hides anything: the stream's frames hold no event its client reads (e.g. "data:" without the
        // space, which the AgentScope and pi clients skip). It said "No events match the filter", with a button
        // to clear a filter that was not set.
        <div class="empty" role="row" data-testid="events-none-read">
          <span role="gridcell">
            None of this stream's {conn.frames.length.toLocaleString('en-US')} {conn.frames.length === 1 ? 'frame is an event' : 'frames is an event'} its
            client reads — the Diagnostics tab says why.
          </span>
        </div>
      ) : count === 0 ? (
        <div class="empty" role="row" data-testid="events-none-match">
          <span role="gridcell">
            No events match {describeFilters(store)}.{' '}
            <button
              type="button"
              onClick={(e) => {
                // The button goes with the message it sits in: focus moves to the list it brings back (it fell to the
                // document, and the next Tab started over at the toolbar).
                (e.currentTarget as HTMLElement).closest<HTMLElement>('[role="grid"]')?.focus();
                clearEventFilters(store);
              }}
            >
              Clear the filter
            </button>
          </span>
        </div>
      ) : null}
    </div>
  );
}

/** What hides every row, in words ("the search "abc" and the type TEXT_BLOCK_DELTA"). */
/** Some event filter is set (search, types, "Hide heartbeats"). */
function filtering(store: PanelStore): boolean {
  const f = store.filters;
  return f.eventText.value !== '' || f.eventTypes.value.size > 0 || f.hideHeartbeats.value;
}

function describeFilters(store: PanelStore): string {
  const f = store.filters;
  const parts: string[] = [];
  if (f.eventText.value) parts.push(`the search "${f.eventText.value}"`);
  const types = [...f.eventTypes.value];
  if (types.length) parts.push(`the type ${types.join(', ')}`);
  if (f.hideHeartbeats.value) parts.push('"Hide heartbeats"');
  return parts.join(' and ') || 'the filter';
}

function clearEventFilters(store: PanelStore): void {
  const f = store.filters;
  batch(() => {
    f.eventText.value = '';
    f.eventTypes.value = new Set();
    f.hideHeartbeats.value = false;
  });
}

/**
 * The row of a selected frame: a scan (frames are selected by a click, an arrow key or a replaced capture, and a frame
 * row has no index of its own in the rows snapshot — one per selection is cheap next to the render it causes).
 */
function rowOfFrame(rows: RowsSnapshot, frameIndex: number): number {
  for (let i = 0; i < rows.count; i++) {
    const r = rows.at(i);
    if (r?.kind === 'heartbeat' && r.frameIndex === frameIndex) return i;
  }
  return -1;
}

// The event list: windowed (only visible rows exist in the DOM), so 100k+ events scroll without jank, and
// incremental (rows come from the store's EventRowIndex; memoised rows re-render only when they change).
// Columns: index, relative time, type (colour per block kind), block/tool-call id, preview, validation status. A row
// is drawn by EventListRow.tsx, the list's tools (search, type, "Hide heartbeats") by EventToolbar.tsx.
import { batch } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import type { RowsSnapshot } from '../store/event-rows.ts';
import { extraDiagnostics } from '../store/lookups.ts';
import type { PanelStore } from '../store/store.ts';
import { useRowWindow } from './useRowWindow.ts';
import { Row, rowId } from './EventListRow.tsx';

/** The list's tools are drawn in the tab bar (app.tsx takes them from here, with the list). */
export { EventToolbar } from './EventToolbar.tsx';

const ROW = 20;

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
        <span role="columnheader" class="num" title="The event's index in the connection">#</span>
        <span role="columnheader" class="num" title="Since the connection opened (m:ss.sss past a minute)">Time</span>
        <span role="columnheader" title="Event type">Type</span>
        <span role="columnheader" title="The block or tool call the event names">Block</span>
        <span role="columnheader" title="What the event carries: its delta, or its main field">Data</span>
        <span role="columnheader" title="The event's validity and its worst diagnostic: ok, extras, warning, error or invalid">Status</span>
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

/** Some event filter is set (search, types, "Hide heartbeats"). */
function filtering(store: PanelStore): boolean {
  const f = store.filters;
  return f.eventText.value !== '' || f.eventTypes.value.size > 0 || f.hideHeartbeats.value;
}

/** What hides every row, in words ("the search "abc" and the type TEXT_BLOCK_DELTA"). */
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

// One row of the event list: an event's cells (index, time, type, block, preview, status) or a frame's that is no
// event (a heartbeat, a socket's other message, what the page sent). Apart from the list (EventList.tsx), which
// windows, selects and announces its rows: what a row shows in one place (the status it gives an event is
// event-status.ts's, which the scrubber says too).
import { memo } from 'preact/compat';
import { eventRole } from '../../src/core/analysis/timeline.ts';
import type { EventView } from '../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../src/core/diagnostics/types.ts';
import { eventStatus } from '../lib/event-status.ts';
import { formatElapsed, truncate } from '../lib/format.ts';
import { typeNameParts } from '../lib/type-name-parts.ts';
import type { EventRow } from '../store/filters.ts';
import { EdgeSpacedText } from './EdgeSpacedText.tsx';

export function kindClass(e: EventView): string {
  const role = eventRole(e);
  return role ? `kind-${role.kind}` : '';
}

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
export const Row = memo(function Row({ row, index, top, odd, selected, origin, onSelect, onSelectFrame, extra }: RowProps) {
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
  const st = eventStatus(e, extra);
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
        <TypeName type={e.type} />
      </span>
      <span role="gridcell" title={e.blockId}>{e.blockId ?? ''}</span>
      <span role="gridcell" class="mono" title={truncate(e.preview, 500)}>
        <EdgeSpacedText text={truncate(e.preview, 300)} />
      </span>
      <span role="gridcell" class={`status-cell ${st.cls}`}>{st.text}</span>
    </div>
  );
});

/**
 * A type's name, its last word kept in view in a narrow column ("TEXT_BL…_DELTA"): the rest is cut (styles.css),
 * clipped and not removed, so the cell's text — what a selection copies — is the whole name.
 */
function TypeName({ type }: { type: string }) {
  const { head, tail } = typeNameParts(type);
  if (!tail) return <span class="type-head">{head}</span>;
  return (
    <>
      <span class="type-head">{head}</span>
      <span class="type-tail">{tail}</span>
    </>
  );
}

/** The DOM id of a row (the list's active descendant when selected). */
export function rowId(row: EventRow): string {
  return row.kind === 'event' ? `event-row-${row.event.index}` : `frame-row-${row.frameIndex}`;
}

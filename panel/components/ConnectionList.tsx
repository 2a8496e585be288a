// The connections table: one row per captured stream, DevTools Network style.
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { formatBytes, formatMs, shortUrl } from '../lib/format.ts';
import { placeBoundaries } from '../lib/page-boundaries.ts';
import type { PanelStore } from '../store/store.ts';
import { Icon } from './Icon.tsx';
import { PageBoundaryRow } from './PageBoundaryRow.tsx';
import { connectionNumbers, resumeText } from '../lib/resume-words.ts';
import { ResumeBadge } from './ResumeNote.tsx';
import { shownState } from '../lib/connection-state.ts';
import { useWidth } from './useWidth.ts';

/**
 * Which columns the list's width keeps. Their fixed widths add up to ~520 px, and in a panel docked to the side the
 * Name column — the one that tells the connections apart — got none: under 620 px Method goes before the name
 * ("POST /api/stream"), and Size, Time and File (in the row's title and the connection's details) go; under 440 px
 * Dialect (the Replies title says it) and Events too.
 */
type Fit = 'all' | 'narrow' | 'tight';
const fitOf = (width: number): Fit => (width === 0 || width >= 620 ? 'all' : width >= 440 ? 'narrow' : 'tight');
const columnsOf = (fit: Fit) => (fit === 'all' ? 9 : fit === 'narrow' ? 6 : 4);

export function connectionDuration(c: ConnectionView): number | undefined {
  // Still open: up to the last thing that arrived — a heartbeat after the last event counts (the time stood still).
  const lastFrame = c.frames.length ? c.frames.t(c.frames.length - 1) : undefined;
  const lastEvent = c.events.length ? c.events[c.events.length - 1].t : undefined;
  const arrived = lastFrame === undefined ? lastEvent : lastEvent === undefined ? lastFrame : Math.max(lastFrame, lastEvent);
  const last = c.end?.t ?? arrived;
  return last !== undefined && Number.isFinite(last) && Number.isFinite(c.record.startTime) ? last - c.record.startTime : undefined;
}

/** A connection's state, as its details say it too (shownState). */
function StateCell({ state, file, reading }: { state: ConnectionView['state']; file: string | undefined; reading: boolean }) {
  const shown = shownState(state, file, reading);
  return <td class={shown.cls} data-testid="conn-state" title={shown.title}>{shown.text}</td>;
}

/** The DOM id of a connection's row (the grid's active descendant when selected). */
const rowId = (id: string) => `conn-row-${id}`;

export function ConnectionList({ store }: { store: PanelStore }) {
  const all = store.connections.value;
  const list = store.shownConnections.value;
  const selected = store.selectedConnId.value;
  const hidden = selected !== undefined && !list.some((c) => c.record.id === selected) ? all.find((c) => c.record.id === selected) : undefined;

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const i = list.findIndex((c) => c.record.id === selected);
    const next = list[Math.max(0, Math.min(list.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (!next) return;
    store.selectConnection(next.record.id);
    // Keep the selection in sight (the list is not windowed: the row is there, maybe scrolled away).
    const table = e.currentTarget as HTMLElement;
    requestAnimationFrame(() => table.querySelector(`#${CSS.escape(rowId(next.record.id))}`)?.scrollIntoView({ block: 'nearest' }));
  };
  const active = selected !== undefined && list.some((c) => c.record.id === selected) ? rowId(selected) : undefined;
  const boundaries = placeBoundaries(all.map((c) => c.record.id), list.map((c) => c.record.id), store.navigations.value);
  const numbers = connectionNumbers(all);
  // Rows from several files (or files beside a live capture): a File column says which file each came from — the
  // log and the HAR of one capture gave rows nothing told apart.
  const fileOf = (c: ConnectionView) => store.connectionFiles.get(c.record.id);
  const box = useWidth();
  const fit = fitOf(box.width);
  const wide = fit === 'all';
  const showFiles = wide && new Set(all.map((c) => fileOf(c) ?? '')).size > 1;
  const columns = columnsOf(fit) + (showFiles ? 1 : 0);
  const reading = store.backlog.value !== undefined;
  const boundaryRows = (at: number) => boundaries.get(at)?.map((b, i) => <PageBoundaryRow key={`nav-${at}-${i}`} boundary={b} columns={columns} />);

  return (
    <div class="scroll" data-testid="connections" ref={box.ref}>
      <table class="grid connections" role="grid" tabIndex={0} onKeyDown={onKeyDown} aria-label="Connections" aria-activedescendant={active}>
        <colgroup>
          <col />
          {wide ? <col style={{ width: '58px' }} /> : null}
          <col style={{ width: '50px' }} />
          {fit !== 'tight' ? <><col style={{ width: '92px' }} /><col style={{ width: '52px' }} /></> : null}
          <col style={{ width: '48px' }} />
          <col style={{ width: '72px' }} />
          {/* Wide enough for "999.9 kB" and "12 min 34 s" (they were cut to "124.0 …"). */}
          {wide ? <><col style={{ width: '72px' }} /><col style={{ width: '80px' }} /></> : null}
          {/* Last: the other columns keep their places (a column added before them moved every one). */}
          {showFiles ? <col style={{ width: '14%' }} /> : null}
        </colgroup>
        <thead>
          <tr>
            <th title="The request's path and query (the whole URL is in the connection's details)">Name</th>
            {wide ? <th title="HTTP method">Method</th> : null}
            <th title="HTTP status">Status</th>
            {fit !== 'tight' ? <><th title="The protocol the events speak">Dialect</th><th class="num" title="Events read from the body">Events</th></> : null}
            <th class="num" title="Diagnostics: how many, coloured by the worst severity among them">Diag</th>
            <th title="How the connection stands: live, complete, aborted, error…">State</th>
            {wide ? <><th class="num" title="Body bytes received">Size</th><th class="num" title="From the request to its end (still open: to the last data that arrived)">Time</th></> : null}
            {showFiles ? <th title="The file each connection was imported from">File</th> : null}
          </tr>
        </thead>
        <tbody>
          {list.map((c, at) => {
            const errors = c.diagnostics.filter((d) => d.severity === 'error').length;
            const warnings = errors ? 0 : c.diagnostics.filter((d) => d.severity === 'warning').length;
            const status = c.record.status;
            const resume = resumeText(c, numbers);
            const file = fileOf(c);
            return [
              boundaryRows(at),
              <tr
                key={c.record.id}
                id={rowId(c.record.id)}
                class="row"
                aria-selected={c.record.id === selected}
                onClick={() => store.selectConnection(c.record.id)}
                title={`#${numbers.get(c.record.id)} · ${c.record.method ? `${c.record.method} ` : ''}${c.record.url}\ntransport: ${c.record.transport}${c.record.isSubframe ? `\nframe: ${c.record.frameUrl}` : ''}${resume ? `\n${resume}` : ''}${file !== undefined ? `\nfrom ${file}` : ''}`}
                data-conn={c.record.id}
              >
                <td>
                  {!wide && c.record.method ? <span class="dim">{c.record.method} </span> : null}
                  {c.record.isSubframe ? <span class="dim" title={`In a subframe: ${c.record.frameUrl}`}><Icon name="frame" /> </span> : null}
                  {shortUrl(c.record.url)}
                  <ResumeBadge c={c} store={store} numbers={numbers} />
                </td>
                {wide ? <td>{c.record.method || '—'}</td> : null}
                <td class={status !== undefined && status >= 400 ? 'err' : ''}>{status ?? '—'}</td>
                {fit !== 'tight' ? <><td>{c.dialect}</td><td class="num">{c.events.length}</td></> : null}
                {/* Orange only for warnings: a socket's info note counted as a problem on a healthy stream. */}
                <td class={`num ${errors ? 'err' : warnings ? 'warn' : 'dim'}`} title={c.diagnostics.length ? `${c.diagnostics.length.toLocaleString('en-US')} diagnostics, ${errors.toLocaleString('en-US')} errors` : undefined}>
                  {c.diagnostics.length || ''}
                </td>
                <StateCell state={c.state} file={file} reading={reading} />
                {wide ? (
                  <>
                    <td class="num" title={Number.isFinite(c.bytes) ? `${c.bytes.toLocaleString('en-US')} bytes` : undefined}>{formatBytes(c.bytes)}</td>
                    <td class="num">{formatMs(connectionDuration(c))}</td>
                  </>
                ) : null}
                {showFiles ? <td class={file === undefined ? 'dim' : ''} data-testid="conn-file" title={file !== undefined ? `Imported from ${file}` : 'Captured live, not imported'}>{file ?? '—'}</td> : null}
              </tr>,
            ];
          })}
          {boundaryRows(list.length)}
        </tbody>
      </table>
      {all.length > 0 && list.length === 0 ? <div class="empty">No connection matches the filter.</div> : null}
      {hidden ? (
        // The panes below still show it: say why it is not in the list (rather than drop the user's selection).
        <div class="dim hidden-selection" data-testid="selection-hidden">
          The selected connection ({shortUrl(hidden.record.url)}) is hidden by the filter; the panes below still show it.
        </div>
      ) : null}
    </div>
  );
}

// Replies of the selected connection: one row per reply (AgentScope reply_id, pi message/turn).
import { memo } from 'preact/compat';
import type { ConnectionView, ReplyView } from '../../src/core/analysis/types.ts';
import { formatMs, formatUsage } from '../lib/format.ts';
import type { PanelStore } from '../store/store.ts';
import { ConnectionDetails } from './ConnectionDetails.tsx';
import { Icon } from './Icon.tsx';
import { connectionName, connectionNumbers, continuedBy } from '../lib/resume-words.ts';
import { useRowWindow } from './useRowWindow.ts';
import { replyLabel, replyNumberText } from '../lib/reply-words.ts';

/** Row height of table.grid (styles.css: td height 20px, nowrap): the list renders only the rows in view. */
const ROW = 20;

interface RowProps {
  r: ReplyView;
  /** Position in the list (aria-rowindex is this + 2: the header is row 1; the list is windowed). */
  index: number;
  /** The list has more than one reply (a pi message is then named by its place). Not the count: with it in the
   * comparison below, each new reply re-rendered every row shown. */
  several: boolean;
  /** The connection has ended (then a reply without a finished reason was cut off, not streaming). */
  ended: string | undefined;
  /** A later request resumed the stream and continued this reply there: "#2" (it is not unfinished for the page). */
  continuedOn: string | undefined;
  /** A pane too narrow for every column: usage, TTFT and duration go to the row's title. */
  narrow: boolean;
  /** The width of the list's longest reply number (CSS), so the names after the numbers line up. */
  numberWidth: string;
  selected: boolean;
  onSelect: (id: string) => void;
}

/**
 * The analyzer hands out a new ReplyView for every reply each time the connection changes, so rows are compared on
 * what they show: a flush re-renders the streaming reply's row, not every finished one above it.
 */
const sameRow = (a: RowProps, b: RowProps) =>
  a.selected === b.selected && a.onSelect === b.onSelect && a.r.id === b.r.id && a.r.name === b.r.name &&
  a.ended === b.ended && a.continuedOn === b.continuedOn && a.narrow === b.narrow && a.numberWidth === b.numberWidth && a.index === b.index && a.several === b.several &&
  a.r.eventIndices.length === b.r.eventIndices.length && a.r.finishedReason === b.r.finishedReason &&
  a.r.usage === b.r.usage && a.r.timeToFirstTokenMs === b.r.timeToFirstTokenMs && a.r.durationMs === b.r.durationMs &&
  a.r.diagnostics.length === b.r.diagnostics.length && a.r.orphan === b.r.orphan && a.r.continuesConnection === b.r.continuesConnection;

/** The DOM id of a reply's row (the grid's active descendant when selected). */
const replyRowId = (id: string) => `reply-row-${id}`;

/** Why a reply's times may differ from what the page saw: the input had no arrival times (the timeline says the same). */
const BY_CREATED_AT = "By the events' created_at (the server's clock): the input has no arrival times";

/** The reply began on the connection this one resumes (a Last-Event-ID request, or its query's): what its times leave out. */
const CONTINUED = 'The reply began on the connection this one resumes (from its last event ID)';

/** A lower bound of nothing: the reply began before what is here, and what is here took no time. */
const UNKNOWN = 'how long it took is not known (its events here came at one time)';

const ReplyRow = memo(function ReplyRow({ r, index, several, ended, continuedOn, narrow, numberWidth, selected, onSelect }: RowProps) {
  const errors = r.diagnostics.some((d) => d.severity === 'error');
  const warnings = !errors && r.diagnostics.some((d) => d.severity === 'warning');
  const continued = r.continuesConnection !== undefined;
  // Begun before what this connection holds (evicted, on the connection it resumes, never started here): at least this long.
  const atLeast = r.continuesEviction || continued || r.orphan ? '≥ ' : '';
  // A bound of nothing ("≥ 0 ms": one event here, or all at one time) says nothing: not known.
  const unknown = atLeast !== '' && r.durationMs === 0;
  const duration = unknown ? '—' : `${atLeast}${formatMs(r.durationMs)}`;
  const times = narrow ? `\nusage ${formatUsage(r.usage)} · TTFT ${formatMs(r.timeToFirstTokenMs)} · duration ${duration}` : '';
  const label = replyLabel(r, index, several);
  const number = several ? replyNumberText(index) : undefined;
  return (
    <tr
      class="row"
      aria-selected={selected}
      onClick={() => onSelect(r.id)}
      title={`${number !== undefined ? `${number} · ` : ''}${label.name ? `${label.name} · ` : ''}${r.id}\n${r.eventIndices.length} events · ${r.dialect}${r.orphan ? '\nnever started in this stream' : ''}${continued ? `\n${CONTINUED}: it continues from where the page had it` : ''}${times}`}
      data-reply={r.id}
      id={replyRowId(r.id)}
      aria-rowindex={index + 2}
    >
      <td>
        {/* A flex line: the number and marks, then the name whole and as much of the id as fits after it — the id
            gives way first, to its head and then to nothing (styles.css .reply-label): a 220 px pane cut each name to
            its first letter to keep "R5" and the id's head. The number tells the rows apart; the row's title has
            the name and the id whole. */}
        <span class="reply-cell">
          {/* The number the timeline's lanes name the reply by ("R5 · text …"). */}
          {/* (The spaces between the parts are for the cell's text — copied, read out — not drawn: the flex gap is.) */}
          {number !== undefined ? <><span class="dim reply-num" style={{ width: numberWidth }}>{number}</span>{' '}</> : null}
          {/* Before the name: at the end of a narrow cell it was cut off. */}
          {r.orphan ? <><span class="warn reply-orphan">orphan</span>{' '}</> : null}
          {continued ? <><span class="dim resume-mark" title={CONTINUED} aria-label="continued"><Icon name="resume" /></span>{' '}</> : null}
          <span class="reply-label">
            {label.name ? <><b class="reply-name">{label.name}</b>{' '}</> : null}
            {label.id !== undefined ? <span class="dim reply-id">{label.id}</span> : null}
          </span>
        </span>
      </td>
      {r.finishedReason !== undefined ? (
        <td class={r.finishedReason !== 'completed' && r.finishedReason !== 'stop' ? 'warn' : ''}>{r.finishedReason}</td>
      ) : ended !== undefined && continuedOn !== undefined ? (
        // Cut off here, but the page's stream went on: a later request resumed it and continued this reply.
        <td class="dim" title={`The connection ended (${ended}) before this reply finished; ${continuedOn} resumed the stream and continues it`}>on {continuedOn}</td>
      ) : ended !== undefined ? (
        // The connection ended before the reply did: it will not finish ("streaming" for good was a false promise).
        <td class="warn" title={`The connection ended (${ended}) before this reply finished`}>unfinished</td>
      ) : (
        <td><span class="dim">streaming</span></td>
      )}
      {narrow ? null : (
        <>
          <td title={formatUsage(r.usage)}>{formatUsage(r.usage, true)}</td>
          <td class="num" title={r.continuesEviction ? 'The reply started before the evicted part: its first token is not known'
            : continued ? `${CONTINUED}: its first token came there` : r.timedBy === 'created_at' ? BY_CREATED_AT : undefined}>
            {formatMs(r.timeToFirstTokenMs)}
          </td>
          <td class="num" data-testid="reply-duration" title={r.continuesEviction ? `The reply started before the evicted part: ${unknown ? UNKNOWN : 'this is the time of the part kept'}`
            : continued ? `${CONTINUED}: ${unknown ? UNKNOWN : 'this is the time of its part on this one'}`
            : r.orphan ? `The reply never started in this stream: ${unknown ? UNKNOWN : 'this is the time from its first event here'}`
            : r.timedBy === 'created_at' ? BY_CREATED_AT : undefined}>
            {duration}
          </td>
        </>
      )}
      <td class={`num ${errors ? 'err' : warnings ? 'warn' : 'dim'}`} title={r.diagnostics.length ? `${r.diagnostics.length.toLocaleString('en-US')} diagnostics` : undefined}>{r.diagnostics.length || ''}</td>
    </tr>
  );
}, sameRow);

/**
 * An empty row of `height` px standing for rows not rendered. The zebra stripes come from `:nth-child(even)`, so the
 * rows above the window are stood for by one or two spacer rows — as many as keeps each rendered row's parity.
 */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" class="spacer">
      <td colSpan={6} style={{ height: `${height}px`, padding: 0, border: 0 }} />
    </tr>
  );
}

const NARROW_PX = 380;
/**
 * Stacked (a panel docked to the side), the list is the panel's whole width: under this the reply column kept
 * "Friday e63…" beside Usage, TTFT and Duration (they are in the timeline and the message).
 */
const STACKED_NARROW_PX = 460;

/** Rows Page Up / Page Down move the selection by. */
const PAGE = 10;

/**
 * A fetch with none of its body read yet: the tap records a fetch body as the page reads it (it never reads ahead:
 * that would change the page's backpressure). The page may be holding it unread — the usual cause of "my UI shows
 * nothing" is right here — or reading a stream the server has sent nothing on yet: an AgentScope session stream is
 * opened with the page and idles until the next message (the demo's first screen), and was asked "does the page read
 * response.body?". The tap cannot tell the two apart, so the note names both. (An XHR's or EventSource's body is read
 * by the browser regardless.)
 */
function unreadFetch(conn: ConnectionView): boolean {
  return conn.record.transport === 'fetch' && conn.state === 'live' && conn.bytes === 0 && conn.evictedEvents === 0;
}

export function ReplyList({ store, stacked = false }: { store: PanelStore; stacked?: boolean }) {
  const conn = store.selectedConnection.value;
  // Windowed: a connection can hold tens of thousands of replies (a long multi-agent session); rendering a row for
  // each took ~10 s to show 20,000 and ~1.4 s per click.
  const win = useRowWindow(conn?.replies.length ?? 0, ROW, ROW);
  if (!conn) return <div class="empty">Select a connection.</div>;
  if (conn.replies.length === 0) {
    return (
      <div class="scroll">
        <div class="empty">{unreadFetch(conn)
          ? 'No replies in this stream yet: none of its body has reached the page. Either the server has sent nothing yet (an idle stream, such as a session stream waiting for the next message), or the page does not read it — a fetch body is recorded as the page reads it (response.body).'
          : `No replies in this stream${conn.events.length ? ' (its events name no reply)' : ' yet'}.`}</div>
        <ConnectionDetails store={store} />
      </div>
    );
  }
  const selected = store.selectedReplyId.value;
  const { start, end } = win;
  // Below this width the reply column had no room left beside the fixed ones (DevTools docked to the side).
  const narrow = win.width > 0 && win.width < (stacked ? STACKED_NARROW_PX : NARROW_PX);
  // ('open': still streaming when the capture was saved — not cut off.)
  const ended = conn.state === 'live' || conn.state === 'open' ? undefined : conn.state;
  const rows = conn.replies.slice(start, end);
  const numberWidth = `${replyNumberText(conn.replies.length - 1).length}ch`;
  const continued = continuedBy(conn);
  const numbers = continued.size ? connectionNumbers(store.connections.value) : undefined;
  const continuedOn = (id: string) => {
    const by = continued.get(id);
    return by && numbers ? connectionName(numbers, by.conn) : undefined;
  };
  // ↑/↓ move the selection, as in the other lists (the keys otherwise only scrolled this one); Page Up / Down by ten
  // and Ctrl+Home / Ctrl+End to the first / last reply, as in the timeline's table. Left to the browser, these scrolled
  // the whole pane — the list and the connection details under it — and the reply rows went out of view.
  const onKeyDown = (e: KeyboardEvent) => {
    const replies = conn.replies;
    const i = replies.findIndex((r) => r.id === selected);
    const to = (d: number) => (i < 0 ? 0 : i + d);
    const modified = e.ctrlKey || e.metaKey;
    const target = e.key === 'ArrowDown' || e.key === 'ArrowUp' ? to(e.key === 'ArrowDown' ? 1 : -1)
      : e.key === 'PageDown' || e.key === 'PageUp' ? to(e.key === 'PageDown' ? PAGE : -PAGE)
      : modified && (e.key === 'Home' || e.key === 'End') ? (e.key === 'Home' ? 0 : replies.length - 1)
      : undefined;
    if (target === undefined) {
      // Home, End and Space belong to the scrubber (the app's key listener); with no reply to scrub, they scrolled the pane.
      // End after an event of no reply goes back to the reply left (the app's listener skips a prevented key).
      const backKey = e.key === 'End' && store.replyLeft.value !== undefined;
      if (!store.selectedReply.value && !modified && !backKey && (e.key === 'Home' || e.key === 'End' || e.key === ' ')) e.preventDefault();
      return;
    }
    e.preventDefault();
    const next = Math.max(0, Math.min(replies.length - 1, target));
    store.selectReply(replies[next].id);
    win.reveal(next);
  };
  return (
    <div class="scroll" data-testid="replies" ref={win.ref}>
      <table class="grid" role="grid" tabIndex={0} onKeyDown={onKeyDown} aria-label="Replies" aria-rowcount={conn.replies.length + 1}
        aria-activedescendant={rows.some((r) => r.id === selected) ? replyRowId(selected as string) : undefined}>
        <colgroup>
          <col />
          <col style={{ width: '74px' }} />
          {narrow ? null : (
            <>
              <col style={{ width: '88px' }} />
              <col style={{ width: '58px' }} />
              <col style={{ width: '62px' }} />
            </>
          )}
          {/* Narrow, as wide as its header's word: the reply column needs every pixel for its number, name and id. */}
          <col style={{ width: narrow ? '38px' : '44px' }} />
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            <th title="The reply's name and id">Reply</th>
            <th title="How the reply ended">Finished</th>
            {narrow ? null : (
              <>
                <th title="Tokens in → out, as the reply reports its usage">Usage</th>
                <th class="num" title="Time to first token">TTFT</th>
                <th class="num" title="From its first event to its last">Duration</th>
              </>
            )}
            <th class="num" title="Diagnostics: how many, coloured by the worst severity among them">Diag</th>
          </tr>
        </thead>
        <tbody>
          {start > 0 ? <Spacer height={start * ROW} /> : null}
          {start > 0 && start % 2 === 0 ? <Spacer height={0} /> : null}
          {rows.map((r, i) => (
            <ReplyRow key={r.id} r={r} index={start + i} several={conn.replies.length > 1} ended={ended} continuedOn={continuedOn(r.id)} narrow={narrow} numberWidth={numberWidth} selected={r.id === selected} onSelect={store.selectReply} />
          ))}
          {end < conn.replies.length ? <Spacer height={(conn.replies.length - end) * ROW} /> : null}
        </tbody>
      </table>
      <ConnectionDetails store={store} />
    </div>
  );
}

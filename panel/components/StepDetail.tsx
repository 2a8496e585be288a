// What the scrubber shows at step k: the bubble (or the message JSON, or the diff against step k−1), and next to
// it the event of step k — raw frame, parsed event, schema issues, lifecycle diagnostics.
import type { Ref } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { ConnectionView, EventView, FrameView, ReplyView } from '../../src/core/analysis/types.ts';
import { appendedIn, diffJson, touchedBlocks, type JsonChange } from '../lib/json-diff.ts';
import { elideInline, prettyValue } from '../lib/elide.ts';
import { CopyButton } from './CopyButton.tsx';
import { LongPre } from './LongText.tsx';
import { formatRelative, truncate } from '../lib/format.ts';
import { eventDiagnostics, frameByIndex } from '../store/lookups.ts';
import type { DetailTab, PanelStore } from '../store/store.ts';
import { MessageBubble } from './MessageBubble.tsx';
import { SplitPane } from './SplitPane.tsx';
import { TabList, TabPanel } from './TabList.tsx';
import { connectionNumbers, continuedBy, withConnectionNames, type ConnectionNumbers } from '../lib/resume-words.ts';
import { replyWords } from '../lib/reply-words.ts';
import { ContinuedNote } from './ResumeNote.tsx';
import { RelatedEvents } from './RelatedEvents.tsx';
import { usePaneFocusKept } from './usePaneFocusKept.ts';
import { useWidth } from './useWidth.ts';
import { ReadableCopies } from '../core-bridge.ts';
import { frameHeaderWords, frameNumberTitle } from '../lib/frame-words.ts';

interface StepState {
  message: unknown;
  changes: JsonChange[];
  error?: string;
}

/** What the bubble and the diff read, never the history's own strings (see readable-copies.ts). */
const copies = new ReadableCopies();

/**
 * history.at(k−1) and at(k): checkpointed seeks, never a replay from the start. k−1 first: the history keeps a
 * cursor at the last step it materialised, so stepping forward costs one event application for each.
 */
export function stepState(reply: ReplyView, k: number): StepState {
  try {
    return copies.read(() => {
      const prev = copies.of(k > reply.history.evictedBefore ? reply.history.at(k - 1) : k === 0 ? reply.history.initial : undefined);
      const message = copies.of(reply.history.at(k));
      return { message, changes: prev === undefined ? [] : diffJson(prev, message) };
    });
  } catch (err) {
    return { message: undefined, changes: [], error: (err as Error).message };
  }
}

function ChangeList({ changes }: { changes: JsonChange[] }) {
  if (changes.length === 0) return <div class="dim section">This event did not change the message.</div>;
  return (
    <div class="section mono changes" data-testid="diff">
      {changes.map((c, i) => (
        <div key={i}>
          <span class="dim">{c.path || '/'} </span>
          {c.op === 'append' ? (
            <span class="diff-append">+= {elideInline(JSON.stringify(c.appended), 2000)}</span>
          ) : c.op === 'add' ? (
            <span class="diff-add">+ {truncate(prettyValue(c.value), 2000)}</span>
          ) : c.op === 'remove' ? (
            <span class="diff-remove">− {truncate(prettyValue(c.value), 2000)}</span>
          ) : (
            <>
              <span class="diff-remove">{truncate(prettyValue(c.from), 500)}</span> →{' '}
              <span class="diff-add">{truncate(prettyValue(c.value), 2000)}</span>
            </>
          )}
        </div>
      ))}
    </div>
  );
}

/** The event's reply as the reply list names it (a pi message's analyzer id, "tab1:2#0", is no name). */
function replyOf(conn: ConnectionView, id: string): string {
  const reply = conn.replies.find((r) => r.id === id);
  return reply ? replyWords(reply, conn.replies) : id;
}

/** `onSelectEvent`: selects another event of `conn` (a diagnostic's related events are links when given). */
export function EventDetail({ conn, event, numbers, paneRef, onSelectEvent }: { conn: ConnectionView; event: EventView | undefined; numbers?: ConnectionNumbers; paneRef?: Ref<HTMLDivElement>; onSelectEvent?: (index: number) => void }) {
  if (!event) return <div class="empty">Select an event.</div>;
  const frame = frameByIndex(conn, event.frameIndex);
  const diagnostics = eventDiagnostics(conn, event); // its own and the connection's told here (the end of stream's)
  return (
    // Focusable, so the keyboard scrolls it (PageDown, arrows): its Copy buttons took focus but could not scroll it.
    <div class="scroll" data-testid="event-detail" tabIndex={0} role="region" aria-label="Event detail" ref={paneRef}>
      <div class="kv">
        <span class="k">event</span>
        <span>
          #{event.index} <b>{event.type}</b> {event.valid ? <span class="ok">valid</span> : <span class="err">invalid</span>}
        </span>
        {event.replyId ? (<><span class="k">reply</span><span class="mono">{replyOf(conn, event.replyId)}</span></>) : null}
        {event.blockId ? (<><span class="k">{/^TOOL_(CALL|RESULT)/.test(event.type) ? 'tool call' : 'block'}</span><span class="mono">{event.blockId}</span></>) : null}
        {event.extras.length ? (<><span class="k">unknown fields</span><span class="warn mono">{event.extras.join(', ')}</span></>) : null}
      </div>
      {event.issues.length ? (
        <div class="section">
          <h4>Schema issues</h4>
          {event.issues.map((iss, i) => (
            <div key={i} class="issue mono">
              {iss.path || '(root)'}: {iss.message}
            </div>
          ))}
        </div>
      ) : null}
      {diagnostics.length ? (
        <div class="section">
          <h4>Diagnostics</h4>
          {diagnostics.map((d, i) => (
            <div key={i} class={d.severity === 'error' ? 'err' : d.severity === 'warning' ? 'warn' : 'dim'}>
              <span class="mono">{d.code}</span> {numbers ? withConnectionNames(d.message, numbers) : d.message}
              {onSelectEvent ? <RelatedEvents key={`${event.index}:${i}`} conn={conn} related={d.related} onSelect={onSelectEvent} /> : null}
            </div>
          ))}
        </div>
      ) : null}
      {frame?.clientNote ? (
        <div class="section">
          <h4>Client reading</h4>
          <div class="warn">{frame.clientNote}</div>
        </div>
      ) : null}
      <div class="section">
        <h4 class="with-copy">
          {/* "frame 88", not "#88": frames (heartbeats included) are numbered apart from events, and "#88" above event #85 read as a mix-up. */}
          <span>Raw frame{frame ? <span title={frameNumberTitle(frame, event.index)}> ({frameHeaderWords(frame, conn.record.transport)})</span> : ''}</span>
          <CopyButton text={() => (frame ? frame.data : event.rawText)} title="Copy the frame's whole text" name="Copy raw frame" resetKey={event} />
        </h4>
        <LongPre testId="raw-frame" text={frame ? frame.data : event.rawText} />
      </div>
      <div class="section">
        <h4 class="with-copy">
          <span>Parsed event</span>
          {event.raw === undefined ? null : (
            <CopyButton text={() => prettyValue(event.raw, Infinity)} title="Copy the event as JSON, every string whole" name="Copy parsed event" resetKey={event} />
          )}
        </h4>
        <LongPre text={event.raw === undefined ? '(not JSON)' : prettyValue(event.raw)} />
      </div>
    </div>
  );
}

/** What a frame that is no event holds: a socket's sent or other message, a heartbeat (selected in the event list). */
export function FrameDetail({ conn, frame, paneRef }: { conn: ConnectionView; frame: FrameView; paneRef?: Ref<HTMLDivElement> }) {
  const what = frame.sent ? 'sent by the page' : frame.foreign ? 'other message (no agent event)' : 'heartbeat'; // as its row says
  // Parsed once per frame, not on every render (a followed live reply re-renders this pane on each flush).
  const parsed = useMemo(() => {
    try {
      return frame.data.trim() === '' ? undefined : prettyValue(JSON.parse(frame.data));
    } catch {
      return undefined; // not JSON: the raw text says it all
    }
  }, [frame]);
  return (
    <div class="scroll" data-testid="frame-detail" tabIndex={0} role="region" aria-label="Frame detail" ref={paneRef}>
      <div class="kv">
        <span class="k">frame</span>
        {/* "255" under "frame", not "#255": "#" is an event's number (frame-words.ts). */}
        <span data-testid="frame-number" title={frameNumberTitle(frame)}>{frame.index} <b>{what}</b></span>
        <span class="k">time</span>
        <span>{formatRelative(frame.t, conn.record.startTime)}</span>
        {frame.event && !frame.sent ? (<><span class="k">type</span><span class="mono">{frame.event}</span></>) : null}
      </div>
      <div class="section">
        <h4 class="with-copy">
          {/* Its kind and number only: its type is said above (a sent message's "send" is no event name). */}
          <span>Raw frame ({frameHeaderWords({ index: frame.index, kind: frame.kind }, conn.record.transport)})</span>
          {frame.data === '' ? null : <CopyButton text={() => frame.data} title="Copy the frame's whole text" name="Copy raw frame" resetKey={frame} />}
        </h4>
        {frame.data === '' ? (
          <div class="dim" data-testid="raw-frame">{frame.kind === 'comment' ? 'Empty: a bare ":" line (a keep-alive)' : 'Empty'}</div>
        ) : (
          <LongPre testId="raw-frame" text={frame.data} />
        )}
      </div>
      {parsed !== undefined ? (
        <div class="section">
          <h4>Parsed</h4>
          <LongPre text={parsed} />
        </div>
      ) : null}
    </div>
  );
}

/**
 * At a reply's last step: what the end of the connection did to the message after it (pi's client fails its message
 * on an abort or a network error) — the app ends with that message, not with the one after the last event.
 */
function AfterEndNote({ afterEnd }: { afterEnd: NonNullable<ReplyView['afterEnd']> }) {
  const m = (afterEnd.message ?? {}) as { stopReason?: unknown; errorMessage?: unknown };
  return (
    <div class="note after-end" data-testid="after-end">
      After this last event {afterEnd.reason}: the client failed the message — stopReason{' '}
      <code>{JSON.stringify(m.stopReason)}</code>
      {m.errorMessage !== undefined ? <>, errorMessage <code>{JSON.stringify(m.errorMessage)}</code></> : null}. That is the
      message the app ends with (<code>replay</code>'s final).
    </div>
  );
}

/**
 * At the last step of a reply the connection cut off (it ended — error, abort — before the reply finished): the
 * bubble is where the page was left, not a finished message. The reply list says "unfinished"; the bubble did not.
 */
function UnfinishedNote({ conn, reply, store, numbers }: { conn: ConnectionView; reply: ReplyView; store: PanelStore; numbers: ConnectionNumbers }) {
  if (reply.finishedReason !== undefined || conn.state === 'live' || conn.state === 'open') return null;
  const how = conn.state === 'complete' ? 'the stream ended' : `the connection ended (${conn.state}${conn.end?.error ? `: ${conn.end.error}` : ''})`;
  // A later request resumed the stream (Last-Event-ID) and the reply went on there: the page was not left with this.
  const by = continuedBy(conn).get(reply.id);
  return (
    <div class="note unfinished" data-testid="unfinished">
      After this last event {how} before the reply finished{by ? <>.<ContinuedNote by={by} store={store} numbers={numbers} /></> : ': this is the message the page was left with.'}
    </div>
  );
}

/**
 * The least width at which the event's pane beside the message is readable: "#44 TOOL_CALL_DELTA valid" on the line
 * of its "event" label, the raw frame ~40 characters a line — and the least the message keeps beside it. With the
 * message at 560 px and the event given the rest, a panel docked below at 800–1200 px wide left the event a 160–240
 * px column in which ids and the raw frame broke every few characters.
 */
const BESIDE_LEAST = 300;

/** Width of the step pane under which the event is a tab, as stacked: the message and the event cannot both have BESIDE_LEAST. */
export const EVENT_BESIDE_LEAST = 2 * BESIDE_LEAST;

/**
 * The message's width beside the event until the divider is dragged: 560 px while that leaves the event 340 (a step
 * pane of 900 px or more — a 1400 px window, as before); in a narrower pane the event keeps its 340 and the message
 * has the rest, down to half the pane each (680 px), and below that half each, down to BESIDE_LEAST.
 */
const MESSAGE_WIDTH = 'min(560px, max(50%, 100% - 340px))';

/**
 * Of a width the user dragged — or picked in a wider window — each pane keeps 240 px: the event's type still on its
 * line (the message's 80% of a 1600 px window's pane left a 1000 px window's event the 30% every split keeps, ~200 px).
 */
const PICKED_LEAST = '240px';

/**
 * `stacked`: the panel is docked to the side (useMediaQuery.ts) — the event is a fourth tab beside the message's, not a
 * pane beside them: side by side at 360–540 px each was a column of a word or two ("TEXT_B / LOCK_D / ELTA"). So too
 * side by side when the step's own pane is narrower than EVENT_BESIDE_LEAST.
 */
export function StepDetail({ store, stacked = false }: { store: PanelStore; stacked?: boolean }) {
  // The box measured stays as the layout switches (its width is its pane's, not its content's): no back and forth.
  const box = useWidth();
  const tabbed = stacked || (box.width > 0 && box.width < EVENT_BESIDE_LEAST);
  return (
    <div class="step-detail" ref={box.ref}>
      <StepDetailBody store={store} tabbed={tabbed} />
    </div>
  );
}

/** `tabbed`: the event is the Event tab, not a pane beside the message's (StepDetail says when). */
function StepDetailBody({ store, tabbed }: { store: PanelStore; tabbed: boolean }) {
  const conn = store.selectedConnection.value;
  const reply = store.selectedReply.value;
  const k = store.step.value;
  // The Event tab chosen stacked is the message's beside, once the pane is wide again (the event has its pane then).
  const tab = !tabbed && store.detailTab.value === 'event' ? 'message' : store.detailTab.value;
  const scroller = useRef<HTMLDivElement>(null);
  // What this step changed — the appended text, else the touched block — is brought into view when it is outside it:
  // in a long message the change was often far below what the pane showed, so scrubbing showed nothing happen.
  useEffect(() => {
    const box = scroller.current;
    if (!box || tab !== 'message') return;
    const target = box.querySelector<HTMLElement>('mark.appended') ?? box.querySelector<HTMLElement>('.block.touched');
    if (!target) return;
    const r = target.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    if (r.bottom > b.bottom || r.top < b.top) target.scrollIntoView({ block: 'nearest' });
  }, [k, reply?.id, tab, conn?.record.id]);
  // A capture that replaced the panel's is read back to the selected event (store.ts `reset`): until it is placed no
  // event is selected, and its connection or reply may not be read yet — "Select a connection." said otherwise.
  const reading = store.placing.value !== undefined;
  const event = store.selectedEventView.value;
  // The event pane as rendered: the event's, the frame's, or the one saying it is being read (see usePaneFocusKept).
  const eventPane = useRef<HTMLDivElement>(null);
  usePaneFocusKept(reading && !event, [scroller, eventPane]);
  if (!conn) return <div class="empty">{reading ? 'Reading the capture up to the selected step…' : 'Select a connection.'}</div>;
  const selectedFrame = store.selectedFrame.value;
  const frame = selectedFrame === undefined ? undefined : frameByIndex(conn, selectedFrame);
  const eventOfStep = reply ? reply.eventIndices[k] : undefined;
  const state = reply && event?.index === eventOfStep ? stepState(reply, k) : undefined;
  const touched = state ? touchedBlocks(state.changes) : [];
  const appended = new Map(touched.map((i) => [i, appendedIn(state!.changes, i)]));
  const tabs: [DetailTab, string][] = [['message', 'Message'], ['json', 'JSON'], ['diff', 'Diff'], ...(tabbed ? [['event', 'Event'] as [DetailTab, string]] : [])];
  const numbers = connectionNumbers(store.connections.value);
  const eventView = frame ? <FrameDetail conn={conn} frame={frame} paneRef={eventPane} />
    : reading && !event ? (
      // Focusable: keyboard focus in the event pane waits here while the event is read (usePaneFocusKept).
      <div class="empty" data-testid="event-reading" ref={eventPane} tabIndex={-1} aria-busy="true">Reading the capture up to the selected event…</div>
    ) : <EventDetail conn={conn} event={event} numbers={numbers} paneRef={eventPane} onSelectEvent={store.selectEvent} />;

  const left = (
    <>
      <div class="tabs">
        <TabList<DetailTab> tabs={tabs} selected={tab} onSelect={(id) => (store.detailTab.value = id)} label="Message views" panelId="message-view" />
      </div>
      {/* The Event tab's pane scrolls itself (and takes focus itself): a scroller in a scroller was two Tab stops. */}
      <TabPanel panelId="message-view" selected={tab} class={tab === 'event' ? 'tabpanel' : 'scroll'} panelRef={scroller} tabIndex={tab === 'event' ? undefined : 0}>
        {tab === 'event' ? (
          eventView
        ) : reading && !event ? (
          <div class="empty" data-testid="step-reading">Reading the capture up to the selected step…</div>
        ) : !reply ? (
          <div class="empty">
            {event ? `This event belongs to no reply; its reconstruction is not shown.${tabbed ? ' The Event tab shows it.' : ''}`
              : conn.events.length === 0 ? 'No events in this stream: nothing to reconstruct.' : 'Select a reply or an event.'}
          </div>
        ) : !state ? (
          <div class="empty">{event ? 'The selected event is not a step of this reply.' : 'Select a step or an event.'}</div>
        ) : state.error ? (
          <div class="empty err">{state.error}</div>
        ) : tab === 'message' ? (
          <>
            <MessageBubble message={state.message} touched={touched} appended={appended} />
            {reply.afterEnd && k === reply.history.length - 1 ? <AfterEndNote afterEnd={reply.afterEnd} />
              : k === reply.history.length - 1 ? <UnfinishedNote conn={conn} reply={reply} store={store} numbers={numbers} /> : null}
          </>
        ) : tab === 'json' ? (
          <div class="section">
            <div class="bar-end">
              <CopyButton
                text={() => prettyValue(state.message, Infinity)}
                label="Copy JSON"
                title="Copy the message at this step as JSON, every string whole (long strings are shortened above)"
                resetKey={state.message}
              />
            </div>
            <LongPre testId="message-json" text={prettyValue(state.message)} />
          </div>
        ) : (
          <ChangeList changes={state.changes} />
        )}
      </TabPanel>
    </>
  );
  if (tabbed) return <div class="step-stacked">{left}</div>;
  return (
    <SplitPane direction="row" initial={MESSAGE_WIDTH} least={PICKED_LEAST} keep={PICKED_LEAST} storageKey="detail" label="Resize message and event panes">
      {left}
      {eventView}
    </SplitPane>
  );
}

// The scrubber: a slider over the steps of the selected reply, step buttons, diagnostic jumps and playback.
// Seeking only calls history.at(k) (checkpointed in the core); nothing is replayed here, and nothing on a seek
// scans the reply (diagnostic steps are maintained incrementally by the store, jumps are binary searches).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Icon } from './Icon.tsx';
import { useWidth } from './useWidth.ts';
import { continuesEvictionTitle, evictedStepsTitle } from '../lib/eviction-words.ts';
import { connectionName, connectionNumbers, shownId } from '../lib/resume-words.ts';
import { replyWords } from '../lib/reply-words.ts';
import { eventStatus, eventStatusBeside, stepStatusTitle, stepStatusWord } from '../lib/event-status.ts';
import { eventByIndex, extraDiagnostics } from '../store/lookups.ts';
import { nextIn, nextPlayStep, playDelay, type Speed } from '../store/steps.ts';
import type { PanelStore, SelectionShown } from '../store/store.ts';

/** Keyboard map shared by the slider and the app-wide handler. Returns true when the key was used. */
export function scrubberKey(store: PanelStore, e: KeyboardEvent): boolean {
  const reply = store.selectedReply.value;
  const conn = store.selectedConnection.value;
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  // The selection is being placed back (a replaced capture read back): the step is not known yet, so nothing to move from.
  if (store.placing.value) return false;
  // An event of no reply is selected: End goes back to the reply it was chosen from, and follows it again.
  if (!reply && e.key === 'End') return store.backToReply();
  if (!reply || !conn) return false;
  const k = store.step.value;
  switch (e.key) {
    case 'ArrowLeft':
      store.seek(k - (e.shiftKey ? 10 : 1));
      return true;
    case 'ArrowRight':
      store.seek(k + (e.shiftKey ? 10 : 1));
      return true;
    case 'Home':
      store.seek(0);
      return true;
    case 'End':
      store.seek(reply.history.length - 1);
      return true;
    case ' ': {
      // A focused button or checkbox gets Space as a click; only take it where it would do nothing else (the step
      // slider does nothing with Space: there it plays, as everywhere else).
      const t = e.target;
      const slider = t instanceof HTMLInputElement && t.type === 'range';
      if (!slider && t instanceof HTMLElement && t.closest('button, a, summary, input, select, textarea, [role="button"]')) return false;
      togglePlay(store);
      return true;
    }
    case ']':
    case '[': {
      const to = nextIn(store.diagnosticStepList.value, k, e.key === ']' ? 1 : -1);
      if (to !== undefined) store.seek(to);
      return true;
    }
    default:
      return false;
  }
}

/**
 * Below this width the bar keeps to one line by saying less: the speeds without "(recorded)", the step status beside
 * the position ("step 61 / 61 · changed", cut before the slider is), the event index and the flagged count in the
 * titles (the event pane shows the index). At 800 px the bar wrapped to two lines.
 */
const COMPACT_BELOW = 700;
/**
 * Below this width even that bar does not fit one line with every control (a window under ~640 px, side by side): it
 * takes two rows — the step buttons, speed, position and diagnostic buttons on the first, the slider between First and
 * Last step across the whole of the second. One row there dropped First and Last (Home and End still did the same, but
 * a mouse had nothing to click) and cut the step status to "step 55 / 55 · c…" at 600 px.
 */
const ONE_ROW_MIN = 420;
/**
 * Stacked (a panel docked to the side: tall, the bar the panel's whole width), two rows already below this width: one
 * row there cut the position to "step 31 / 61 · …", its status gone, where a second row costs a panel that tall little.
 * Side by side (docked below: short) the bar keeps to one row as long as it can.
 */
const STACKED_TWO_ROWS_BELOW = 480;

/**
 * While a capture that replaced the panel's is read back: what the selection waits for — the step (or event) the user
 * had, by the number they saw — and how far the reading is. The half-read reply's "step 812 / 300" named a step the
 * new capture did not have yet, or another one (its steps are numbered from its cut).
 */
function placingWords(placing: SelectionShown, backlog: { done: number; total: number } | undefined): string {
  const what = placing.step !== undefined ? `step ${placing.step + 1}` : `event #${placing.event}`;
  return `Reading the capture back: finding ${what}…${backlog ? ` ${Math.floor((100 * backlog.done) / backlog.total)}%` : ''}`;
}

/** Play from the current step (from the start when at the end), or pause. */
export function togglePlay(store: PanelStore): void {
  const reply = store.selectedReply.value;
  if (!reply) return;
  if (!store.playing.value && store.step.value >= reply.history.length - 1) store.seek(reply.history.evictedBefore);
  store.playing.value = !store.playing.value;
}

/** `stacked`: the panel is docked to the side (useMediaQuery.ts). */
export function Scrubber({ store, stacked = false }: { store: PanelStore; stacked?: boolean }) {
  const reply = store.selectedReply.value;
  const conn = store.selectedConnection.value;
  const k = store.step.value;
  const playing = store.playing.value;
  const setPlaying = (on: boolean) => (store.playing.value = on);
  const [speed, setSpeed] = useState<Speed>(1);
  const bar = useWidth();
  const compact = bar.width > 0 && bar.width < COMPACT_BELOW;
  const twoRows = bar.width > 0 && bar.width < (stacked ? STACKED_TWO_ROWS_BELOW : ONE_ROW_MIN);
  // Dragging the slider fires input events faster than frames on a fast pointer: seek once per frame, to the
  // latest position (each seek is a history.at(k) and a render; the ones in between would never be seen).
  const drag = useRef<{ target: number; frame: number | undefined }>({ target: 0, frame: undefined });
  const seekSoon = (to: number) => {
    drag.current.target = to;
    if (drag.current.frame !== undefined) return;
    if (typeof requestAnimationFrame !== 'function') return store.seek(to);
    drag.current.frame = requestAnimationFrame(() => {
      drag.current.frame = undefined;
      store.seek(drag.current.target);
    });
  };
  useEffect(() => () => {
    if (drag.current.frame !== undefined) cancelAnimationFrame(drag.current.frame);
  }, []);

  useEffect(() => {
    if (!playing || !reply || !conn) return;
    if (k >= reply.history.length - 1) {
      setPlaying(false);
      return;
    }
    const delay = playDelay(conn, reply, k, speed);
    const advance = () => store.seek(nextPlayStep(k, reply.history.length, speed));
    if (delay === 0 && typeof requestAnimationFrame === 'function') {
      const id = requestAnimationFrame(advance);
      return () => cancelAnimationFrame(id);
    }
    const id = setTimeout(advance, delay);
    return () => clearTimeout(id);
  }, [playing, k, reply, speed]);

  const placing = store.placing.value;
  const root = useRef<HTMLDivElement | null>(null);
  const setRoot = useCallback((el: HTMLDivElement | null) => {
    root.current = el;
    bar.ref(el);
  }, []);
  // Keyboard focus in the bar when it turns to the finding state (a replaced capture read back) stays on the bar, and
  // goes back to the slider once the step is found: the controls it was on go with the step, and it fell to the
  // document — the next Tab started over at the toolbar. Read while rendering: the controls are still in the document.
  const focusKept = useRef(false);
  if (placing && root.current?.contains(document.activeElement)) focusKept.current = true;
  useLayoutEffect(() => {
    const el = root.current;
    if (!focusKept.current || !el) return;
    if (placing) {
      if (document.activeElement !== el) el.focus();
      return;
    }
    focusKept.current = false;
    const at = document.activeElement;
    if (at === el || at === null || at === document.body) {
      el.querySelector<HTMLElement>('[data-testid="step-slider"], [data-testid="back-to-reply"]')?.focus();
    }
  }, [placing !== undefined]);
  if (placing) {
    return (
      <div class="scrubber" data-testid="scrubber" ref={setRoot} tabIndex={-1} aria-busy="true">
        <span class="dim" data-testid="step-finding">{placingWords(placing, store.backlog.value)}</span>
      </div>
    );
  }
  // Where a replaced capture's read-back left the selection when it no longer held it (read-back.ts `placeNearest`).
  const note = store.selectionNote.value;
  const noteSpan = note ? <span class="warn selection-note" data-testid="selection-note" role="status">{note}</span> : null;
  if (!reply || !conn) {
    const event = store.selectedEventView.value;
    const left = store.replyLeft.value;
    const back = left !== undefined ? conn?.replies.find((r) => r.id === left) : undefined;
    return (
      <div class="scrubber" data-testid="scrubber" ref={setRoot}>
        {conn && event ? (
          // An event of no reply (a CUSTOM notification): no step to show, and no reply's step left standing beside it.
          <span class="dim" data-testid="step-none">Event #{event.index} ({event.type}) belongs to no reply.</span>
        ) : note ? null : (
          <span class="dim">Select a reply to scrub through its events.</span>
        )}
        {noteSpan}
        {back ? (
          <button class="link" data-testid="back-to-reply" title="Back to the reply's newest step, following it (End)" onClick={() => store.backToReply()}>
            Back to {replyWords(back, conn!.replies, 16)} (End)
          </button>
        ) : null}
      </div>
    );
  }
  const n = reply.history.length;
  const min = reply.history.evictedBefore;
  const diags = store.diagnosticStepList.value;
  const prevDiag = nextIn(diags, k, -1);
  const nextDiag = nextIn(diags, k, 1);
  const eventIndex = reply.eventIndices[k];
  const status = reply.stepStatus[k];
  const stepWord = stepStatusWord(status);
  // The event list's Status of the same event, when it says more than the step status: "changed" beside a row that
  // says "error" (the START that reported the deltas dropped before it) read as a contradiction.
  const event = eventByIndex(conn, eventIndex);
  const beside = event ? eventStatusBeside(status, eventStatus(event, extraDiagnostics(conn).get(event.index))) : undefined;
  const statusTitle = stepStatusTitle(eventIndex, status, beside);
  const statusWord = (
    <>
      <span class={stepWord.cls}>{stepWord.text}</span>
      {beside ? <> · <span class={beside.cls} data-testid="step-event-status">{beside.text}</span></> : null}
    </>
  );
  const flagged = `${diags.length} flagged`;

  // aria-disabled, not disabled: a button disabled by its own press (First step at the first step, Next step reaching
  // the last) lost focus to the document, and a screen reader was left nowhere. It stays focusable and does nothing.
  const first = <button title="First step (Home)" aria-label="First step" onClick={() => k > min && store.seek(min)} aria-disabled={k <= min}><Icon name="first" /></button>;
  const last = <button title="Last step (End)" aria-label="Last step" onClick={() => k < n - 1 && store.seek(n - 1)} aria-disabled={k >= n - 1}><Icon name="last" /></button>;
  const slider = (
    <input
      type="range"
      aria-label="Step"
      data-testid="step-slider"
      min={min}
      max={Math.max(min, n - 1)}
      value={k}
      // Read as the visible "step 61 / 61" (the value itself is 0-based).
      aria-valuetext={`step ${k + 1} of ${n}`}
      onInput={(e) => seekSoon(Number((e.currentTarget as HTMLInputElement).value))}
      onKeyDown={(e) => {
        if (scrubberKey(store, e)) {
          e.preventDefault();
          e.stopPropagation();
        }
      }}
    />
  );

  return (
    <div class={`scrubber${compact ? ' compact' : ''}${twoRows ? ' two-rows' : ''}`} data-testid="scrubber" ref={setRoot}>
      {twoRows ? null : first}
      <button title="Previous step (←, Shift+← = 10)" aria-label="Previous step" onClick={() => k > min && store.seek(k - 1)} aria-disabled={k <= min}><Icon name="prev" /></button>
      <button
        title={playing ? 'Pause (Space)' : 'Play from here (Space)'}
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={() => togglePlay(store)}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button title="Next step (→, Shift+→ = 10)" aria-label="Next step" onClick={() => k < n - 1 && store.seek(k + 1)} aria-disabled={k >= n - 1}><Icon name="next" /></button>
      {twoRows ? null : last}
      <select aria-label="Playback speed" title="Playback speed (1×: the recorded pace)" value={String(speed)} onChange={(e) => {
        const v = (e.currentTarget as HTMLSelectElement).value;
        setSpeed(v === 'max' ? 'max' : (Number(v) as 1 | 4));
      }}>
        <option value="1">{compact ? '1×' : '1× (recorded)'}</option>
        <option value="4">4×</option>
        <option value="max">max</option>
      </select>
      {twoRows ? null : slider}
      <span class="pos" data-testid="step-pos" title={compact ? `#${eventIndex} · ${status}${beside ? ` · ${beside.text}` : ''} · ${flagged}\n${statusTitle}` : undefined}>
        step {k + 1} / {n}
        {/* Shown, not only in the title: a docked panel's step status was in no text on screen. */}
        {compact ? <span data-testid="step-status"> · {statusWord}</span> : null}
        {min > 0 ? <span class="warn" title={evictedStepsTitle(conn)}> ({min} evicted)</span> : null}
        {reply.continuesEviction ? (
          <span class="warn" title={continuesEvictionTitle(conn)}>
            {' '}(continues after evicted events)
          </span>
        ) : null}
        {reply.continuesConnection !== undefined ? (
          <span class="dim" data-testid="step-continues" title={`This request resumed the stream of an earlier connection (${conn.resumes?.query === undefined ? 'Last-Event-ID' : `the id in its query's ${conn.resumes.query}`}): step 1 applies its first event here to the message as the page had it there`}>
            {' '}(continues {connectionName(connectionNumbers(store.connections.value), reply.continuesConnection)}
            {conn.resumes?.eventId !== undefined ? ` from id ${shownId(conn.resumes.eventId)}` : ''})
          </span>
        ) : null}
      </span>
      {compact ? null : (
        <span class="dim mono" data-testid="step-said" title={statusTitle}>
          #{eventIndex} · {statusWord}
        </span>
      )}
      <button title={`Previous diagnostic ([)${compact ? ` · ${flagged}` : ''}`} aria-label="Previous diagnostic" aria-disabled={prevDiag === undefined} onClick={() => prevDiag !== undefined && store.seek(prevDiag)}>
        <Icon name="warnPrev" /><Icon name="prev" size={9} />
      </button>
      <button title={`Next diagnostic (])${compact ? ` · ${flagged}` : ''}`} aria-label="Next diagnostic" aria-disabled={nextDiag === undefined} onClick={() => nextDiag !== undefined && store.seek(nextDiag)}>
        <Icon name="next" size={9} /><Icon name="warnPrev" />
      </button>
      {/* Steps, not diagnostics: a step can carry several, and [ ] jump from step to step. */}
      {compact ? null : (
        <span class="dim" title="Steps of this reply with a diagnostic, an invalid event or a warned status ([ and ] jump between them)">
          {flagged}
        </span>
      )}
      {/* The second row: the slider across the bar's width, between the steps its ends are. */}
      {twoRows ? <span class="scrub-track">{first}{slider}{last}</span> : null}
      {noteSpan}
    </div>
  );
}

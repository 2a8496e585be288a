// The panel's state: raw records (source of truth) + the core analyzer's read model + the user's selection.
// All input goes through one entry (`ingest`) that only queues; flush.ts pushes the queue into the analyzer in
// slices, a flush per frame, and `publish` writes every signal inside its one `batch()`.
import { batch, signal } from '@preact/signals';
import type { Capture, CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';
import type { LiveState } from '../sources/source.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { CaptureAnalyzer } from '../core-bridge.ts';
import { createFilters } from './filters.ts';
import { createImports } from './import-capture.ts';
import { createFlush } from './flush.ts';
import { anchoredFrame, frameAnchorOf } from './frame-anchor.ts';
import { createSelection, type SelectionShown } from './selection.ts';
import { createCaptureViews, createSelectionViews } from './views.ts';

export { SLICE_RECORDS } from './flush.ts';

export type { SelectionShown } from './selection.ts';

export type MainView = 'events' | 'timeline' | 'diagnostics';
export type DetailTab = 'message' | 'json' | 'diff' | 'event';

export interface StoreOptions {
  /** Schedules a flush; defaults to rAF with a timer fallback. Tests pass a synchronous scheduler. */
  schedule?: (flush: () => void) => void;
  /** Analysis time one flush may spend before it yields to the page (ms); an import's comparison's slices too. */
  sliceMs?: number;
  /** Clock for the slice budget (tests pass a fake one). */
  now?: () => number;
  /** Runs `then` in the task after the current one — after the frame a refresh rendered (tests pass their own). */
  afterRender?: (then: () => void) => void;
}

export function createPanelStore(options: StoreOptions = {}) {
  const sliceMs = options.sliceMs ?? 10;
  const now = options.now ?? (() => performance.now());
  let analyzer = new CaptureAnalyzer();
  /** Every record received, as received (export writes these). */
  let records: CaptureRecord[] = [];
  /**
   * The analyzer whose read model the views show, and the records it read: `analyzer` and `records`, but for a while
   * after a reset — the capture it replaced stays shown until the new one has something to show (`readBackShows`).
   * Shown at once, the new capture was empty until the first refresh (up to BACKLOG_REFRESH_MS, flush.ts): the whole panel
   * flashed to its empty page, and keyboard focus fell to the document with the lists it had been in.
   */
  let shown = { analyzer, records };
  /**
   * A capture that replaced this one while paused (a navigation, or the extension handing a live panel its bounded
   * capture): the paused view stays as the user froze it, and this — with what arrived after it — is applied on
   * resume. A later one replaces it (so a long pause holds one bounded capture, not everything that streamed).
   */
  let deferred: { header: CaptureHeader | undefined; records: CaptureRecord[]; file: string | undefined } | undefined;

  const header = signal<CaptureHeader | undefined>(undefined);
  /** Bumped on every analyzer change: the read model is recomputed from it (views may be mutated in place). */
  const revision = signal(0);
  const paused = signal(false);
  const held = signal(0);
  const status = signal<{ text: string; level: 'info' | 'error' } | undefined>(undefined);
  /** Records queued vs analysed while a big batch (import, snapshot) is worked off in slices; undefined when idle. */
  const backlog = signal<{ done: number; total: number } | undefined>(undefined);
  /** The live capture's switches as last reported by the extension (empty in the viewer). */
  const live = signal<LiveState>({});

  /**
   * The files imported since the last reset, by fingerprint (app.tsx `fileFingerprint`) → name: importing one file
   * twice gave a second set of rows identical to the first, with nothing to tell them apart.
   */
  const importedFiles = new Map<string, string>();
  /**
   * The file each connection came from (an import, the viewer's preloaded file), by connection id; a connection
   * captured live has none. With several files the list says which file a row is from: the log and the HAR of one
   * capture gave rows nothing told apart.
   */
  const connectionFiles = new Map<string, string>();

  const view = signal<MainView>('events');
  const detailTab = signal<DetailTab>('message');
  const filters = createFilters();

  const viewDeps = { revision, shown: () => shown, filters };
  const { connections, shownConnections, navigations, notices } = createCaptureViews(viewDeps);
  const selection = createSelection({ connections, shownConnections });
  const {
    selectedConnId,
    selectedReplyId,
    step,
    selectedEvent,
    selectedFrame,
    replyLeft,
    follow,
    movedByArrival,
    playing,
    placing,
    selectionNote,
    selectedConnection,
    selectedReply,
    anchor,
    seek,
    selectConnection,
    selectReply,
    selectEvent,
    backToReply,
    selectFrame,
    keepFollowing,
    selectFirst,
  } = selection;
  const { errorBody, selectedEventView, eventRows, eventTypes, diagnosticStepList } = createSelectionViews(viewDeps, selection);

  /**
   * A flush's refresh (see flush.ts): the views show what was analysed, and the selection moves with it; false while
   * a reset's capture, read so far, has nothing to show yet.
   */
  function publish(drained: boolean): boolean {
    if (shown.analyzer !== analyzer) {
      // A reset's capture, read so far: the one it replaced stays shown until this one has something to show.
      if (!readBackShows(drained)) return false;
      showReadBack();
    }
    revision.value++;
    void connections.value; // rebuild the changed views now, to time it
    keepFollowing();
    reanchor(drained);
    reanchorFrame(drained);
    selectFirst(drained);
    return true;
  }

  /** After a refresh: the anchored event is read again (or will not be): select it (or the nearest step of its reply kept). */
  function reanchor(drained: boolean): void {
    const a = anchor.value;
    if (!a) return;
    const conn = selectedConnection.value;
    if (selectedConnId.value !== a.conn) {
      anchor.value = undefined; // the user moved on
      return;
    }
    if (!conn) {
      if (drained) anchor.value = undefined; // the new capture has no such connection (a new page's: the first is selected)
      return;
    }
    // A snapshot puts a connection's eviction record right after the connection's, and a backlog is refreshed between
    // slices: before any event of it is read, the cut (and the numbering) may not be known yet.
    if (!drained && conn.events.length === 0) return;
    if (a.recordsCut !== recordsCutOf(conn)) {
      anchor.value = undefined;
      unselectUncounted();
      selectionNote.value = `Event #${a.shown.event} cannot be found in this capture: its eviction counted chunks or messages, not events — nothing is selected.`;
      return;
    }
    const index = a.event - conn.evictedEvents;
    if (index >= conn.events.length && !drained) return; // not read this far yet
    anchor.value = undefined;
    const frame = selection.frameAnchor; // (moving the selection back is no move of the user's: a frame anchored with it stays)
    if (index >= 0 && index < conn.events.length) selectEvent(index);
    else placeNearest(a.shown, index < 0);
    selection.frameAnchor = frame;
  }

  /**
   * The anchored event is not in the new capture — the cut took it (`evicted`), or the capture ends before it: the
   * nearest step its reply has kept (the oldest, the latest), not followed — the user was not following — or, with no
   * such reply, nothing; the note says which. (The reply stayed selected at no step: the scrubber read "step 812 / 300".)
   */
  function placeNearest(shown: SelectionShown, evicted: boolean): void {
    const reply = selectedReply.value;
    const what = `Event #${shown.event}`;
    const gone = evicted ? 'was evicted (memory cap)' : 'is no longer in the capture';
    if (reply && reply.history.length > reply.history.evictedBefore) {
      batch(() => {
        seek(evicted ? reply.history.evictedBefore : reply.history.length - 1);
        follow.value = false;
        selectionNote.value = `${what} ${gone} — showing the reply's ${evicted ? 'oldest' : 'latest'} step kept.`;
      });
      return;
    }
    const hadReply = selectedReplyId.value !== undefined;
    batch(() => {
      playing.value = false;
      selectedReplyId.value = undefined;
      selectedEvent.value = undefined;
      selectionNote.value = hadReply
        ? `${what} and its reply ${evicted ? 'were evicted (memory cap)' : 'are no longer in the capture'} — nothing is selected.`
        : `${what} ${gone} — nothing is selected.`;
    });
  }

  /** The number of records an eviction without a digest took from `conn` (undefined: it has none). */
  function recordsCutOf(conn: ConnectionView): number | undefined {
    return conn.evictedRecordsOnly ? conn.evictedEvents : undefined;
  }

  /** The anchored event cannot be placed in the new capture: no reply or event is selected (rather than another one). */
  function unselectUncounted(): void {
    batch(() => {
      playing.value = false;
      selectedReplyId.value = undefined;
      selectedEvent.value = undefined;
    });
  }

  /** After a refresh, once the selected event is back: the anchored frame is read again (or will not be): select it (or none). */
  function reanchorFrame(drained: boolean): void {
    if (!selection.frameAnchor || anchor.value) return; // (the event first: selecting it clears a selected frame)
    if (selectedConnId.value !== selection.frameAnchor.conn) {
      selection.frameAnchor = undefined; // the user moved on
      return;
    }
    const conn = selectedConnection.value;
    const found = conn ? anchoredFrame(conn, selection.frameAnchor, drained) : drained ? 'gone' : 'wait';
    if (found === 'wait') return;
    selection.frameAnchor = undefined;
    if (found !== 'gone') selectedFrame.value = found;
  }

  function queue(recs: CaptureRecord[]): void {
    if (recs.length === 0) return;
    if (deferred) {
      for (const r of recs) deferred.records.push(r);
      held.value = deferred.records.length;
      return;
    }
    for (const r of recs) records.push(r);
    flusher.enqueue(recs);
    if (paused.value) {
      held.value += recs.length;
      return;
    }
    flusher.requestFlush();
  }

  /**
   * Replace everything with this capture (`now`: even while paused — the user's Clear; `file`: the file it was read
   * from, the viewer's preloaded one).
   */
  function reset(h: CaptureHeader | undefined, recs: CaptureRecord[], { now = false, file }: { now?: boolean; file?: string } = {}): void {
    if (paused.value && !now) {
      deferred = { header: h, records: [...recs], file };
      held.value = recs.length;
      return;
    }
    deferred = undefined;
    importedFiles.clear(); // what they added is gone with the rest
    connectionFiles.clear();
    if (file !== undefined) for (const r of recs) if (r.kind === 'connection') connectionFiles.set(r.id, file);
    flusher.discard();
    batch(() => {
      backlog.value = undefined;
      analyzer = new CaptureAnalyzer();
      records = [];
      header.value = h;
      held.value = 0;
      // Nothing to read back (the user's Clear, a new page's capture before its first record): shown at once, empty.
      if (recs.length === 0) showReadBack();
      else queue(recs); // shown once it has something to show (see `shown`)
    });
  }

  /**
   * The capture being read back has something to show in place of the one it replaced: all of it is read, or the
   * selected connection's first frames are (with none selected: any connection) — the lists the user was in have rows
   * again. A connection it does not hold (a new page's) waits for all of it.
   */
  function readBackShows(drained: boolean): boolean {
    if (drained) return true;
    const id = selectedConnId.value;
    return id !== undefined ? analyzer.frameCount(id) > 0 : analyzer.connections().length > 0;
  }

  /**
   * The views show the capture a reset brought, from the capture it replaced: the selection made there — before the
   * reset, or in the old views since — is anchored, to be placed back as the new capture is read (see `anchor`).
   */
  function showReadBack(): void {
    // A selection not placed back yet (the capture before this one was replaced while still being read: compaction
    // hands an undigested capture, then the digested one, while a big snapshot takes seconds to read) keeps its
    // anchor: what the half-read capture shows is no selection of the user's — the event and frame were cleared,
    // and the connection's numbering (its eviction record) may not be read yet.
    const conn = selectedConnection.value;
    const ev = selectedEvent.value;
    const reply = selectedReply.value;
    const recordsCut = conn && recordsCutOf(conn);
    const selectionShown: SelectionShown | undefined = ev === undefined ? undefined
      : { event: ev, ...(reply && reply.eventIndices[step.value] === ev ? { step: step.value } : {}) };
    anchor.value ??= conn && selectionShown && !(reply && follow.value)
      ? { conn: conn.record.id, event: conn.evictedEvents + selectionShown.event, ...(recordsCut !== undefined ? { recordsCut } : {}), shown: selectionShown } : undefined;
    const frame = selectedFrame.value;
    selection.frameAnchor ??= conn && frame !== undefined ? frameAnchorOf(conn, frame) : undefined;
    if (records.length === 0) {
      // Nothing to read back (a new page's capture, before its first record): nothing to wait for — the scrubber
      // would say it is finding the step until records of other connections came.
      anchor.value = undefined;
      selection.frameAnchor = undefined;
    }
    shown = { analyzer, records };
    batch(() => {
      // (anchored: selected again once read; meanwhile their indices would name other ones of the new capture)
      selectedEvent.value = undefined;
      selectedFrame.value = undefined;
      // (playing on from the old step would move it in the new numbering, and drop the anchor as a move of the user's)
      if (anchor.value) playing.value = false;
      selectionNote.value = undefined;
      revision.value++;
    });
  }

  function setPaused(on: boolean): void {
    paused.value = on;
    if (on) return;
    if (deferred) reset(deferred.header, deferred.records, { file: deferred.file }); // what replaced the paused view, and what came after it
    else if (flusher.hasPending()) flusher.requestFlush();
  }

  function clear(): void {
    reset(header.value, [], { now: true });
    status.value = { text: 'Cleared', level: 'info' }; // not the last import's line, as if its data were still shown
    batch(() => {
      selectedConnId.value = undefined;
      selectedReplyId.value = undefined;
      replyLeft.value = undefined;
      selectedEvent.value = undefined;
      selectedFrame.value = undefined;
    });
  }

  const flusher = createFlush({
    schedule: options.schedule,
    afterRender: options.afterRender,
    sliceMs,
    now,
    analyzer: () => analyzer,
    paused,
    held,
    backlog,
    publish,
  });
  const { importCapture } = createImports({ records: () => records, connectionFiles, header, queue, sliceMs, now });

  /** Every record the store holds (analysed or queued), as received, in arrival order: what export writes. */
  function capture(): Capture {
    return {
      header: header.value ?? {
        kind: 'header',
        format: 'replyscope-capture',
        version: 1,
        tool: 'replyscope-panel',
        created: new Date().toISOString(),
      },
      records: [...records],
    };
  }

  return {
    header,
    revision,
    paused,
    held,
    status,
    backlog,
    live,
    selectedConnId,
    selectedReplyId,
    step,
    selectedEvent,
    selectedFrame,
    replyLeft,
    follow,
    movedByArrival,
    playing,
    placing,
    selectionNote,
    view,
    detailTab,
    filters,
    connections,
    shownConnections,
    navigations,
    notices,
    selectedConnection,
    errorBody,
    selectedReply,
    selectedEventView,
    eventRows,
    eventTypes,
    diagnosticStepList,
    ingest: queue,
    reset,
    flushNow: flusher.flushAll,
    whenIdle: flusher.whenIdle,
    seek,
    selectConnection,
    selectReply,
    selectEvent,
    backToReply,
    selectFrame,
    setPaused,
    clear,
    importCapture,
    importedFiles,
    connectionFiles,
    capture,
  };
}

export type PanelStore = ReturnType<typeof createPanelStore>;

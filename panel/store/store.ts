// The panel's state, composed of small stores: the capture being read and the one shown, with the read-back of a
// capture that replaced the panel's (read-back.ts); the read model the panes show (views.ts); the user's selection
// (selection.ts); the flushing that analyses what comes in, in slices (flush.ts); an imported file's capture added
// (import-capture.ts), and kept as the panel's own (imported-records.ts). What stays here ties them together: all
// input goes through one entry (`ingest`) that only queues, a reset replaces the source's capture (held back while
// paused; the imports carried into the new one), and `publish` is a flush's refresh.
import { batch, signal } from '@preact/signals';
import type { Capture, CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';
import type { LiveState } from '../sources/source.ts';
import { CaptureAnalyzer } from '../core-bridge.ts';
import { createFilters } from './filters.ts';
import { createImports } from './import-capture.ts';
import { ImportedRecords } from './imported-records.ts';
import { createFlush } from './flush.ts';
import { createCaptures, createReadBack } from './read-back.ts';
import { createSelection } from './selection.ts';
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
  /** The capture being read and the one the views show (see read-back.ts). */
  const captures = createCaptures();
  /**
   * A capture that replaced this one while paused (a navigation, or the extension handing a live panel its bounded
   * capture): the paused view stays as the user froze it, and this — with what arrived after it — is applied on
   * resume. A later one replaces it (so a long pause holds one bounded capture, not everything that streamed). Its
   * records are all that is shown on resume: the imports carried in, and those made since (see `imported`).
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
   * The files imported since the last Clear, by fingerprint (app.tsx `fileFingerprint`) → name: importing one file
   * twice gave a second set of rows identical to the first, with nothing to tell them apart.
   */
  const importedFiles = new Map<string, string>();
  /** The records imports added since the last Clear: carried over a reset (see imported-records.ts). */
  const imported = new ImportedRecords();
  /**
   * The file each connection shown came from (an import, the viewer's preloaded file), by connection id; a connection
   * captured live has none. With several files the list says which file a row is from: the log and the HAR of one
   * capture gave rows nothing told apart.
   */
  const connectionFiles = new Map<string, string>();

  const view = signal<MainView>('events');
  const detailTab = signal<DetailTab>('message');
  const filters = createFilters();

  const viewDeps = { revision, shown: () => captures.shown, filters };
  const { connections, shownConnections, navigations, notices } = createCaptureViews(viewDeps);
  const selection = createSelection({ connections, shownConnections });
  const { errorBody, selectedEventView, eventRows, eventTypes, diagnosticStepList } = createSelectionViews(viewDeps, selection);
  const readBack = createReadBack({ captures, revision, connections, selection });
  const flusher = createFlush({
    schedule: options.schedule,
    afterRender: options.afterRender,
    sliceMs,
    now,
    analyzer: () => captures.read.analyzer,
    paused,
    held,
    backlog,
    publish,
  });
  // While paused, a capture that replaced the paused view is the one an import joins (`queue` adds to it): compared with it.
  const { importCapture } = createImports({ records: () => deferred?.records ?? captures.read.records, header, add: addImported, sliceMs, now });

  /**
   * A flush's refresh (see flush.ts): the views show what was analysed, and the selection moves with it; false while
   * a reset's capture, read so far, has nothing to show yet.
   */
  function publish(drained: boolean): boolean {
    if (captures.shown.analyzer !== captures.read.analyzer) {
      // A reset's capture, read so far: the one it replaced stays shown until this one has something to show.
      if (!readBack.readBackShows(drained)) return false;
      readBack.showReadBack();
    }
    revision.value++;
    void connections.value; // rebuild the changed views now, to time it
    selection.keepFollowing();
    readBack.reanchor(drained);
    readBack.reanchorFrame(drained);
    selection.selectFirst(drained);
    return true;
  }

  function queue(recs: CaptureRecord[]): void {
    if (recs.length === 0) return;
    if (deferred) {
      for (const r of recs) deferred.records.push(r);
      held.value = deferred.records.length;
      return;
    }
    for (const r of recs) captures.read.records.push(r);
    flusher.enqueue(recs);
    if (paused.value) {
      held.value += recs.length;
      return;
    }
    flusher.requestFlush();
  }

  /** An import's records, read from `file` (import-capture.ts): queued, and kept as the panel's own. */
  function addImported(recs: CaptureRecord[], file: string | undefined): void {
    imported.add(recs, file);
    // (Held for resume behind a capture that replaced the paused view: labelled when that one is shown — the paused
    // rows may have these ids.)
    if (!deferred && file !== undefined) for (const r of recs) if (r.kind === 'connection') connectionFiles.set(r.id, file);
    queue(recs);
  }

  /**
   * Replace the source's capture with this one (`now`: even while paused — the user's Clear, which drops the imports
   * too; `file`: the file it was read from, the viewer's preloaded one). What was imported stays, carried into it.
   */
  function reset(h: CaptureHeader | undefined, recs: CaptureRecord[], { now = false, file }: { now?: boolean; file?: string } = {}): void {
    if (now) {
      imported.clear();
      importedFiles.clear();
    }
    const records = imported.carry(deferred?.records ?? captures.read.records, recs);
    if (paused.value && !now) {
      deferred = { header: h, records, file };
      held.value = records.length;
      return;
    }
    replace(h, records, file);
  }

  /** The views go on to `recs` (the source's capture, the imports carried in), read back. */
  function replace(h: CaptureHeader | undefined, recs: CaptureRecord[], file: string | undefined): void {
    deferred = undefined;
    connectionFiles.clear();
    for (const [id, name] of imported.labels()) connectionFiles.set(id, name);
    if (file !== undefined) for (const r of recs) if (r.kind === 'connection' && !imported.has(r)) connectionFiles.set(r.id, file);
    flusher.discard();
    captures.read.header = header.value;
    batch(() => {
      backlog.value = undefined;
      captures.read = { analyzer: new CaptureAnalyzer(), records: [] };
      header.value = h;
      held.value = 0;
      // Nothing to read back (the user's Clear, a new page's capture before its first record): shown at once, empty.
      if (recs.length === 0) readBack.showReadBack();
      else queue(recs); // shown once it has something to show (see read-back.ts `shown`)
    });
  }

  function setPaused(on: boolean): void {
    paused.value = on;
    if (on) return;
    if (deferred) replace(deferred.header, deferred.records, deferred.file); // what replaced the paused view, and what came after it
    else if (flusher.hasPending()) flusher.requestFlush();
  }

  function clear(): void {
    reset(header.value, [], { now: true });
    status.value = { text: 'Cleared', level: 'info' }; // not the last import's line, as if its data were still shown
    batch(() => {
      selection.selectedConnId.value = undefined;
      selection.selectedReplyId.value = undefined;
      selection.replyLeft.value = undefined;
      selection.selectedEvent.value = undefined;
      selection.selectedFrame.value = undefined;
    });
  }

  /**
   * What export writes: the capture shown, every record of it the store holds (analysed or queued), as received, in
   * arrival order. While a capture that replaced it is read back, the one the views still show — written, the new one
   * (its head evicted by a compaction, or another page's) was not what the user saw and chose to export.
   */
  function capture(): Capture {
    const shown = captures.shown;
    if (shown !== captures.read) return { header: shown.header ?? headerOfPanel(), records: [...shown.records] };
    return { header: header.value ?? headerOfPanel(), records: [...captures.read.records] };
  }

  /** A header for a capture that came with none (imported events, a raw body). */
  function headerOfPanel(): CaptureHeader {
    return { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'replyscope-panel', created: new Date().toISOString() };
  }

  return {
    header,
    revision,
    paused,
    held,
    status,
    backlog,
    live,
    selectedConnId: selection.selectedConnId,
    selectedReplyId: selection.selectedReplyId,
    step: selection.step,
    selectedEvent: selection.selectedEvent,
    selectedFrame: selection.selectedFrame,
    replyLeft: selection.replyLeft,
    follow: selection.follow,
    movedByArrival: selection.movedByArrival,
    playing: selection.playing,
    placing: selection.placing,
    selectionNote: selection.selectionNote,
    view,
    detailTab,
    filters,
    connections,
    shownConnections,
    navigations,
    notices,
    selectedConnection: selection.selectedConnection,
    errorBody,
    selectedReply: selection.selectedReply,
    selectedEventView,
    eventRows,
    eventTypes,
    diagnosticStepList,
    ingest: queue,
    reset,
    flushNow: flusher.flushAll,
    whenIdle: flusher.whenIdle,
    seek: selection.seek,
    selectConnection: selection.selectConnection,
    selectReply: selection.selectReply,
    selectEvent: selection.selectEvent,
    backToReply: selection.backToReply,
    selectFrame: selection.selectFrame,
    setPaused,
    clear,
    importCapture,
    importedFiles,
    connectionFiles,
    capture,
  };
}

export type PanelStore = ReturnType<typeof createPanelStore>;

// The panel's state: raw records (source of truth) + the core analyzer's read model + the user's selection.
// All live input goes through one entry (`ingest`) that only queues; a flush per animation frame (or timer, when the
// panel is hidden and rAF does not fire) pushes the queue into the analyzer and writes every signal inside one
// `batch()`, so thousands of events per second cost one render per frame.
import { batch, computed, signal } from '@preact/signals';
import type { Capture, CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';
import type { LiveState } from '../sources/source.ts';
import type { ConnectionView, EventView, ReplyView } from '../../src/core/analysis/types.ts';
import { CaptureAnalyzer } from '../core-bridge.ts';
import { createFilters } from './filters.ts';
import { remapConnectionIds } from './import-merge.ts';

export type MainView = 'events' | 'timeline' | 'diagnostics';
export type DetailTab = 'message' | 'json' | 'diff' | 'event';

export interface StoreOptions {
  /** Schedules a flush; defaults to rAF with a timer fallback. Tests pass a synchronous scheduler. */
  schedule?: (flush: () => void) => void;
}

function defaultSchedule(flush: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    flush();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  // rAF is paused in hidden DevTools panels and background tabs; the timer keeps the data flowing there.
  setTimeout(run, 100);
}

export function createPanelStore(options: StoreOptions = {}) {
  const schedule = options.schedule ?? defaultSchedule;
  let analyzer = new CaptureAnalyzer();
  let records: CaptureRecord[] = [];
  let pending: CaptureRecord[] = [];
  let flushScheduled = false;

  const header = signal<CaptureHeader | undefined>(undefined);
  /** Bumped on every analyzer change: the read model is recomputed from it (views may be mutated in place). */
  const revision = signal(0);
  const paused = signal(false);
  const held = signal(0);
  const status = signal<{ text: string; level: 'info' | 'error' } | undefined>(undefined);
  /** The live capture's switches as last reported by the extension (empty in the viewer). */
  const live = signal<LiveState>({});

  const selectedConnId = signal<string | undefined>(undefined);
  const selectedReplyId = signal<string | undefined>(undefined);
  /** Step within the selected reply (history.at(step)). */
  const step = signal(0);
  /** Selected connection event index (follows the step; can also point at an event outside any reply). */
  const selectedEvent = signal<number | undefined>(undefined);
  /** Keep the scrubber at the newest step while the selected reply streams. */
  const follow = signal(true);
  const view = signal<MainView>('events');
  const detailTab = signal<DetailTab>('message');
  const filters = createFilters();

  const connections = computed<ConnectionView[]>(() => {
    void revision.value;
    return analyzer.connections();
  });
  const selectedConnection = computed(() => {
    const id = selectedConnId.value;
    return id === undefined ? undefined : connections.value.find((c) => c.record.id === id);
  });
  const selectedReply = computed<ReplyView | undefined>(() => {
    const id = selectedReplyId.value;
    return id === undefined ? undefined : selectedConnection.value?.replies.find((r) => r.id === id);
  });
  const selectedEventView = computed<EventView | undefined>(() => {
    const i = selectedEvent.value;
    const conn = selectedConnection.value;
    if (i === undefined || !conn) return undefined;
    return eventByIndex(conn, i);
  });

  function flush(): void {
    flushScheduled = false;
    if (pending.length === 0 || paused.value) return;
    const batchRecords = pending;
    pending = [];
    batch(() => {
      records.push(...batchRecords);
      analyzer.push(batchRecords);
      revision.value++;
      held.value = 0;
      keepFollowing();
    });
  }

  /** After new data: a followed reply jumps to its newest step; a first connection gets selected in the viewer. */
  function keepFollowing(): void {
    const reply = selectedReply.value;
    if (reply && follow.value && reply.history.length > 0) seek(reply.history.length - 1, true);
  }

  function queue(recs: CaptureRecord[]): void {
    if (recs.length === 0) return;
    for (const r of recs) pending.push(r);
    if (paused.value) {
      held.value = pending.length;
      return;
    }
    if (!flushScheduled) {
      flushScheduled = true;
      schedule(flush);
    }
  }

  function reset(h: CaptureHeader | undefined, recs: CaptureRecord[]): void {
    pending = [];
    batch(() => {
      analyzer = new CaptureAnalyzer();
      records = [];
      header.value = h;
      revision.value++;
      held.value = 0;
      queue(recs);
    });
  }

  function seek(k: number, keepFollow = false): void {
    const reply = selectedReply.value;
    if (!reply) return;
    const min = reply.history.evictedBefore;
    const max = reply.history.length - 1;
    const clamped = Math.max(min, Math.min(max, Math.round(k)));
    batch(() => {
      step.value = clamped;
      selectedEvent.value = reply.eventIndices[clamped];
      if (!keepFollow) follow.value = clamped === max;
    });
  }

  function selectConnection(id: string | undefined): void {
    batch(() => {
      selectedConnId.value = id;
      const conn = selectedConnection.value;
      selectedReplyId.value = undefined;
      selectedEvent.value = undefined;
      if (conn && conn.replies.length > 0) selectReply(conn.replies[0].id, 'end');
    });
  }

  function selectReply(id: string | undefined, at: 'start' | 'end' = 'end'): void {
    batch(() => {
      selectedReplyId.value = id;
      const reply = selectedReply.value;
      if (!reply) return;
      follow.value = at === 'end';
      seek(at === 'end' ? reply.history.length - 1 : reply.history.evictedBefore, at === 'end');
    });
  }

  /** Select a connection event; if it belongs to a reply, move that reply's scrubber onto it. */
  function selectEvent(index: number): void {
    const conn = selectedConnection.value;
    if (!conn) return;
    batch(() => {
      const owner = conn.replies.find((r) => r.eventIndices.includes(index));
      if (owner) {
        selectedReplyId.value = owner.id;
        const k = owner.eventIndices.indexOf(index);
        if (k >= owner.history.evictedBefore) {
          seek(k);
          return;
        }
      }
      selectedEvent.value = index;
    });
  }

  function setPaused(on: boolean): void {
    paused.value = on;
    if (!on && pending.length > 0 && !flushScheduled) {
      flushScheduled = true;
      schedule(flush);
    }
  }

  function clear(): void {
    reset(header.value, []);
    batch(() => {
      selectedConnId.value = undefined;
      selectedReplyId.value = undefined;
      selectedEvent.value = undefined;
    });
  }

  /** Add an imported capture next to what is there (connection ids that clash are renamed, nothing replaced). */
  function importCapture(capture: Capture): void {
    const known = new Set(records.filter((r) => r.kind === 'connection').map((r) => (r as { id: string }).id));
    for (const r of pending) if (r.kind === 'connection') known.add(r.id);
    const recs = remapConnectionIds(capture.records, known);
    if (!header.value) header.value = capture.header;
    queue(recs);
  }

  /** Every record the store holds (flushed and queued), in arrival order: what "export capture log" writes. */
  function capture(): Capture {
    return {
      header: header.value ?? {
        kind: 'header',
        format: 'replyscope-capture',
        version: 1,
        tool: 'replyscope-panel',
        created: new Date().toISOString(),
      },
      records: [...records, ...pending],
    };
  }

  return {
    header,
    revision,
    paused,
    held,
    status,
    live,
    selectedConnId,
    selectedReplyId,
    step,
    selectedEvent,
    follow,
    view,
    detailTab,
    filters,
    connections,
    selectedConnection,
    selectedReply,
    selectedEventView,
    ingest: queue,
    reset,
    flushNow: flush,
    seek,
    selectConnection,
    selectReply,
    selectEvent,
    setPaused,
    clear,
    importCapture,
    capture,
  };
}

export type PanelStore = ReturnType<typeof createPanelStore>;

/** Event lookup by connection event index (indices are dense from `evictedEvents`, but do not assume it). */
export function eventByIndex(conn: ConnectionView, index: number): EventView | undefined {
  const guess = conn.events[index - (conn.events[0]?.index ?? 0)];
  if (guess && guess.index === index) return guess;
  return conn.events.find((e) => e.index === index);
}

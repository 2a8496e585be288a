// The read model the panes show, as computed signals: the connections of the capture shown (and those the list
// shows, the pages, the notices), and what is derived from the selection (the event, the error body, the event list's
// rows and types, the steps with diagnostics). Apart from the state they are computed from — the capture shown
// (a reset's read-back decides which), the selection, the filters — which they only read.
import { computed, type ReadonlySignal } from '@preact/signals';
import type { CaptureRecord, NoticeRecord } from '../../src/core/capture/model.ts';
import type { ConnectionView, EventView } from '../../src/core/analysis/types.ts';
import { base64ToBytes, ERROR_BODY_RECORDED_BYTES, type CaptureAnalyzer } from '../core-bridge.ts';
import { EventRowIndex, TypeCounter, type RowsSnapshot } from './event-rows.ts';
import { filterConnections, type Filters } from './filters.ts';
import { eventByIndex } from './lookups.ts';
import type { Selection } from './selection.ts';
import { DiagnosticSteps } from './steps.ts';

/** How much of an HTTP error answer's body the connection details show: what the tap records of it. */
const ERROR_BODY_SHOWN = ERROR_BODY_RECORDED_BYTES;

export interface ViewDeps {
  /** Bumped on every analyzer change: the views are recomputed from it (the analyzer's may be mutated in place). */
  revision: ReadonlySignal<number>;
  /** The capture the views show: its analyzer, and the records it read. */
  shown: () => { analyzer: CaptureAnalyzer; records: CaptureRecord[] };
  filters: Filters;
}

/** The capture shown's connections, pages and notices. */
export function createCaptureViews({ revision, shown, filters }: ViewDeps) {
  const connections = computed<ConnectionView[]>(() => {
    void revision.value;
    return shown().analyzer.connections();
  });
  /** The connections the list shows (URL filter, "Has errors"): the list and its count read this one. */
  const shownConnections = computed<ConnectionView[]>(() => filterConnections(connections.value, filters.urlText.value, filters.errorsOnly.value));
  /** Where the tab's top frame loaded a new page among the connections (Preserve log kept the earlier page's). */
  const navigations = computed(() => {
    void revision.value;
    return shown().analyzer.navigations().slice(); // a new array: the analyzer's grows in place
  });
  /** The capture's notices that belong to no connection (what the page opened that cannot be captured, import notes). */
  const notices = computed<readonly NoticeRecord[]>(() => {
    void revision.value;
    return shown().analyzer.notices().slice(); // a new array: the analyzer's grows in place
  });
  return { connections, shownConnections, navigations, notices };
}

/** What the panes show of the selection. */
export function createSelectionViews(
  { revision, shown, filters }: ViewDeps,
  { selectedConnection, selectedReply, selectedEvent }: Pick<Selection, 'selectedConnection' | 'selectedReply' | 'selectedEvent'>,
) {
  /**
   * The selected connection's body when it is an HTTP error answer (a 401/429/500 JSON or HTML body): the server's
   * message is the finding, but it is no stream — no event shows it (stream.http-error says only the status). The
   * first ERROR_BODY_SHOWN bytes as recorded (the tap records an error answer's first 64 KiB), decoded as UTF-8.
   * Read incrementally: a live answer's chunks are added as they arrive, not the whole capture scanned per flush.
   */
  let errorBodyScan: { records: CaptureRecord[]; conn: string; at: number; parts: Uint8Array[]; size: number } | undefined;
  const errorBody = computed<{ text: string; bytes: number; cut: boolean } | undefined>(() => {
    void revision.value;
    const c = selectedConnection.value;
    const status = c?.record.status;
    if (!c || status === undefined || status < 400 || c.record.transport === 'websocket' || c.record.transport === 'eventsource') return undefined;
    const id = c.record.id;
    const read = shown().records;
    if (errorBodyScan?.records !== read || errorBodyScan.conn !== id) errorBodyScan = { records: read, conn: id, at: 0, parts: [], size: 0 };
    const scan = errorBodyScan;
    for (; scan.at < read.length && scan.size < ERROR_BODY_SHOWN; scan.at++) {
      const r = read[scan.at];
      if (r.kind !== 'chunk' || r.conn !== id) continue;
      const bytes = r.text !== undefined ? new TextEncoder().encode(r.text) : r.base64 !== undefined ? base64ToBytes(r.base64) : undefined;
      if (!bytes) continue;
      scan.parts.push(bytes);
      scan.size += bytes.length;
    }
    if (scan.size === 0) return undefined;
    const all = new Uint8Array(Math.min(scan.size, ERROR_BODY_SHOWN));
    let at = 0;
    for (const part of scan.parts) {
      const n = Math.min(part.length, all.length - at);
      all.set(part.subarray(0, n), at);
      at += n;
      if (at === all.length) break;
    }
    return { text: new TextDecoder().decode(all), bytes: c.bytes, cut: scan.size > ERROR_BODY_SHOWN || c.bytes > all.length };
  });
  const selectedEventView = computed<EventView | undefined>(() => {
    const i = selectedEvent.value;
    const conn = selectedConnection.value;
    if (i === undefined || !conn) return undefined;
    return eventByIndex(conn, i);
  });

  // Derived per selection, each maintained incrementally (see event-rows.ts, steps.ts): a flush costs what arrived,
  // a seek costs history.at(k).
  const rowIndex = new EventRowIndex();
  const typeCounter = new TypeCounter();
  const diagSteps = new DiagnosticSteps();
  const eventRows = computed<RowsSnapshot | undefined>(() => {
    const conn = selectedConnection.value;
    const f = filters;
    return conn ? rowIndex.update(conn, { text: f.eventText.value, types: f.eventTypes.value, hideHeartbeats: f.hideHeartbeats.value }) : undefined;
  });
  const eventTypes = computed<[string, number][]>(() => {
    const conn = selectedConnection.value;
    return conn ? typeCounter.update(conn) : [];
  });
  /** Steps of the selected reply that carry diagnostics (for [ ] and the scrubber's jump buttons). */
  const diagnosticStepList = computed<readonly number[]>(() => {
    const conn = selectedConnection.value;
    const reply = selectedReply.value;
    return conn && reply ? diagSteps.of(conn, reply) : [];
  });

  return { errorBody, selectedEventView, eventRows, eventTypes, diagnosticStepList };
}

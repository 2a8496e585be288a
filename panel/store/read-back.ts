// The read-back: a reset replaces the panel's capture (a navigation, the source sending it anew, a watching panel
// handed the kept capture under the memory cap), and the new one is read in slices like any other. Until it has
// something to show the views go on showing the one it replaced (`shown`); then the selection the user had is anchored
// and placed back as the new capture is read far enough — the same event under its new index, the nearest step kept,
// or none, with a note. Apart from the selection it places (selection.ts, which keeps the anchors) and from the
// flushing that reads the capture (flush.ts): this is what a refresh does while a capture is being read back.
import { batch, type ReadonlySignal, type Signal } from '@preact/signals';
import type { CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { CaptureAnalyzer } from '../core-bridge.ts';
import { evictedNoteCause } from '../lib/eviction-words.ts';
import { anchoredFrame, frameAnchorOf } from './frame-anchor.ts';
import type { Selection, SelectionShown } from './selection.ts';

/** A capture as the store holds it: the records received, as received (export writes these), and the analyzer they went into. */
export interface AnalysedCapture {
  readonly analyzer: CaptureAnalyzer;
  readonly records: CaptureRecord[];
  /** Its header, kept when a reset replaced it: while it stays shown, an export writes it with it (store.ts `capture`). */
  header?: CaptureHeader;
}

export interface Captures {
  /** The capture being read: every record received since the last reset (a reset replaces it). */
  read: AnalysedCapture;
  /**
   * The capture whose read model the views show: `read`, but for a while after a reset — the capture it replaced
   * stays shown until the new one has something to show (`readBackShows`). Shown at once, the new capture was empty
   * until the first refresh (up to BACKLOG_REFRESH_MS, flush.ts): the whole panel flashed to its empty page, and
   * keyboard focus fell to the document with the lists it had been in.
   */
  shown: AnalysedCapture;
}

/** An empty capture, read and shown. */
export function createCaptures(): Captures {
  const empty: AnalysedCapture = { analyzer: new CaptureAnalyzer(), records: [] };
  return { read: empty, shown: empty };
}

export interface ReadBackDeps {
  captures: Captures;
  /** Bumped when the views are to show `captures.shown` anew. */
  revision: Signal<number>;
  /** The connections the views list (those of `captures.shown`). */
  connections: ReadonlySignal<ConnectionView[]>;
  selection: Selection;
}

export function createReadBack({ captures, revision, connections, selection }: ReadBackDeps) {
  const { selectedConnId, selectedReplyId, step, selectedEvent, selectedFrame, follow, playing, selectionNote } = selection;
  const { selectedConnection, selectedReply, anchor, seek, selectEvent } = selection;

  /**
   * The connections listed that the capture being read back holds too, not read in it yet (`of`: that capture).
   */
  let unread: { of: AnalysedCapture; ids: Set<string> } | undefined;

  /**
   * The capture being read back has something to show in place of the one it replaced: all of it is read, or the
   * selected connection's first frames are (with none selected: any connection) — the lists the user was in have rows
   * again — and each connection listed that it holds is (its row stays). A connection it does not hold (a new page's)
   * waits for all of it.
   */
  function readBackShows(drained: boolean): boolean {
    if (drained) return true;
    const { analyzer } = captures.read;
    const id = selectedConnId.value;
    if (id !== undefined ? analyzer.frameCount(id) === 0 : analyzer.connections().length === 0) return false;
    // Shown once the selected one was, the rows of the others went until the reading reached them (slices of 250 ms,
    // seconds on a big capture): a live stream's row, and its updates, gone meanwhile.
    if (unread?.of !== captures.read) unread = { of: captures.read, ids: listedIn(captures.read.records) };
    for (const listed of unread.ids) {
      if (!analyzer.hasConnection(listed)) return false;
      unread.ids.delete(listed);
    }
    return true;
  }

  /** The connections listed now that `records` declare. */
  function listedIn(records: readonly CaptureRecord[]): Set<string> {
    const listed = new Set(connections.value.map((c) => c.record.id));
    const ids = new Set<string>();
    for (const r of records) if (r.kind === 'connection' && listed.has(r.id)) ids.add(r.id);
    return ids;
  }

  /**
   * The views show the capture a reset brought, from the capture it replaced: the selection made there — before the
   * reset, or in the old views since — is anchored (selection.ts `anchor`), to be placed back as the new capture is
   * read.
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
    if (captures.read.records.length === 0) {
      // Nothing to read back (a new page's capture, before its first record): nothing to wait for — the scrubber
      // would say it is finding the step until records of other connections came.
      anchor.value = undefined;
      selection.frameAnchor = undefined;
    }
    captures.shown = captures.read;
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
    const cause = evictedNoteCause(selectedConnection.value);
    const gone = evicted ? `was evicted ${cause}` : 'is no longer in the capture';
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
        ? `${what} and its reply ${evicted ? `were evicted ${cause}` : 'are no longer in the capture'} — nothing is selected.`
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

  return { readBackShows, showReadBack, reanchor, reanchorFrame };
}

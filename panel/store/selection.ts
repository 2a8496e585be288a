// The user's selection — the connection, reply, step, event and frame the panes show — and the moves that change it:
// the user's (seek, select*), and those a refresh makes (a followed reply's newest step, the first connection). Apart
// from the read model it points into, and from the read-back that places it again once a capture replaced the
// panel's; the anchors the read-back places are kept here because every move of the user's drops them.
import { batch, computed, signal, type ReadonlySignal } from '@preact/signals';
import type { ConnectionView, ReplyView } from '../../src/core/analysis/types.ts';
import { frameByIndex, replyOfEvent } from './lookups.ts';
import type { FrameAnchor } from './frame-anchor.ts';

/** The selected event as the user saw it when the capture was replaced: its index, and its step when it was the selected reply's. */
export interface SelectionShown {
  event: number;
  /** The reply's step (0-based, as `step`) the event was, when it was one. */
  step?: number;
}

/** The selected event across a reset (see `anchor` in createSelection). */
export interface EventAnchor {
  conn: string;
  /** Counted from the stream's start (its index + the events evicted before it). */
  event: number;
  recordsCut?: number;
  shown: SelectionShown;
}

export interface SelectionDeps {
  /** Every connection of the capture shown, and those the list shows (its filters applied). */
  connections: ReadonlySignal<ConnectionView[]>;
  shownConnections: ReadonlySignal<ConnectionView[]>;
}

export function createSelection({ connections, shownConnections }: SelectionDeps) {
  /**
   * The selected event, counted from its stream's start, when the capture was replaced by another (store.ts `reset`) while
   * the user looked at it. A live panel's capture is replaced by the extension's bounded one once it outgrows it
   * (src/extension/panel-compaction.ts), and a capture whose head was evicted numbers its events (and its replies'
   * steps) from the cut: the same event gets another index. Once the new capture is read that far, the selection
   * moves back onto it. A followed reply needs none of this: it follows.
   * An eviction without a digest (an older log, a compaction that stopped waiting for it) counts records, not events,
   * and numbers the events from the first frame after the cut: such a capture's `evictedEvents` + index is no count
   * from the stream's start. `recordsCut` is that record count when the selection's capture had one: only a capture
   * with the same cut numbers its events the same; between any other two, the event cannot be placed — none is
   * selected, rather than another (and `selectionNote` says why).
   * A signal: until it is placed, the scrubber says it is finding that step (`placing`) — the old step number beside
   * the half-read reply named a step of the new numbering, or none at all.
   */
  const anchor = signal<EventAnchor | undefined>(undefined);
  /**
   * The selected frame (`selectedFrame`) across such a reset, as `anchor` is the selected event's: its index would name
   * another frame of the new capture (or none), shown in the event pane as if the user had selected it. Until the new
   * capture is read that far no frame is selected; if the cut took the frame, none is (see frame-anchor.ts).
   */
  let frameAnchor: FrameAnchor | undefined;
  /**
   * The selected connection had no reply when it was selected (a live stream's first records) and nothing in it was
   * chosen since: its first reply is selected when it comes, as selecting the connection does when it has one.
   */
  let replyAwaited = false;

  const selectedConnId = signal<string | undefined>(undefined);
  const selectedReplyId = signal<string | undefined>(undefined);
  /** Step within the selected reply (history.at(step)). */
  const step = signal(0);
  /** Selected connection event index (follows the step; can also point at an event outside any reply). */
  const selectedEvent = signal<number | undefined>(undefined);
  /**
   * A selected frame that is no event (a heartbeat, a socket's sent or other message), shown in the event pane in the
   * event's place. The scrubber keeps its step; the next user move of the step or selection of an event clears it.
   */
  const selectedFrame = signal<number | undefined>(undefined);
  /**
   * The reply that was selected when the user chose an event of no reply (a CUSTOM notification): that event is no
   * step of it, so the reply is no longer selected — the scrubber and the reply list showed it as if the event were
   * its last step — but `End` (and the scrubber's button) go back to it and follow it again.
   */
  const replyLeft = signal<string | undefined>(undefined);
  /** Keep the scrubber at the newest step while the selected reply streams. */
  const follow = signal(true);
  /** The last move of the step was following new data (not the user): lists leave their announced row alone. */
  const movedByArrival = signal(false);
  /** The scrubber is playing the selected reply (Space / the play button). */
  const playing = signal(false);
  /** The selection being placed back in a capture that replaced the panel's (see `anchor`); undefined once it is, or given up. */
  const placing = computed<SelectionShown | undefined>(() => anchor.value?.shown);
  /**
   * Why the selection is not what the user left when a capture that replaced the panel's no longer held it (evicted,
   * not in it, its reply gone, not countable): where it landed instead. Until the user's next move, or the next reset.
   */
  const selectionNote = signal<string | undefined>(undefined);

  const selectedConnection = computed(() => {
    const id = selectedConnId.value;
    return id === undefined ? undefined : connections.value.find((c) => c.record.id === id);
  });
  const selectedReply = computed<ReplyView | undefined>(() => {
    const id = selectedReplyId.value;
    return id === undefined ? undefined : selectedConnection.value?.replies.find((r) => r.id === id);
  });

  function seek(k: number, keepFollow = false): void {
    const reply = selectedReply.value;
    if (!reply) return;
    const min = reply.history.evictedBefore;
    const max = reply.history.length - 1;
    const clamped = Math.max(min, Math.min(max, Math.round(k)));
    if (!keepFollow) {
      anchor.value = undefined;
      frameAnchor = undefined;
    }
    batch(() => {
      movedByArrival.value = false;
      step.value = clamped;
      selectedEvent.value = reply.eventIndices[clamped];
      if (!keepFollow) {
        follow.value = clamped === max;
        selectedFrame.value = undefined; // the user moved the step (following a live reply does not)
        selectionNote.value = undefined;
      }
    });
  }

  function selectConnection(id: string | undefined): void {
    anchor.value = undefined;
    frameAnchor = undefined;
    batch(() => {
      movedByArrival.value = false;
      selectionNote.value = undefined;
      selectedConnId.value = id;
      const conn = selectedConnection.value;
      selectedReplyId.value = undefined;
      replyLeft.value = undefined;
      selectedEvent.value = undefined;
      selectedFrame.value = undefined;
      if (conn && conn.replies.length > 0) selectReply(conn.replies[0].id, 'end');
    });
    replyAwaited = selectedConnection.value !== undefined && selectedReplyId.value === undefined;
  }

  function selectReply(id: string | undefined, at: 'start' | 'end' = 'end'): void {
    anchor.value = undefined;
    frameAnchor = undefined;
    replyAwaited = false;
    batch(() => {
      selectionNote.value = undefined;
      if (id !== selectedReplyId.value) playing.value = false;
      selectedReplyId.value = id;
      replyLeft.value = undefined;
      selectedFrame.value = undefined;
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
    anchor.value = undefined;
    frameAnchor = undefined;
    replyAwaited = false;
    batch(() => {
      movedByArrival.value = false;
      selectionNote.value = undefined;
      selectedFrame.value = undefined;
      const owner = replyOfEvent(conn, index);
      if (owner) {
        selectedReplyId.value = owner.reply.id;
        replyLeft.value = undefined;
        if (owner.step >= owner.reply.history.evictedBefore) {
          seek(owner.step);
          return;
        }
      } else if (selectedReplyId.value !== undefined) {
        // An event of no reply (a CUSTOM): no reply's step, so none stays selected (the scrubber said "step 61 / 61"
        // of the reply before and the reply list highlighted it); End goes back to it.
        replyLeft.value = selectedReplyId.value;
        selectedReplyId.value = undefined;
        playing.value = false;
      }
      selectedEvent.value = index;
      // Not a step (a CUSTOM, an event of no reply, an evicted step): the user chose it, so the reply is no longer
      // followed — the next live flush moved the selection to the reply's newest step, away from it.
      follow.value = false;
    });
  }

  /** Back to the reply left for an event of no reply (see `replyLeft`), at its newest step, following it; false when there is none. */
  function backToReply(): boolean {
    const id = replyLeft.value;
    if (id === undefined || !selectedConnection.value?.replies.some((r) => r.id === id)) return false;
    selectReply(id, 'end');
    return true;
  }

  /** Select a frame that is no event (see `selectedFrame`); the step and the selected reply stay. */
  function selectFrame(frameIndex: number): void {
    const conn = selectedConnection.value;
    if (conn && frameByIndex(conn, frameIndex)) {
      frameAnchor = undefined;
      replyAwaited = false;
      batch(() => {
        movedByArrival.value = false;
        selectionNote.value = undefined;
        selectedFrame.value = frameIndex;
      });
    }
  }

  /** After new data: a followed reply jumps to its newest step; a first connection gets selected in the viewer. */
  function keepFollowing(): void {
    const reply = selectedReply.value;
    if (reply && follow.value && reply.history.length > 0) {
      batch(() => {
        seek(reply.history.length - 1, true);
        movedByArrival.value = true;
      });
    }
  }

  /**
   * Nothing selected — the viewer's first file, a live panel's first stream or the capture after a reload (its
   * connections are new ones): the first connection shown and its first reply, as an import selects them. All three
   * panes said "Select a connection." beside a single one. Never over the user's selection, nor while one being read
   * back (a capture replaced while the user looked at it) may still come. A connection selected before its first
   * reply came gets it when it comes (see `replyAwaited`). Only once what was queued is read, as an import selects
   * after it: picked mid-way through a big file, its reply was followed through the rest of the backlog, each refresh
   * rendering the message anew (a 110 MB reply crashed the page).
   */
  function selectFirst(drained: boolean): void {
    if (!drained) return;
    const conn = selectedConnection.value;
    if (conn) {
      if (replyAwaited && conn.replies.length > 0) selectReply(conn.replies[0].id, 'end');
      return;
    }
    if (anchor.value) return;
    const first = shownConnections.value[0];
    if (first) selectConnection(first.record.id);
  }

  return {
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
    /** The selected frame across a reset (see `frameAnchor` above): the read-back sets and places it. */
    get frameAnchor(): FrameAnchor | undefined {
      return frameAnchor;
    },
    set frameAnchor(a: FrameAnchor | undefined) {
      frameAnchor = a;
    },
    seek,
    selectConnection,
    selectReply,
    selectEvent,
    backToReply,
    selectFrame,
    keepFollowing,
    selectFirst,
  };
}

export type Selection = ReturnType<typeof createSelection>;

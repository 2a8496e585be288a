// Where a selected frame that is no event (a heartbeat, a socket's sent or other message) lies in its stream, so that
// the store can move the selection back onto it once a capture that replaced the panel's (store.ts `reset`) is read
// that far. A capture whose head was evicted numbers its frames from the cut (a frame's index is its position in
// frame-list.ts), and its eviction digest counts the evicted events but not the frames — heartbeats, comments and a
// socket's other messages are no events — so a frame's place from the stream's start is known only by the events
// around it, which are counted from there (`evictedEvents` + their index): so many frames after the last event before
// it, or before the first event after it.
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { partitionPoint } from '../../src/core/partition-point.ts';
import { eventByIndex, frameByIndex } from './lookups.ts';

/** `frames` frames after (negative: before) the frame of event `event`, counted from its stream's start. */
interface FromEvent {
  event: number;
  frames: number;
}

export interface FrameAnchor {
  conn: string;
  /** Its index in a stream whose head was not evicted: its position from the stream's start. */
  fromStart?: number;
  /** From the last event before it. */
  after?: FromEvent;
  /** From the first event after it (when the one before it was evicted, this one tells whether the frame was too). */
  before?: FromEvent;
  /** What the frame said: the frame found must say the same — a miscount clears the selection, it shows no other frame. */
  data: string;
  sent: boolean;
  foreign: boolean;
}

/** The anchor of frame `frameIndex` of `conn` (undefined when it has no such frame). */
export function frameAnchorOf(conn: ConnectionView, frameIndex: number): FrameAnchor | undefined {
  const frame = frameByIndex(conn, frameIndex);
  if (!frame) return undefined;
  const anchor: FrameAnchor = { conn: conn.record.id, data: frame.data, sent: frame.sent === true, foreign: frame.foreign === true };
  if (!evictedHead(conn)) anchor.fromStart = frameIndex;
  // Without a digest the eviction counted records, not events: the events are not counted from the stream's start.
  if (conn.evictedRecordsOnly) return anchor;
  const events = conn.events;
  // In frame order; an event whose frame has not completed (-1) comes after every completed frame.
  const next = partitionPoint(events.length, (i) => events[i].frameIndex !== -1 && events[i].frameIndex <= frameIndex);
  const prev = events[next - 1];
  if (prev) anchor.after = { event: conn.evictedEvents + prev.index, frames: frameIndex - prev.frameIndex };
  const following = events[next];
  if (following && following.frameIndex !== -1) anchor.before = { event: conn.evictedEvents + following.index, frames: frameIndex - following.frameIndex };
  return anchor;
}

/**
 * The anchored frame's index in `conn` (a capture that replaced the one it was anchored in); 'wait' while `conn` is
 * not read that far (`drained`: it is, as far as it goes); 'gone' when it has no such frame — evicted, or its place
 * cannot be counted.
 */
export function anchoredFrame(conn: ConnectionView, anchor: FrameAnchor, drained: boolean): number | 'wait' | 'gone' {
  const at = placeOf(conn, anchor);
  if (at === 'gone') return at;
  if (at === 'wait' || at >= conn.frames.length) return drained ? 'gone' : 'wait';
  const frame = frameByIndex(conn, at);
  const same = frame !== undefined && frame.heartbeat && frame.data === anchor.data && (frame.sent === true) === anchor.sent &&
    (frame.foreign === true) === anchor.foreign;
  return same ? at : 'gone';
}

function placeOf(conn: ConnectionView, anchor: FrameAnchor): number | 'wait' | 'gone' {
  if (anchor.fromStart !== undefined && !evictedHead(conn)) return anchor.fromStart;
  if (conn.evictedRecordsOnly) return 'gone';
  const { after, before } = anchor;
  if (after && after.event >= conn.evictedEvents) return fromEvent(conn, after);
  // The event before it was evicted (or there was none): the frame is kept if it comes after the cut, which only the
  // event after it can tell — the frames between that event and the cut are numbered from the cut.
  if (!before || before.event < conn.evictedEvents) return 'gone';
  const at = fromEvent(conn, before);
  return typeof at === 'number' && at < 0 ? 'gone' : at;
}

function fromEvent(conn: ConnectionView, from: FromEvent): number | 'wait' {
  const index = from.event - conn.evictedEvents;
  if (index >= conn.events.length) return 'wait'; // (not read yet: no search through every event for it)
  const e = eventByIndex(conn, index);
  return e === undefined || e.frameIndex === -1 ? 'wait' : e.frameIndex + from.frames;
}

/** Some of the stream's head was evicted: its frames are numbered from the cut (its events too, from evictedEvents). */
function evictedHead(conn: ConnectionView): boolean {
  return conn.evictedEvents > 0 || conn.evictedRecordsOnly === true || conn.diagnostics.some((d) => d.code === 'stream.evicted');
}

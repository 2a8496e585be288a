// Lookups in a connection's views by index: events, frames and the reply step of an event. Pure; the store, the
// scrubber's helpers and the components share them.
import type { ConnectionView, EventView, FrameView, ReplyView } from '../../src/core/analysis/types.ts';
import type { Diagnostic } from '../../src/core/diagnostics/types.ts';
import type { FrameList } from '../../src/core/frames/frame-list.ts';
import { partitionPoint } from '../../src/core/partition-point.ts';

/** Position of `value` in an ascending list, or -1. */
export function indexInSorted(sorted: readonly number[], value: number): number {
  const lo = partitionPoint(sorted.length, (i) => sorted[i] < value);
  return sorted[lo] === value ? lo : -1;
}

/** The reply an event belongs to and its step there (events name their reply; no scan over all replies). */
export function replyOfEvent(conn: ConnectionView, index: number): { reply: ReplyView; step: number } | undefined {
  const e = eventByIndex(conn, index);
  const candidates = e?.replyId !== undefined ? conn.replies.filter((r) => r.id === e.replyId) : conn.replies;
  for (const reply of candidates) {
    const step = indexInSorted(reply.eventIndices, index);
    if (step >= 0) return { reply, step };
  }
  return undefined;
}

/**
 * The frame objects handed out per frame list, by index (few: the selected frame, the event pane's). The list builds
 * a new object on every `at`; the panel keys on the object — the frame pane parses a frame's JSON once per object, its
 * Copy button forgets "Copied" when the object changes — so one lookup per render reset both on every render.
 */
const built = new WeakMap<FrameList, Map<number, FrameView>>();
const BUILT_PER_LIST = 16;

/**
 * Frame lookup by frame index (a frame's index is its position in the connection's frame list). The same frame gives
 * the same object while it is unchanged — a frame changes only when the client comparison sets its note — as the
 * frame objects this list replaced did.
 */
export function frameByIndex(conn: ConnectionView, index: number): FrameView | undefined {
  const frames = conn.frames;
  if (!Number.isInteger(index) || index < 0 || index >= frames.length) return undefined;
  let cache = built.get(frames);
  const hit = cache?.get(index);
  if (hit && hit.clientNote === frames.clientNote(index)) return hit;
  const frame = frames.at(index) as FrameView;
  if (!cache) built.set(frames, (cache = new Map()));
  else if (cache.size >= BUILT_PER_LIST) cache.clear();
  cache.set(index, frame);
  return frame;
}

/** Event lookup by connection event index (dense from 0, also after an evicted head — but do not assume it). */
export function eventByIndex(conn: ConnectionView, index: number): EventView | undefined {
  const guess = conn.events[index - (conn.events[0]?.index ?? 0)];
  if (guess && guess.index === index) return guess;
  return conn.events.find((e) => e.index === index);
}

/**
 * The connection's diagnostics that are not an event's own, by the event they are told at: the stream's (HTTP status,
 * network error), the frame readings' and the end-of-stream checks' (a reply or block never ended). An event view
 * holds only the diagnostics made while it was read; without these the event list, the event pane and the scrubber's
 * "flagged" steps missed what the Diagnostics tab showed at that very event (a reply cut off by the network: "0 flagged").
 */
const extraCache = new WeakMap<ConnectionView, Map<number, Diagnostic[]>>();

export function extraDiagnostics(conn: ConnectionView): Map<number, Diagnostic[]> {
  let m = extraCache.get(conn);
  if (m) return m;
  m = new Map();
  for (const d of conn.diagnostics) {
    // What concerns the connection as a whole (an HTTP error, no known dialect, a HAR entry's notes) is no event's:
    // its index, 0, would flag the first event as if it were at fault.
    if (d.ofConnection) continue;
    const e = eventByIndex(conn, d.index);
    if (e && e.diagnostics.includes(d)) continue;
    const list = m.get(d.index);
    if (list) list.push(d);
    else m.set(d.index, [d]);
  }
  extraCache.set(conn, m);
  return m;
}

/** Every diagnostic told at event `e`: its own and the connection's (see extraDiagnostics). */
export function eventDiagnostics(conn: ConnectionView, e: EventView): readonly Diagnostic[] {
  const extra = extraDiagnostics(conn).get(e.index);
  return extra ? [...e.diagnostics, ...extra] : e.diagnostics;
}

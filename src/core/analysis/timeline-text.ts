// The timeline in words: one summary per lane (what the SVG draws, as a screen reader or a keyboard can use it) and
// the lane's previous/next event from a step. Pure; the panel's table (TimelineTable.tsx) renders it.
//
// A summary is per lane, never per event: a 200k-event connection has a few lanes of thousands of ticks each, and
// the text alternative must cost what the chart costs. Each event stays reachable through laneStep (computed on a
// key press, not ahead), and the marks a lane has (few: a reply's interrupts and waits) are listed by name.
import type { Timeline, TimelineLane, TimelineWait } from './timeline-types.ts';

export interface LaneMark {
  event: number;
  mark: string;
}

export interface LaneSummary {
  lane: TimelineLane;
  /** Lowest and highest connection event index the lane has (a span's start, a tick, an end). */
  firstEvent: number;
  lastEvent: number;
  /** Axis positions of the lane's first start and last end. */
  start: number;
  end: number;
  spans: number;
  /** Spans nothing closed (still streaming, or the stream never closed them). */
  openSpans: number;
  /** Some span began before the evicted part of the connection. */
  continued: boolean;
  /** Events that touched a block between its start and end (deltas), and events the lane has in all. */
  deltas: number;
  events: number;
  /** Named point events: a reply's USER_INTERRUPT, REQUIRE_* …, a CUSTOM's name — the first MARKS_LISTED of them. */
  marks: LaneMark[];
  /** How many named point events there are (marks holds at most MARKS_LISTED). */
  markCount: number;
  /** Human-in-the-loop waits of this lane's reply (reply lanes only). */
  waits: TimelineWait[];
}

/** Marks named per lane; a lane of 10,000 CUSTOM notifications says how many and lists these. */
export const MARKS_LISTED = 8;

export function summariseLane(lane: TimelineLane, waits: readonly TimelineWait[] = []): LaneSummary {
  let firstEvent = Infinity;
  let lastEvent = -Infinity;
  let start = Infinity;
  let end = -Infinity;
  let openSpans = 0;
  let deltas = 0;
  let events = 0;
  let markCount = 0;
  let continued = false;
  const marks: LaneMark[] = [];
  const note = (event: number, mark: string | undefined) => {
    if (event < firstEvent) firstEvent = event;
    if (event > lastEvent) lastEvent = event;
    events++;
    if (mark === undefined) return;
    markCount++;
    if (marks.length < MARKS_LISTED) marks.push({ event, mark });
  };
  for (const s of lane.spans) {
    if (s.start < start) start = s.start;
    if (s.end > end) end = s.end;
    if (s.open) openSpans++;
    if (s.continued) continued = true;
    note(s.startEvent, s.mark);
    for (const tk of s.ticks) {
      note(tk.event, tk.mark);
      if (tk.mark === undefined) deltas++;
    }
    if (s.endEvent !== undefined && s.endEvent !== s.startEvent) note(s.endEvent, undefined);
  }
  marks.sort((a, b) => a.event - b.event);
  const own = lane.kind === 'reply' ? waits.filter((w) => w.kind === 'human' && (w.replyId ?? '') === (lane.replyId ?? '')) : [];
  return { lane, firstEvent, lastEvent, start, end, spans: lane.spans.length, openSpans, continued, deltas, events, marks, markCount, waits: own };
}

export function summariseLanes(tl: Timeline, limit = Infinity): LaneSummary[] {
  return tl.lanes.slice(0, limit).map((l) => summariseLane(l, tl.waits));
}

/**
 * The lane's nearest event after (dir 1) or before (dir -1) event `from`; with no `from`, its first (dir 1) or last
 * event. Undefined when there is none that way.
 */
export function laneStep(lane: TimelineLane, from: number | undefined, dir: 1 | -1): number | undefined {
  let best: number | undefined;
  const consider = (e: number) => {
    if (from !== undefined && (dir === 1 ? e <= from : e >= from)) return;
    if (best === undefined || (dir === 1 ? e < best : e > best)) best = e;
  };
  for (const s of lane.spans) {
    consider(s.startEvent);
    for (const tk of s.ticks) consider(tk.event);
    if (s.endEvent !== undefined) consider(s.endEvent);
  }
  return best;
}

/** Silences longer than the gap threshold: how many, and the longest (a line under the table, not a row each). */
export function gapSummary(waits: readonly TimelineWait[]): { count: number; longest?: TimelineWait } {
  let longest: TimelineWait | undefined;
  let count = 0;
  for (const w of waits) {
    if (w.kind !== 'gap') continue;
    count++;
    if (!longest || w.end - w.start > longest.end - longest.start) longest = w;
  }
  return longest ? { count, longest } : { count };
}

// Incremental event-list rows. A live connection grows by a few dozen events per frame while holding 100k+; building
// the list from scratch on every flush (filters.ts `eventRows`, kept as the reference) costs O(n) per frame. This
// index keeps the rows built so far and appends only what arrived since — it rebuilds from scratch only when what
// the earlier rows were computed from changed: another connection, other filters, or the dialect (the analyzer
// re-creates the events it read before the dialect was known).
import type { ConnectionView, EventView, FrameView } from '../../src/core/analysis/types.ts';
import type { EventRow } from './filters.ts';
import { SplitTextMatcher } from './split-text-match.ts';

/** The row of a heartbeat/comment frame (or of a socket's foreign or sent message). */
export function beatRow(fr: FrameView): EventRow {
  return { kind: 'heartbeat', frameIndex: fr.index, t: fr.t, data: fr.data, ...(fr.foreign ? { foreign: true } : {}), ...(fr.sent ? { sent: true } : {}) };
}

/**
 * Which frame rows (frames that are no event: heartbeats, comments, a socket's other and sent messages) the list
 * shows: none under a type filter (they have no type); under a text filter those whose data holds the text; "Hide
 * heartbeats" hides all but what the page sent on a socket — often the user's prompt, the request of the reply that
 * follows, which a socket shows nowhere else.
 */
export function frameMatcher(filter: RowFilter): (fr: FrameView) => boolean {
  const needle = filter.text.trim().toLowerCase();
  if (filter.types.size > 0) return () => false;
  return (fr) => fr.heartbeat && (!filter.hideHeartbeats || fr.sent === true) && (!needle || fr.data.toLowerCase().includes(needle));
}

export interface RowFilter {
  text: string;
  types: ReadonlySet<string>;
  hideHeartbeats: boolean;
}

/** What a list renders: `count` rows read through `at(i)`, and the row of a connection event (or -1). */
export interface RowsSnapshot {
  readonly count: number;
  at(i: number): EventRow | undefined;
  rowOfEvent(eventIndex: number): number;
}

export class EventRowIndex {
  private events: readonly EventView[] | undefined;
  private dialect = '';
  private filter: RowFilter | undefined;
  /** Rows of events whose frame is known, plus the heartbeats before them: final, never revisited. */
  private rows: EventRow[] = [];
  /** rowPos[position in conn.events] = row index, or -1 when the event is filtered out. */
  private rowPos: number[] = [];
  /** Next event (position in conn.events) and frame (position in conn.frames) to scan. */
  private nextEvent = 0;
  private nextFrame = 0;
  /** The search across deltas, as far as the final rows (the tail is read with a copy, as it is read again). */
  private split: SplitTextMatcher | undefined;

  /** Bring the rows up to date with `conn` (O(new events) unless something forces a rebuild). */
  update(conn: ConnectionView, filter: RowFilter): RowsSnapshot {
    if (conn.events !== this.events || conn.dialect !== this.dialect || !sameFilter(filter, this.filter)) {
      this.events = conn.events;
      this.dialect = conn.dialect;
      this.filter = filter;
      this.rows = [];
      this.rowPos = [];
      this.nextEvent = 0;
      this.nextFrame = 0;
      this.split = splitMatcherFor(filter);
    }
    const match = matcher(filter, this.split);
    const shown = frameMatcher(filter);
    const { events, frames } = conn;
    const beat = (i: number) => {
      const fr = frames.at(i) as FrameView;
      if (shown(fr)) this.rows.push(beatRow(fr));
    };
    // An event whose spec frame has not completed yet (frameIndex -1) ends the final part: heartbeats that arrive
    // before its frame completes still belong before it.
    for (; this.nextEvent < events.length; this.nextEvent++) {
      const e = events[this.nextEvent];
      if (e.frameIndex < 0) break;
      for (; this.nextFrame < frames.length && this.nextFrame < e.frameIndex; this.nextFrame++) beat(this.nextFrame); // index = position
      while (this.nextFrame < frames.length && this.nextFrame <= e.frameIndex) this.nextFrame++;
      if (match(e)) {
        this.rowPos.push(this.rows.length);
        this.rows.push({ kind: 'event', event: e });
      } else this.rowPos.push(-1);
    }
    // Every frame completed so far precedes the remaining (unfinished) events' frames.
    for (; this.nextFrame < frames.length; this.nextFrame++) beat(this.nextFrame);
    // The unfinished tail (usually empty, at most the events of one frame): rebuilt on every update.
    const tail: EventRow[] = [];
    const tailPos: number[] = [];
    const matchTail = this.nextEvent < events.length ? matcher(filter, this.split?.clone()) : match;
    for (let p = this.nextEvent; p < events.length; p++) {
      if (matchTail(events[p])) {
        tailPos.push(this.rows.length + tail.length);
        tail.push({ kind: 'event', event: events[p] });
      } else tailPos.push(-1);
    }
    const rows = this.rows;
    const rowPos = this.rowPos;
    const base = events[0]?.index ?? 0;
    const final = rows.length;
    const count = final + tail.length;
    return {
      count,
      at: (i) => (i < final ? rows[i] : tail[i - final]),
      rowOfEvent: (eventIndex) => {
        const p = eventIndex - base;
        if (p < 0 || p >= events.length) return -1;
        const row = p < rowPos.length ? rowPos[p] : tailPos[p - rowPos.length];
        return row === undefined || row >= count ? -1 : row;
      },
    };
  }
}

function sameFilter(a: RowFilter, b: RowFilter | undefined): boolean {
  return !!b && a.text === b.text && a.types === b.types && a.hideHeartbeats === b.hideHeartbeats;
}

/** The search across deltas for this filter's text (none for a one-character search: nothing can be split). */
export function splitMatcherFor(filter: RowFilter): SplitTextMatcher | undefined {
  const needle = filter.text.trim().toLowerCase();
  return needle.length > 1 ? new SplitTextMatcher(needle) : undefined;
}

/**
 * The event predicate of the event list (the same one `eventRows` applies). With `split`, it must see every event of
 * the connection once, in order: a delta that completes the text split across earlier deltas matches too.
 */
export function matcher(filter: RowFilter, split?: SplitTextMatcher): (e: EventView) => boolean {
  const needle = filter.text.trim().toLowerCase();
  const types = filter.types;
  return (e) => {
    const joined = split?.push(e) ?? false;
    return (types.size === 0 || types.has(e.type)) &&
      (!needle ||
        joined ||
        e.type.toLowerCase().includes(needle) ||
        (e.blockId ?? '').toLowerCase().includes(needle) ||
        e.preview.toLowerCase().includes(needle) ||
        e.rawText.toLowerCase().includes(needle));
  };
}

/** Distinct event types with counts, maintained as events arrive (the type filter's options). */
export class TypeCounter {
  private events: readonly EventView[] | undefined;
  private dialect = '';
  private counted = 0;
  private counts = new Map<string, number>();

  update(conn: ConnectionView): [string, number][] {
    if (conn.events !== this.events || conn.dialect !== this.dialect || conn.events.length < this.counted) {
      this.events = conn.events;
      this.dialect = conn.dialect;
      this.counted = 0;
      this.counts = new Map();
    }
    for (; this.counted < conn.events.length; this.counted++) {
      const t = conn.events[this.counted].type;
      this.counts.set(t, (this.counts.get(t) ?? 0) + 1);
    }
    return [...this.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }
}

// The timeline's shape (timeline.ts derives it): lanes of spans and ticks on one axis, and the waits drawn across
// them. Apart from the derivation because its readers — the text alternative (timeline-text.ts), the roles
// (timeline-roles.ts), the panel's chart and table — need the shape and not how it is made.
import type { Dialect } from './types.ts';

export type LaneKind =
  | 'reply'
  | 'model-call'
  | 'text'
  | 'thinking'
  | 'tool-call'
  | 'tool-result'
  | 'data'
  | 'hint'
  | 'tool-execution'
  | 'custom';

/** Which clock the axis uses: arrival times, the events' own `created_at`, or (neither known) the event index. */
export type TimelineAxis = 'arrival' | 'created_at' | 'index';

export interface TimelineTick {
  /** Position on the axis. */
  t: number;
  /** Connection event index. */
  event: number;
  /**
   * A reply-level event drawn as a mark on the reply's bar (USER_INTERRUPT, REQUIRE_USER_CONFIRM…): its type. Delta
   * ticks have none. The text alternative names the marks by it.
   */
  mark?: string;
}

export interface TimelineSpan {
  start: number;
  end: number;
  startEvent: number;
  /** The closing event, when the block was closed. */
  endEvent?: number;
  /** True when nothing closed the block (still streaming, or the stream never closed it). */
  open: boolean;
  /**
   * The block (reply, model call) began before the memory cap evicted the connection's head: the span starts at its
   * reply's first kept event and is drawn open to the left. (It was a zero-length span at the closing event.)
   */
  continued?: true;
  ticks: TimelineTick[];
  /** A point span that is one event (a CUSTOM notification): what it was (the CUSTOM's name). */
  mark?: string;
}

export interface TimelineLane {
  /** Stable key: `<kind>:<reply>:<block id>`. */
  id: string;
  kind: LaneKind;
  label: string;
  replyId?: string;
  spans: TimelineSpan[];
}

export interface TimelineWait {
  kind: 'human' | 'gap';
  start: number;
  end: number;
  startEvent: number;
  endEvent: number;
  label: string;
  /** True for a human wait that no result answered yet. */
  open?: boolean;
  /** The reply that waits (human waits; '' when the events named none). */
  replyId?: string;
}

export interface Timeline {
  axis: TimelineAxis;
  /** Axis range; start === end when there is at most one distinct time. */
  start: number;
  end: number;
  lanes: TimelineLane[];
  waits: TimelineWait[];
  /** Position of each event on the axis, indexed like the input array (not by EventView.index). */
  times: number[];
}

export interface TimelineOptions {
  /** Silences longer than this (axis units: ms, or events for the index axis) become gap waits. Default 2000 ms. */
  gapThreshold?: number;
  /** Replies that began before an eviction (ReplyView.continuesEviction): their blocks may have started before it. */
  continuing?: ReadonlySet<string>;
  /**
   * The connection's dialect. In a pi stream a CUSTOM is no notification but a frame of a type pi does not know (the
   * client skips it, a diagnostic says so): it gets no lane there — "custom progress, 1 notification" told otherwise.
   */
  dialect?: Dialect;
}

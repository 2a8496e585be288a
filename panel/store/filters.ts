// Filter state and the pure predicates behind the connections list and the event list.
import { signal } from '@preact/signals';
import type { ConnectionView, EventView, FrameView, ReplyView } from '../../src/core/analysis/types.ts';
import { beatRow, frameMatcher, matcher, splitMatcherFor } from './event-rows.ts';

export function createFilters() {
  return {
    /** Connections: substring of the URL (case-insensitive). */
    urlText: signal(''),
    /** Connections: only those with a problem to look at (connectionHasErrors says which). */
    errorsOnly: signal(false),
    /** Events: substring of type, block id, preview or raw text — or of a block's text across deltas (split-text-match.ts). */
    eventText: signal(''),
    /** Events: only these types (empty = all). */
    eventTypes: signal<ReadonlySet<string>>(new Set()),
    /** Hide heartbeat/comment frames and a socket's other messages in the event list (sent messages stay). */
    hideHeartbeats: signal(false),
  };
}

export type Filters = ReturnType<typeof createFilters>;

/**
 * Finished reasons of a reply that failed: AgentScope's REPLY_END `finished_reason: "error"` (the reply's `error` is set
 * with it), pi's stopReason "error" / "aborted" (an event's, or the one streamProxy gives the message when the stream
 * breaks: ReplyView.afterEnd). A healthy stream can carry a failed reply — pi's "529 overloaded_error" comes as an
 * `error` event on an HTTP 200 that ends complete, its diagnostic only info — and that reply is what a user filtering
 * for errors is looking for. ("interrupted" and "exceed_max_iters" are the agent stopping as told, not failing.)
 */
const FAILED_REASONS: ReadonlySet<string> = new Set(['error', 'aborted']);

export const replyFailed = (r: ReplyView): boolean => r.finishedReason !== undefined && FAILED_REASONS.has(r.finishedReason);

/** What "Has errors" keeps, said on the checkbox (its title). */
export const HAS_ERRORS_TITLE =
  'Connections with an error diagnostic, an HTTP error status (400 or more), a failed or aborted end, or a reply that ' +
  'finished in error (AgentScope finished_reason "error", pi stopReason "error" or "aborted")';

export function connectionHasErrors(c: ConnectionView): boolean {
  return (
    c.diagnostics.some((d) => d.severity === 'error') ||
    c.state === 'error' ||
    c.state === 'aborted' ||
    (c.record.status !== undefined && c.record.status >= 400) ||
    c.replies.some(replyFailed)
  );
}

export function filterConnections(list: readonly ConnectionView[], urlText: string, errorsOnly: boolean): ConnectionView[] {
  const needle = urlText.trim().toLowerCase();
  return list.filter(
    (c) => (!needle || c.record.url.toLowerCase().includes(needle)) && (!errorsOnly || connectionHasErrors(c)),
  );
}

/**
 * One row of the event list: a protocol event, or a heartbeat/comment frame (which has no event). Heartbeats sit
 * before the first event that follows them in the body, so the list reads in wire order.
 */
export type EventRow = { kind: 'event'; event: EventView } | { kind: 'heartbeat'; frameIndex: number; t: number; data: string; foreign?: boolean; sent?: boolean };

/** All rows from scratch: the reference the live list's incremental `EventRowIndex` (event-rows.ts) must equal. */
export function eventRows(
  conn: ConnectionView,
  text: string,
  types: ReadonlySet<string>,
  hideHeartbeats: boolean,
): EventRow[] {
  const match = matcher({ text, types, hideHeartbeats }, splitMatcherFor({ text, types, hideHeartbeats }));
  const shown = frameMatcher({ text, types, hideHeartbeats });
  const rows: EventRow[] = [];
  let f = 0;
  const frames = conn.frames; // a frame's index is its position
  for (const e of conn.events) {
    while (f < frames.length && f < e.frameIndex) {
      const fr = frames.at(f++) as FrameView;
      if (shown(fr)) rows.push(beatRow(fr));
    }
    while (f < frames.length && f <= e.frameIndex) f++;
    if (match(e)) rows.push({ kind: 'event', event: e });
  }
  for (; f < frames.length; f++) {
    const fr = frames.at(f) as FrameView;
    if (shown(fr)) rows.push(beatRow(fr));
  }
  return rows;
}

/** Distinct event types of a connection, most frequent first (for the type filter). */
export function eventTypeCounts(conn: ConnectionView): [string, number][] {
  const counts = new Map<string, number>();
  for (const e of conn.events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

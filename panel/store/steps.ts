// Pure helpers for the scrubber: which steps carry diagnostics, how long to wait between steps when playing.
import type { ConnectionView, ReplyView } from '../../src/core/analysis/types.ts';
import { eventByIndex } from './store.ts';

/** Steps of `reply` whose event has a diagnostic, or whose step status is not a plain change. */
export function diagnosticSteps(conn: ConnectionView, reply: ReplyView): number[] {
  const out: number[] = [];
  for (let k = 0; k < reply.eventIndices.length; k++) {
    const st = reply.stepStatus[k];
    const e = eventByIndex(conn, reply.eventIndices[k]);
    if ((e && (e.diagnostics.length > 0 || !e.valid)) || st === 'warned' || st === 'invalid' || st === 'error') out.push(k);
  }
  return out;
}

export function nextIn(sorted: readonly number[], from: number, dir: 1 | -1): number | undefined {
  if (dir > 0) return sorted.find((k) => k > from);
  for (let i = sorted.length - 1; i >= 0; i--) if (sorted[i] < from) return sorted[i];
  return undefined;
}

export type Speed = 1 | 4 | 'max';

/** Longest pause played back "at recorded speed": a 10-minute human wait should not stall the replay. */
export const MAX_PLAY_PAUSE_MS = 3000;

/**
 * Delay before showing step k+1 when playing: the recorded gap between the two events (arrival time, else
 * created_at) divided by the speed, capped; 'max' = as fast as frames render; unknown times = 50 ms.
 */
export function playDelay(conn: ConnectionView, reply: ReplyView, k: number, speed: Speed): number {
  if (speed === 'max') return 0;
  const a = eventByIndex(conn, reply.eventIndices[k]);
  const b = eventByIndex(conn, reply.eventIndices[k + 1]);
  if (!a || !b) return 0;
  let gap = b.t - a.t;
  if (!Number.isFinite(gap) && a.createdAt !== undefined && b.createdAt !== undefined) gap = b.createdAt - a.createdAt;
  if (!Number.isFinite(gap) || gap < 0) gap = 50;
  return Math.min(MAX_PLAY_PAUSE_MS, gap / speed);
}

// Pure helpers for the scrubber: which steps carry diagnostics, how long to wait between steps when playing.
import type { ConnectionView, ReplyView } from '../../src/core/analysis/types.ts';
import { eventByIndex, extraDiagnostics, indexInSorted } from './lookups.ts';

/** Steps of `reply` whose event has a diagnostic, or whose step status is not a plain change. */
export function diagnosticSteps(conn: ConnectionView, reply: ReplyView): readonly number[] {
  return withConnectionDiagnostics(conn, reply, scanDiagnosticSteps(conn, reply, 0, []));
}

/**
 * `steps` with the steps where the connection tells a diagnostic of its own (few: the stream's, the frames', the end
 * of stream's; see extraDiagnostics). They come and go with the connection's view, so they are merged per view.
 */
function withConnectionDiagnostics(conn: ConnectionView, reply: ReplyView, steps: number[]): readonly number[] {
  const extra = extraDiagnostics(conn);
  if (extra.size === 0) return steps;
  const merged = new Set(steps);
  for (const index of extra.keys()) {
    const k = indexInSorted(reply.eventIndices, index);
    if (k >= 0) merged.add(k);
  }
  return merged.size === steps.length ? steps : [...merged].sort((a, b) => a - b);
}

function scanDiagnosticSteps(conn: ConnectionView, reply: ReplyView, from: number, out: number[]): number[] {
  for (let k = from; k < reply.eventIndices.length; k++) {
    const st = reply.stepStatus[k];
    const e = eventByIndex(conn, reply.eventIndices[k]);
    if ((e && (e.diagnostics.length > 0 || !e.valid)) || st === 'warned' || st === 'invalid' || st === 'error') out.push(k);
  }
  return out;
}

/**
 * `diagnosticSteps`, kept up to date as the reply grows: the scrubber renders on every seek, and rescanning a
 * 100k-step reply there would make every move O(n). A reply's step arrays only grow (the analyzer appends to them
 * and shares them between successive views), so the cache is keyed on the step array and resumes where it stopped.
 */
export class DiagnosticSteps {
  private cache = new WeakMap<readonly number[], { dialect: string; scanned: number; steps: number[] }>();

  of(conn: ConnectionView, reply: ReplyView): readonly number[] {
    let c = this.cache.get(reply.eventIndices);
    if (!c || c.dialect !== conn.dialect || c.scanned > reply.eventIndices.length) {
      c = { dialect: conn.dialect, scanned: 0, steps: [] };
      this.cache.set(reply.eventIndices, c);
    }
    if (c.scanned < reply.eventIndices.length) {
      scanDiagnosticSteps(conn, reply, c.scanned, c.steps);
      c.scanned = reply.eventIndices.length;
    }
    return withConnectionDiagnostics(conn, reply, c.steps);
  }
}

/** The nearest entry of the ascending list after (dir 1) or before (dir −1) `from`: a binary search. */
export function nextIn(sorted: readonly number[], from: number, dir: 1 | -1): number | undefined {
  // lo = first position whose value is > from (dir 1) or >= from (dir −1).
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (dir > 0 ? sorted[mid] <= from : sorted[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return dir > 0 ? sorted[lo] : lo > 0 ? sorted[lo - 1] : undefined;
}

export type Speed = 1 | 4 | 'max';

/** Frames a whole reply takes to play at 'max' (steps are skipped to fit; a short reply shows every one). */
export const MAX_PLAY_FRAMES = 600;

/**
 * The step playback moves to from `k` in a reply of `length` steps: the next one, except at 'max', where a long reply
 * plays in about MAX_PLAY_FRAMES frames (~10 s) — a step per frame took five minutes for 10,000 steps. Never past
 * the last step, which is always shown.
 */
export function nextPlayStep(k: number, length: number, speed: Speed): number {
  const stride = speed === 'max' ? Math.max(1, Math.ceil(length / MAX_PLAY_FRAMES)) : 1;
  return Math.min(length - 1, k + stride);
}

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

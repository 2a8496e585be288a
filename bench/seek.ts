// Figure "seek": jumping to any step of the capture (the message after event k of its reply, materialised from the
// reply's checkpointed history) against the naive way to get the same message — replaying the connection's events
// from event 0 to k through append_event — and against the cost of applying one event.
import type { AgentEvent } from '../src/core/agentscope/schema.ts';
import type { ConnectionView } from '../src/core/analysis/types.ts';
import type { Core } from './core.ts';
import { rng } from './capture-gen.ts';
import { median, quantile, time } from './stats.ts';

export interface SeekResult {
  /** median over sampled k of replay(0..k) / seek(k). */
  replayRatio: number;
  replayRatios: number[];
  seekMedianUs: number;
  seekP99Us: number;
  /** Cost of one event application (µs), from a full replay of the connection. */
  applyUs: number;
  /** p99 seek cost expressed in event applications. */
  p99InApplications: number;
  jumps: number;
}

interface Step {
  reply: ConnectionView['replies'][number];
  step: number;
  index: number;
}

/** The validated events of the connection, by connection index (null where invalid), and (index, t) pairs. */
function validatedEvents(core: Core, conn: ConnectionView): (AgentEvent | null)[] {
  return conn.events.map((e) => {
    const v = core.parseWireEvent(e.rawText);
    return v.ok ? v.event : null;
  });
}

/** Replays events 0..k of the connection and returns the message of event k's reply. */
function replayTo(core: Core, conn: ConnectionView, events: (AgentEvent | null)[], k: number, replyId: string): unknown {
  const groups = new core.AgentScopeReplies();
  for (let i = 0; i <= k; i++) {
    const ev = events[i];
    if (ev) groups.push(ev, i, core.contextFor(i, conn.events[i].t));
  }
  return groups.get(replyId)?.msg;
}

export function measureSeek(core: Core, conn: ConnectionView, opts: { jumps: number; replays: number; seed?: number }): SeekResult {
  const rand = rng(opts.seed ?? 7);
  const steps: Step[] = [];
  conn.replies.forEach((reply) => reply.eventIndices.forEach((index, step) => steps.push({ reply, step, index })));
  if (steps.length === 0) throw new Error('the connection has no reply steps to seek');
  const events = validatedEvents(core, conn);
  const pick = () => steps[Math.floor(rand() * steps.length)];

  // Cost of one application: a full replay of the connection, divided by its events (best of 3).
  const applyUs = (1000 * Math.min(...[0, 1, 2].map(() => time(() => replayTo(core, conn, events, events.length - 1, ''))))) / events.length;

  // Random jumps (uniform over all steps of the capture). Each jump is timed as the best of 5 repetitions, each from
  // a cursor moved away first: a µs-scale operation timed once on a shared, loaded machine mostly measures the OS
  // scheduler and GC pauses, not the seek (measured: single-shot p99 of 30-step text replays at 5–20 ms).
  const seekOnce = (s: Step): number => {
    s.reply.history.at(s.step === 0 ? Math.min(1, s.reply.history.length - 1) : 0);
    return time(() => s.reply.history.at(s.step));
  };
  const seekUs: number[] = [];
  const seekMs = (s: Step) => Math.min(...[0, 1, 2, 3, 4].map(() => seekOnce(s)));
  for (let j = 0; j < opts.jumps; j++) seekUs.push(1000 * seekMs(pick()));

  // Replay vs seek at the same k; the replayed message must be the one the history gives.
  const ratios: number[] = [];
  for (let r = 0; r < opts.replays; r++) {
    const s = pick();
    let viaReplay: unknown;
    const replayMs = time(() => (viaReplay = replayTo(core, conn, events, s.index, s.reply.id)));
    const oneSeekMs = seekMs(s);
    const viaHistory = s.reply.history.at(s.step);
    if (JSON.stringify(viaReplay) !== JSON.stringify(viaHistory)) {
      throw new Error(`seek and replay disagree at event ${s.index} (reply ${s.reply.id}, step ${s.step})`);
    }
    ratios.push(replayMs / oneSeekMs);
  }
  const p99 = quantile(seekUs, 0.99);
  return {
    replayRatio: median(ratios),
    replayRatios: ratios,
    seekMedianUs: median(seekUs),
    seekP99Us: p99,
    applyUs,
    p99InApplications: p99 / applyUs,
    jumps: seekUs.length,
  };
}

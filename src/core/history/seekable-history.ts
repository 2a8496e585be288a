// A seekable reconstruction history: the message after every event, without storing every message.
//
// Why checkpoints: replaying from event 0 on every scrubber move is O(k); storing each step's message is cheap only
// while reducers share structure perfectly. We keep the state after every `interval`-th step (a checkpoint) and
// materialise any step by replaying at most `interval - 1` events from the checkpoint before it. A one-entry cursor
// cache makes sequential scrubbing (←/→, play) O(1) per move. Like redux-devtools' instrument, the oldest entries can
// be merged into a base snapshot (`evictBefore`) so a bounded history stays inspectable from there on.
import type { SeekableHistory } from '../analysis/types.ts';

export type Reducer<M, E> = (state: M, event: E, step: number) => M;

export interface SeekableHistoryOptions<M = unknown> {
  /** Steps between checkpoints. Seek cost is at most interval-1 reducer calls. */
  interval?: number;
  /**
   * The owner keeps the latest state itself (e.g. a message written in place during ingest, see
   * agentscope/working-msg.ts) and records steps with `pushLive`: the history takes a snapshot only at checkpoints
   * and when the latest state is read. A history with a live state records its steps with `pushLive` only.
   */
  live?: LiveState<M>;
}

/**
 * A state kept outside the history: `snapshot()` is an immutable copy of it, the same object until it changes.
 * `checkpoint()`, when given, is what the history keeps at a checkpoint instead: the state itself or a compact form
 * of it (e.g. what changed since the previous checkpoint), expanded only when a seek starts from it.
 */
export interface LiveState<M> {
  snapshot(): M;
  checkpoint?(): M | DeferredCheckpoint<M>;
}

/** A checkpoint kept in a compact form (see `LiveState.checkpoint`); `materialize()` returns the state it stands for. */
export abstract class DeferredCheckpoint<M> {
  abstract materialize(): M;
}

export class CheckpointedHistory<M, E> implements SeekableHistory<M> {
  readonly initial: M;
  private readonly reduce: Reducer<M, E>;
  private readonly interval: number;
  /** events[i - offset] is step i's event. */
  private events: E[] = [];
  private offset = 0;
  /**
   * checkpoints[(i + 1) / interval - 1] = state after step i, for i ≡ interval-1 (mod interval); evicted ones are
   * undefined. An array, not a Map: a history per reply, and a short reply's empty Map cost more than its events.
   */
  private checkpoints: (M | DeferredCheckpoint<M> | undefined)[] = [];
  /** State before step `offset` (the merged base after eviction; `initial` before any). */
  private base: M;
  private latest: M;
  private cursor: { step: number; state: M } | undefined;
  private readonly live?: LiveState<M>;

  constructor(initial: M, reduce: Reducer<M, E>, options: SeekableHistoryOptions<M> = {}) {
    this.initial = initial;
    this.base = initial;
    this.latest = initial;
    this.reduce = reduce;
    // 16: with the in-place ingest a replay step costs a pure appendEvent again, and 32 put the seek p99 at the
    // budget's edge (64 event applications); 16 halves it for ~6% more retained memory.
    this.interval = Math.max(1, options.interval ?? 16);
    if (options.live) this.live = options.live;
  }

  get length(): number {
    return this.offset + this.events.length;
  }

  get evictedBefore(): number {
    return this.offset;
  }

  /**
   * The events of the retained steps (step `evictedBefore + i` is `steps[i]`), read-only: the history's own array,
   * so a caller that needs the same list (e.g. a reply's event indices) does not keep a second copy.
   */
  get steps(): readonly E[] {
    return this.events;
  }

  /** The message after the last step (or the initial message). */
  get last(): M {
    return this.live && this.length > 0 ? this.live.snapshot() : this.latest;
  }

  /** Apply one event; returns the new latest state. */
  push(event: E): M {
    const step = this.length;
    const next = this.reduce(this.latest, event, step);
    this.events.push(event);
    this.latest = next;
    if ((step + 1) % this.interval === 0) this.keep(step, next);
    return next;
  }

  /**
   * Record a step whose resulting state the caller already computed (live ingest computes it once for diagnostics
   * and status; recomputing it here would double the cost of the hot path).
   */
  pushComputed(event: E, next: M): void {
    const step = this.length;
    this.events.push(event);
    this.latest = next;
    if ((step + 1) % this.interval === 0) this.keep(step, next);
  }

  private keep(step: number, state: M | DeferredCheckpoint<M>): void {
    this.checkpoints[(step + 1) / this.interval - 1] = state;
  }

  /**
   * Record a step whose resulting state is the live state (see `SeekableHistoryOptions.live`), already updated by
   * the caller: a snapshot is taken only when the step is a checkpoint.
   */
  pushLive(event: E): void {
    const live = this.live;
    if (!live) throw new Error('pushLive: this history has no live state');
    const step = this.length;
    this.events.push(event);
    if ((step + 1) % this.interval === 0) this.keep(step, live.checkpoint ? live.checkpoint() : live.snapshot());
  }

  /** The state after step k. */
  at(k: number): M {
    const n = this.length;
    if (!Number.isInteger(k) || k < -1 || k >= n) {
      throw new RangeError(`step ${k} is outside 0..${n - 1}`);
    }
    if (k === -1) {
      if (this.offset > 0) throw new RangeError('the initial message was evicted');
      return this.initial;
    }
    if (k < this.offset) {
      throw new RangeError(`step ${k} was evicted (history starts at ${this.offset})`);
    }
    if (k === n - 1) return this.last;
    // Start from the closest known state at or before k: a checkpoint, the cursor, or the base.
    const ck = k - ((k + 1) % this.interval);
    let step = this.offset - 1;
    let state = this.base;
    const c = this.cursor;
    const kept = ck >= this.offset - 1 && ck >= 0 ? this.checkpoints[(ck + 1) / this.interval - 1] : undefined;
    const hasCheckpoint = kept !== undefined;
    // The cursor whenever it is at least as close as the checkpoint: a deferred checkpoint costs a materialisation,
    // and seeking the same step twice then returns the same object.
    if (c && c.step <= k && c.step >= step && (!hasCheckpoint || c.step >= ck)) {
      step = c.step;
      state = c.state;
    } else if (hasCheckpoint) {
      step = ck;
      state = kept instanceof DeferredCheckpoint ? kept.materialize() : (kept as M);
    }
    while (step < k) {
      step += 1;
      state = this.reduce(state, this.events[step - this.offset], step);
    }
    this.cursor = { step: k, state };
    return state;
  }

  /** The event of step k (undefined when evicted). */
  eventAt(k: number): E | undefined {
    return k >= this.offset ? this.events[k - this.offset] : undefined;
  }

  /**
   * Drop the events before step k, merging them into the base snapshot: steps ≥ k stay seekable, earlier ones are
   * reported as evicted. Memory held by the dropped events and checkpoints is released (a deferred checkpoint kept
   * may still refer to the full state it was based on, until the live state's next full checkpoint).
   */
  evictBefore(k: number): void {
    if (k <= this.offset) return;
    const target = Math.min(k, this.length);
    const base = this.at(target - 1);
    this.events = this.events.slice(target - this.offset);
    for (let i = 0; i < this.checkpoints.length && (i + 1) * this.interval - 1 < target; i++) this.checkpoints[i] = undefined;
    this.base = base;
    this.offset = target;
    if (this.cursor && this.cursor.step < target) this.cursor = undefined;
  }
}

// The store's flushing: all input only queues (`enqueue`); a flush per animation frame (or timer, when the panel is
// hidden and rAF does not fire) pushes the queue into the analyzer and publishes it inside one `batch()`, so
// thousands of events per second cost one render per frame. A flush works for a bounded time and leaves the rest for
// the next frame, so a big import or snapshot is analysed in slices while the page stays responsive (`backlog` drives
// the progress indicator). Apart from the store because it is about when, not what: what a refresh publishes (the
// read model, the selection moved with it) is the store's `publish`.
import { batch, type Signal } from '@preact/signals';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import type { CaptureAnalyzer } from '../core-bridge.ts';
import { splitChunk } from './chunk-pieces.ts';

/** Records pushed into the analyzer between two clock checks. */
export const SLICE_RECORDS = 16;
/** Chunks longer than this (UTF-16 units) are analysed in pieces of this size. */
const PIECE_CHARS = 16 * 1024;

/** While a backlog is worked off, views are refreshed at most this often (each refresh rebuilds what changed). */
const BACKLOG_REFRESH_MS = 250;

function defaultSchedule(flush: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    flush();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  // rAF is paused in hidden DevTools panels and background tabs; the timer keeps the data flowing there.
  setTimeout(run, 100);
}

/** A message to ourselves: delivered in a task of its own, after the rendering of the frame that is being built. */
function defaultAfterRender(then: () => void): void {
  if (typeof MessageChannel !== 'function') return;
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    then();
  };
  channel.port2.postMessage(null);
}

export interface FlushDeps {
  /** Schedules a flush (StoreOptions `schedule`); defaults to rAF with a timer fallback. */
  schedule?: (flush: () => void) => void;
  /** Runs `then` after the frame a refresh rendered (StoreOptions `afterRender`). */
  afterRender?: (then: () => void) => void;
  /** Analysis time one flush may spend (ms), and the clock it is measured with (StoreOptions `sliceMs`, `now`). */
  sliceMs: number;
  now: () => number;
  /** The analyzer records are pushed into (a reset replaces it). */
  analyzer: () => CaptureAnalyzer;
  paused: Signal<boolean>;
  held: Signal<number>;
  backlog: Signal<{ done: number; total: number } | undefined>;
  /**
   * Publishes what was analysed, inside the flush's batch (`drained`: all that was queued is read); false when there
   * is nothing to show yet (a reset's capture not read far enough), to be asked again at the refresh pace.
   */
  publish: (drained: boolean) => boolean;
}

export function createFlush({ schedule = defaultSchedule, afterRender = defaultAfterRender, sliceMs, now, analyzer, paused, held, backlog, publish }: FlushDeps) {
  /** What the analyzer has still to read: the records queued, huge chunks cut in pieces (see splitChunk). */
  let pending: CaptureRecord[] = [];
  /** Position in `pending` up to which records were analysed (a backlog is consumed across several flushes). */
  let pendingDone = 0;
  let flushScheduled = false;
  /** Analysed records not yet published to the views. */
  let stale = false;
  let lastRefresh = -Infinity;
  let refreshGap = 0;
  let idleWaiters: (() => void)[] = [];

  /** Records for the analyzer to read (a flush is not requested: the caller does, unless paused). */
  function enqueue(recs: CaptureRecord[]): void {
    // Analysis units: a huge chunk (a whole imported SSE body is one) is cut so it, too, is analysed in slices.
    for (const r of recs) {
      if (r.kind === 'chunk') for (const p of splitChunk(r, PIECE_CHARS)) pending.push(p);
      else pending.push(r);
    }
  }

  /** Forget what was queued and not analysed: a reset's new analyzer reads its own records. */
  function discard(): void {
    pending = [];
    pendingDone = 0;
    stale = false;
  }

  /** Records queued and not analysed yet (held while paused). */
  function hasPending(): boolean {
    return pending.length > pendingDone;
  }

  /**
   * Analyse queued records for at most `budgetMs`, then publish. Whatever is left is analysed in the next frames.
   * Publishing (the analyzer rebuilding the views of changed connections, then the render) can cost more than the
   * analysis itself on a long live connection, so views refresh at most every `refreshGap` ms — three times what the
   * last refresh cost, up to BACKLOG_REFRESH_MS — leaving frames free for input; and every BACKLOG_REFRESH_MS while a
   * big batch is worked off. The cost counts the render too (style, layout, paint: measured in the task after the
   * frame), which on a long live stream is most of it. (A panel following 300,000 events at 5,000/s was busy ~89% of
   * the time, mostly rendering; ~43% with this and the incremental view rebuild of src/core/analysis — Chromium traces.)
   */
  function flush(budgetMs = sliceMs): void {
    flushScheduled = false;
    if (paused.value) return;
    const start = now();
    while (pendingDone < pending.length) {
      const slice = pending.slice(pendingDone, pendingDone + SLICE_RECORDS);
      pendingDone += slice.length;
      analyzer().push(slice);
      stale = true;
      if (now() - start >= budgetMs) break;
    }
    if (!stale) return;
    const drained = pendingDone === pending.length;
    const total = pending.length;
    const done = pendingDone;
    if (drained) {
      pending = [];
      pendingDone = 0;
    }
    const gap = drained ? refreshGap : Math.max(refreshGap, BACKLOG_REFRESH_MS);
    const due = budgetMs === Infinity || now() - lastRefresh >= gap;
    batch(() => {
      held.value = 0;
      // Until what was analysed is published the views still show the backlog's state (a file's connection read
      // "live" without its end): the backlog ends with the refresh that shows all of it.
      if (!drained) backlog.value = { done, total };
      else if (due) backlog.value = undefined;
      if (!due) return;
      const t0 = now();
      if (!publish(drained)) {
        lastRefresh = now(); // (asked again at the refresh pace, not every slice)
        return;
      }
      lastRefresh = now();
      refreshGap = Math.min(BACKLOG_REFRESH_MS, 3 * (lastRefresh - t0));
      stale = false;
      const refreshedAt = lastRefresh;
      afterRender(() => {
        if (lastRefresh !== refreshedAt) return; // another refresh came first: it measures itself
        refreshGap = Math.min(BACKLOG_REFRESH_MS, Math.max(refreshGap, 3 * (now() - t0)));
      });
    });
    if (stale || !drained) requestFlush();
    else {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  }

  function requestFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    schedule(flush);
  }

  /** Resolves once everything queued so far has been analysed and published. */
  function whenIdle(): Promise<void> {
    if (pending.length === pendingDone && !stale && !paused.value) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  /** Analyse everything queued right now, in one go (tests, and callers that need the result synchronously). */
  function flushAll(): void {
    flush(Infinity);
  }

  return { enqueue, discard, hasPending, requestFlush, whenIdle, flushAll };
}

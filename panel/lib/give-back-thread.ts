// Giving the page's thread back in the middle of long work (an export, an import read in slices or compared with
// what is shown) so that it paints, handles input and runs what else waits, then going on.
//
// A message to ourselves is a task queued behind those; a timer would be clamped to 4 ms when nested. Not
// `scheduler.yield()`: its continuation goes ahead of the tasks already waiting, so over seconds of work they waited
// to the end. Measured in Chromium 156 over 2 s of 12 ms slices: scheduler.yield() let 0 of a 20 ms interval's timer
// callbacks and 18 animation frames run; a message 63 and 121; setTimeout(0) 99 and 121, in 122 slices against 161.
export function giveBackThread(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof MessageChannel !== 'function') {
      setTimeout(resolve, 0);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/** After the next paint: what was rendered before (a status line) is on screen before a long task starts. */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(resolve, 0));
    else setTimeout(resolve, 0);
  });
}

export interface SliceOptions {
  /** Time worked before the thread is given back (ms): short enough for the page to paint at its frame rate. */
  sliceMs?: number;
  /** The clock (tests pass their own). */
  now?: () => number;
  /** How the thread is given back (tests pass their own). */
  giveBack?: () => Promise<void>;
}

/** Steps of a cheap loop (no JSON, no text) between two looks at the clock. */
const STEPS_UNLOOKED = 1024;

/**
 * Long work in slices of about `sliceMs`: a loop asks `due()` (or `dueAt(i)`, in a loop of cheap steps) between its
 * steps and, when it is, awaits `giveBack()`. Awaited only then: an await on every one of a million steps would cost
 * more than the steps.
 */
export class TimeSlices {
  private readonly sliceMs: number;
  private readonly now: () => number;
  private readonly giveBackNow: () => Promise<void>;
  private until: number;

  constructor({ sliceMs = 10, now = () => performance.now(), giveBack = giveBackThread }: SliceOptions = {}) {
    this.sliceMs = sliceMs;
    this.now = now;
    this.giveBackNow = giveBack;
    this.until = now() + sliceMs;
  }

  /** Whether this slice's time is up. */
  due(): boolean {
    return this.now() >= this.until;
  }

  /** `due()`, looked at every STEPS_UNLOOKED steps (`i`: the step's index). */
  dueAt(i: number): boolean {
    return i % STEPS_UNLOOKED === STEPS_UNLOOKED - 1 && this.due();
  }

  /** Gives the thread back; the next slice starts when it is back. */
  async giveBack(): Promise<void> {
    await this.giveBackNow();
    this.until = this.now() + this.sliceMs;
  }
}

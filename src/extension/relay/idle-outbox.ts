// The relay's outgoing queue to the background. Posting on a runtime.Port serialises the message on the page's main
// thread — the relay shares it with the page — at a few ms per MB. Sent as records arrive, a page reading a fast
// stream paid for it while it read (measured: +30% on a 50 MB burst, with long tasks). So live records wait here and
// go out in idle time, a small batch per post, the oldest first: a page busy with a burst keeps its thread, the
// panel catches up when the page breathes. A deadline (`maxDelayMs`) bounds the lag on a page that never idles,
// and `flush()` sends everything at once when the document is going away.
// A hidden page (a background tab — e.g. the one a panel opened as a tab inspects) sends at once instead: it draws
// no frames a post could delay, and its timers (the deadline) run about once a second. (Its idle callbacks were not
// throttled in Chromium 156 — test/e2e/robust-background-tabs.spec.ts — but nothing is gained by waiting for them.)
//
// During a burst (a page reading data fast: at least BURST_CHARS captured within BURST_WINDOW_MS) the idle moments
// are only the gaps between its chunks, and a post there still hands the bytes to the browser, the service worker and
// the panel, which then compete with the page for the CPU (on a two-vCPU machine the page's own work on each chunk
// ran ~50% slower with the panel open than with none; see docs/performance.md, "Long tasks"). So while a burst lasts,
// idle moments send nothing; the deadline still sends one batch per `maxDelayMs`, and once no burst-sized data came
// for QUIET_MS the queue drains in idle time as usual. An agent streaming tokens (kilobytes a second) never counts
// as a burst, so its records go out as before. What a burst holds back is bounded (`holdChars`; in the relay, the
// store's free room plus a quarter of its limit): records queued here may be evicted from the store meanwhile, and an
// endless fast stream must not keep much more than the limit; past the bound the queue drains in idle time again.

export interface IdleDeadlineLike {
  readonly didTimeout: boolean;
  timeRemaining(): number;
}

export type IdleScheduler = (run: (deadline: IdleDeadlineLike) => void, maxDelayMs: number) => void;

/** requestIdleCallback with a deadline (a timer where there is none); also the relay's digest slices (relay.ts). */
export const idleScheduler: IdleScheduler = (run, maxDelayMs) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: maxDelayMs });
  else setTimeout(() => run({ didTimeout: true, timeRemaining: () => 0 }), 0);
};

/** Idle time left that is worth starting another post in (ms); a post of one batch takes about 1–2 ms. */
const MIN_REMAINING_MS = 2;
/** A burst: this many characters of captured data within BURST_WINDOW_MS (4 MB/s and up). */
export const BURST_CHARS = 1024 * 1024;
export const BURST_WINDOW_MS = 250;
/** A burst is over when this long passed without burst-sized data. */
export const QUIET_MS = 100;

export interface IdleOutboxOptions {
  /** The longest a queued message waits on a page that never idles (ms). */
  maxDelayMs?: number;
  schedule?: IdleScheduler;
  /** true: send at once (the page is hidden). */
  immediate?: () => boolean;
  now?: () => number;
  /** The most captured characters a burst may hold back (see the top of the file). */
  holdChars?: () => number;
}

export class IdleOutbox<M> {
  private queue: M[] = [];
  /** Captured characters of each queued message (parallel to `queue`), and of those not sent yet. */
  private sizes: number[] = [];
  private pendingChars = 0;
  private head = 0;
  private scheduled = false;
  /** When the queue's deadline expires (a batch then goes even without idle time). */
  private dueAt = 0;
  /** Captured characters since windowStart, and until when the page counts as being in a burst. */
  private windowStart = -Infinity;
  private windowChars = 0;
  private burstUntil = -Infinity;
  private readonly maxDelayMs: number;
  private readonly schedule: IdleScheduler;
  private readonly immediate: () => boolean;
  private readonly now: () => number;
  private readonly holdChars: () => number;

  constructor(private readonly send: (message: M) => void, options: IdleOutboxOptions = {}) {
    this.maxDelayMs = options.maxDelayMs ?? 500;
    this.schedule = options.schedule ?? idleScheduler;
    this.immediate = options.immediate ?? (() => typeof document !== 'undefined' && document.visibilityState === 'hidden');
    this.now = options.now ?? (() => performance.now());
    this.holdChars = options.holdChars ?? (() => Infinity);
  }

  get pending(): number {
    return this.queue.length - this.head;
  }

  /** Queues `message`; `capturedChars`: how much newly captured data it carries (what tells a burst; 0 for re-sends). */
  push(message: M, capturedChars = 0): void {
    this.queue.push(message);
    this.sizes.push(capturedChars);
    this.pendingChars += capturedChars;
    if (this.immediate()) {
      this.flush();
      return;
    }
    const t = this.now();
    if (capturedChars > 0) {
      if (t - this.windowStart > BURST_WINDOW_MS) {
        this.windowStart = t;
        this.windowChars = 0;
      }
      this.windowChars += capturedChars;
      if (this.windowChars >= BURST_CHARS) this.burstUntil = t + QUIET_MS;
    }
    if (!this.scheduled) {
      this.dueAt = t + this.maxDelayMs;
      this.scheduleDrain(t);
    }
  }

  /** Drops what was not sent (a snapshot that supersedes it is about to go). */
  clear(): void {
    this.queue = [];
    this.sizes = [];
    this.pendingChars = 0;
    this.head = 0;
  }

  /** Sends everything queued now, in order. */
  flush(): void {
    while (this.head < this.queue.length) this.sendNext();
    this.clear();
  }

  private sendNext(): void {
    this.pendingChars -= this.sizes[this.head];
    this.send(this.queue[this.head++]);
  }

  private scheduleDrain(t: number): void {
    this.scheduled = true;
    this.schedule((d) => this.drain(d), Math.max(0, this.dueAt - t));
  }

  private drain(deadline: IdleDeadlineLike): void {
    this.scheduled = false;
    if (this.pending === 0) return;
    const t = this.now();
    // Past the deadline (a page that never idles, or one in a long burst) one batch goes anyway, so the panel's lag
    // stays bounded. The deadline is kept while a burst holds the queue back, so holding never postpones it.
    const late = deadline.didTimeout || t >= this.dueAt;
    const hold = t < this.burstUntil && this.pendingChars < this.holdChars();
    if (hold && !late) {
      this.scheduleDrain(t);
      return;
    }
    let budgetForOne = late;
    while (this.head < this.queue.length && (budgetForOne || (!hold && deadline.timeRemaining() >= MIN_REMAINING_MS))) {
      budgetForOne = false;
      this.sendNext();
    }
    if (this.head === this.queue.length) this.clear();
    else if (this.head > 1024) {
      this.queue = this.queue.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
    if (this.pending > 0) {
      const after = this.now(); // (the posts took time)
      this.dueAt = after + this.maxDelayMs;
      this.scheduleDrain(after);
    }
  }
}

// The relay's outgoing queue to the background. Posting on a runtime.Port serialises the message on the page's main
// thread — the relay shares it with the page — at a few ms per MB. Sent as records arrive, a page reading a fast
// stream paid for it while it read (measured: +30% on a 50 MB burst, with long tasks). So live records wait here and
// go out in idle time, a small batch per post, the oldest first: a page busy with a burst keeps its thread, the
// panel catches up when the page breathes. A deadline (`maxDelayMs`) bounds the lag on a page that never idles,
// and `flush()` sends everything at once when the document is going away.
// A hidden page (a background tab — e.g. the one a panel opened as a tab inspects) sends at once instead: it draws
// no frames a post could delay, and its timers (the deadline) run about once a second. (Its idle callbacks were not
// throttled in Chromium 156 — test/e2e/robust-background-tabs.spec.ts — but nothing is gained by waiting for them.)

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

export class IdleOutbox<M> {
  private queue: M[] = [];
  private head = 0;
  private scheduled = false;

  constructor(
    private readonly send: (message: M) => void,
    private readonly maxDelayMs = 500,
    private readonly schedule: IdleScheduler = idleScheduler,
    /** true: send at once (the page is hidden). */
    private readonly immediate: () => boolean = () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  ) {}

  get pending(): number {
    return this.queue.length - this.head;
  }

  push(message: M): void {
    this.queue.push(message);
    if (this.immediate()) {
      this.flush();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule((d) => this.drain(d), this.maxDelayMs);
    }
  }

  /** Drops what was not sent (a snapshot that supersedes it is about to go). */
  clear(): void {
    this.queue = [];
    this.head = 0;
  }

  /** Sends everything queued now, in order. */
  flush(): void {
    while (this.head < this.queue.length) this.send(this.queue[this.head++]);
    this.clear();
  }

  private drain(deadline: IdleDeadlineLike): void {
    this.scheduled = false;
    // Past the deadline (a page that never idles) one batch goes anyway, so the panel's lag stays bounded.
    let budgetForOne = deadline.didTimeout;
    while (this.head < this.queue.length && (budgetForOne || deadline.timeRemaining() >= MIN_REMAINING_MS)) {
      budgetForOne = false;
      this.send(this.queue[this.head++]);
    }
    if (this.head === this.queue.length) this.clear();
    else if (this.head > 1024) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.pending > 0) {
      this.scheduled = true;
      this.schedule((d) => this.drain(d), this.maxDelayMs);
    }
  }
}

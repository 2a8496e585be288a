// When the relay tells the tab's budget (background/budget-keeper.ts) how much its capture holds.
//
// A report is one runtime message, and `chrome.runtime.sendMessage` costs the page's thread ~0.7–1.6 ms (a CPU
// profile of the page reading a 50 MB stream: ~10 ms of its thread went to a dozen reports). The budget only needs
// to learn of growth in steps (settings.ts usageReportStep), and a late report costs nothing but the lag: so reports
// are also spaced in time — at most one per `minIntervalMs`, the latest size going out when the interval is over.
// Forced reports (back from the back/forward cache, going away) go at once.

export interface UsageClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
}

const defaultClock: UsageClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
};

export class UsageReports {
  /** The size last reported, and the latest size and wish for more. */
  private reported = 0;
  private reportedWantsMore = false;
  private lastSize = 0;
  private lastWantsMore = false;
  private step = Infinity;
  private lastSentAt = -Infinity;
  private timerSet = false;
  /** The user's cap changed since the last report of a counted document (see capChanged). */
  private capStale = false;

  constructor(
    private readonly send: (bytes: number, wantsMore: boolean) => void,
    private readonly minIntervalMs = 500,
    private readonly clock: UsageClock = defaultClock,
  ) {}

  /** The latest size, and whether the capture would hold more. */
  get latest(): { bytes: number; wantsMore: boolean } {
    return { bytes: this.lastSize, wantsMore: this.lastWantsMore };
  }

  /** Something was reported and not withdrawn (the budget counts this document). */
  get counted(): boolean {
    return this.reported > 0;
  }

  /**
   * The capture holds `bytes` now. Reported once it moved a `step` from the last report or `wantsMore` changed (not
   * sooner than `minIntervalMs` after the previous report), or at once with `force`.
   */
  update(bytes: number, wantsMore: boolean, force = false, step = this.step): void {
    this.step = step;
    this.lastSize = bytes;
    this.lastWantsMore = wantsMore;
    if (force || this.capStale) {
      this.capStale = false;
      if (bytes !== 0 || this.reported !== 0) this.sendNow(bytes);
      return;
    }
    if (!this.due()) return;
    const wait = this.lastSentAt + this.minIntervalMs - this.clock.now();
    if (wait <= 0) this.sendNow(bytes);
    else if (!this.timerSet) {
      this.timerSet = true;
      this.clock.setTimeout(() => {
        this.timerSet = false;
        if (this.due()) this.sendNow(this.lastSize);
      }, wait);
    }
  }

  /**
   * The user's cap changed. The tab's budget gave the limits it holds from the old cap (background/tab-budget.ts),
   * and a document at its limit holds steady — it would not report again, and a raised cap would stay unused. So a
   * document the budget counts reports at its next update, whatever moved; one it does not count reports as usual,
   * once it reaches the new cap's step.
   */
  capChanged(): void {
    if (this.counted) this.capStale = true;
  }

  /** Reports `bytes` now (e.g. 0 when the document goes away). */
  sendNow(bytes: number): void {
    this.reported = bytes;
    this.reportedWantsMore = this.lastWantsMore;
    this.lastSentAt = this.clock.now();
    this.send(bytes, this.lastWantsMore);
  }

  private due(): boolean {
    if (this.lastSize === 0 && this.reported === 0) return false;
    return Math.abs(this.lastSize - this.reported) >= this.step || (this.reported > 0 && this.lastWantsMore !== this.reportedWantsMore);
  }
}

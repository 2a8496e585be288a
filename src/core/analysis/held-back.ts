// A stream held back on its way to the page: events that reached it long after the server stamped them, while others
// came at once — the buffering proxy (nginx's `proxy_buffering`), a compressing middleware, a framework that flushes
// at the end. The page saw nothing for seconds, then everything: the commonest "streaming does not stream" report,
// and the one thing a capture in the page can tell that the server's own logs cannot.
//
// Told from each event's delay: its arrival time (`t`, the page's clock) minus its `created_at` (the server's). The
// clocks' offset is the same for every event, so the largest delay minus the smallest is how much longer one event
// waited on its way than another, whatever the clocks say. Only events with both times count: a HAR's fetch body has
// no arrival times, pi events no created_at — neither is ever told.
// Guards against other causes of a spread:
// - a created_at in whole seconds can be up to 1 s early, so the bar rises by that much for such a stream;
// - a server that stamps every event with one time (its reply's, say) gives delays that grow with arrival: the
//   events' created_at must span at least as much as the bar, as buffering events that were made over time does.
import type { Diagnostic } from '../diagnostics/types.ts';

/** How much longer one event may wait on its way than another before the stream counts as held back. */
export const HELD_BACK_MS = 1000;

/** Incremental over a connection's events (a live connection's view is rebuilt many times a second). */
export class HeldBackWatch {
  private upTo = 0;
  private minDelay = Infinity;
  private minAt = -1;
  private maxDelay = -Infinity;
  private maxAt = -1;
  private firstCreated = Infinity;
  private lastCreated = -Infinity;
  private wholeSeconds = true;

  /** Takes in the times of events [taken so far, count): `t` arrival, `createdAt` epoch ms (NaN when unknown). */
  update(t: Float64Array, createdAt: Float64Array, count: number): void {
    for (let i = this.upTo; i < count; i++) {
      const c = createdAt[i];
      const delay = t[i] - c;
      if (Number.isNaN(delay)) continue;
      if (delay < this.minDelay) {
        this.minDelay = delay;
        this.minAt = i;
      }
      if (delay > this.maxDelay) {
        this.maxDelay = delay;
        this.maxAt = i;
      }
      if (c < this.firstCreated) this.firstCreated = c;
      if (c > this.lastCreated) this.lastCreated = c;
      if (this.wholeSeconds && c % 1000 !== 0) this.wholeSeconds = false;
    }
    this.upTo = Math.max(this.upTo, count);
  }

  /** The warning, at the event that waited longest, or undefined while no event waited `HELD_BACK_MS` more than another. */
  diagnostic(): Diagnostic | undefined {
    const bar = HELD_BACK_MS + (this.wholeSeconds ? 1000 : 0);
    const held = this.maxDelay - this.minDelay;
    if (!(held >= bar) || this.lastCreated - this.firstCreated < bar) return undefined;
    return {
      code: 'stream.held-back',
      severity: 'warning',
      index: this.maxAt,
      related: [this.minAt],
      message: `event #${this.maxAt} reached the page ${seconds(held)} later, counted from its created_at, than event #${this.minAt} did from its own: ` +
        'the stream was held back between the agent and the page (a buffering proxy, compression, a late flush) or the page read it late — meanwhile the UI showed nothing',
    };
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

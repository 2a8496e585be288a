// The history of a pi reply read in the assistant or agent form. Each event that carries a message carries the whole
// message so far (pi-ai's `partial`, pi-agent-core's `message`), so the message after step k is the one carried by
// the last carrying event at or before k: nothing to replay. The steps are kept as the carrying events' wire texts
// (the event views hold those anyway) and a seek parses exactly one of them. Keeping the parsed events instead cost
// several times the wire text, and a checkpointed replay parsed up to 15 whole messages per seek.
import type { SeekableHistory } from './types.ts';

export class CarriedMessageHistory implements SeekableHistory<unknown> {
  readonly initial: unknown = undefined;
  readonly evictedBefore = 0;
  private steps = 0;
  /** Steps whose event carried a message (ascending), and those events' wire texts. */
  private readonly carrierSteps: number[] = [];
  private readonly carrierTexts: string[] = [];
  /** The message after the last step (as parsed at ingest). */
  private latest: unknown = undefined;
  /** The last seek's carrier and its message (scrubbing within one carrier's run parses nothing). */
  private cached: { carrier: number; message: unknown } | undefined;

  /** `read` gets the message a parsed event carries (undefined: none); it is applied to the text again on a seek. */
  constructor(private readonly read: (raw: unknown) => unknown) {}

  get length(): number {
    return this.steps;
  }

  get last(): unknown {
    return this.latest;
  }

  /** One step: the event's wire text and the message it carried (`undefined`: none, the message stays). */
  push(text: string, carried: unknown): void {
    if (carried !== undefined) {
      this.carrierSteps.push(this.steps);
      this.carrierTexts.push(text);
      this.latest = carried;
    }
    this.steps++;
  }

  at(k: number): unknown {
    if (!Number.isInteger(k) || k < -1 || k >= this.steps) throw new RangeError(`step ${k} is outside 0..${this.steps - 1}`);
    if (k === this.steps - 1) return this.latest;
    // The last carrier at or before k (binary search).
    const steps = this.carrierSteps;
    let lo = 0;
    let hi = steps.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (steps[mid] <= k) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (found === -1) return this.initial;
    if (this.cached?.carrier !== found) this.cached = { carrier: found, message: this.read(JSON.parse(this.carrierTexts[found])) };
    return this.cached.message;
  }
}

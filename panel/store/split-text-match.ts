// Search across deltas. Streamed text arrives in tokens: "Lisbon" is often "Lis" + "bon", and a search of each event
// alone found nothing for a word the bubble shows. This follows each block's text as its deltas arrive (only the
// last needle-length − 1 characters are kept per block) and says which event completes an occurrence that began in
// an earlier delta of the same block: that event is where the word came together. Occurrences inside one delta are
// found by the per-event search already.
import type { EventView } from '../../src/core/analysis/types.ts';

const DELTA_TYPE = /_DELTA$|_delta$/;

/** The text a delta event appends (AgentScope and pi both call it `delta`), or undefined for any other event. */
function deltaOf(e: EventView): string | undefined {
  if (!DELTA_TYPE.test(e.type) || !e.valid) return undefined;
  const raw = e.raw as { delta?: unknown } | undefined;
  return typeof raw?.delta === 'string' ? raw.delta : undefined;
}

export class SplitTextMatcher {
  /** Per block (reply + block id): the lower-cased end of its text so far, at most needle.length − 1 characters. */
  private readonly tails: Map<string, string>;

  /** `needle`: lower-cased, non-empty. */
  constructor(private readonly needle: string, tails?: Map<string, string>) {
    this.tails = tails ?? new Map();
  }

  /** A matcher that continues from here without changing this one (for events that will be read again). */
  clone(): SplitTextMatcher {
    return new SplitTextMatcher(this.needle, new Map(this.tails));
  }

  /** Feed the connection's next event (every one, in order): true when its delta completes a split occurrence. */
  push(e: EventView): boolean {
    const keep = this.needle.length - 1;
    if (keep === 0) return false;
    const delta = deltaOf(e);
    if (delta === undefined) return false;
    const key = `${e.replyId ?? ''}\u0000${e.blockId ?? ''}`;
    const tail = this.tails.get(key) ?? '';
    const text = tail + delta.toLowerCase();
    this.tails.set(key, text.slice(-keep));
    if (tail === '') return false;
    // An occurrence that starts in the tail necessarily ends in this delta (the tail is shorter than the needle).
    const at = text.indexOf(this.needle);
    return at !== -1 && at < tail.length;
  }
}

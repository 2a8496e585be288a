// What took a connection's head away: the per-tab memory cap, or the panel's Clear — which keeps a stream still open
// going from a digest of what it dropped, and so leaves the same kind of eviction record. Said by the diagnostic, the
// connection's details and the docs alike: "evicted 15 events (memory cap)" after a Clear sent the user to raise a cap
// the capture had never reached.
import type { EvictionRecord } from './model.ts';

export type EvictionCause = 'cap' | 'clear' | 'both';

/**
 * The cause of an eviction record's counts (`cleared` of them Clear's, the rest the cap's; of a record of bytes alone,
 * its chunks not known — a HAR import's —, of its bytes).
 */
export function evictionCause(ev: Pick<EvictionRecord, 'chunks' | 'messages' | 'bytes' | 'cleared'>): EvictionCause {
  const cleared = ev.cleared ?? 0;
  if (cleared <= 0) return 'cap';
  return cleared >= (ev.chunks + ev.messages || ev.bytes) ? 'clear' : 'both';
}

/** The cause in words, as the panel puts it in parentheses: "memory cap", "Clear", "memory cap and Clear". */
export function evictionCauseText(cause: EvictionCause): string {
  return cause === 'cap' ? 'memory cap' : cause === 'clear' ? 'Clear, the stream still open' : 'memory cap and Clear';
}

/** The cause as the one that evicted: "evicted by …", "began before … evicted". */
export function evictedByText(cause: EvictionCause): string {
  return cause === 'cap' ? 'the memory cap' : cause === 'clear' ? 'Clear (the stream still open)' : 'the memory cap and Clear';
}

/** The causes of several evictions (connections, records) as one: the cap's and Clear's together are both. */
export function joinedCause(a: EvictionCause | undefined, b: EvictionCause): EvictionCause {
  return a === undefined || a === b ? b : 'both';
}

/** What became of the records, after "were": a HAR's comments on a body or a message list cut at its head. */
export function evictedWhyText(cause: EvictionCause): string {
  const cap = 'evicted to keep the capture within its memory cap';
  const clear = 'dropped by the panel\'s Clear, the stream still open';
  return cause === 'cap' ? cap : cause === 'clear' ? clear : `${cap} and ${clear}`;
}

// The scrubber's and the timeline's words for a connection whose head went — by the memory cap, or by Clear with the
// stream still open (eviction-cause.ts): after a Clear they said "(memory cap)", as the event list did, and sent the
// user to raise a cap the capture had never reached. Apart from the components so that a unit test reads them.
import { evictedByText, evictionCauseText } from '../../src/core/capture/eviction-cause.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { formatBytes } from './format.ts';

type Evicted = Pick<ConnectionView, 'evictedBy' | 'replies'>;

/** The title of the scrubber's "(N evicted)": the reply's steps before its first kept one. */
export function evictedStepsTitle(conn: Evicted): string {
  return `Older events were evicted (${evictionCauseText(conn.evictedBy ?? 'cap')})`;
}

/** The title of the scrubber's "(continues after evicted events)": the reply began in the evicted head. */
export function continuesEvictionTitle(conn: Evicted): string {
  return `This reply began in events evicted by ${evictedByText(conn.evictedBy ?? 'cap')}: step 1 continues from its message as the eviction digest derived it`;
}

/** The title of a timeline span's open left edge: it began before what the connection holds. */
export function continuedSpanTitle(conn: Evicted): string {
  return conn.replies.some((r) => r.continuesConnection !== undefined)
    ? 'began on the connection this one resumes'
    : `began before the evicted part (${evictionCauseText(conn.evictedBy ?? 'cap')})`;
}

/** The connection details' "Evicted" row: what went of the connection's head, and what let it go (undefined: none). */
export function evictedDetail(conn: Pick<ConnectionView, 'evictedEvents' | 'evictedRecordsOnly' | 'evictedBytes' | 'evictedBy'>): string | undefined {
  const by = `(${evictionCauseText(conn.evictedBy ?? 'cap')})`;
  if (conn.evictedEvents) return `${conn.evictedEvents} oldest ${conn.evictedRecordsOnly ? 'chunks or messages' : 'events'} ${by}`;
  // Our HAR read without its own fields says how many bytes of the body went, not in how many chunks.
  if (conn.evictedBytes) return `the body's first ${formatBytes(conn.evictedBytes)} ${by}`;
  return undefined;
}

/** Why an anchored event a read-back could not find is gone, as the selection note says it: "(memory cap)", "(Clear, …)". */
export function evictedNoteCause(conn: Pick<ConnectionView, 'evictedBy'> | undefined): string {
  return `(${evictionCauseText(conn?.evictedBy ?? 'cap')})`;
}

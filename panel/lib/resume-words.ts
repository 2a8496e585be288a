// The panel's words for a stream resumed on a new connection (a Last-Event-ID request, or one with the id in its
// query: core stream-resume.ts).
// Connections are named by their position in the list, 1-based ("#2") — the list shows URLs, and the requests of a
// resumed stream share theirs. Pure: ResumeNote.tsx renders them, a unit test reads them.
import type { ConnectionView, ResumedByView, ResumeView } from '../../src/core/analysis/types.ts';
import { truncate } from './format.ts';

/** Connection id → its position in the list (1-based). */
export type ConnectionNumbers = ReadonlyMap<string, number>;

export function connectionNumbers(all: readonly ConnectionView[]): ConnectionNumbers {
  return new Map(all.map((c, i) => [c.record.id, i + 1]));
}

/** "#3" (or the id, for a connection no longer listed). */
export function connectionName(numbers: ConnectionNumbers, id: string): string {
  const n = numbers.get(id);
  return n === undefined ? id : `#${n}`;
}

/** An id as the panel quotes it: a server's ids can be long (a UUID, a cursor). */
export const shownId = (id: string) => JSON.stringify(truncate(id, 24));

/** Where a resuming request sent its id, when not in a Last-Event-ID header: " in the query" (see viaTitle). */
export const viaWords = (r: ResumeView) => (r.query === undefined ? '' : ' in the query');

/** A tooltip for viaWords: the query parameter the id came from. */
export const viaTitle = (r: ResumeView) => `The request sent this id in its URL's query (${truncate(r.query ?? '', 40)}=…), not in a Last-Event-ID header`;

/**
 * A diagnostic's message with the connections it names ("connection 5f3a9c:2", the core's words) named as the list
 * names them ("connection #2").
 */
export function withConnectionNames(message: string, numbers: ConnectionNumbers): string {
  if (!message.includes('connection ')) return message;
  return message.replace(/\bconnection (\S+)/g, (whole, word: string) => {
    const id = word.replace(/[.,;:)]+$/, ''); // (the sentence's punctuation after it)
    const n = numbers.get(id);
    return n === undefined ? whole : `connection #${n}${word.slice(id.length)}`;
  });
}

/** The replies of `c` a later connection continued, by reply id → that resume. */
export function continuedBy(c: ConnectionView): Map<string, ResumedByView> {
  const out = new Map<string, ResumedByView>();
  for (const b of c.resumedBy ?? []) for (const id of b.continuing) if (!out.has(id)) out.set(id, b);
  return out;
}

/** The sentence of the link, plain (a row's title, an accessible name). */
export function resumeText(c: ConnectionView, numbers: ConnectionNumbers): string | undefined {
  const parts: string[] = [];
  const r = c.resumes;
  if (r) parts.push(r.conn !== undefined ? `resumes ${connectionName(numbers, r.conn)} from id ${shownId(r.eventId)}${viaWords(r)}` : `resumes id ${shownId(r.eventId)}${viaWords(r)}, not captured`);
  if (c.resumedBy?.length) parts.push(`resumed by ${c.resumedBy.map((b) => connectionName(numbers, b.conn)).join(', ')}`);
  return parts.length ? parts.join(' · ') : undefined;
}

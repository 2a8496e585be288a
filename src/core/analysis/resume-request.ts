// What a request says of the stream it resumes, and which earlier requests went to its endpoint (stream-resume.ts
// links them): the last event id it sent — a Last-Event-ID header, or a cursor in its URL's query — and the document
// and endpoint it was made from.
import { isLastEventIdParam, MAY_HAVE_LAST_EVENT_ID_PARAM } from '../capture/stream-request.ts';
import type { ConnectionRecord } from '../capture/model.ts';
import { header } from './body-kind.ts';

/**
 * The Last-Event-ID a request sent, when it resumes a stream. An EventSource's own reconnections are one connection
 * (the tap follows them), and a socket has no such header.
 */
export function lastEventIdOf(rec: ConnectionRecord): string | undefined {
  if (rec.transport === 'eventsource' || rec.transport === 'websocket') return undefined;
  const id = header(rec.requestHeaders, 'last-event-id');
  return id === undefined || id === '' ? undefined : id; // an empty id resumes nothing (the spec's reset)
}

/** The id a request resumes from, and where it sent it: `query` names the URL's query parameter (else the header). */
export interface ResumeCursor {
  eventId: string;
  query?: string;
}

/**
 * The id a request resumes from: its Last-Event-ID, else a last-event-id parameter of its URL's query (see
 * isLastEventIdParam) — the first one with a value — as servers read them (Mercure: the header, then the query). An
 * EventSource's header is its own reconnection's, but a new EventSource the page made with a cursor in its URL is a
 * new request (its own reconnections reuse that URL: they are one connection, read once). A socket resumes nothing.
 */
export function resumeCursorOf(rec: ConnectionRecord): ResumeCursor | undefined {
  if (rec.transport === 'websocket') return undefined;
  const eventId = lastEventIdOf(rec);
  if (eventId !== undefined) return { eventId };
  return queryCursorOf(rec.url);
}

/** A last-event-id parameter of a URL's query, the first with a value (undefined: none, or not an absolute URL). */
export function queryCursorOf(url: string): ResumeCursor | undefined {
  if (!MAY_HAVE_LAST_EVENT_ID_PARAM.test(url)) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return undefined;
  }
  for (const [name, value] of params) if (value !== '' && isLastEventIdParam(name)) return { eventId: value, query: name };
  return undefined;
}

/** The document a connection id belongs to: the tap's ids are `<frame token>:<counter>`, one token per document. */
export function documentOf(connId: string): string {
  const colon = connId.lastIndexOf(':');
  return colon === -1 ? '' : connId.slice(0, colon);
}

/**
 * Whether two request URLs name one stream: 'exact', or 'path' — the same origin and path, another query or fragment.
 * Reconnecting clients change the query (a cache-buster, a retry counter, the cursor itself); the id found among the
 * earlier connection's frames is the real evidence, the endpoint only keeps apart two streams of one page whose ids
 * both count from 1. An exact match is preferred where both kinds carry the id. A last-event-id query parameter is
 * no part of which stream a URL names: URLs that differ only by it match 'exact'.
 */
export function endpointMatch(a: string, b: string): 'exact' | 'path' | undefined {
  if (a === b) return 'exact';
  try {
    const x = new URL(a);
    const y = new URL(b);
    if (x.origin !== y.origin || x.pathname !== y.pathname) return undefined;
    return x.hash === y.hash && withoutCursor(x.searchParams) === withoutCursor(y.searchParams) ? 'exact' : 'path';
  } catch {
    return undefined; // not absolute URLs (a file imported on its own): only an exact match links
  }
}

/** A query without its last-event-id parameters, serialized. */
function withoutCursor(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [name, value] of params) if (!isLastEventIdParam(name)) kept.append(name, value);
  return kept.toString();
}

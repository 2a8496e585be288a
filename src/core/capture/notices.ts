// Notes the capture leaves for the user (NoticeRecord): what it could not record, and how an import treated a file.
// The page tap writes some of them (it bundles this file: no imports), analysis shows them — a connection's on that
// connection, the others above the connection list.

/** The tap's note on an EventSource connection (analysis derives the same from the transport, and says it once). */
export const EVENTSOURCE_PARTIAL_NOTICE =
  'EventSource: only events dispatched to the page are captured — comments/heartbeats, retry: fields and events ' +
  'without a listener are invisible (use fetch for a byte-exact capture).';

/** How the tap's note on an EventSource reconnecting begins (one EventSource is one connection across them). */
export const EVENTSOURCE_RECONNECT_NOTICE = 'EventSource: the response ended and the browser reconnects';

/**
 * The tap's note on a recorded WebSocket: what it holds. `skipped`: text messages received or sent before the first
 * agent event and not kept (the tap keeps a few before it); `fromStart`: recorded from the start (include list).
 */
export function webSocketCaptureNotice(skipped: number, fromStart: boolean): string {
  const from = fromStart
    ? 'recorded from its start (its URL is in the include list)'
    : `recorded from its first AgentScope or pi event${skipped > 0 ? ` and the few messages before it (${skipped} earlier text message${skipped === 1 ? ' was' : 's were'} not kept)` : ''}`;
  return `WebSocket ${from}: each received text message is read as one event (the app's own, such as presence or pings, are ` +
    'shown as other messages), the texts the page sends are shown as sent; binary messages are not captured.';
}

/**
 * How an end record's `error` begins when the stream ended because its page went: the tap's, for a stream the browser
 * ended as the page left (emitter.ts), and the watcher's, for one whose document went away without an end (a frame
 * removed, a tab closed: tab-capture.ts). Analysis tells such an end as the page's going, not as the page aborting.
 */
export const PAGE_LEFT_END = 'the page left while it streamed';
export const DOCUMENT_GONE_END = 'its document went away';

/** Whether an end record's `error` says the stream ended because its page went (PAGE_LEFT_END, DOCUMENT_GONE_END). */
export function endedWithPage(error: string | undefined): error is string {
  return error !== undefined && (error.startsWith(PAGE_LEFT_END) || error.startsWith(DOCUMENT_GONE_END));
}

/** What the page started that the capture cannot look into (WebSocket: until it carries agent events). */
export type BlindSpot = 'WebSocket' | 'Worker' | 'SharedWorker';

/** At most this many blind-spot notes per document (a page opening a socket per message would otherwise flood). */
export const MAX_BLIND_SPOT_NOTICES = 20;

const URL_SHOWN = 200;

/**
 * The note for a blind spot the page (or, with `frameUrl`, a subframe) opened at `url` (already resolved). Without
 * query and fragment: nothing of the socket is captured, so its URL's tokens (`?token=…` is common) should not be.
 * `workerLog`: the build keeps the DevTools log of a worker's finished streams (extension/devtools.ts; not Firefox's).
 */
export function blindSpotNotice(kind: BlindSpot, url: string, frameUrl?: string, workerLog = true): string {
  const who = frameUrl === undefined ? 'This page' : `The frame ${bareUrl(frameUrl)}`;
  const shown = bareUrl(url);
  return kind === 'WebSocket'
    ? `${who} opened a WebSocket (${shown}). It is recorded once it carries an AgentScope or pi event (from the start if its URL ` +
      'is in the include list); until then nothing of it is captured.'
    : kind === 'Worker' && workerLog
      ? `${who} started a Worker (${shown}). Requests made inside workers are not captured as they stream; with DevTools open, ` +
        "a worker's stream shows once it finished (from DevTools' network log)."
      : `${who} started a ${kind} (${shown}). Requests made inside workers are not captured: an agent stream read there is not shown here.`;
}

/** `url` without its query and fragment: the address a blind spot is told once for. */
export function urlWithoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/** `url` without what follows a `?` or `#` (marked `?…`), clipped. */
function bareUrl(url: string): string {
  const address = urlWithoutQuery(url);
  const bare = address.length === url.length ? url : `${address}${url[address.length]}…`;
  return bare.length > URL_SHOWN ? `${bare.slice(0, URL_SHOWN)}…` : bare;
}

// Notes the capture leaves for the user (NoticeRecord): what it could not record, and how an import treated a file.
// The page tap writes some of them (it bundles this file: no imports), analysis shows them — a connection's on that
// connection, the others above the connection list.

/** The tap's note on an EventSource connection (analysis derives the same from the transport, and says it once). */
export const EVENTSOURCE_PARTIAL_NOTICE =
  'EventSource: only events dispatched to the page are captured — comments/heartbeats, retry: fields and events ' +
  'without a listener are invisible (use fetch for a byte-exact capture).';

/** What the page started that the capture cannot look into. */
export type BlindSpot = 'WebSocket' | 'Worker' | 'SharedWorker';

/** At most this many blind-spot notes per document (a page opening a socket per message would otherwise flood). */
export const MAX_BLIND_SPOT_NOTICES = 20;

const URL_SHOWN = 200;

/**
 * The note for a blind spot the page opened at `url` (already resolved). Without its query and fragment: nothing of
 * the socket is captured, so its URL's tokens (`?token=…` is common on sockets) should not be either.
 */
export function blindSpotNotice(kind: BlindSpot, url: string): string {
  const cut = url.search(/[?#]/);
  const bare = cut === -1 ? url : `${url.slice(0, cut)}${url[cut]}…`;
  const shown = bare.length > URL_SHOWN ? `${bare.slice(0, URL_SHOWN)}…` : bare;
  return kind === 'WebSocket'
    ? `This page opened a WebSocket to ${shown}. WebSocket traffic is not captured: an agent streaming over it is not shown here.`
    : `This page started a ${kind} (${shown}). Requests made inside workers are not captured: an agent stream read there is not shown here.`;
}

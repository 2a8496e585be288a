// WebSocket, recorded once it carries agent events. A socket has no content type: a page's sockets are as often a
// dev server's hot reload, presence pings or a price feed as an agent. So each socket the page opens is watched —
// our own listeners on the browser's object, added before the page's, reading what the browser hands the page and
// changing nothing of it — and becomes a `websocket` connection at its first text message that is an AgentScope or
// pi event (core/capture/agent-message-sniff.ts), with the few messages before it (a pi stream's `start`, a
// session hello), or from the start when its URL is in the include list. From then on each received text message is
// one message record, read as one event, like EventSource's. What the page sends is not recorded (that would mean
// wrapping `send`), nor binary messages (counted in a note). A socket that never carries an agent event leaves
// nothing but the blind-spot note (blind-spots.ts, whose constructor trap calls `watchWebSocket`).
import { looksLikeAgentEvent } from '../../core/capture/agent-message-sniff.ts';
import type { ConnectionRecord } from '../../core/capture/model.ts';
import { webSocketCaptureNotice } from '../../core/capture/notices.ts';
import type { TapEmitter } from './emitter.ts';
import { natives, now } from './natives.ts';
import { urlMatches } from './request-info.ts';

/**
 * Text messages kept from before the first agent event (pi's bare `start`, a session hello; a ping between them),
 * and the most characters each may have. Few: most are the app's own (analysis shows them as other messages).
 */
const LOOK_BACK = 4;
const LOOK_BACK_CHARS = 64 * 1024;

interface Held {
  t: number;
  data: string;
}

/** Starts watching `socket` (just constructed by the page); true when it is recorded from its opening (include list). */
export function watchWebSocket(emitter: TapEmitter, socket: WebSocket): boolean {
  if (!emitter.config.enabled) return false;
  const startTime = now();
  const url = socket.url;
  const frameUrl = location.href;
  const included = urlMatches(url, emitter.config.includeUrls);
  let responseTime: number | undefined;
  let conn: string | undefined;
  let held: Held[] = [];
  let skipped = 0;
  let binary = 0;

  const record = (t: number, data: string): void => {
    emitter.emit({ kind: 'message', conn: conn as string, t, type: 'message', data, lastEventId: '' }, data.length + 64);
  };
  const open = (fromStart: boolean): void => {
    const id = emitter.nextId();
    conn = id;
    const connection: ConnectionRecord = {
      kind: 'connection',
      id,
      transport: 'websocket',
      frameUrl,
      ...(emitter.isSubframe ? { isSubframe: true } : {}),
      method: 'GET',
      url,
      requestHeaders: [],
      status: 101, // messages (and the include list's start) come after the handshake
      statusText: 'Switching Protocols',
      startTime,
      responseTime: responseTime ?? now(),
    };
    emitter.emit(connection, 256);
    emitter.emit({ kind: 'notice', t: now(), conn: id, level: 'info', text: webSocketCaptureNotice(skipped, fromStart) });
    for (const h of held) record(h.t, h.data);
    held = [];
  };
  const listen = (type: string, handler: (event: Event) => void): void => {
    natives.apply(natives.addEventListener, socket, [type, (event: Event) => {
      try {
        handler(event);
      } catch {
        // a page that redefined MessageEvent's getters: the page's own handlers still run
      }
    }]);
  };

  listen('open', () => {
    responseTime = now();
    if (included && emitter.config.enabled) open(true);
  });
  listen('message', (event) => {
    const data: unknown = (event as MessageEvent).data;
    if (typeof data !== 'string') {
      binary++;
      return;
    }
    const t = now();
    if (conn !== undefined) {
      record(t, data);
      return;
    }
    if (!looksLikeAgentEvent(data)) {
      if (data.length > LOOK_BACK_CHARS) {
        skipped += held.length + 1;
        held = [];
        return;
      }
      held.push({ t, data });
      if (held.length > LOOK_BACK) {
        held.shift();
        skipped++;
      }
      return;
    }
    if (!emitter.config.enabled) return; // switched off for this site since the socket opened
    held.push({ t, data });
    open(false);
  });
  listen('close', (event) => {
    held = [];
    if (conn === undefined) return;
    const t = now();
    if (binary > 0) {
      emitter.emit({ kind: 'notice', t, conn, level: 'info', text: `${binary} binary message${binary === 1 ? '' : 's'} on this socket not recorded.` });
    }
    const close = event as CloseEvent;
    const reason = close.reason ? `, ${close.reason}` : '';
    emitter.emit(
      close.wasClean
        ? { kind: 'end', conn, t, state: 'complete' }
        : { kind: 'end', conn, t, state: 'error', error: `WebSocket closed without a closing handshake (code ${close.code}${reason})` },
    );
  });
  return included;
}

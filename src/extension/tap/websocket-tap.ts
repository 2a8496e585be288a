// WebSocket, recorded once it carries agent events. A socket has no content type: a page's sockets are as often a
// dev server's hot reload, presence pings or a price feed as an agent. So each socket the page opens is watched —
// our own listeners on the browser's object, added before the page's, reading what the browser hands the page and
// changing nothing of it — and becomes a `websocket` connection at its first text message that is an AgentScope or
// pi event (core/capture/agent-message-sniff.ts), with the few messages before it (a pi stream's `start`, a
// session hello, the user's message the page sent), or from the start when its URL is in the include list. From then
// on each received text message is one message record, read as one event, like EventSource's, and each text message
// the page sends is one too (`type` "send": shown, not read as an event) — `WebSocket.prototype.send` is wrapped for
// that (installWebSocketSendTap): the browser's own send runs first, with the page's arguments, and only a send on an
// open socket that did not throw is recorded. Binary messages are counted in a note, not recorded. A socket that never
// carries an agent event leaves nothing but the blind-spot note (blind-spots.ts, whose constructor trap calls
// `watchWebSocket`).
import { looksLikeAgentEvent } from '../../core/capture/agent-message-sniff.ts';
import type { ConnectionRecord } from '../../core/capture/model.ts';
import { webSocketCaptureNotice } from '../../core/capture/notices.ts';
import { maskSecretsInJson } from '../../core/capture/credential-mask.ts';
import type { TapEmitter } from './emitter.ts';
import { mimic, nativeJson, natives, now } from './natives.ts';
import { urlMatches } from './request-info.ts';

/**
 * Text messages kept from before the first agent event, received or sent (pi's bare `start`, a session hello, the
 * user's message; a ping between them), and the most characters each may have. Few: most are the app's own
 * (analysis shows them as other messages).
 */
const LOOK_BACK = 4;
const LOOK_BACK_CHARS = 64 * 1024;

interface Held {
  t: number;
  data: string;
  /** 'send': the page sent it. */
  type: 'message' | 'send';
}

/** What each watched socket does with a text the page sends on it (see installWebSocketSendTap). */
const senders = new WeakMap<object, (data: unknown) => void>();
/** Sockets the page called close() on (see installWebSocketSendTap): their end is the page's, like a fetch cancel. */
const closedByPage = new WeakSet<object>();

/** Close codes of a socket that ended as it should: normal closure, going away (navigation), no status given. */
const NORMAL_CLOSE = new Set([1000, 1001, 1005]);

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

  const record = (t: number, data: string, type: Held['type']): void => {
    emitter.emit({ kind: 'message', conn: conn as string, t, type, data, lastEventId: '' }, data.length + 64);
  };
  /** Before the first agent event: keep the last few texts (a longer one forgets those before it). */
  const lookBack = (t: number, data: string, type: Held['type']): void => {
    if (data.length > LOOK_BACK_CHARS) {
      skipped += held.length + 1;
      held = [];
      return;
    }
    held.push({ t, data, type });
    if (held.length > LOOK_BACK) {
      held.shift();
      skipped++;
    }
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
    for (const h of held) record(h.t, h.data, h.type);
    held = [];
  };
  const listen = (type: string, handler: (event: Event) => void): void => {
    natives.apply(natives.addEventListener, socket, [type, (event: Event) => {
      if (!event.isTrusted) return; // the page's own dispatchEvent(): nothing the server sent (isTrusted is unforgeable)
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
      record(t, data, 'message');
      return;
    }
    if (!looksLikeAgentEvent(data)) {
      lookBack(t, data, 'message');
      return;
    }
    if (!emitter.config.enabled) return; // switched off for this site since the socket opened
    held.push({ t, data, type: 'message' });
    open(false);
  });
  senders.set(socket, (data) => {
    if (typeof data !== 'string') {
      binary++;
      return;
    }
    const t = now();
    // What the page sends is its request (an auth message's token, a chat's API key): masked as a request body is.
    const sent = maskSecretsInJson(data, nativeJson);
    if (conn !== undefined) record(t, sent, 'send');
    else lookBack(t, sent, 'send');
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
    // The page's close() is its Stop (cancelled, as a fetch reader's cancel); a clean close with a code other than
    // a normal one is the server's failure (1011 "internal error", 1008 policy, an app's 4xxx): an error, code and
    // reason kept — they were dropped, and such a socket showed "complete".
    emitter.emit(
      closedByPage.has(socket)
        ? { kind: 'end', conn, t, state: 'cancelled', error: `the page closed the WebSocket (code ${close.code}${reason})` }
        : !close.wasClean
          ? { kind: 'end', conn, t, state: 'error', error: `WebSocket closed without a closing handshake (code ${close.code}${reason})` }
          : NORMAL_CLOSE.has(close.code)
            ? { kind: 'end', conn, t, state: 'complete' }
            : { kind: 'end', conn, t, state: 'error', error: `the server closed the WebSocket with code ${close.code}${reason}` },
    );
  });
  return included;
}

/**
 * Wraps `WebSocket.prototype.send` once, so a watched socket sees the texts the page sends (see the top of the file).
 * The wrapper looks like the native method (name, length, "[native code]"), is no constructor, and throws what the
 * browser throws (a send while connecting) — then nothing is recorded; so is a send on a closing or closed socket,
 * which the browser silently drops. `close` is wrapped the same way, to tell the page's close (its Stop) from the
 * server's.
 */
export function installWebSocketSendTap(): void {
  const proto = globalThis.WebSocket?.prototype as (WebSocket & Record<string, unknown>) | undefined;
  const descriptor = proto && Object.getOwnPropertyDescriptor(proto, 'send');
  const readyState = proto && Object.getOwnPropertyDescriptor(proto, 'readyState')?.get;
  if (!proto || typeof descriptor?.value !== 'function' || !readyState) return;
  const nativeSend = descriptor.value as (...args: unknown[]) => void;
  const OPEN = 1;
  const send = {
    send(this: WebSocket, ...args: unknown[]): void {
      natives.apply(nativeSend, this, args); // first: its errors (a send while connecting, a foreign `this`) are the page's
      if (natives.apply(readyState, this, []) !== OPEN) return; // sending does not change the state
      const onSend = senders.get(this);
      try {
        onSend?.(args[0]);
      } catch {
        // the page's send went out; only its record is lost
      }
    },
  }.send;
  natives.defineProperty(proto, 'send', { ...descriptor, value: mimic(send, nativeSend) });
  const closeDescriptor = Object.getOwnPropertyDescriptor(proto, 'close');
  if (typeof closeDescriptor?.value !== 'function') return;
  const nativeClose = closeDescriptor.value as (...args: unknown[]) => void;
  const close = {
    close(this: WebSocket, ...args: unknown[]): void {
      const before = natives.apply(readyState, this, []);
      natives.apply(nativeClose, this, args); // first: its errors (a bad code or reason) are the page's
      // It was the page that began closing (not a close() on a socket the server was already closing).
      if (before <= 1 && natives.apply(readyState, this, []) >= 2) closedByPage.add(this);
    },
  }.close;
  natives.defineProperty(proto, 'close', { ...closeDescriptor, value: mimic(close, nativeClose) });
}

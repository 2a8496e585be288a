// EventSource, tapped. Page script never sees the raw bytes of an EventSource — only the events it dispatches — so
// that is what is recorded: `message`, and each named event as soon as the page listens for it (our listener is
// added first, so it runs before the page's). Comments, `retry:` and events nobody listens to are invisible; a notice
// says so. One EventSource is one ConnectionRecord, across the reconnections the browser makes on its own (retry:,
// Last-Event-ID): the page sees one sequence of events, and a server that resumes from Last-Event-ID continues the
// reply it was sending. Split into one record per HTTP response, such a reply read as cut off ("never got a
// REPLY_END") on the first and as an orphan on the next, though the page got all of it. A note marks each reconnection.
import type { ConnectionRecord } from '../../core/capture/model.ts';
import { EVENTSOURCE_PARTIAL_NOTICE, EVENTSOURCE_RECONNECT_NOTICE } from '../../core/capture/notices.ts';
import type { TapEmitter } from './emitter.ts';
import { mimic, natives, now } from './natives.ts';

/** Reconnections of one EventSource noted one by one; the last of them says that later ones are not. */
const MAX_RECONNECT_NOTES = 10;
/**
 * Firefox closes a page's EventSources as a navigation begins (right after `beforeunload`) without an error event:
 * readyState turns CLOSED and the page is told nothing — measured in Firefox ESR 153, also when the navigation then
 * leaves the page where it was (an answer with no content). Chromium closes them with an error event as the next
 * page commits (onError).
 */
export const SILENTLY_CLOSED = 'EventSource closed by the browser with no error event (the page is not told)';

interface SourceState {
  conn: string | undefined;
  /** The lastEventId of the last event dispatched (what the browser sends as Last-Event-ID when it reconnects). */
  lastEventId: string;
  /** The body ended or broke and the browser is reconnecting: the next open continues `conn`. */
  reconnecting: boolean;
  /** Reconnections noted so far (see MAX_RECONNECT_NOTES). */
  reconnects: number;
  startTime: number;
  listened: Set<string>;
  frameUrl: string;
}

export function installEventSourceTap(emitter: TapEmitter): void {
  const Native = globalThis.EventSource;
  if (typeof Native !== 'function') return;
  const states = new WeakMap<EventSource, SourceState>();
  const nativeAdd = natives.addEventListener;
  // Firefox: the sources with a connection not yet ended, looked at as the page leaves (see SILENTLY_CLOSED). An open
  // EventSource is kept alive by the browser anyway; each leaves the set as its connection ends.
  const open = import.meta.env.MODE === 'firefox' ? new Set<EventSource>() : undefined;
  if (open) emitter.checkOnLeave(() => {
    for (const source of open) if (source.readyState === Native.CLOSED) end(source, 'error', SILENTLY_CLOSED);
  });

  const record = (source: EventSource, event: MessageEvent): void => {
    const state = states.get(source);
    if (!state?.conn) return;
    state.lastEventId = event.lastEventId;
    emitter.emit(
      {
        kind: 'message',
        conn: state.conn,
        t: now(),
        type: event.type,
        data: typeof event.data === 'string' ? event.data : String(event.data),
        lastEventId: event.lastEventId,
      },
      typeof event.data === 'string' ? event.data.length : 16,
    );
  };

  const end = (source: EventSource, state: 'complete' | 'cancelled' | 'error', error?: string): void => {
    const s = states.get(source);
    if (!s?.conn) return;
    emitter.emit({ kind: 'end', conn: s.conn, t: now(), state, ...(error ? { error } : {}) });
    open?.delete(source);
    s.conn = undefined;
    s.reconnecting = false;
    s.startTime = now();
  };

  const listenFor = (source: EventSource, type: string): void => {
    const s = states.get(source);
    if (!s || s.listened.has(type)) return;
    s.listened.add(type);
    // Only what the browser dispatched: a page's own dispatchEvent() (isTrusted false, unforgeable) recorded text the
    // server never sent.
    natives.apply(nativeAdd, source, [type, (event: Event) => event.isTrusted && record(source, event as MessageEvent)]);
  };

  const onOpen = (source: EventSource): void => {
    const s = states.get(source);
    if (!s || !emitter.config.enabled) return;
    if (s.conn && s.reconnecting) {
      s.reconnecting = false; // the note was left when the response ended
      return;
    }
    if (s.conn) end(source, 'complete');
    declare(source, s, 200); // EventSource only opens on 200 + text/event-stream
  };

  const declare = (source: EventSource, s: SourceState, status?: number): void => {
    const id = emitter.nextId();
    s.conn = id;
    open?.add(source);
    const connection: ConnectionRecord = {
      kind: 'connection',
      id,
      transport: 'eventsource',
      frameUrl: s.frameUrl,
      ...(emitter.isSubframe ? { isSubframe: true } : {}),
      method: 'GET',
      url: source.url,
      requestHeaders: [['accept', 'text/event-stream']],
      ...(status !== undefined ? { status } : {}),
      startTime: s.startTime,
      responseTime: now(),
    };
    emitter.emit(connection, 256);
    emitter.emit({ kind: 'notice', t: now(), conn: id, level: 'info', text: EVENTSOURCE_PARTIAL_NOTICE });
  };

  const onError = (source: EventSource): void => {
    if (source.readyState === Native.CLOSED) {
      // Failed before it ever opened (a 401/503 answer, one not text/event-stream, a CORS failure): recorded too, as
      // a fetch's HTTP error answer is — the failure is what to see; the panel stayed empty. The browser tells the
      // page no status, so the record has none.
      const s = states.get(source);
      if (s && !s.conn && emitter.config.enabled) declare(source, s);
      end(source, 'error', 'EventSource failed: the browser closed it (an answer other than 200 text/event-stream — an HTTP error, another content type — or a CORS failure; the page is not told which)');
    } else {
      // CONNECTING after OPEN: the body ended (or broke) and the browser reconnects; the record goes on (see the top).
      const s = states.get(source);
      if (!s?.conn || s.reconnecting) return; // (a failed attempt: the browser retries again)
      s.reconnecting = true;
      // A server that ends every response (one event each, `retry: 1000`) reconnects all day: a note each time was a
      // record per event kept for good (the analysis shows 20 notes per connection anyway).
      if (++s.reconnects > MAX_RECONNECT_NOTES) return;
      if (s.reconnects === MAX_RECONNECT_NOTES) {
        emitter.emit({ kind: 'notice', t: now(), conn: s.conn, level: 'info', text: `EventSource: the browser reconnects once more (${MAX_RECONNECT_NOTES} times so far); later reconnections of this EventSource are not noted.` });
        return;
      }
      const lastId = s.lastEventId ? `the last event the page got had the id ${JSON.stringify(s.lastEventId)}` : 'the page got no event with an id';
      emitter.emit({ kind: 'notice', t: now(), conn: s.conn, level: 'info', text: `${EVENTSOURCE_RECONNECT_NOTICE} (${lastId}); the events after this note come on a new response.` });
    }
  };

  class EventSource extends Native {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      if (!emitter.config.enabled) return;
      states.set(this, { conn: undefined, lastEventId: '', reconnecting: false, reconnects: 0, startTime: now(), listened: new Set(), frameUrl: location.href });
      natives.apply(nativeAdd, this, ['open', (event: Event) => event.isTrusted && onOpen(this)]);
      natives.apply(nativeAdd, this, ['error', (event: Event) => event.isTrusted && onError(this)]);
      listenFor(this, 'message');
    }

    // Arguments pass through untouched, so the browser validates them exactly as it would.
    override addEventListener(...args: unknown[]): void {
      const type = args[0];
      if (typeof type === 'string' && type !== 'open' && type !== 'error') listenFor(this, type);
      natives.apply(nativeAdd, this, args);
    }

    override close(): void {
      if (this.readyState !== Native.CLOSED) end(this, 'cancelled', undefined);
      super.close();
    }
  }
  mimic(EventSource.prototype.addEventListener, EventTarget.prototype.addEventListener);
  mimic(EventSource.prototype.close, Native.prototype.close);
  natives.defineProperty(EventSource.prototype, 'addEventListener', { enumerable: true });
  natives.defineProperty(EventSource.prototype, 'close', { enumerable: true });
  globalThis.EventSource = mimic(EventSource, Native) as typeof globalThis.EventSource;
}

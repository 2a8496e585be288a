// XMLHttpRequest, tapped through its prototype (the constructor stays the browser's own). When the response head
// says "stream", the growing responseText is diffed on every readystatechange/progress and each new piece becomes a
// chunk. XHR already decoded the bytes, so chunks are text and `bytes` is their UTF-8 length. With `responseType`
// `arraybuffer` there is no text to diff: the whole response is handed over as bytes when it completes.
import type { BodyRecord, ConnectionRecord } from '../../core/capture/model.ts';
import { ChunkSplitter } from '../../core/frames/byte-chunks.ts';
import { utf8Length } from '../../core/frames/utf8-chunks.ts';
import { maskHeaders } from '../../core/capture/credential-mask.ts';
import type { TapEmitter } from './emitter.ts';
import { mimic, natives, now } from './natives.ts';
import { deferBody, isStreamResponse, type DeferredBody } from './request-info.ts';

/**
 * Firefox stops a page's XHRs as a navigation begins (right after `beforeunload`) with a `loadend` alone — no load,
 * error or abort before it, readyState DONE, status 200 and responseText emptied (measured in Firefox ESR 153, also
 * when the navigation then leaves the page where it was). Chromium fires nothing as a page leaves: the watcher ends
 * such a stream when its document goes (tab-capture.ts).
 */
export const STOPPED_SILENTLY = 'XMLHttpRequest stopped by the browser: a loadend with no load, error or abort before it';

interface XhrState {
  method: string;
  url: string;
  headers: [string, string][];
  body: DeferredBody | undefined;
  /** The request body worked out, once the response head said "stream" (async for Blobs). */
  bodyRecord: BodyRecord | undefined;
  startTime: number;
  frameUrl: string;
  /** open(…, false): the browser fires no readystatechange before DONE, so the response head is looked at there. */
  sync: boolean;
  conn: string | undefined;
  seen: number;
  done: boolean;
}

function parseHeaderBlock(block: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
  }
  return out;
}

export function installXhrTap(emitter: TapEmitter): void {
  const Xhr = globalThis.XMLHttpRequest;
  if (typeof Xhr !== 'function') return;
  const proto = Xhr.prototype;
  const nativeOpen = proto.open;
  const nativeSend = proto.send;
  const nativeSetHeader = proto.setRequestHeader;
  const states = new WeakMap<XMLHttpRequest, XhrState>();
  const listening = new WeakSet<XMLHttpRequest>();
  const stoppedSilently = import.meta.env.MODE === 'firefox'; // a lone loadend ends a stream (STOPPED_SILENTLY)

  const pullText = (xhr: XMLHttpRequest, s: XhrState): void => {
    if (!s.conn || (xhr.responseType !== '' && xhr.responseType !== 'text')) return;
    const text = xhr.responseText;
    if (text.length <= s.seen) return;
    const piece = text.slice(s.seen);
    s.seen = text.length;
    emitter.emit({ kind: 'chunk', conn: s.conn, t: now(), bytes: utf8Length(piece), text: piece }, piece.length);
  };

  const finish = (xhr: XMLHttpRequest, s: XhrState, state: 'complete' | 'cancelled' | 'error', error?: string): void => {
    if (!s.conn || s.done) return;
    if (state === 'complete') {
      pullText(xhr, s);
      if (xhr.responseType === 'arraybuffer' && xhr.response instanceof ArrayBuffer) {
        // Bytes, as fetch chunks go: a copy (the page keeps its buffer) handed over as is and decoded off the page's
        // thread. Base64 here cost the page's thread ~1 s per 8 MB.
        const splitter = new ChunkSplitter();
        const t = now();
        emitter.emitBytes({ kind: 'bytes', conn: s.conn, t, ...splitter.push(new Uint8Array(xhr.response)) });
        const tail = splitter.flush();
        if (tail) emitter.emitBytes({ kind: 'bytes', conn: s.conn, t, ...tail });
      }
    }
    s.done = true;
    emitter.emit({ kind: 'end', conn: s.conn, t: now(), state, ...(error ? { error } : {}) });
  };

  const onHeaders = (xhr: XMLHttpRequest, s: XhrState): void => {
    const url = xhr.responseURL || s.url;
    if (!emitter.config.enabled || !isStreamResponse(xhr.getResponseHeader('content-type'), url, emitter.config.includeUrls)) return;
    if (!s.bodyRecord && s.body) {
      const worked = s.body();
      if (!(worked instanceof Promise)) s.bodyRecord = worked;
    }
    const id = emitter.nextId();
    s.conn = id;
    const connection: ConnectionRecord = {
      kind: 'connection',
      id,
      transport: 'xhr',
      frameUrl: s.frameUrl,
      ...(emitter.isSubframe ? { isSubframe: true } : {}),
      method: s.method,
      url: s.url,
      requestHeaders: maskHeaders(s.headers),
      ...(s.bodyRecord ? { requestBody: s.bodyRecord } : {}),
      status: xhr.status,
      statusText: xhr.statusText,
      responseHeaders: maskHeaders(parseHeaderBlock(xhr.getAllResponseHeaders())),
      startTime: s.startTime,
      responseTime: now(),
    };
    emitter.emit(connection, 512);
    if (xhr.responseType !== '' && xhr.responseType !== 'text' && xhr.responseType !== 'arraybuffer') {
      emitter.emit({ kind: 'notice', t: now(), conn: id, level: 'warning', text: `XHR responseType "${xhr.responseType}": body not captured.` });
    }
  };

  const add = (xhr: XMLHttpRequest, type: string, fn: () => void): void => natives.apply(natives.addEventListener, xhr, [type, fn]);

  // Every request gets one listener (to see the response head); only streams get the rest.
  const listen = (xhr: XMLHttpRequest): void => {
    if (listening.has(xhr)) return;
    listening.add(xhr);
    add(xhr, 'readystatechange', () => {
      const s = states.get(xhr);
      if (!s) return;
      if ((xhr.readyState === 2 || (xhr.readyState === 4 && s.sync)) && !s.conn && !s.done) {
        onHeaders(xhr, s);
        if (s.conn) followStream(xhr);
      } else if (xhr.readyState >= 3) pullText(xhr, s);
    });
  };

  const following = new WeakSet<XMLHttpRequest>();
  const followStream = (xhr: XMLHttpRequest): void => {
    if (following.has(xhr)) return;
    following.add(xhr);
    const on = (type: string, fn: (s: XhrState) => void): void =>
      add(xhr, type, () => {
        const s = states.get(xhr);
        if (s) fn(s);
      });
    on('progress', (s) => pullText(xhr, s));
    on('load', (s) => finish(xhr, s, 'complete'));
    on('error', (s) => finish(xhr, s, 'error', 'NetworkError: XMLHttpRequest failed'));
    on('timeout', (s) => finish(xhr, s, 'error', 'TimeoutError: XMLHttpRequest timed out'));
    on('abort', (s) => finish(xhr, s, 'cancelled'));
    // After any of those the request is done and this does nothing; alone, it is Firefox's stop (STOPPED_SILENTLY): an
    // error end, which the emitter holds while the page leaves and hands over as the page leaving.
    if (stoppedSilently) on('loadend', (s) => finish(xhr, s, 'error', STOPPED_SILENTLY));
  };

  const patched = {
    open(this: XMLHttpRequest, method: string, url: string | URL): void {
      // Re-opened from its own load or readystatechange handler (a retry or long-poll loop): the page's listener runs
      // before the tap's, so the request that just completed is ended as complete here — before open() clears its
      // response — not taken for one cancelled by the re-open.
      const before = states.get(this);
      if (before?.conn && !before.done && this.readyState === 4 && this.status !== 0) finish(this, before, 'complete');
      const result = natives.apply(nativeOpen, this, arguments as unknown as unknown[]) as void;
      // Reached only when the browser accepted the arguments; a re-open starts a fresh request.
      const previous = states.get(this);
      if (previous?.conn && !previous.done) finish(this, previous, 'cancelled');
      let resolved = String(url);
      try {
        resolved = new URL(String(url), document.baseURI).href;
      } catch {
        // keep the page's string
      }
      states.set(this, {
        method: String(method).toUpperCase(),
        url: resolved,
        headers: [],
        body: undefined,
        bodyRecord: undefined,
        startTime: now(),
        frameUrl: location.href,
        // Per the XHR standard an `async` argument that is given and false makes the request synchronous.
        sync: arguments.length > 2 && !arguments[2],
        conn: undefined,
        seen: 0,
        done: false,
      });
      return result;
    },
    setRequestHeader(this: XMLHttpRequest, name: string, value: string): void {
      natives.apply(nativeSetHeader, this, arguments as unknown as unknown[]);
      states.get(this)?.headers.push([String(name), String(value)]);
    },
    send(this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null): void {
      const s = states.get(this);
      if (s && emitter.config.enabled) {
        s.startTime = now();
        try {
          s.body = s.method === 'GET' || s.method === 'HEAD' ? undefined : deferBody(body);
          // A Blob is read asynchronously: start now so it is ready when the response head arrives.
          if (typeof Blob !== 'undefined' && body instanceof Blob && s.body) {
            const pending = s.body();
            if (pending instanceof Promise) pending.then((b) => (s.bodyRecord = b), () => undefined);
          }
        } catch {
          // never add an exception of our own
        }
        listen(this);
      }
      natives.apply(nativeSend, this, arguments as unknown as unknown[]);
    },
  };
  proto.open = mimic(patched.open, nativeOpen) as typeof proto.open;
  proto.setRequestHeader = mimic(patched.setRequestHeader, nativeSetHeader);
  proto.send = mimic(patched.send, nativeSend);
}

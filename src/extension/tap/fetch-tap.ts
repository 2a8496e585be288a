// window.fetch, tapped. Non-streaming responses are returned untouched (the only cost is a header lookup);
// streaming ones get their body served through `tapBody` and recorded chunk by chunk.
import type { BodyRecord, ConnectionRecord } from '../../core/capture/model.ts';
import { ChunkSplitter } from '../../core/frames/byte-chunks.ts';
import { maskHeaders } from '../../core/capture/credential-mask.ts';
import { ERROR_BODY_CAP, serveBodyFrom, tapBody, tapErrorBody } from './body-tap.ts';
import type { TapEmitter } from './emitter.ts';
import { mimic, natives, now } from './natives.ts';
import { acceptsStream, deferBody, deferRequestBody, headerPairs, isPiProxyRequestBody, isStreamResponse } from './request-info.ts';
import type { DeferredBody } from './request-info.ts';

interface RequestFacts {
  method: string;
  url: string;
  headers: [string, string][];
  body: DeferredBody | undefined;
  signal: AbortSignal | null | undefined;
  frameUrl: string;
}

/** Reads what the page asked for, without consuming anything the request still needs. Never throws. */
function requestFacts(input: unknown, init: RequestInit | undefined): RequestFacts {
  const facts: RequestFacts = { method: 'GET', url: '', headers: [], body: undefined, signal: undefined, frameUrl: location.href };
  try {
    const isRequest = input instanceof natives.Request;
    const request = isRequest ? (input as Request) : undefined;
    facts.url = request ? request.url : new URL(String(input), document.baseURI).href;
    facts.method = String(init?.method ?? request?.method ?? 'GET').toUpperCase();
    facts.headers = maskHeaders(init?.headers !== undefined ? headerPairs(init.headers) : request ? headerPairs(request.headers) : []);
    facts.signal = init?.signal ?? request?.signal;
    if (facts.method !== 'GET' && facts.method !== 'HEAD') {
      if (init && init.body !== undefined) facts.body = deferBody(init.body);
      else if (request) facts.body = deferRequestBody(request);
    }
  } catch {
    // Whatever fetch itself makes of odd input, the tap must not add an exception of its own.
  }
  return facts;
}

/** Statuses whose response has no body (the Fetch standard's null body statuses, 200–599). */
const NULL_BODY_STATUS = new Set([204, 205, 304]);

export function installFetchTap(emitter: TapEmitter): void {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return;

  const tapped = {
    async fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const startTime = now();
      // Pass the page's own arguments through untouched (and `this`, so illegal invocations still throw).
      const args = arguments;
      const facts = emitter.config.enabled ? requestFacts(input, init) : undefined;
      const response = (await natives.apply(original, this, args)) as Response;
      // A Response can only be rebuilt around a body for statuses 200–599 that may have one (opaque responses have
      // none anyway): Chromium hands a 204 an empty body stream, and rebuilding it threw in the page's fetch.
      // (A HEAD answer has no body either, though Chromium hands it an empty stream: it is no stream to record.)
      if (!facts || !emitter.config.enabled || response.body === null || response.status < 200 || response.status > 599 || NULL_BODY_STATUS.has(response.status) || facts.method === 'HEAD') {
        return response;
      }
      let contentType: string | null = null;
      try {
        contentType = response.headers.get('content-type');
      } catch {
        return response;
      }
      const stream = isStreamResponse(contentType, response.url || facts.url, emitter.config.includeUrls);
      // A request for a stream answered with an HTTP error (a 401 JSON body) is recorded too: that failure is what
      // the developer needs to see. (pi's streamProxy asks by its request body, read here for such answers only.)
      if (!stream && !(response.status >= 400 && (acceptsStream(facts.headers) || facts.body !== undefined))) return response;
      let requestBody: BodyRecord | undefined;
      try {
        requestBody = await facts.body?.();
      } catch {
        requestBody = undefined; // an unreadable body must not break the page's response
      }
      if (!stream && !acceptsStream(facts.headers) && !isPiProxyRequestBody(requestBody)) return response;
      return recordStream(emitter, facts, requestBody, response, startTime, !stream);
    },
  }.fetch;

  globalThis.fetch = mimic(tapped, original) as typeof fetch;
}

function recordStream(
  emitter: TapEmitter,
  facts: RequestFacts,
  requestBody: BodyRecord | undefined,
  response: Response,
  startTime: number,
  errorAnswer: boolean,
): Response {
  const id = emitter.nextId();
  const connection: ConnectionRecord = {
    kind: 'connection',
    id,
    transport: 'fetch',
    frameUrl: facts.frameUrl,
    ...(emitter.isSubframe ? { isSubframe: true } : {}),
    method: facts.method,
    // Where the stream came from: after a redirect, the final URL (the record said /redirect answered with the stream).
    url: response.redirected && response.url ? response.url : facts.url,
    requestHeaders: facts.headers,
    ...(requestBody ? { requestBody } : {}),
    status: response.status,
    statusText: response.statusText,
    responseHeaders: maskHeaders(headerIterable(response.headers)),
    startTime,
    responseTime: now(),
  };
  emitter.emit(connection, 512);
  if (connection.url !== facts.url) emitter.emit({ kind: 'notice', t: now(), conn: id, level: 'info', text: `Redirected: the page asked for ${facts.url}` });
  // Bytes only: cutting on character boundaries is O(1); decoding happens off the page's thread (messages.ts).
  const splitter = new ChunkSplitter();
  // An error answer is read by the tap whether or not the page reads it (tapErrorBody): a library that drops it
  // unread must not leave the record 'live' with no body for good.
  const body = (errorAnswer ? tapErrorBody : tapBody)(
    response.body as ReadableStream<Uint8Array>,
    {
      onCap() {
        emitter.emit({ kind: 'notice', t: now(), conn: id, level: 'info', text: `Error answer: only its first ${ERROR_BODY_CAP / 1024} KiB are recorded.` });
      },
      copy: (chunk) => splitter.prepare(chunk),
      onChunk(copy, chunk) {
        const t = now();
        emitter.emitBytes({ kind: 'bytes', conn: id, t, ...splitter.commit(copy, chunk.length) });
      },
      onEnd(state, error) {
        const t = now();
        const tail = splitter.flush();
        if (tail) emitter.emitBytes({ kind: 'bytes', conn: id, t, ...tail });
        emitter.emit({ kind: 'end', conn: id, t, state, ...(error ? { error } : {}) });
      },
    },
    facts.signal,
  );
  return serveBodyFrom(response, body, facts.signal);
}

function headerIterable(headers: Headers): [string, string][] {
  const out: [string, string][] = [];
  headers.forEach((value, name) => out.push([name, value]));
  return out;
}

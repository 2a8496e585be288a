// The heart of the fetch tap: a pull-based byte stream in front of the real body.
//
// Why not `response.clone()` / `tee()`: a tee branch that keeps reading (1) keeps the connection — and the agent —
// alive after the page cancelled or aborted, and (2) buffers the whole stream when the page reads slowly, removing
// the backpressure the server relies on. Here the real reader is read only when the page pulls (highWaterMark 0),
// each chunk is recorded on its way through, and cancel() is forwarded, so the network sees exactly what it would
// see without the extension. A source error (abort, network) errors the page's stream at once, like a native body.
//
// The capture's copy of a large chunk gets a task of its own. A page that reads slower than the network gets chunks
// of up to 2 MiB (Chromium) and spends tens of ms on each in one task; copying 2 MiB into fresh memory takes another
// 2–5 ms, which, in the page's task, turned some of those tasks into long tasks (≥ 50 ms). So a chunk of at least
// LARGE_CHUNK bytes is copied in the next task and handed to the page in the task after that: the page's tasks stay
// what they were. Nothing is recorded until the page gets the chunk — if the page cancels meanwhile, neither does.
import { ERROR_BODY_RECORDED_BYTES, type EndState } from '../../core/capture/model.ts';
import { natives, nextTask } from './natives.ts';

/** Chunks from this size on are copied in a task of their own (see above); below it the copy is ~0.3 ms or less. */
export const LARGE_CHUNK = 256 * 1024;

export interface BodyTapHooks<Copy = Uint8Array> {
  /**
   * The capture's own copy of `chunk`, made before the page gets the chunk's buffer (it is transferred to the page).
   * Must change no state: the chunk may still not reach the page (cancelled while a large chunk waited).
   */
  copy(chunk: Uint8Array): Copy;
  /** Records a chunk, with its copy, as the page gets it (right after this call). */
  onChunk(copy: Copy, chunk: Uint8Array): void;
  /** Called exactly once, when the body ends for whatever reason. */
  onEnd(state: EndState, error?: string): void;
}

export function describeError(err: unknown): string {
  if (err && typeof err === 'object' && 'name' in err && 'message' in err) {
    return `${String((err as Error).name)}: ${String((err as Error).message)}`;
  }
  return String(err);
}

const isAbortError = (err: unknown): boolean => !!err && typeof err === 'object' && (err as { name?: unknown }).name === 'AbortError';

function endStateOf(err: unknown, signal: AbortSignal | null | undefined): EndState {
  if (signal?.aborted) return 'aborted';
  return isAbortError(err) ? 'aborted' : 'error';
}

/**
 * The error each page-facing body stream was errored with (by its source: a network error, an abort). Firefox
 * rejects a constructed Response's text()/json()/… with "AbortError: The operation was aborted." whatever errored
 * its stream, so asFetchBody needs the real cause to give the page what a fetch body would have.
 */
const failures = new WeakMap<ReadableStream<Uint8Array>, { error: unknown }>();

/** Wraps `source` (the real response body); the returned byte stream is what the page reads. */
export function tapBody<Copy>(
  source: ReadableStream<Uint8Array>,
  hooks: BodyTapHooks<Copy>,
  signal?: AbortSignal | null,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let finished = false;
  const finish = (state: EndState, error?: string): void => {
    if (finished) return;
    finished = true;
    hooks.onEnd(state, error);
  };

  const stream: ReadableStream<Uint8Array> = new natives.ReadableStream({
    type: 'bytes',
    start(controller) {
      reader.closed.then(undefined, (err: unknown) => {
        if (finished) return;
        failures.set(stream, { error: err });
        finish(endStateOf(err, signal), describeError(err));
        try {
          controller.error(err);
        } catch {
          // already closed/errored: nothing to mirror
        }
      });
    },
    async pull(controller) {
      // Loop over empty reads: a pull that enqueues nothing would leave the page's read() pending forever.
      for (;;) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (err) {
          if (!finished) failures.set(stream, { error: err });
          finish(endStateOf(err, signal), describeError(err));
          throw err; // errors the page's stream with the very same reason
        }
        if (result.done) {
          finish('complete');
          controller.close();
          controller.byobRequest?.respond(0); // settles a pending BYOB read on a closed byte stream
          return;
        }
        const chunk = result.value;
        if (chunk.byteLength === 0) continue;
        if (chunk.byteLength < LARGE_CHUNK) {
          hooks.onChunk(hooks.copy(chunk), chunk);
          controller.enqueue(chunk as Uint8Array<ArrayBuffer>);
          return;
        }
        // A large chunk: copied in a task of its own, handed over in the next (see the top of the file).
        await nextTask();
        if (finished) return; // cancelled, aborted or failed meanwhile: the page's stream already says so
        const copy = hooks.copy(chunk);
        await nextTask();
        if (finished) return;
        hooks.onChunk(copy, chunk);
        controller.enqueue(chunk as Uint8Array<ArrayBuffer>);
        return;
      }
    },
    cancel(reason) {
      finish('cancelled', reason === undefined ? undefined : describeError(reason));
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return stream;
}

/**
 * Makes `response` (the page's object: same identity, url, redirected, type, headers, status) serve its body from
 * `body`. The body members are delegated to a native Response built around `body`, so locking, `bodyUsed`,
 * text()/json()/arrayBuffer()/blob()/formData()/bytes() and their errors are the browser's own.
 */
export function serveBodyFrom(response: Response, body: ReadableStream<Uint8Array>, signal?: AbortSignal | null): Response {
  const inner = new natives.Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  decorate(response, inner, response, body, signal);
  return response;
}


/**
 * A body method's promise, rejected as a fetch body's is. A constructed Response consuming a stream that errored
 * rejects with what its browser makes of any stream error, not with what a fetch body would give:
 * - Chromium: "TypeError: Failed to fetch" — which is also what a fetch body gives on a network error, but an
 *   aborted one gives the signal's reason (an AbortError, or what abort() was given), and `catch (e) { if (e.name
 *   === 'AbortError') … }` took a Stop click for a failure: so the signal's reason, when it aborted.
 * - Firefox: "AbortError: The operation was aborted." — which is what a fetch body gives when aborted (whatever
 *   reason abort() was given), but a network error mid-body is a TypeError there: with the AbortError a dropped
 *   connection read as the user's Stop, and the app showed no error. So the error the body's stream failed with.
 * Chained through the saved `then` (a page cannot intercept it).
 */
function asFetchBody(promise: unknown, body: ReadableStream<Uint8Array>, signal: AbortSignal | null | undefined): unknown {
  return natives.apply(natives.promiseThen, promise, [undefined, (err: unknown) => {
    if (isAbortError(err)) {
      const failure = failures.get(body);
      if (!signal?.aborted && failure && !isAbortError(failure.error)) throw failure.error;
      throw err;
    }
    throw signal?.aborted ? signal.reason : err;
  }]);
}

type BodyMethod = 'arrayBuffer' | 'blob' | 'bytes' | 'formData' | 'json' | 'text';
const BODY_METHODS: BodyMethod[] = ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text'];

function hidden(target: object, key: string, descriptor: PropertyDescriptor): void {
  natives.defineProperty(target, key, { configurable: true, enumerable: false, ...descriptor });
}

/** Points `target`'s body members at `inner`; `meta` supplies url/redirected/type for clones. */
function decorate(target: Response, inner: Response, meta: Response, body: ReadableStream<Uint8Array>, signal?: AbortSignal | null): void {
  const proto = natives.Response.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  hidden(target, 'body', { get: () => inner.body });
  hidden(target, 'bodyUsed', { get: () => inner.bodyUsed });
  const bodyMethods = (on: Response, of: Response) => {
    for (const name of BODY_METHODS) {
      const native = proto[name];
      if (typeof native !== 'function') continue; // e.g. bytes() in older browsers: keep feature detection honest
      const method = { [name]: () => asFetchBody(natives.apply(native, of, []), body, signal) }[name];
      hidden(on, name, { value: method, writable: true });
    }
  };
  bodyMethods(target, inner);
  const nativeClone = proto.clone;
  const url = meta.url;
  const redirected = meta.redirected;
  const type = meta.type;
  // A native clone tees *our* stream, so a clone behaves like a clone of the original body would; it only needs
  // the original's url/redirected/type, which a constructed Response cannot carry.
  const decorateCopy = (copy: Response): Response => {
    hidden(copy, 'url', { get: () => url });
    hidden(copy, 'redirected', { get: () => redirected });
    hidden(copy, 'type', { get: () => type });
    // A clone's branch fails as `body` does (tee), and its body methods need the same correction (asFetchBody).
    bodyMethods(copy, copy);
    hidden(copy, 'clone', { writable: true, value: { clone: () => decorateCopy(natives.apply(nativeClone, copy, []) as Response) }.clone });
    return copy;
  };
  hidden(target, 'clone', { writable: true, value: { clone: () => decorateCopy(natives.apply(nativeClone, inner, []) as Response) }.clone });
}

/** How much of an HTTP error answer the tap reads on its own (see tapErrorBody). */
export const ERROR_BODY_CAP = ERROR_BODY_RECORDED_BYTES;

/**
 * The body of an HTTP error answer to a stream request (a 401/429/500 JSON or HTML body — no stream), recorded
 * whether or not the page reads it. Libraries often never do: @microsoft/fetch-event-source's onopen throws on a
 * non-event-stream answer and retries, so a body recorded only as the page read it stayed 'live' with 0 B for good,
 * and the error message the server sent — the finding — was never shown.
 *
 * The body is teed: the tap reads its own branch up to ERROR_BODY_CAP (bytes Chromium takes off the network into its
 * pipe whether the page reads or not, so the server sees no difference), and the page reads the other, served like a
 * stream's (tapBody, recording nothing). A cancel by the page cancels the tap's branch too, so the network still sees
 * the page's cancel. Past the cap the tap lets its branch go and the record ends as the page's reading ends.
 */
export function tapErrorBody<Copy>(
  source: ReadableStream<Uint8Array>,
  hooks: BodyTapHooks<Copy> & { onCap(): void },
  signal?: AbortSignal | null,
): ReadableStream<Uint8Array> {
  const [pageBranch, ownBranch] = source.tee();
  const own = ownBranch.getReader();
  let finished = false;
  let capped = false;
  const finish = (state: EndState, error?: string): void => {
    if (finished) return;
    finished = true;
    hooks.onEnd(state, error);
  };
  const letGo = (reason?: unknown): void => {
    own.cancel(reason).then(undefined, () => undefined);
  };
  void (async () => {
    let seen = 0;
    try {
      for (;;) {
        const { done, value } = await own.read();
        if (finished) return;
        if (done) return finish('complete');
        const part = seen + value.byteLength > ERROR_BODY_CAP ? value.subarray(0, ERROR_BODY_CAP - seen) : value;
        if (part.byteLength) hooks.onChunk(hooks.copy(part), part);
        seen += part.byteLength;
        if (seen >= ERROR_BODY_CAP) {
          capped = true;
          hooks.onCap();
          return letGo();
        }
      }
    } catch (err) {
      finish(endStateOf(err, signal), describeError(err));
    }
  })();
  return tapBody(
    pageBranch,
    {
      copy: () => undefined,
      onChunk() {},
      onEnd(state, error) {
        if (state === 'cancelled') {
          letGo();
          finish(state, error);
        } else if (capped) finish(state, error); // below the cap the tap's own branch sees the same end, with every byte
      },
    },
    signal,
  );
}

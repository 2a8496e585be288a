// Runs in the test page (bundled by esbuild, see client-library-server.ts): the stream readers of real agent
// frontends, each driven through a real npm client library, writing what the page observes — events, texts, errors,
// the order of open/end/abort — into a log the spec compares between a browser with the extension and one without.
// Byte counts of progress events and chunk boundaries depend on the network's timing, so they are not logged.
import { fetchEventSource } from '@microsoft/fetch-event-source';
import { EventSourcePolyfill } from 'event-source-polyfill';
import { SSE } from 'sse.js';
import axios from 'axios';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface Run {
  log: string[];
  /** What the page has read so far, as text (the spec waits on it before aborting or hiding). */
  text: string;
  ended: boolean;
  ctrl: AbortController;
  /** The parser readers cancel after this many events (0: read to the end). */
  cancelAfter: number;
}

type Reader = (url: string, run: Run, log: (line: string) => void) => Promise<void>;

const errorText = (e: unknown): string => (e && typeof e === 'object' && 'name' in e ? `${(e as Error).name}: ${(e as Error).message}` : String(e));

/** An SSE event as the libraries hand it over, in one line. */
const eventLine = (e: { id?: string; event?: string; data: string }): string => `event id=${e.id ?? ''} type=${e.event ?? ''} ${e.data}`;

const readers: Record<string, Reader> = {
  // @microsoft/fetch-event-source as apps call it: a POST, default onopen check, retry on error (here: give up).
  async 'fetch-event-source'(url, run, log) {
    await fetchEventSource(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'hi' }),
      signal: run.ctrl.signal,
      async onopen(res) {
        log(`open ${res.status} ${res.headers.get('content-type')}`);
      },
      onmessage(ev) {
        run.text += ev.data;
        log(eventLine(ev));
      },
      onclose() {
        log('close');
      },
      onerror(err) {
        log(`error ${errorText(err)}`);
        throw err; // no retry: the spec's runs end
      },
    });
  },
  // event-source-polyfill: in a browser with fetch streams it reads over fetch (its XHR transport is only used where
  // there are none); it reconnects with the last id in the query. The server's `done` event ends the run.
  async 'event-source-polyfill'(url, run, log) {
    const es = new EventSourcePolyfill(url, { heartbeatTimeout: 60_000 });
    await untilDone(es, run, log, (e) => ({ id: (e as MessageEvent).lastEventId, data: (e as MessageEvent<string>).data }));
  },
  // sse.js: an EventSource over XHR (a POST; the growing responseText parsed on each progress event) that reconnects
  // with a Last-Event-ID header.
  async 'sse.js'(url, run, log) {
    const es = new SSE(url, { method: 'POST', payload: '{"prompt":"hi"}', headers: { 'content-type': 'application/json' }, autoReconnect: true });
    await untilDone(es as unknown as EventTarget & { close(): void; readyState: number }, run, log, (e) => e as unknown as { id: string; data: string });
  },
  // axios' XHR adapter with onDownloadProgress: the text so far is the XHR's responseText.
  async 'axios-xhr'(url, run, log) {
    let prefixes = true;
    try {
      const res = await axios.get<string>(url, {
        responseType: 'text',
        signal: run.ctrl.signal,
        onDownloadProgress(e) {
          const text = (e.event as ProgressEvent<XMLHttpRequest>).target?.responseText ?? '';
          if (!text.startsWith(run.text)) prefixes = false;
          run.text = text;
        },
      });
      log(`status ${res.status}`);
      log(`data ${res.data}`);
    } catch (e) {
      log(`rejected ${errorText(e)} code=${(e as { code?: string }).code}`);
    }
    log(`progress text grew by appending: ${prefixes}`);
  },
  // axios' fetch adapter with responseType 'stream': the page reads axios' ReadableStream.
  async 'axios-fetch-stream'(url, run, log) {
    try {
      const res = await axios.get<ReadableStream<Uint8Array>>(url, { adapter: 'fetch', responseType: 'stream', signal: run.ctrl.signal });
      log(`status ${res.status}`);
      await readText(res.data, run, log);
    } catch (e) {
      log(`rejected ${errorText(e)} code=${(e as { code?: string }).code}`);
    }
  },
  // eventsource-parser's EventSourceParserStream behind the browser's TextDecoderStream (the AI SDK's own reading).
  async 'eventsource-parser'(url, run, log) {
    const res = await fetch(url, { signal: run.ctrl.signal });
    await readEvents(res.body!, run, log, 'one');
  },
  // body.tee(): two consumers of one body, both through the parser, read side by side.
  async 'tee'(url, run, log) {
    const res = await fetch(url, { signal: run.ctrl.signal });
    const [a, b] = res.body!.tee();
    await Promise.all([readEvents(a, run, log, 'a'), readEvents(b, { ...run, text: '' }, log, 'b')]);
  },
  // response.clone(): one consumer reads the stream, the other text().
  async 'clone'(url, run, log) {
    const res = await fetch(url, { signal: run.ctrl.signal });
    const copy = res.clone();
    const [, text] = await Promise.all([readEvents(res.body!, run, log, 'stream'), copy.text().catch((e: unknown) => `rejected ${errorText(e)}`)]);
    log(`text() ${text}`);
  },
  // The Vercel AI SDK's own client reading: parseJsonEventStream with its chunk schema, then readUIMessageStream.
  async 'ai-sdk'(url, run, log) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[]}', signal: run.ctrl.signal });
    const chunks = parseJsonEventStream({ stream: res.body!, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream<{ success: boolean; value?: UIMessageChunk; error?: unknown }, UIMessageChunk>({
        transform(part, controller) {
          if (!part.success) throw part.error;
          controller.enqueue(part.value!);
        },
      }),
    );
    let updates = 0;
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream: chunks })) {
      updates += 1;
      last = message;
    }
    log(`updates ${updates}`);
    log(`parts ${JSON.stringify(last?.parts)}`);
  },
};

/** Logs an EventSource-like object's events until the server's `done` event, on which the page closes it. */
async function untilDone(
  es: Pick<EventTarget, 'addEventListener'> & { close(): void; readyState: number },
  run: Run,
  log: (line: string) => void,
  message: (e: Event) => { id: string; data: string },
): Promise<void> {
  await new Promise<void>((resolve) => {
    es.addEventListener('open', () => log('open'));
    es.addEventListener('error', () => log(`error readyState=${es.readyState}`));
    es.addEventListener('message', (e) => {
      const ev = message(e);
      run.text += ev.data;
      log(eventLine(ev));
    });
    es.addEventListener('done', () => {
      es.close();
      log('done, closed');
      resolve();
    });
    run.ctrl.signal.addEventListener('abort', () => {
      es.close();
      log('closed by the page');
      resolve();
    });
  });
}

/** The browser's TextDecoderStream, typed for a byte stream (lib.dom has its writable take any BufferSource). */
const decoder = (): ReadableWritablePair<string, Uint8Array> => new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;

async function readText(body: ReadableStream<Uint8Array>, run: Run, log: (line: string) => void): Promise<void> {
  const reader = body.pipeThrough(decoder()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      run.text += value;
    }
    log(`read ${run.text}`);
  } catch (e) {
    log(`read failed ${errorText(e)} after ${run.text}`);
  }
}

/** Events through EventSourceParserStream, cancelled after the run's `cancelAfter` events. */
async function readEvents(body: ReadableStream<Uint8Array>, run: Run, log: (line: string) => void, who: string): Promise<void> {
  const { cancelAfter } = run;
  const reader = body.pipeThrough(decoder()).pipeThrough(new EventSourceParserStream()).getReader();
  let n = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      run.text += value.data;
      log(`${who} ${eventLine(value)}`);
      if (cancelAfter && ++n === cancelAfter) {
        await reader.cancel('the page has enough');
        log(`${who} cancelled`);
        return;
      }
    }
    log(`${who} done`);
  } catch (e) {
    log(`${who} failed ${errorText(e)}`);
  }
}

/** Makes the document hidden or visible the way a tab switch does, for the libraries that listen (see the spec). */
function setVisibility(state: 'hidden' | 'visible'): void {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => state === 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}

const runs: Record<string, Run> = {};

/** Starts `reader` on `url` as run `name`; the spec polls `runs[name]`. */
function start(reader: string, name: string, url: string, cancelAfter = 0): void {
  const run: Run = { log: [], text: '', ended: false, ctrl: new AbortController(), cancelAfter };
  runs[name] = run;
  const log = (line: string) => run.log.push(line);
  const read = readers[reader];
  if (!read) throw new Error(`no reader ${reader}`);
  read(url, run, log)
    .catch((e: unknown) => log(`threw ${errorText(e)}`))
    .finally(() => {
      log('end');
      run.ended = true;
    });
}

declare global {
  interface Window {
    clients: { start: typeof start; runs: typeof runs; setVisibility: typeof setVisibility };
  }
}
window.clients = { start, runs, setVisibility };

// An EventSource and a streaming XHR as a page leaves in Firefox (the Firefox build's taps: eventsource-tap.ts,
// xhr-tap.ts). Firefox stops both as the navigation begins, right after `beforeunload`, without the events a failure
// brings: the EventSource turns CLOSED with no error event, the XHR gets a `loadend` alone (measured in Firefox ESR
// 153). Their ends must still come: as the page leaving at `pagehide`, or as errors when the page stays (a navigation
// answered with no content). The browser's objects are stand-ins installed before the tap's modules load, as the tap
// captures its built-ins at install.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TapToRelay, WireRecord } from '../../../src/extension/messages.ts';
import { LEAVE_BATCH_EVENT } from '../../../src/extension/tap/handshake.ts';

class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  readyState = 0;
  readonly url: string;
  constructor(url: string | URL) {
    super();
    this.url = String(url);
  }
  close(): void {
    this.readyState = 2;
  }
}

class FakeXhr extends EventTarget {
  readyState = 0;
  status = 0;
  statusText = '';
  responseText = '';
  responseType = '';
  responseURL = '';
  open(): void {
    this.readyState = 1;
  }
  send(): void {}
  setRequestHeader(): void {}
  getResponseHeader(name: string): string | null {
    return name.toLowerCase() === 'content-type' ? 'text/event-stream' : null;
  }
  getAllResponseHeaders(): string {
    return 'content-type: text/event-stream\r\n';
  }
}

const setTimeoutSpy = vi.fn(globalThis.setTimeout);
let tap: typeof import('../../../src/extension/tap/emitter.ts');
let STOPPED_SILENTLY: string;
let SILENTLY_CLOSED: string;

beforeAll(async () => {
  vi.stubGlobal('document', Object.assign(new EventTarget(), { baseURI: 'http://app.test/' }));
  vi.stubGlobal('window', Object.assign(new EventTarget(), { top: undefined }));
  vi.stubGlobal('location', { href: 'http://app.test/chat' });
  vi.stubGlobal('setTimeout', setTimeoutSpy);
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.resetModules();
  tap = await import('../../../src/extension/tap/emitter.ts');
  const [es, xhr] = [await import('../../../src/extension/tap/eventsource-tap.ts'), await import('../../../src/extension/tap/xhr-tap.ts')];
  ({ SILENTLY_CLOSED } = es);
  ({ STOPPED_SILENTLY } = xhr);
  vi.stubEnv('MODE', 'firefox'); // the build's mode, read as the emitter and the taps install
  const emitter = new tap.TapEmitter();
  es.installEventSourceTap(emitter);
  xhr.installXhrTap(emitter);
  vi.unstubAllEnvs();
  page.emitter = emitter;
  const node = new EventTarget();
  node.addEventListener(LEAVE_BATCH_EVENT, (e) => page.handedOff.push(...records((e as CustomEvent<TapToRelay>).detail)));
  emitter.attachLeaveNode(node as unknown as Element);
  const channel = new MessageChannel();
  channel.port2.onmessage = (e: MessageEvent<TapToRelay>) => page.posted.push(...records(e.data));
  emitter.attachPort(channel.port1);
  page.close = () => {
    channel.port1.close();
    channel.port2.close();
  };
});
afterAll(() => {
  page.close();
  vi.unstubAllGlobals();
});

/** The one page: its emitter, what went out on the port, and what was handed over as the page left. */
const page = { emitter: undefined as unknown as InstanceType<typeof tap.TapEmitter>, posted: [] as WireRecord[], handedOff: [] as WireRecord[], close: () => {} };
const records = (m: TapToRelay): WireRecord[] => (m.type === 'records' ? m.records : []);

/** An event as the browser fires it (`isTrusted`: a page script cannot make one). */
function browserEvent<E extends Event>(event: E): E {
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

/** A page's EventSource that opened and got one message. */
function openedEventSource(): EventSource {
  const source = new EventSource('/events');
  const fake = source as unknown as FakeEventSource;
  fake.readyState = 1;
  fake.dispatchEvent(browserEvent(new Event('open')));
  fake.dispatchEvent(browserEvent(new MessageEvent('message', { data: 'token 0' })));
  return source;
}

/** A page's streaming XHR whose response head came and that got some text. */
function streamingXhr(): FakeXhr {
  const xhr = new XMLHttpRequest() as unknown as FakeXhr;
  (xhr as unknown as XMLHttpRequest).open('GET', '/stream');
  (xhr as unknown as XMLHttpRequest).send();
  Object.assign(xhr, { readyState: 2, status: 200 });
  xhr.dispatchEvent(browserEvent(new Event('readystatechange')));
  Object.assign(xhr, { readyState: 3, responseText: 'data: token 0\n\n' });
  xhr.dispatchEvent(browserEvent(new Event('progress')));
  return xhr;
}

/** What Firefox does as a navigation begins: the EventSource closed without an event, the XHR ended by a loadend alone. */
function firefoxStops(source: EventSource, xhr: FakeXhr): void {
  (source as unknown as FakeEventSource).readyState = 2;
  Object.assign(xhr, { readyState: 4, responseText: '' });
  xhr.dispatchEvent(browserEvent(new Event('loadend')));
}

/** Waits until a record emitted now went out on the port: whatever was emitted before it and not held went too. */
async function flushed(): Promise<void> {
  const mark: WireRecord = { kind: 'notice', t: 0, level: 'info', text: `mark ${Math.random()}` };
  page.emitter.emit(mark);
  await vi.waitFor(() => expect(page.posted).toContainEqual(mark));
}

const endsIn = (list: WireRecord[]) => list.filter((r) => r.kind === 'end').map((r) => (r.kind === 'end' ? { state: r.state, error: r.error } : r));

describe('an EventSource and a streaming XHR as a page leaves in Firefox', () => {
  it('stopped as the navigation began: at pagehide both end aborted, "the page left while it streamed"', async () => {
    const source = openedEventSource();
    const xhr = streamingXhr();
    window.dispatchEvent(browserEvent(new Event('beforeunload')));
    firefoxStops(source, xhr);
    await flushed(); // the ends are held, not on the port
    expect(endsIn(page.posted)).toEqual([]);
    window.dispatchEvent(browserEvent(new Event('pagehide')));
    const ends = endsIn(page.handedOff);
    expect(ends).toContainEqual({ state: 'aborted', error: `${tap.LEFT_PAGE}; the browser ended the stream with "${SILENTLY_CLOSED}"` });
    expect(ends).toContainEqual({ state: 'aborted', error: `${tap.LEFT_PAGE}; the browser ended the stream with "${STOPPED_SILENTLY}"` });
    expect(ends).toHaveLength(2);
    expect(page.handedOff.concat(page.posted).filter((r) => r.kind === 'chunk').map((r) => (r.kind === 'chunk' ? r.text : ''))).toEqual(['data: token 0\n\n']);
  });

  it('stopped as a navigation began that left the page where it was: when the hold is up both end as errors', async () => {
    page.posted.length = 0;
    page.handedOff.length = 0;
    const source = openedEventSource();
    const xhr = streamingXhr();
    setTimeoutSpy.mockClear();
    window.dispatchEvent(browserEvent(new Event('beforeunload')));
    firefoxStops(source, xhr);
    const hold = setTimeoutSpy.mock.calls.findLastIndex(([, ms]) => ms === tap.LEAVE_HOLD_MS);
    expect(hold).toBeGreaterThanOrEqual(0);
    clearTimeout(setTimeoutSpy.mock.results[hold].value as ReturnType<typeof setTimeout>);
    (setTimeoutSpy.mock.calls[hold][0] as () => void)(); // the hold's timer fires: the page is still here
    await vi.waitFor(() => expect(endsIn(page.posted)).toHaveLength(2));
    expect(endsIn(page.posted)).toEqual(expect.arrayContaining([{ state: 'error', error: SILENTLY_CLOSED }, { state: 'error', error: STOPPED_SILENTLY }]));
    expect(endsIn(page.handedOff)).toEqual([]);
  });

  it('ended by the page or completed, neither is ended again by a loadend or the leave check', async () => {
    page.posted.length = 0;
    page.handedOff.length = 0;
    const source = openedEventSource();
    source.close();
    const xhr = streamingXhr();
    Object.assign(xhr, { readyState: 4 });
    xhr.dispatchEvent(browserEvent(new Event('load')));
    xhr.dispatchEvent(browserEvent(new Event('loadend')));
    window.dispatchEvent(browserEvent(new Event('beforeunload')));
    window.dispatchEvent(browserEvent(new Event('pagehide')));
    await flushed();
    expect(endsIn(page.posted.concat(page.handedOff))).toEqual([{ state: 'cancelled', error: undefined }, { state: 'complete', error: undefined }]);
  });
});

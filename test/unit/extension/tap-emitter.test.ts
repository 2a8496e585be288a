// The tap's batching in a hidden page (emitter.ts): timers there run about once a second, so a hidden page's records
// go out at the end of the task that emitted them (woken through a private channel, not a timer), and a page turning
// hidden sends what waits at once. The page's globals are stand-ins installed before the tap's modules load, as the
// tap captures its built-ins at install.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageRecord, TapToRelay, WireRecord } from '../../../src/extension/messages.ts';
import { LEAVE_BATCH_EVENT } from '../../../src/extension/tap/handshake.ts';

let visibility: DocumentVisibilityState = 'visible';
class FakeDocument extends EventTarget {
  get visibilityState(): DocumentVisibilityState {
    return visibility;
  }
}
const setTimeoutSpy = vi.fn(globalThis.setTimeout);
const clearTimeoutSpy = vi.fn(globalThis.clearTimeout);
let TapEmitter: typeof import('../../../src/extension/tap/emitter.ts').TapEmitter;
let LEFT_PAGE: string;
let LEAVE_HOLD_MS: number;
let nextTask: () => Promise<void>;

beforeAll(async () => {
  vi.stubGlobal('Document', FakeDocument);
  vi.stubGlobal('document', new FakeDocument());
  vi.stubGlobal('window', Object.assign(new EventTarget(), { top: undefined }));
  vi.stubGlobal('setTimeout', setTimeoutSpy);
  vi.stubGlobal('clearTimeout', clearTimeoutSpy);
  vi.resetModules();
  ({ TapEmitter, LEFT_PAGE, LEAVE_HOLD_MS } = await import('../../../src/extension/tap/emitter.ts'));
  ({ nextTask } = await import('../../../src/extension/tap/natives.ts'));
});
// A window and a document of its own for each test: an emitter listens on both for good (as in a page), and on one
// shared pair every earlier test's emitter answered a later test's pagehide too (and Node warned of a listener leak).
beforeEach(() => {
  vi.stubGlobal('document', new FakeDocument());
  vi.stubGlobal('window', Object.assign(new EventTarget(), { top: undefined }));
});
afterAll(() => void vi.unstubAllGlobals());

/** An event as the browser fires it (`isTrusted`: a page script cannot make one). */
function browserEvent(type: string): Event {
  const event = new Event(type);
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

/** An emitter wired to a relay end that collects what it receives. */
function wired() {
  const emitter = new TapEmitter();
  const channel = new MessageChannel();
  const received: WireRecord[][] = [];
  let arrived: () => void = () => {};
  const seqs: (number | undefined)[] = [];
  channel.port2.onmessage = (e: MessageEvent<TapToRelay>) => {
    if (e.data.type === 'records') received.push(e.data.records);
    seqs.push(e.data.seq);
    arrived();
  };
  emitter.attachPort(channel.port1);
  const next = () => new Promise<void>((resolve) => (arrived = resolve));
  return { emitter, received, seqs, next, close: () => { channel.port1.close(); channel.port2.close(); } };
}

const record = (n: number): PageRecord => ({ kind: 'message', conn: 'c', t: n, type: 'message', data: String(n), lastEventId: '' });

describe('TapEmitter in a hidden page', () => {
  it('sends a hidden page\'s records at the end of the task that emitted them, in one batch, without a timer', async () => {
    visibility = 'hidden';
    const { emitter, received, next, close } = wired();
    setTimeoutSpy.mockClear();
    const got = next();
    for (let i = 0; i < 3; i++) emitter.emit(record(i));
    expect(received).toEqual([]); // not within the task
    await got;
    expect(received).toEqual([[record(0), record(1), record(2)]]);
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    close();
  });

  it('a visible page batches on its timer; turning hidden sends what waits at once', async () => {
    visibility = 'visible';
    const { emitter, received, next, close } = wired();
    setTimeoutSpy.mockClear();
    clearTimeoutSpy.mockClear();
    emitter.emit(record(1));
    expect(setTimeoutSpy).toHaveBeenCalledTimes(1);
    const got = next();
    visibility = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(clearTimeoutSpy).toHaveBeenCalledTimes(1); // the flush cancelled the (soon throttled) timer
    await got;
    expect(received).toEqual([[record(1)]]);
    close();
  });
});

/** A leave element attached to `emitter`: what the tap hands over on it as the page leaves, in order. */
function leaveNodeOf(emitter: InstanceType<typeof TapEmitter>): TapToRelay[] {
  const node = new EventTarget();
  const handedOff: TapToRelay[] = [];
  node.addEventListener(LEAVE_BATCH_EVENT, (e) => handedOff.push((e as CustomEvent<TapToRelay>).detail));
  emitter.attachLeaveNode(node as unknown as Element);
  return handedOff;
}

/** A visible page's emitter with a leave element, once a completed stream's batch went out on the port (at once). */
async function leavingAfterOneBatch() {
  visibility = 'visible';
  const wiring = wired();
  const handedOff = leaveNodeOf(wiring.emitter);
  const got = wiring.next();
  wiring.emitter.emit({ kind: 'end', conn: 'c', t: 0, state: 'complete' });
  await got;
  return { ...wiring, handedOff };
}

describe('TapEmitter as the page leaves', () => {
  it('what waits goes on the leave element before pagehide returns, numbered after the batches on the port', async () => {
    const { emitter, received, seqs, handedOff, close } = await leavingAfterOneBatch();
    expect(seqs).toEqual([0]);
    emitter.emit(record(1));
    // The page leaving aborts its streams just before pagehide: that end waits, a post now would never arrive.
    emitter.emit({ kind: 'end', conn: 'd', t: 2, state: 'aborted', error: 'AbortError' });
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff).toEqual([{ type: 'records', records: [record(1), { kind: 'end', conn: 'd', t: 2, state: 'aborted', error: 'AbortError' }], seq: 1 }]);
    expect(received).toHaveLength(1); // nothing more on the port
    close();
  });

  it('with nothing waiting, the page leaving still hands over a word: an empty batch, unnumbered, the next one keeps its number', async () => {
    // The relay's only news of the page leaving once a document.open() erased its own listeners (document-open.ts).
    const { emitter, received, seqs, handedOff, close } = await leavingAfterOneBatch(); // nothing waits after it
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff).toEqual([{ type: 'records', records: [] }]);
    // Back from the back/forward cache: numbering goes on where it was (a batch still on the port is not "late").
    emitter.emit(record(5));
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff[1]).toEqual({ type: 'records', records: [record(5)], seq: 1 });
    expect(received).toHaveLength(1);
    expect(seqs).toEqual([0]);
    close();
  });

  it('without a leave element (the relay did not take one) pagehide posts on the port as before', async () => {
    visibility = 'visible';
    const { emitter, received, next, close } = wired();
    emitter.emit(record(7));
    const got = next();
    window.dispatchEvent(browserEvent('pagehide'));
    await got;
    expect(received).toEqual([[record(7)]]);
    close();
  });

  it('a pagehide a page script dispatches hands nothing over: the batch waits for its timer, numbered in order', async () => {
    visibility = 'visible';
    const { emitter, received, seqs, next, close } = wired();
    const handedOff = leaveNodeOf(emitter);
    emitter.emit(record(3));
    const got = next();
    window.dispatchEvent(new Event('pagehide')); // untrusted: the page did not leave
    expect(handedOff).toEqual([]);
    await got;
    expect(received).toEqual([[record(3)]]);
    expect(seqs).toEqual([0]);
    close();
  });

  it('a stream error that came with the page leaving (no task between) is handed over as the page leaving, not a failure', () => {
    visibility = 'visible';
    const { emitter, close } = wired();
    const handedOff = leaveNodeOf(emitter);
    // The browser stops the document's loads as the next page commits: a fetch body fails, an EventSource closes.
    emitter.emit({ kind: 'end', conn: 'f', t: 1, state: 'error', error: 'TypeError: network error' });
    emitter.emit({ kind: 'end', conn: 'e', t: 2, state: 'error' });
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff.flatMap((m) => (m.type === 'records' ? m.records : []))).toEqual([
      { kind: 'end', conn: 'f', t: 1, state: 'aborted', error: `${LEFT_PAGE}; the browser ended the stream with "TypeError: network error"` },
      { kind: 'end', conn: 'e', t: 2, state: 'aborted', error: LEFT_PAGE },
    ]);
    close();
  });

  it('a stream error the page answered by leaving (a reload on failure: tasks later) stays an error', async () => {
    visibility = 'visible';
    const { emitter, close } = wired();
    const handedOff = leaveNodeOf(emitter);
    const failed = { kind: 'end', conn: 'f', t: 1, state: 'error', error: 'TypeError: network error' } as const;
    emitter.emit(failed);
    await nextTask(); // the page's event loop turned: the error was before the page began to leave
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff.flatMap((m) => (m.type === 'records' ? m.records : []))).toEqual([failed]);
    close();
  });
});

/** An emitter of a page in Firefox's build, wired, with what its pagehide hands over. */
function firefoxPage() {
  vi.stubEnv('MODE', 'firefox'); // the build's mode: the tap listens for beforeunload only in Firefox's
  visibility = 'visible';
  const wiring = wired();
  vi.unstubAllEnvs();
  return { ...wiring, handedOff: leaveNodeOf(wiring.emitter) };
}

/**
 * Fires now the hold the last beforeunload started (the latest timer of LEAVE_HOLD_MS; its real timer cleared), and
 * waits for the batch it sends. Call setTimeoutSpy.mockClear() before the beforeunload.
 */
async function expireHold(next: () => Promise<void>): Promise<void> {
  const hold = setTimeoutSpy.mock.calls.findLastIndex(([, ms]) => ms === LEAVE_HOLD_MS);
  expect(hold).toBeGreaterThanOrEqual(0);
  clearTimeout(setTimeoutSpy.mock.results[hold].value as ReturnType<typeof setTimeout>);
  const got = next();
  (setTimeoutSpy.mock.calls[hold][0] as () => void)(); // the hold's timer fires
  await got;
}

describe('TapEmitter as a page leaves in Firefox (loads stopped as the navigation begins)', () => {
  // Firefox fails every open fetch body right after beforeunload, tasks before pagehide (emitter.ts, onBeforeUnload).
  const stopped = { kind: 'end', conn: 'f', t: 1, state: 'error', error: 'TypeError: Error in input stream' } as const;

  it('a stream error after the page began to leave waits, and is handed over as the page leaving at pagehide', async () => {
    const { emitter, received, handedOff, next, close } = firefoxPage();
    window.dispatchEvent(browserEvent('beforeunload'));
    emitter.emit(stopped);
    emitter.emit(record(2)); // another connection's record still goes on its timer
    await next();
    expect(received).toEqual([[record(2)]]);
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff.flatMap((m) => (m.type === 'records' ? m.records : []))).toEqual([
      { ...stopped, state: 'aborted', error: `${LEFT_PAGE}; the browser ended the stream with "TypeError: Error in input stream"` },
    ]);
    close();
  });

  it('a page still here when the hold is up (the navigation cancelled) sends the error as it was', async () => {
    const { emitter, received, handedOff, next, close } = firefoxPage();
    setTimeoutSpy.mockClear();
    window.dispatchEvent(browserEvent('beforeunload'));
    emitter.emit(stopped);
    await expireHold(next);
    expect(received).toEqual([[stopped]]);
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff).toEqual([{ type: 'records', records: [] }]);
    close();
  });

  it('a beforeunload a page script dispatches holds nothing', async () => {
    const { emitter, received, next, close } = firefoxPage();
    window.dispatchEvent(new Event('beforeunload'));
    emitter.emit(stopped);
    await next();
    expect(received).toEqual([[stopped]]);
    close();
  });
});

describe('TapEmitter: a tap\'s check as a page leaves in Firefox (streams stopped without a word to the page)', () => {
  // An EventSource Firefox closes as the navigation begins fires no event: only a look at it finds it ended.
  const silent = { kind: 'end', conn: 's', t: 3, state: 'error', error: 'closed with no error event' } as const;
  function withCheck() {
    const wiring = firefoxPage();
    const stream = { stopped: false, ended: false };
    wiring.emitter.checkOnLeave(() => {
      if (!stream.stopped || stream.ended) return;
      stream.ended = true;
      wiring.emitter.emit(silent);
    });
    return { ...wiring, stream };
  }

  it('runs at pagehide: the stream it finds stopped is handed over as the page leaving', () => {
    const { handedOff, stream, close } = withCheck();
    window.dispatchEvent(browserEvent('beforeunload'));
    stream.stopped = true; // the browser stops it, telling nobody
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff.flatMap((m) => (m.type === 'records' ? m.records : []))).toEqual([
      { ...silent, state: 'aborted', error: `${LEFT_PAGE}; the browser ended the stream with "closed with no error event"` },
    ]);
    close();
  });

  it('runs when the hold is up with the page still here (the navigation cancelled): the stream ends as the error it is', async () => {
    const { received, handedOff, stream, next, close } = withCheck();
    setTimeoutSpy.mockClear();
    window.dispatchEvent(browserEvent('beforeunload'));
    stream.stopped = true;
    await expireHold(next);
    expect(received).toEqual([[silent]]);
    window.dispatchEvent(browserEvent('pagehide')); // later, the page leaves: nothing more of that stream
    expect(handedOff).toEqual([{ type: 'records', records: [] }]);
    close();
  });

  it('a stream still going when the page leaves is not ended by the check', () => {
    const { handedOff, close } = withCheck();
    window.dispatchEvent(browserEvent('beforeunload'));
    window.dispatchEvent(browserEvent('pagehide'));
    expect(handedOff).toEqual([{ type: 'records', records: [] }]);
    close();
  });
});

// The tap's batching in a hidden page (emitter.ts): timers there run about once a second, so a hidden page's records
// go out at the end of the task that emitted them (woken through a private channel, not a timer), and a page turning
// hidden sends what waits at once. The page's globals are stand-ins installed before the tap's modules load, as the
// tap captures its built-ins at install.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PageRecord, TapToRelay, WireRecord } from '../../../src/extension/messages.ts';

let visibility: DocumentVisibilityState = 'visible';
class FakeDocument extends EventTarget {
  get visibilityState(): DocumentVisibilityState {
    return visibility;
  }
}
const setTimeoutSpy = vi.fn(globalThis.setTimeout);
const clearTimeoutSpy = vi.fn(globalThis.clearTimeout);
let TapEmitter: typeof import('../../../src/extension/tap/emitter.ts').TapEmitter;

beforeAll(async () => {
  vi.stubGlobal('Document', FakeDocument);
  vi.stubGlobal('document', new FakeDocument());
  vi.stubGlobal('window', { top: undefined });
  vi.stubGlobal('setTimeout', setTimeoutSpy);
  vi.stubGlobal('clearTimeout', clearTimeoutSpy);
  vi.resetModules();
  ({ TapEmitter } = await import('../../../src/extension/tap/emitter.ts'));
});
afterAll(() => void vi.unstubAllGlobals());

/** An emitter wired to a relay end that collects what it receives. */
function wired() {
  const emitter = new TapEmitter();
  const channel = new MessageChannel();
  const received: WireRecord[][] = [];
  let arrived: () => void = () => {};
  channel.port2.onmessage = (e: MessageEvent<TapToRelay>) => {
    if (e.data.type === 'records') received.push(e.data.records);
    arrived();
  };
  emitter.attachPort(channel.port1);
  const next = () => new Promise<void>((resolve) => (arrived = resolve));
  return { emitter, received, next, close: () => { channel.port1.close(); channel.port2.close(); } };
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

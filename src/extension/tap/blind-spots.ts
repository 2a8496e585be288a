// What the tap cannot look into, said where it happens: a page that opens a WebSocket or starts a worker gets a
// notice (one per kind and URL, at most MAX_BLIND_SPOT_NOTICES per document), so a panel that shows no stream can say
// where the agent's stream may be instead. Nothing of the socket or the worker is recorded or changed.
//
// Subclasses, as for EventSource (eventsource-tap.ts): `new WebSocket(...)` still builds the browser's own object —
// the arguments go through untouched, so the browser validates them and throws exactly as it would (and then no
// notice is written) — and name, length, constants, `instanceof` and `toString` stay the native ones.
import { blindSpotNotice, MAX_BLIND_SPOT_NOTICES, type BlindSpot } from '../../core/capture/notices.ts';
import type { TapEmitter } from './emitter.ts';
import { mimic, now } from './natives.ts';

export function installBlindSpotTaps(emitter: TapEmitter): void {
  const told = new Set<string>();
  // Runs after the native constructor succeeded: whatever happens here (a page that redefined a getter, an odd URL
  // object) must not turn the page's successful `new` into an exception.
  const tell = (kind: BlindSpot, url: () => unknown): void => {
    try {
      if (!emitter.config.enabled || told.size >= MAX_BLIND_SPOT_NOTICES) return;
      const href = new URL(String(url()), document.baseURI).href;
      const key = `${kind} ${href.replace(/[?#].*/s, '')}`; // told once per address, whatever its query
      if (told.has(key)) return;
      told.add(key);
      emitter.emit({ kind: 'notice', t: now(), level: 'info', text: blindSpotNotice(kind, href) });
    } catch {
      // nothing to tell then
    }
  };

  const NativeWebSocket = globalThis.WebSocket;
  if (typeof NativeWebSocket === 'function') {
    class WebSocket extends NativeWebSocket {
      constructor(...args: ConstructorParameters<typeof NativeWebSocket>) {
        super(...args);
        tell('WebSocket', () => this.url);
      }
    }
    globalThis.WebSocket = mimic(WebSocket, NativeWebSocket) as typeof globalThis.WebSocket;
  }

  const NativeWorker = globalThis.Worker;
  if (typeof NativeWorker === 'function') {
    class Worker extends NativeWorker {
      constructor(...args: ConstructorParameters<typeof NativeWorker>) {
        super(...args);
        tell('Worker', () => args[0]);
      }
    }
    globalThis.Worker = mimic(Worker, NativeWorker) as typeof globalThis.Worker;
  }

  const NativeShared = (globalThis as { SharedWorker?: typeof SharedWorker }).SharedWorker;
  if (typeof NativeShared === 'function') {
    class SharedWorker extends NativeShared {
      constructor(...args: ConstructorParameters<typeof globalThis.SharedWorker>) {
        super(...args);
        tell('SharedWorker', () => args[0]);
      }
    }
    (globalThis as { SharedWorker?: typeof SharedWorker }).SharedWorker = mimic(SharedWorker, NativeShared);
  }
}

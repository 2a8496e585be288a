// What the tap cannot look into, said where it happens: a page that opens a WebSocket or starts a worker gets a
// notice (one per kind and URL, at most MAX_BLIND_SPOT_NOTICES per document), so a panel that shows no stream can say
// where the agent's stream may be instead. Nothing of the worker is recorded or changed; a socket is watched, and
// recorded once it carries agent events (websocket-tap.ts) — from its opening, without a note, when the include list
// names it.
//
// A Proxy of each constructor with only a `construct` trap: `new WebSocket(...)` builds the browser's own object from
// the untouched arguments (the browser validates them and throws exactly as it would — then no notice is written),
// and everything else reaches the native constructor: `prototype` (which libraries such as zone.js patch: a subclass,
// as eventsource-tap.ts needs for its overrides, would put a prototype of its own in between), name, length,
// constants, `instanceof`, a call without `new` and its TypeError, and `toString` ("[native code]").
import { blindSpotNotice, MAX_BLIND_SPOT_NOTICES, urlWithoutQuery, type BlindSpot } from '../../core/capture/notices.ts';
import type { TapEmitter } from './emitter.ts';
import { now } from './natives.ts';
import { watchWebSocket } from './websocket-tap.ts';

/** Taken at install, before page script could replace it. */
const construct = Reflect.construct;

export function installBlindSpotTaps(emitter: TapEmitter): void {
  const told = new Set<string>();
  // Runs after the native constructor succeeded: whatever happens here (a page that redefined a getter, an odd URL
  // object) must not turn the page's successful `new` into an exception.
  const tell = (kind: BlindSpot, url: () => unknown): void => {
    try {
      if (!emitter.config.enabled || told.size >= MAX_BLIND_SPOT_NOTICES) return;
      const href = new URL(String(url()), document.baseURI).href;
      const key = `${kind} ${urlWithoutQuery(href)}`; // told once per address, whatever its query
      if (told.has(key)) return;
      told.add(key);
      // (The Firefox build has no DevTools log of a worker's streams: devtools.ts.)
      const text = blindSpotNotice(kind, href, emitter.isSubframe ? location.href : undefined, import.meta.env.MODE !== 'firefox');
      emitter.emit({ kind: 'notice', t: now(), level: 'info', text });
    } catch {
      // nothing to tell then
    }
  };

  const g = globalThis as unknown as Record<BlindSpot, (new (...args: unknown[]) => object) | undefined>;
  for (const kind of ['WebSocket', 'Worker', 'SharedWorker'] as const) {
    const Native = g[kind];
    if (typeof Native !== 'function') continue;
    g[kind] = new Proxy(Native, {
      construct(target, args, newTarget) {
        const made = construct(target, args, newTarget) as { url?: unknown };
        let included = false;
        if (kind === 'WebSocket') {
          try {
            included = watchWebSocket(emitter, made as WebSocket);
          } catch {
            // (an odd page: the socket is then only told about)
          }
        }
        if (!included) tell(kind, () => (kind === 'WebSocket' ? made.url : args[0]));
        return made;
      },
    });
  }
}

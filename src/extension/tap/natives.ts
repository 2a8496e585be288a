// References to browser built-ins, taken when the tap is installed (document_start, before any page script).
// The tap calls these instead of the live globals so a page that later replaces `setTimeout`, `performance.now`
// or `MessagePort.prototype.postMessage` can neither break the tap nor see what it sends to the relay.
// (Deeper prototype poisoning — Array.prototype.push and friends — is out of reach for any MAIN-world script;
// the captured data is the page's own anyway. What matters is that the page cannot reach the private port.)

const perf = globalThis.performance;
const perfNow = perf.now;
const timeOrigin = perf.timeOrigin;

export const natives = {
  setTimeout: globalThis.setTimeout.bind(globalThis),
  clearTimeout: globalThis.clearTimeout.bind(globalThis),
  postMessage: MessagePort.prototype.postMessage,
  portStart: MessagePort.prototype.start,
  addEventListener: EventTarget.prototype.addEventListener,
  removeEventListener: EventTarget.prototype.removeEventListener,
  dispatchEvent: EventTarget.prototype.dispatchEvent,
  MessageChannel: globalThis.MessageChannel,
  MessageEvent: globalThis.MessageEvent,
  Event: globalThis.Event,
  MouseEvent: globalThis.MouseEvent,
  CustomEvent: globalThis.CustomEvent,
  createElement: typeof Document === 'undefined' ? undefined : Document.prototype.createElement,
  TextDecoder: globalThis.TextDecoder,
  TextEncoder: globalThis.TextEncoder,
  ReadableStream: globalThis.ReadableStream,
  Response: globalThis.Response,
  Request: globalThis.Request,
  Headers: globalThis.Headers,
  Map: globalThis.Map,
  btoa: globalThis.btoa.bind(globalThis),
  getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto),
  apply: Reflect.apply,
  defineProperty: Object.defineProperty,
  Promise: globalThis.Promise,
  promiseThen: Promise.prototype.then,
  jsonParse: JSON.parse,
  jsonStringify: JSON.stringify,
};

/** JSON.parse and JSON.stringify as taken at install, as the core's masking (credential-mask.ts) takes them. */
export const nativeJson = { parse: natives.jsonParse, stringify: natives.jsonStringify };

const visibilityGetter = typeof Document === 'undefined' ? undefined : Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState')?.get;

/** `document.visibilityState === 'hidden'`, through the getter as it was at install (a page cannot fake it to the tap). */
export function pageHidden(): boolean {
  return visibilityGetter !== undefined && typeof document !== 'undefined' && natives.apply(visibilityGetter, document, []) === 'hidden';
}

/** Epoch milliseconds with sub-millisecond resolution (performance.timeOrigin + performance.now()). */
export function now(): number {
  return timeOrigin + natives.apply(perfNow, perf, []);
}

/** Posts on a port through the saved prototype method (a page cannot intercept it by patching the prototype). */
export function postOn(port: MessagePort, message: unknown, transfer?: Transferable[]): void {
  natives.apply(natives.postMessage, port, transfer ? [message, transfer] : [message]);
}

let taskChannel: MessageChannel | undefined;
const taskWaiters: (() => void)[] = [];

/**
 * Resolves in a task of its own: a message on a private channel (not clamped like a zero timer, not throttled in a
 * hidden page like timers, invisible to the page). Waiters resolve in the order they asked.
 */
export function nextTask(): Promise<void> {
  if (!taskChannel) {
    const channel = new natives.MessageChannel();
    natives.apply(natives.addEventListener, channel.port1, ['message', () => taskWaiters.shift()?.()]);
    natives.apply(natives.portStart, channel.port1, []);
    // Node (unit tests): a listening port would keep the process alive. Browsers have no unref.
    (channel.port1 as unknown as { unref?: () => void }).unref?.();
    taskChannel = channel;
  }
  const port = taskChannel.port2;
  return new natives.Promise<void>((resolve) => {
    taskWaiters.push(resolve);
    postOn(port, null);
  });
}

/** A random hex token (frame token of connection ids). */
export function randomToken(bytes = 6): string {
  const buf = new Uint8Array(bytes);
  natives.getRandomValues(buf);
  let s = '';
  for (const b of buf) s += (b < 16 ? '0' : '') + b.toString(16);
  return s;
}

const nativeToString = Function.prototype.toString;

/**
 * Makes a replacement function look like the original: same `name` and `length` (feature detection, arity), and
 * `fn.toString()` answering with the original's "[native code]" text (libraries test that to detect polyfills).
 * `Function.prototype.toString.call(fn)` still tells the truth; patching that would reach into every function.
 */
export function mimic<F extends Function>(replacement: F, original: Function): F {
  natives.defineProperty(replacement, 'name', { value: original.name, configurable: true });
  natives.defineProperty(replacement, 'length', { value: original.length, configurable: true });
  const text = natives.apply(nativeToString, original, []) as string;
  const toString = { toString: () => text }.toString;
  natives.defineProperty(replacement, 'toString', { value: toString, configurable: true, writable: true });
  return replacement;
}

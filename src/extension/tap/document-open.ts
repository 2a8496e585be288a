// document.open() erases every event listener of the document, of its nodes and of its window (HTML's document open
// steps) — the tap's `pagehide` listener with them. A frame filled that way (a widget's about:blank iframe written
// with document.open/write, as chat widgets do) then lost the batch still waiting when it went away: the leave
// hand-off (handshake.ts) never ran, the stream ended a few reads short. So the tap wraps Document.prototype.open and
// listens again once the browser's open() has returned. The leave element is out of the document: its listener —
// the relay's — stays. (The relay's own window listeners go; the hand-off sends the relay's outbox itself.)
import type { TapEmitter } from './emitter.ts';
import { mimic, natives } from './natives.ts';

export function installDocumentOpenTap(emitter: TapEmitter): void {
  if (typeof Document === 'undefined') return;
  const proto = Document.prototype;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'open');
  if (typeof descriptor?.value !== 'function') return;
  const nativeOpen = descriptor.value as (...args: unknown[]) => unknown;
  const open = {
    open(this: Document, ...args: unknown[]): unknown {
      const result = natives.apply(nativeOpen, this, args); // first: its errors and its result are the page's
      // Only this frame's document: a page opens another frame's through that frame's own open, wrapped by its tap.
      if (this === document) {
        try {
          emitter.listen();
        } catch {
          // the page's open went through; only the hand-off is lost
        }
      }
      return result;
    },
  }.open;
  natives.defineProperty(proto, 'open', { ...descriptor, value: mimic(open, nativeOpen) });
}

// MAIN-world entry (document_start, every frame). Built as one classic IIFE with no imports (crx standaloneFiles):
// it must patch fetch/EventSource/XMLHttpRequest before the page's first script runs, so nothing here may be async.
// No zod, no extension APIs, no globals left behind.
import { installBlindSpotTaps } from './blind-spots.ts';
import { installDocumentOpenTap } from './document-open.ts';
import { TapEmitter } from './emitter.ts';
import { installEventSourceTap } from './eventsource-tap.ts';
import { installFetchTap } from './fetch-tap.ts';
import { LEAVE_NODE_EVENT, PORT_EVENT, RELAY_READY_EVENT } from './handshake.ts';
import { natives } from './natives.ts';
import { installWebSocketSendTap } from './websocket-tap.ts';
import { installXhrTap } from './xhr-tap.ts';

function handOverPort(emitter: TapEmitter): void {
  const channel = new natives.MessageChannel();
  const offer = (): boolean => {
    const event = new natives.MessageEvent(PORT_EVENT, { ports: [channel.port2], cancelable: true });
    // dispatchEvent returns false when the relay called preventDefault(): it has the port.
    return !natives.apply(natives.dispatchEvent, window, [event]);
  };
  if (offer()) {
    emitter.attachPort(channel.port1);
    handOverLeaveNode(emitter);
    return;
  }
  const onReady = (): void => {
    if (!offer()) return;
    natives.apply(natives.removeEventListener, window, [RELAY_READY_EVENT, onReady]);
    emitter.attachPort(channel.port1);
    handOverLeaveNode(emitter);
  };
  natives.apply(natives.addEventListener, window, [RELAY_READY_EVENT, onReady]);
}

/** Right after the port (still before page scripts): the element the last batch goes on as the page leaves (handshake.ts). */
function handOverLeaveNode(emitter: TapEmitter): void {
  if (!natives.createElement || !natives.MouseEvent || !natives.CustomEvent) return;
  const node = natives.apply(natives.createElement, document, ['span']) as Element;
  const event = new natives.MouseEvent(LEAVE_NODE_EVENT, { relatedTarget: node, cancelable: true });
  // false: the relay called preventDefault() — it listens on the element now.
  if (!natives.apply(natives.dispatchEvent, window, [event])) emitter.attachLeaveNode(node);
}

function install(): void {
  const emitter = new TapEmitter();
  handOverPort(emitter);
  installFetchTap(emitter);
  installEventSourceTap(emitter);
  installXhrTap(emitter);
  installBlindSpotTaps(emitter);
  installWebSocketSendTap();
  installDocumentOpenTap(emitter);
}

install();

// The panel's end of the DevTools log's channel (devtools-log.ts): asks for what the log holds, and hands each message
// on as the background's message for one more document of the tab (never its top one), so TabCapture keeps it like a
// relay's — dropped on navigation unless Preserve log, emptied by Clear. Where there is no DevTools page open on the
// tab nobody answers, and nothing changes.
import {
  acceptMessage, devtoolsLogChannel, devtoolsLogToPanelSchema, type BackgroundToPanel, type DevtoolsLogToPanel, type DropCounter,
  type PanelToDevtoolsLog,
} from './messages.ts';

export interface DevtoolsLogLink {
  clear(): void;
  close(): void;
}

/** No frame of the tab has this id: the log's document is told apart from the relays' by it and by its docId. */
export const DEVTOOLS_LOG_FRAME_ID = -1;

export function asBackgroundMessage(msg: DevtoolsLogToPanel): BackgroundToPanel {
  switch (msg.type) {
    case 'snapshot': {
      const { type: _t, ...doc } = msg;
      return { type: 'snapshot', frameId: DEVTOOLS_LOG_FRAME_ID, isTop: false, dropped: 0, ...doc };
    }
    case 'records':
      return msg;
    case 'gone':
      return { type: 'document-gone', docId: msg.docId, isTop: false };
  }
}

/** Undefined where extension pages have no BroadcastChannel (none is known; the panel then shows what the tap sees). */
export function listenToDevtoolsLog(
  tabId: number, take: (msg: BackgroundToPanel) => void, refused: () => void, drops: DropCounter,
): DevtoolsLogLink | undefined {
  if (typeof BroadcastChannel !== 'function') return undefined;
  const channel = new BroadcastChannel(devtoolsLogChannel(tabId));
  const send = (m: PanelToDevtoolsLog): void => channel.postMessage(m);
  channel.onmessage = (e: MessageEvent) => {
    const msg = acceptMessage(devtoolsLogToPanelSchema, e.data, drops, 'devtools log→panel');
    if (!msg) return refused();
    take(asBackgroundMessage(msg));
  };
  send({ type: 'want' });
  return { clear: () => send({ type: 'clear' }), close: () => channel.close() };
}

// The background's whole job: route between the relays of a tab and the panels watching it. It stores no capture
// (a service-worker restart must lose nothing): the maps below are only who-is-connected, rebuilt as ports return.
import {
  acceptMessage,
  DropCounter,
  panelToBackgroundSchema,
  relayToBackgroundSchema,
  type BackgroundToPanel,
  type BackgroundToRelay,
} from '../messages.ts';

/** Anything that receives a tab's capture: a panel's port, or the debug collector. */
export interface PanelSink {
  post(message: BackgroundToPanel): void;
}

interface RelayEntry {
  port: chrome.runtime.Port;
  frameId: number;
  isTop: boolean;
  docId: string;
}

interface TabRoute {
  panels: Set<PanelSink>;
  relays: Map<string, RelayEntry>;
}

export class Router {
  private readonly tabs = new Map<number, TabRoute>();
  readonly drops = new DropCounter();

  private route(tabId: number): TabRoute {
    let route = this.tabs.get(tabId);
    if (!route) {
      route = { panels: new Set(), relays: new Map() };
      this.tabs.set(tabId, route);
    }
    return route;
  }

  private toPanels(tabId: number, message: BackgroundToPanel): void {
    for (const panel of this.tabs.get(tabId)?.panels ?? []) panel.post(message);
  }

  /** Ask every frame of the tab to (re)send its capture. Frames without our content script just do not answer. */
  private broadcast(tabId: number, message: BackgroundToRelay): void {
    chrome.tabs.sendMessage(tabId, message).catch(() => undefined);
  }

  onRelayConnect(port: chrome.runtime.Port): void {
    const tabId = port.sender?.tab?.id;
    const frameId = port.sender?.frameId;
    if (tabId === undefined || tabId < 0 || frameId === undefined) {
      port.disconnect();
      return;
    }
    let entry: RelayEntry | undefined;
    port.onMessage.addListener((raw) => {
      const msg = acceptMessage(relayToBackgroundSchema, raw, this.drops, 'relay→background');
      if (!msg) return;
      const route = this.route(tabId);
      if (msg.type === 'records') {
        if (entry && msg.docId === entry.docId) this.toPanels(tabId, msg);
        else this.drops.note('relay→background', 'records before hello/snapshot');
        return;
      }
      entry = { port, frameId, isTop: msg.isTop, docId: msg.docId };
      route.relays.set(msg.docId, entry);
      if (msg.type === 'hello') {
        if (route.panels.size > 0) this.send(port, { type: 'attach' });
        else this.detach(tabId, msg.docId);
        return;
      }
      const { type: _type, ...rest } = msg;
      this.toPanels(tabId, { type: 'snapshot', frameId, ...rest });
    });
    port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      if (!entry) return;
      const route = this.tabs.get(tabId);
      if (!route || route.relays.get(entry.docId)?.port !== port) return;
      route.relays.delete(entry.docId);
      // The relay never hangs up on its own: its document went away (navigation, iframe removed, tab closed).
      this.toPanels(tabId, { type: 'document-gone', docId: entry.docId, isTop: entry.isTop });
      this.forgetIfIdle(tabId);
    });
  }

  private send(port: chrome.runtime.Port, message: BackgroundToRelay): void {
    try {
      port.postMessage(message);
    } catch {
      // port already gone
    }
  }

  /** Nobody watches: hang up on the relay so the service worker may sleep. */
  private detach(tabId: number, docId: string): void {
    const route = this.tabs.get(tabId);
    const entry = route?.relays.get(docId);
    if (!route || !entry) return;
    route.relays.delete(docId);
    entry.port.disconnect();
    this.forgetIfIdle(tabId);
  }

  private forgetIfIdle(tabId: number): void {
    const route = this.tabs.get(tabId);
    if (route && route.panels.size === 0 && route.relays.size === 0) this.tabs.delete(tabId);
  }

  /** A panel (or the debug collector) starts watching `tabId`; it gets snapshots from every document, then live. */
  addPanel(tabId: number, panel: PanelSink): () => void {
    this.route(tabId).panels.add(panel);
    this.broadcast(tabId, { type: 'attach' });
    this.probeTop(tabId);
    this.watchLoads();
    return () => this.removePanel(tabId, panel);
  }

  private removePanel(tabId: number, panel: PanelSink): void {
    const route = this.tabs.get(tabId);
    if (!route) return;
    route.panels.delete(panel);
    if (route.panels.size === 0) for (const docId of [...route.relays.keys()]) this.detach(tabId, docId);
    this.forgetIfIdle(tabId);
    this.watchLoads();
  }

  /**
   * While someone watches a tab, a page that finished loading there is asked for its snapshot, so the panel knows
   * every document — also those that capture nothing (a site switched off, a page without streams yet). The
   * listener exists only while panels are open, so idle browsing never wakes the service worker.
   */
  private readonly onTabUpdated = (tabId: number, info: chrome.tabs.OnUpdatedInfo): void => {
    if (info.status !== 'complete' || (this.tabs.get(tabId)?.panels.size ?? 0) === 0) return;
    this.broadcast(tabId, { type: 'attach' });
    this.probeTop(tabId);
  };

  /**
   * Asks the top frame's relay to answer; no answer means nothing in this page can be captured, and the panel says
   * so instead of waiting for streams that will never show (e.g. every tab that was open when the extension was
   * reloaded or updated: MV3 does not inject content scripts into existing pages).
   */
  private probeTop(tabId: number): void {
    const ping: BackgroundToRelay = { type: 'ping' };
    chrome.tabs.sendMessage(tabId, ping, { frameId: 0 }).then(
      (answer: unknown) => this.toPanels(tabId, { type: 'page-reach', reachable: answer !== undefined }),
      () => this.toPanels(tabId, { type: 'page-reach', reachable: false }),
    );
  }

  private watchLoads(): void {
    const anyPanel = [...this.tabs.values()].some((r) => r.panels.size > 0);
    const listening = chrome.tabs.onUpdated.hasListener(this.onTabUpdated);
    if (anyPanel && !listening) chrome.tabs.onUpdated.addListener(this.onTabUpdated);
    if (!anyPanel && listening) chrome.tabs.onUpdated.removeListener(this.onTabUpdated);
  }

  onPanelConnect(port: chrome.runtime.Port, tabId: number): void {
    const sink: PanelSink = {
      post: (message) => {
        try {
          port.postMessage(message);
        } catch {
          // the panel closed; onDisconnect cleans up
        }
      },
    };
    const remove = this.addPanel(tabId, sink);
    port.onMessage.addListener((raw) => {
      const msg = acceptMessage(panelToBackgroundSchema, raw, this.drops, 'panel→background');
      if (!msg) return;
      if (msg.type === 'clear') this.clearTab(tabId);
      else this.broadcast(tabId, { type: 'attach' });
    });
    port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      remove();
    });
  }

  /** Every document of the tab forgets its capture (and, when watched, sends its fresh, empty-ish snapshot). */
  clearTab(tabId: number): void {
    this.broadcast(tabId, { type: 'clear' });
  }

  /** For tests and diagnostics: which tabs have relays/panels right now. */
  describe(): { tabId: number; panels: number; relays: number }[] {
    return [...this.tabs.entries()].map(([tabId, r]) => ({ tabId, panels: r.panels.size, relays: r.relays.size }));
  }
}

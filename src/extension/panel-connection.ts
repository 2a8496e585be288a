// The panel's client for one inspected tab. Works in the DevTools panel and in a normal extension tab alike (it
// only uses runtime.connect, storage and tabs events, which both have).
//
//   const conn = connectToTab(tabId, {
//     onSnapshot(records, header) {}, // replace everything you have: records of every document of the tab, in order
//     onRecords(records) {},          // append: live records (after a snapshot)
//     onStatus(status) {},            // human-readable state line + details (site on/off, reconnecting, invalid msgs)
//   });
//   conn.clear(); conn.setPreserveLog(true); await conn.setSiteEnabled(false); await conn.setIncludeUrls(['/api/*']);
//   await conn.setCaptureLimit(128 * 1024 * 1024);
//   conn.close();
//
// Guarantees: a snapshot always precedes the records appended to it; after a service-worker restart the client
// reconnects by itself and delivers a fresh snapshot that contains everything captured meanwhile (the capture lives
// in the pages). onSnapshot is also called when documents are dropped (navigation without preserve log, clear).
import type { CaptureHeader, CaptureRecord } from '../core/capture/model.ts';
import { acceptMessage, backgroundToPanelSchema, DropCounter, type BackgroundToPanel, type PanelToBackground } from './messages.ts';
import { listenToDevtoolsLog } from './devtools-log-link.ts';
import { PanelCompaction } from './panel-compaction.ts';
import {
  DEFAULT_CAPTURE_LIMIT_BYTES, parseSettings, readSettings, SETTINGS_KEYS, setCaptureLimit as storeCaptureLimit, setIncludeUrls as storeIncludeUrls,
  setSiteEnabled as storeSiteEnabled,
} from './settings.ts';
import { TabCapture } from './tab-capture.ts';

export interface ConnectionStatus {
  /** One line for the status bar. */
  text: string;
  connected: boolean;
  /** Top-level origin of the inspected page (the key of the per-site switch), once known. */
  siteOrigin?: string;
  siteEnabled: boolean;
  preserveLog: boolean;
  /** Messages refused by a hop (relay or this client) because they failed validation, and records a relay's store
   *  refused as inconsistent (see the relay's snapshot, messages.ts). */
  invalidMessages: number;
  /** false: the inspected page runs no relay (loaded before the extension, or a page extensions cannot read). */
  pageReachable?: boolean;
  /** Patterns on the include list, kept current (a change from another panel or window shows at once); unset until read. */
  includeCount?: number;
  /** The user's capture cap (bytes), kept current like includeCount; unset until read. */
  captureLimitBytes?: number;
  /** The inspected tab was closed (a panel opened as a tab outlives it): what it captured stays shown. */
  tabClosed?: boolean;
}

export const PAGE_UNREACHABLE =
  'Replyscope is not running in this page — reload it to capture its streams';

export const TAB_CLOSED = 'The inspected tab was closed — what it captured stays here until this panel closes';

export interface TabConnectionHandlers {
  onSnapshot(records: CaptureRecord[], header: CaptureHeader): void;
  onRecords(records: CaptureRecord[]): void;
  onStatus?(text: string, status: ConnectionStatus): void;
}

export interface TabConnection {
  close(): void;
  clear(): void;
  setPreserveLog(on: boolean): void;
  /** Switches capture on/off for the inspected page's top-level origin (stored; applies to all its tabs). */
  setSiteEnabled(on: boolean): Promise<void>;
  setIncludeUrls(patterns: string[]): Promise<void>;
  /** The stored include list (URL patterns captured whatever their content type; sockets from their opening). */
  includeUrls(): Promise<string[]>;
  /**
   * Stores the per-tab capture cap (bytes, settings.ts bounds; out of them it rejects). Every relay and this client's
   * compaction follow the stored value at once: a capture holding more evicts its oldest data then.
   */
  setCaptureLimit(bytes: number): Promise<void>;
  /** The stored capture cap (bytes). */
  captureLimit(): Promise<number>;
  status(): ConnectionStatus;
}

export const TOOL_NAME = 'replyscope 0.1.0';
const RECONNECT_DELAY_MS = 250;

export function connectToTab(tabId: number, handlers: TabConnectionHandlers): TabConnection {
  if (!Number.isInteger(tabId) || tabId < 0) throw new Error(`connectToTab: tabId must be a tab id, got ${String(tabId)}`);
  const capture = new TabCapture();
  const drops = new DropCounter();
  let port: chrome.runtime.Port | undefined;
  let closed = false;
  let connected = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let pageReachable: boolean | undefined;
  let includeCount: number | undefined;
  let captureLimitBytes: number | undefined;
  let tabClosed = false;
  const compaction = new PanelCompaction(DEFAULT_CAPTURE_LIMIT_BYTES);

  const header = (): CaptureHeader => ({
    kind: 'header',
    format: 'replyscope-capture',
    version: 1,
    tool: TOOL_NAME,
    created: new Date().toISOString(),
    ...(capture.topDocument() ? { pageUrl: capture.topDocument()?.frameUrl } : {}),
    ...(globalThis.navigator?.userAgent ? { browser: globalThis.navigator.userAgent } : {}),
  });

  const status = (): ConnectionStatus => {
    const top = capture.topDocument();
    const siteEnabled = top?.siteEnabled ?? true;
    const invalid = capture.dropped() + drops.total();
    let text = tabClosed
      ? TAB_CLOSED
      : !connected
      ? 'Disconnected from the extension — reconnecting…'
      : pageReachable === false
        ? PAGE_UNREACHABLE
      : top && !siteEnabled
        ? `Capture is off for ${top.siteOrigin}`
        : top
          ? `Capturing ${top.siteOrigin}`
          : 'Connected — waiting for agent streams';
    if (invalid) text += ` · ${invalid} invalid ${invalid === 1 ? 'message or record' : 'messages or records'} dropped`;
    return {
      text, connected, siteOrigin: top?.siteOrigin, siteEnabled, preserveLog: capture.preserveLog, invalidMessages: invalid,
      ...(pageReachable !== undefined ? { pageReachable } : {}),
      ...(includeCount !== undefined ? { includeCount } : {}),
      ...(captureLimitBytes !== undefined ? { captureLimitBytes } : {}),
      ...(tabClosed ? { tabClosed } : {}),
    };
  };
  const emitStatus = (): void => {
    const s = status();
    handlers.onStatus?.(s.text, s);
  };
  const emitSnapshot = (): void => {
    const records = capture.records();
    compaction.snapshotSent(records);
    handlers.onSnapshot(records, header());
  };

  /** The capture kept here, as compaction looks at it: pages preserve-log kept let go first (oldest first). */
  const keptCapture = (): CaptureRecord[] => {
    capture.dropOldestGone(compaction.goneBudget, Date.now());
    return capture.records();
  };

  const send = (message: PanelToBackground): void => {
    try {
      port?.postMessage(message);
    } catch {
      // disconnected; the reconnect resyncs
    }
  };

  /** A message of the tab's capture: the background's, or the DevTools page's log as one more document. */
  const take = (msg: BackgroundToPanel): void => {
    if (msg.type === 'page-reach') {
      pageReachable = msg.reachable;
      return emitStatus();
    }
    const change = capture.apply(msg);
    if (!change) return;
    if (change.kind === 'append') {
      handlers.onRecords(change.records);
      // Past the cap the panel's copy would grow without bound: hand it the capture kept here (panel-compaction.ts).
      if (compaction.appended(change.records, keptCapture)) emitSnapshot();
    } else {
      emitSnapshot();
      emitStatus();
    }
  };

  const connect = (): void => {
    retry = undefined;
    if (closed) return;
    const p = chrome.runtime.connect({ name: `panel:${tabId}` });
    port = p;
    connected = true;
    p.onMessage.addListener((raw) => {
      const msg = acceptMessage(backgroundToPanelSchema, raw, drops, 'background→panel');
      if (!msg) return emitStatus();
      take(msg);
    });
    p.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      if (port !== p) return;
      port = undefined;
      connected = false;
      if (closed) return;
      emitStatus();
      // The service worker stopped (or was updated): come back; the pages still hold the capture.
      retry = setTimeout(connect, RECONNECT_DELAY_MS);
    });
    emitStatus();
  };

  const onTabUpdated = (id: number, info: chrome.tabs.OnUpdatedInfo): void => {
    if (id !== tabId || info.status !== 'loading') return;
    capture.topNavigated();
    emitSnapshot();
  };
  chrome.tabs?.onUpdated?.addListener(onTabUpdated);
  // (Only a panel opened as a tab sees this: DevTools closes with its tab.)
  const onTabRemoved = (id: number): void => {
    if (id !== tabId || tabClosed) return;
    tabClosed = true;
    emitStatus();
  };
  chrome.tabs?.onRemoved?.addListener(onTabRemoved);

  // The include list's size and the cap for the toolbar: read once, then followed in storage (any panel, any window
  // may edit them). The cap also bounds this client's compaction.
  const setIncludeCount = (n: number): void => {
    if (closed || n === includeCount) return;
    includeCount = n;
    emitStatus();
  };
  const setCap = (bytes: number): void => {
    if (closed || bytes === captureLimitBytes) return;
    captureLimitBytes = bytes;
    compaction.setCap(bytes);
    emitStatus();
  };
  const onStorageChanged = (changes: Record<string, chrome.storage.StorageChange>, area: string): void => {
    if (area !== 'local') return;
    const cap = changes[SETTINGS_KEYS.captureLimitBytes];
    if (cap) setCap(parseSettings({ [SETTINGS_KEYS.captureLimitBytes]: cap.newValue }).captureLimitBytes);
    const change = changes[SETTINGS_KEYS.includeUrls];
    if (!change) return;
    setIncludeCount(parseSettings({ [SETTINGS_KEYS.includeUrls]: change.newValue }).includeUrls.length);
  };
  chrome.storage?.onChanged?.addListener(onStorageChanged);
  // A change seen before this first read resolves is newer than what the read may have found: it wins.
  readSettings().then((s) => {
    if (captureLimitBytes === undefined) setCap(s.captureLimitBytes);
    if (includeCount === undefined) setIncludeCount(s.includeUrls.length);
  }, () => undefined);

  connect();
  // The streams DevTools saw that the tap cannot (a Worker's), while DevTools is open on the tab (devtools-log.ts).
  const devtoolsLog = listenToDevtoolsLog(tabId, take, () => emitStatus(), drops);

  return {
    close() {
      closed = true;
      if (retry !== undefined) clearTimeout(retry);
      chrome.tabs?.onUpdated?.removeListener(onTabUpdated);
      chrome.tabs?.onRemoved?.removeListener(onTabRemoved);
      chrome.storage?.onChanged?.removeListener(onStorageChanged);
      devtoolsLog?.close();
      port?.disconnect();
      port = undefined;
    },
    clear() {
      capture.clear();
      emitSnapshot();
      send({ type: 'clear' });
      devtoolsLog?.clear();
    },
    setPreserveLog(on) {
      capture.preserveLog = on;
      emitStatus();
    },
    async setSiteEnabled(on) {
      const origin = capture.topDocument()?.siteOrigin;
      if (!origin) throw new Error('The inspected page has not reported its origin yet (no capture from its top frame).');
      await storeSiteEnabled(origin, on);
    },
    async setIncludeUrls(patterns) {
      await storeIncludeUrls(patterns);
      send({ type: 'resync' });
    },
    async includeUrls() {
      return (await readSettings()).includeUrls;
    },
    // No message: the relays follow the stored cap themselves (relay.ts applies it, evicting what no longer fits: a
    // watching panel is sent the eviction records, not its capture anew), as the background's tab budget reads it for
    // each report. This client's compaction follows it too (setCap): a panel already holding 3× the new cap is handed
    // the kept capture as the next records reach it (the eviction's, then its digest's: panel-compaction.ts), one
    // holding less keeps what it shows.
    async setCaptureLimit(bytes) {
      await storeCaptureLimit(bytes);
    },
    async captureLimit() {
      return (await readSettings()).captureLimitBytes;
    },
    status,
  };
}

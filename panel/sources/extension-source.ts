// The live source: the capture of one inspected tab, through the extension's panel connection
// (src/extension/panel-connection.ts: a snapshot of everything captured so far, then live records).
import type { TabConnection as FullTabConnection, TabConnectionHandlers } from '../../src/extension/panel-connection.ts';
import type { PanelSource, SourceSink } from './source.ts';

/**
 * The slice of `connectToTab` the panel uses, typed from the extension's own declarations (a copy of them here had
 * to be kept in step by hand): the panel and its tests need no `status()` poll, the status comes to `onStatus`.
 */
export type TabConnection = Omit<FullTabConnection, 'status'>;
export type ConnectToTab = (tabId: number, handlers: Required<TabConnectionHandlers>) => TabConnection;

/** `host`: the panel runs inside DevTools, or opened as a tab (main.tsx tells them apart). */
export function createExtensionSource(tabId: number, connectToTab: ConnectToTab, host: 'devtools' | 'tab' = 'tab'): PanelSource {
  let conn: TabConnection | undefined;
  // Preserve-log may be toggled before the connection exists; remember it and apply on connect.
  let preserve = false;
  /** The tab's connection, for the settings the panel reads and writes through it (an async call rejects without one). */
  const connected = () => {
    if (!conn) throw new Error('Not connected to the tab yet');
    return conn;
  };
  return {
    kind: 'extension',
    host,
    // Nothing: the toolbar showed "tab 1369761062", the browser's internal id, which tells the user nothing.
    label: '',
    connect(sink: SourceSink) {
      conn = connectToTab(tabId, {
        onSnapshot: (records, header) => sink.reset(header, records),
        onRecords: (records) => sink.append(records),
        onStatus: (text, st) =>
          sink.status(text, st.connected && st.pageReachable !== false ? 'info' : 'error', {
            preserveLog: st.preserveLog,
            siteEnabled: st.siteEnabled,
            ...(st.siteOrigin ? { siteOrigin: st.siteOrigin } : {}),
            ...(st.pageReachable !== undefined ? { pageReachable: st.pageReachable } : {}),
            ...(st.includeCount !== undefined ? { includeCount: st.includeCount } : {}),
            ...(st.captureLimitBytes !== undefined ? { captureLimitBytes: st.captureLimitBytes } : {}),
            ...(st.tabClosed ? { tabClosed: true } : {}),
          }),
      });
      if (preserve) conn.setPreserveLog(true);
    },
    disconnect() {
      conn?.close();
      conn = undefined;
    },
    live: {
      clear: () => conn?.clear(),
      setPreserveLog: (on) => {
        preserve = on;
        conn?.setPreserveLog(on);
      },
      setSiteEnabled: async (on) => void (await connected().setSiteEnabled(on)),
      includeUrls: async () => connected().includeUrls(),
      setIncludeUrls: async (patterns) => void (await connected().setIncludeUrls(patterns)),
      captureLimit: async () => connected().captureLimit(),
      setCaptureLimit: async (bytes) => void (await connected().setCaptureLimit(bytes)),
    },
  };
}

// Where the panel's records come from. The app is a pure function of a source (preact-devtools' "inline shell"
// idea): the DevTools panel and the tab hand it the extension source, the standalone viewer hands it the viewer
// source, tests can hand it anything that implements this interface.
import type { CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';

export interface SourceSink {
  /**
   * Replace everything with this capture (first snapshot, or after a navigation without "preserve log"); `file`: the
   * file it was read from (the viewer's preloaded one).
   */
  reset(header: CaptureHeader | undefined, records: CaptureRecord[], file?: string): void;
  /** New records, in arrival order. May be called thousands of times a second; the store coalesces. */
  append(records: CaptureRecord[]): void;
  /** A one-line status for the toolbar (connection lost, snapshot received…), plus live switches' state. */
  status(text: string, level?: 'info' | 'error', live?: LiveState): void;
  /** Resolves once everything handed over so far is analysed (analysis runs in slices after `reset`/`append`). */
  idle?(): Promise<void>;
}

/** State of the live capture's switches, as the extension reports it. */
export interface LiveState {
  preserveLog?: boolean;
  siteEnabled?: boolean;
  siteOrigin?: string;
  /** false: the inspected page runs no capture (loaded before the extension, or a page extensions cannot read). */
  pageReachable?: boolean;
  /** Patterns on the include list (see LiveControls.includeUrls), as the extension last reported. */
  includeCount?: number;
  /** The per-tab capture cap in bytes (see LiveControls.captureLimit), as the extension last reported. */
  captureLimitBytes?: number;
  /** The inspected tab was closed (the panel opened as a tab outlives it): nothing more will come. */
  tabClosed?: boolean;
}

/** Controls only a live capture has. */
export interface LiveControls {
  clear(): void;
  setPreserveLog(on: boolean): void;
  /** Capture on/off for the inspected page's site (stored by the extension). */
  setSiteEnabled?(on: boolean): Promise<void>;
  /** The include list: URL patterns captured whatever their content type, sockets from their opening (stored). */
  includeUrls?(): Promise<string[]>;
  setIncludeUrls?(patterns: string[]): Promise<void>;
  /** The per-tab capture cap in bytes (stored for every tab); past it a capture evicts its oldest data. */
  captureLimit?(): Promise<number>;
  /** Stores the cap: every capture follows it at once (one holding more evicts down to it). Rejects out of bounds. */
  setCaptureLimit?(bytes: number): Promise<void>;
}

export interface PanelSource {
  readonly kind: 'extension' | 'viewer';
  /**
   * Where an extension source's panel runs: in DevTools, or opened as a tab (panel/index.html?tabId=N) — what it says
   * to an empty capture differs ("before DevTools was opened" means nothing in a tab). Unset: a tab.
   */
  readonly host?: 'devtools' | 'tab';
  /** Shown in the toolbar when not empty: "viewer" (a live panel shows none — its tab's id meant nothing to a user). */
  readonly label: string;
  connect(sink: SourceSink): void;
  disconnect(): void;
  readonly live?: LiveControls;
}

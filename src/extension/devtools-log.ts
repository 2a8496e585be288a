// The DevTools page's log of the streams the page tap cannot see. Content scripts do not run in workers, so a stream a
// Worker reads never reaches a relay; DevTools lists it all the same, and hands it to this page once it has finished
// (chrome.devtools.network.onRequestFinished). What is a stream is kept here as one document of the tab (records of
// the capture log's kinds, core/capture/devtools-entry.ts) and offered to the tab's panels — in DevTools or opened as
// a tab — over a BroadcastChannel between extension pages (messages.ts): a panel asks (`want`) and gets a snapshot,
// then each new stream as it finishes. A request with the tap's script on its initiator stack is the tap's and is not
// kept; the panel drops any other the tap captured too (withoutTapTwins).
//
// Bounded like a relay's capture: past the user's cap the oldest streams go whole (a note counts them). A site
// switched off is not logged. Nothing here reaches the page.
import type { PageRecord } from '../core/capture/model.ts';
import { DEVTOOLS_CONN_PREFIX, devtoolsEntryRecords, initiatorUrls, type EntryContent } from '../core/capture/devtools-entry.ts';
import { dataBytes } from './panel-compaction.ts';
import { acceptMessage, DropCounter, panelToDevtoolsLogSchema, type DevtoolsLogWire } from './messages.ts';
import type { CaptureSettings } from './settings.ts';

/** What the log needs of its surroundings (the DevTools page gives chrome's; tests their own). */
export interface DevtoolsLogSurroundings {
  post(message: DevtoolsLogWire): void;
  /** How this extension's script URLs begin: a request with the tap's script on its initiator stack is the tap's. */
  extensionUrl: string;
  settings(): Promise<CaptureSettings>;
  now(): number;
}

interface LoggedStream {
  records: PageRecord[];
  bytes: number;
}

export class DevtoolsLog {
  readonly drops = new DropCounter();
  private docId = '';
  private pageUrl = '';
  private streams: LoggedStream[] = [];
  private letGo = { count: 0, t: 0 };
  private nextConn = 1;
  /** The tab's navigations so far: a request whose body was still being read as it navigated is not filed under the next page. */
  private page = 0;
  /** Settled once the inspected page's URL is known (a request may finish before DevTools told it). */
  private readonly pageKnown: Promise<void>;
  private knowPage = (): void => undefined;

  constructor(private readonly around: DevtoolsLogSurroundings) {
    this.pageKnown = new Promise((resolve) => (this.knowPage = resolve));
  }

  /** The inspected tab shows `url` (DevTools opened on it, or it navigated): earlier streams belong to the page left. */
  navigated(url: string): void {
    if (this.docId) this.around.post({ type: 'gone', docId: this.docId });
    this.page += 1;
    this.docId = `${DEVTOOLS_CONN_PREFIX}${Math.random().toString(36).slice(2, 10)}`;
    this.pageUrl = url;
    this.streams = [];
    this.letGo = { count: 0, t: 0 };
    this.knowPage();
    void this.snapshot();
  }

  /** A request finished: kept when it is a stream (its body read through `content` only then) and its site is on. */
  async finished(entry: unknown, content: () => Promise<EntryContent>): Promise<void> {
    await this.pageKnown;
    const page = this.page;
    const stack = initiatorUrls(entry);
    if (stack.some((u) => u.startsWith(this.around.extensionUrl))) return; // made through the tap's wrappers: captured
    const frameUrl = stack[0] ?? this.pageUrl;
    const id = `${DEVTOOLS_CONN_PREFIX}${this.docId.slice(DEVTOOLS_CONN_PREFIX.length)}.${this.nextConn++}`;
    if (devtoolsEntryRecords(entry, {}, id, frameUrl).length === 0) return; // no stream: its body is not asked for
    const [body, settings] = await Promise.all([content().catch((): EntryContent => ({})), this.around.settings()]);
    if (page !== this.page || !this.siteEnabled(settings)) return;
    const records = devtoolsEntryRecords(entry, body, id, frameUrl);
    if (records.length === 0) return;
    this.streams.push({ records, bytes: dataBytes(records) });
    if (this.fit(settings.captureLimitBytes)) void this.snapshot();
    else this.around.post({ type: 'records', docId: this.docId, records: wireRecords(records) });
  }

  /** A message from a panel on the channel. */
  receive(raw: unknown): void {
    const msg = acceptMessage(panelToDevtoolsLogSchema, raw, this.drops, 'panel→devtools log');
    if (!msg) return;
    if (msg.type === 'clear') {
      this.streams = [];
      this.letGo = { count: 0, t: 0 };
    }
    void this.snapshot();
  }

  private siteEnabled(settings: CaptureSettings): boolean {
    return !settings.disabledSites.includes(originOf(this.pageUrl));
  }

  /** Lets the oldest streams go while the log holds more than `cap` bytes of data (the newest stays); true if any went. */
  private fit(cap: number): boolean {
    let held = 0;
    for (const s of this.streams) held += s.bytes;
    let gone = 0;
    while (held > cap && this.streams.length - gone > 1) held -= this.streams[gone++].bytes;
    if (gone === 0) return false;
    this.streams = this.streams.slice(gone);
    this.letGo = { count: this.letGo.count + gone, t: this.around.now() };
    return true;
  }

  private async snapshot(): Promise<void> {
    if (!this.docId) return;
    const docId = this.docId;
    const settings = await this.around.settings();
    if (docId !== this.docId) return; // (navigated meanwhile: that page's snapshot follows)
    const records: PageRecord[] = [];
    if (this.letGo.count > 0) {
      const n = this.letGo.count;
      records.push({ kind: 'notice', t: this.letGo.t, level: 'info', text: `DevTools' network log: the ${n === 1 ? 'oldest stream was' : `${n} oldest streams were`} let go to stay within the capture's memory cap` });
    }
    for (const s of this.streams) for (const r of s.records) records.push(r);
    this.around.post({ type: 'snapshot', docId, frameUrl: this.pageUrl, siteOrigin: originOf(this.pageUrl), siteEnabled: this.siteEnabled(settings), records: wireRecords(records) });
  }
}

/** An unknown time (NaN: a body DevTools kept no event times for) crosses as null, as a capture log writes it. */
function wireRecords(records: readonly PageRecord[]): WireRecords {
  return records.map((r) => ('t' in r && Number.isNaN(r.t) ? { ...r, t: null } : r)) as WireRecords;
}
type WireRecords = Extract<DevtoolsLogWire, { type: 'records' }>['records'];

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

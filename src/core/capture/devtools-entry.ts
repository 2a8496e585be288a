// A request the page tap could not see, read from DevTools' network log: a stream a Worker read is the case in point —
// content scripts do not run in workers, but DevTools lists their requests with the page's, and hands an extension's
// DevTools page each one once it has finished (chrome.devtools.network.onRequestFinished: a HAR entry, its body
// through getContent). Such an entry is read as the HAR import reads a browser's (har-import-browser.ts: only streams,
// credentials masked as the tap masks them, an event stream's chunks at its events' times), its connection named as
// the log's own and marked with a note saying where it came from.
//
// The log lists every request of the tab, those the tap captured too. Where the page's script called the tap's
// wrappers (fetch, XHR, EventSource), the tap's own script is on the request's initiator stack: the DevTools page
// skips those. What is left twice (a stack DevTools did not keep) `withoutTapTwins` drops: a log connection that
// a tap connection already holds — the same method and URL, started within TWIN_WINDOW_MS of it (each tap connection
// answers for one log connection at most, the nearest in time). Pure: the DevTools page and the panel call it.
import type { CaptureRecord, ConnectionRecord, PageRecord } from './model.ts';
import { browserEntries, ES_BODY_LEFT_NOTE } from './har-import-browser.ts';
import { ImportMasking } from './har-import-mask.ts';

/** How a DevTools log connection's id begins (a tap's is `<frame token>:<n>`, its token letters and digits). */
export const DEVTOOLS_CONN_PREFIX = 'devtools-log:';

export const isDevtoolsConn = (id: string): boolean => id.startsWith(DEVTOOLS_CONN_PREFIX);

/** The note on each connection read from DevTools' network log. */
export const DEVTOOLS_LOG_NOTICE =
  "Read from DevTools' network log once the request had finished: the page's capture has no such request — it was " +
  'made where the page tap cannot look (a Worker). Its body is what DevTools kept; when each part came is known only ' +
  "where DevTools kept an event stream's events with their times.";

/**
 * How far apart the tap's start of a request (the page's clock: performance.timeOrigin + now()) and DevTools' (the
 * browser's wall clock as the request went out) may be for one request: a few milliseconds measured, and a page's
 * clock can drift from the wall clock over a long life. Two requests of one URL within this window, one from the page
 * and one from a worker, are told apart by time order (the nearest pair).
 */
export const TWIN_WINDOW_MS = 3000;

/** What getContent gave for the entry's body (`encoding` 'base64' for bytes), or nothing when DevTools kept none. */
export interface EntryContent {
  text?: string | null;
  encoding?: string;
}

/**
 * The capture records of one finished request from DevTools' log, or none when it is no stream (the HAR import's
 * rule: an event stream, NDJSON, an EventSource; a failed request that asked for a stream). `frameUrl`: who made it,
 * as far as known (the worker's script, from the request's initiator).
 */
export function devtoolsEntryRecords(entry: unknown, content: EntryContent, id: string, frameUrl: string): PageRecord[] {
  if (typeof entry !== 'object' || entry === null) return [];
  const e = entry as Record<string, unknown>;
  const response = typeof e.response === 'object' && e.response !== null ? (e.response as Record<string, unknown>) : {};
  const given = typeof response.content === 'object' && response.content !== null ? (response.content as Record<string, unknown>) : {};
  const withBody = {
    ...e,
    response: {
      ...response,
      content: { ...given, ...(typeof content.text === 'string' ? { text: content.text } : {}), ...(content.encoding ? { encoding: content.encoding } : {}) },
    },
  };
  const { records } = browserEntries([withBody], [0], { pageUrls: new Map(), exactText: false, masking: new ImportMasking() });
  const conn = records.find((r): r is ConnectionRecord => r.kind === 'connection');
  if (!conn) return []; // (only the note that the entry is no stream)
  const from = conn.id;
  const out: PageRecord[] = [];
  for (const r of records) {
    if (r.kind === 'connection') {
      out.push({ ...r, id, frameUrl });
      out.push({ kind: 'notice', t: r.startTime, conn: id, level: 'info', text: DEVTOOLS_LOG_NOTICE });
    } else if (r.kind === 'notice' && r.text === ES_BODY_LEFT_NOTE) {
      // (An EventSource's messages are all a capture holds of it: nothing was left out that the tap would have kept.)
    } else if ('conn' in r && r.conn === from) out.push({ ...r, conn: id } as PageRecord);
    // (Nothing else: a page boundary cannot come from one entry, and the note of skipped entries is not ours to give.)
  }
  return out;
}

/**
 * The script URLs on the stack that made the request, innermost first, from a HAR entry's `_initiator` (Chrome's: its
 * call frames, then those of the async parents), or the initiator's own URL when there is no stack.
 */
export function initiatorUrls(entry: unknown): string[] {
  type Stack = { callFrames?: { url?: unknown }[]; parent?: unknown };
  const initiator = (entry as { _initiator?: { url?: unknown; stack?: Stack } } | null)?._initiator;
  const urls: string[] = [];
  let stack = initiator?.stack;
  for (let depth = 0; stack && depth < 32; depth++, stack = stack.parent as Stack | undefined) {
    for (const f of stack.callFrames ?? []) if (typeof f.url === 'string' && f.url !== '' && !urls.includes(f.url)) urls.push(f.url);
  }
  if (urls.length === 0 && typeof initiator?.url === 'string' && initiator.url !== '') urls.push(initiator.url);
  return urls;
}

/**
 * `records` without the DevTools log connections (and their records) that a tap connection among them already holds
 * (see the module comment). Records of other connections, and the order, as they were.
 */
export function withoutTapTwins(records: readonly CaptureRecord[]): CaptureRecord[] {
  const tapStarts = new Map<string, number[]>();
  const logConns: ConnectionRecord[] = [];
  for (const r of records) {
    if (r.kind !== 'connection') continue;
    if (isDevtoolsConn(r.id)) {
      logConns.push(r);
      continue;
    }
    const key = `${r.method} ${r.url}`;
    const starts = tapStarts.get(key);
    if (starts) starts.push(r.startTime);
    else tapStarts.set(key, [r.startTime]);
  }
  if (logConns.length === 0 || tapStarts.size === 0) return records as CaptureRecord[];
  // Nearest pairs first, so that a worker's request beside the page's own of the same URL keeps its own connection.
  const pairs: { log: string; key: string; at: number; gap: number }[] = [];
  for (const c of logConns) {
    const starts = tapStarts.get(`${c.method} ${c.url}`) ?? [];
    starts.forEach((s, at) => {
      const gap = Math.abs(s - c.startTime);
      if (gap <= TWIN_WINDOW_MS) pairs.push({ log: c.id, key: `${c.method} ${c.url}`, at, gap });
    });
  }
  pairs.sort((a, b) => a.gap - b.gap);
  const twins = new Set<string>();
  const used = new Set<string>();
  for (const p of pairs) {
    const tap = `${p.key}\u0000${p.at}`;
    if (twins.has(p.log) || used.has(tap)) continue;
    twins.add(p.log);
    used.add(tap);
  }
  if (twins.size === 0) return records as CaptureRecord[];
  return records.filter((r) => !(r.kind === 'connection' ? twins.has(r.id) : 'conn' in r && r.conn !== undefined && twins.has(r.conn)));
}

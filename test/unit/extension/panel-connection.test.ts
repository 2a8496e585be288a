// The panel client against a fake chrome.runtime/storage/tabs (the real ones are exercised by the e2e specs).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CaptureHeader, CaptureRecord, PageRecord } from '../../../src/core/capture/model.ts';
import type { BackgroundToPanel } from '../../../src/extension/messages.ts';
import { connectToTab } from '../../../src/extension/panel-connection.ts';
import { COMPACT_FACTOR, dataBytes } from '../../../src/extension/panel-compaction.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { captureOf, cut, sseBody } from '../analysis/support.ts';

type Listener<A extends unknown[]> = (...args: A) => void;
class FakeEvent<A extends unknown[]> {
  listeners: Listener<A>[] = [];
  addListener(l: Listener<A>): void {
    this.listeners.push(l);
  }
  removeListener(l: Listener<A>): void {
    this.listeners = this.listeners.filter((x) => x !== l);
  }
  hasListener(l: Listener<A>): boolean {
    return this.listeners.includes(l);
  }
  fire(...args: A): void {
    for (const l of [...this.listeners]) l(...args);
  }
}

class FakePort {
  sent: unknown[] = [];
  onMessage = new FakeEvent<[unknown]>();
  onDisconnect = new FakeEvent<[]>();
  constructor(public name: string) {}
  postMessage(m: unknown): void {
    this.sent.push(m);
  }
  disconnect(): void {}
}

let ports: FakePort[];
let storage: Record<string, unknown>;
const tabsUpdated = new FakeEvent<[number, { status?: string }]>();
let storageChanged: FakeEvent<[Record<string, { newValue?: unknown }>, string]>;

beforeEach(() => {
  ports = [];
  storage = {};
  storageChanged = new FakeEvent();
  vi.useFakeTimers();
  (globalThis as unknown as { chrome: unknown }).chrome = {
    runtime: {
      connect: ({ name }: { name: string }) => {
        const p = new FakePort(name);
        ports.push(p);
        return p;
      },
      lastError: undefined,
    },
    tabs: { onUpdated: tabsUpdated },
    storage: {
      local: {
        get: async (keys: string[]) => Object.fromEntries(keys.filter((k) => k in storage).map((k) => [k, storage[k]])),
        set: async (items: Record<string, unknown>) => {
          Object.assign(storage, items);
          storageChanged.fire(Object.fromEntries(Object.entries(items).map(([k, v]) => [k, { newValue: v }])), 'local');
        },
      },
      onChanged: storageChanged,
    },
  };
});
afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as unknown as { chrome?: unknown }).chrome;
});

const notice = (text: string): PageRecord => ({ kind: 'notice', t: 1, level: 'info', text });
const snap = (records: PageRecord[], docId = 'top'): BackgroundToPanel => ({
  type: 'snapshot', docId, frameId: 0, frameUrl: 'https://chat.test/app', isTop: true, siteOrigin: 'https://chat.test', siteEnabled: true, records, dropped: 0,
});

function client() {
  const calls: { snapshots: CaptureRecord[][]; headers: CaptureHeader[]; appended: CaptureRecord[][]; status: string[] } = {
    snapshots: [], headers: [], appended: [], status: [],
  };
  const conn = connectToTab(42, {
    onSnapshot: (r, h) => {
      calls.snapshots.push(r);
      calls.headers.push(h);
    },
    onRecords: (r) => void calls.appended.push(r),
    onStatus: (t) => void calls.status.push(t),
  });
  return { conn, calls };
}

/**
 * A panel client under a `cap` of captured data, with what it hands the panel logged: `held()` is the data the panel
 * holds after the last delivery (its last snapshot plus what was appended since), `most` the most it ever held.
 */
async function watchingPanel(cap: number) {
  storage['replyscope.captureLimitBytes'] = cap;
  const log: ({ snapshot: CaptureRecord[] } | { append: CaptureRecord[] })[] = [];
  const conn = connectToTab(42, { onSnapshot: (r) => void log.push({ snapshot: r }), onRecords: (r) => void log.push({ append: r }) });
  for (let i = 0; i < 10; i++) await Promise.resolve(); // the settings are read
  let held = 0;
  const w = {
    conn,
    log,
    most: 0,
    /** Call after each message fired at the client. */
    track(): void {
      const last = log.at(-1);
      if (!last) return;
      held = 'snapshot' in last ? dataBytes(last.snapshot) : held + dataBytes(last.append);
      w.most = Math.max(w.most, held);
    },
    /** What the panel holds now: its last snapshot and what was appended since. */
    records(): CaptureRecord[] {
      const at = log.findLastIndex((e) => 'snapshot' in e);
      return [...(log[at] as { snapshot: CaptureRecord[] }).snapshot, ...log.slice(at + 1).flatMap((e) => ('append' in e ? e.append : []))];
    },
  };
  return w;
}

describe('connectToTab', () => {
  it('rejects a bad tab id with a clear error', () => {
    expect(() => connectToTab(-1, { onSnapshot() {}, onRecords() {} })).toThrow(/tabId must be a tab id/);
  });

  it('connects as panel:<tabId>, delivers snapshots and live records, drops invalid messages', () => {
    const { calls } = client();
    expect(ports.map((p) => p.name)).toEqual(['panel:42']);
    ports[0].onMessage.fire(snap([notice('a')]));
    ports[0].onMessage.fire({ type: 'records', docId: 'top', records: [notice('b')] });
    ports[0].onMessage.fire({ type: 'records', docId: 'top', records: [{ kind: 'chunk', conn: 'x' }] }); // invalid
    expect(calls.snapshots.at(-1)).toEqual([notice('a')]);
    expect(calls.headers.at(-1)).toMatchObject({ kind: 'header', format: 'replyscope-capture', version: 1, pageUrl: 'https://chat.test/app' });
    expect(calls.appended).toEqual([[notice('b')]]);
    expect(calls.status.at(-1)).toMatch(/· 1 invalid message or record dropped$/);
  });

  it('reconnects after the service worker goes away and takes the fresh snapshot', () => {
    const { calls } = client();
    ports[0].onMessage.fire(snap([notice('a')]));
    ports[0].onDisconnect.fire();
    expect(calls.status.at(-1)).toMatch(/reconnecting/);
    vi.runOnlyPendingTimers();
    expect(ports).toHaveLength(2);
    ports[1].onMessage.fire(snap([notice('a'), notice('b while away')]));
    expect(calls.snapshots.at(-1)).toEqual([notice('a'), notice('b while away')]);
  });

  it('clear, preserve log, site switch and include list', async () => {
    const { conn, calls } = client();
    await expect(conn.setSiteEnabled(false)).rejects.toThrow(/has not reported its origin/);
    ports[0].onMessage.fire(snap([notice('a')]));
    conn.clear();
    expect(calls.snapshots.at(-1)).toEqual([]);
    expect(ports[0].sent).toContainEqual({ type: 'clear' });
    conn.setPreserveLog(true);
    expect(conn.status().preserveLog).toBe(true);
    await conn.setSiteEnabled(false);
    expect(storage['replyscope.disabledSites']).toEqual(['https://chat.test']);
    await conn.setSiteEnabled(true);
    expect(storage['replyscope.disabledSites']).toEqual([]);
    await conn.setIncludeUrls([' /api/chat* ', '']);
    expect(storage['replyscope.includeUrls']).toEqual(['/api/chat*']);
    expect(ports[0].sent).toContainEqual({ type: 'resync' });
    conn.close();
    ports[0].onDisconnect.fire();
    vi.runOnlyPendingTimers();
    expect(ports).toHaveLength(1); // closed: no reconnect
  });

  it('reports the include list\'s size, read at start and followed in storage until closed', async () => {
    storage['replyscope.includeUrls'] = ['/a', '/b'];
    const { conn } = client();
    expect(conn.status().includeCount).toBeUndefined(); // not read yet
    await vi.waitFor(() => expect(conn.status().includeCount).toBe(2));
    await conn.setIncludeUrls(['/a']);
    expect(conn.status().includeCount).toBe(1);
    storageChanged.fire({ 'replyscope.includeUrls': { newValue: ['/x', '/y', '/z'] } }, 'local'); // another panel
    expect(conn.status().includeCount).toBe(3);
    storageChanged.fire({ 'replyscope.includeUrls': { newValue: ['/q'] } }, 'sync'); // not where settings live
    storageChanged.fire({ 'replyscope.includeUrls': { newValue: 'not a list' } }, 'local'); // malformed: the default
    expect(conn.status().includeCount).toBe(0);
    storageChanged.fire({ 'replyscope.includeUrls': {} }, 'local'); // removed
    expect(conn.status().includeCount).toBe(0);
    conn.close();
    expect(storageChanged.listeners).toHaveLength(0);
  });

  it('a change that arrives before the first read resolves is not overwritten by that read', async () => {
    storage['replyscope.includeUrls'] = ['/old'];
    storage['replyscope.captureLimitBytes'] = 2 * 1024 * 1024;
    const { conn } = client(); // its read of storage is under way
    storageChanged.fire({ 'replyscope.includeUrls': { newValue: ['/new', '/newer'] } }, 'local');
    storageChanged.fire({ 'replyscope.captureLimitBytes': { newValue: 4 * 1024 * 1024 } }, 'local');
    expect(conn.status().includeCount).toBe(2);
    for (let i = 0; i < 10; i++) await Promise.resolve(); // the read (a chain of promises in the fake) resolves
    expect(conn.status().includeCount).toBe(2);
    expect(conn.status().captureLimitBytes).toBe(4 * 1024 * 1024);
    conn.close();
  });

  it('the capture cap: read, stored within its bounds, followed in storage and reported until closed', async () => {
    const MB = 1024 * 1024;
    const { conn } = client();
    expect(conn.status().captureLimitBytes).toBeUndefined(); // not read yet
    await vi.waitFor(() => expect(conn.status().captureLimitBytes).toBe(64 * MB)); // nothing stored: the default
    expect(await conn.captureLimit()).toBe(64 * MB);
    await conn.setCaptureLimit(8 * MB);
    expect(storage['replyscope.captureLimitBytes']).toBe(8 * MB);
    expect(await conn.captureLimit()).toBe(8 * MB);
    expect(conn.status().captureLimitBytes).toBe(8 * MB);
    for (const bad of [MB - 1, 128 * MB + 1, 2.5]) await expect(conn.setCaptureLimit(bad)).rejects.toThrow(/capture limit must be/);
    expect(storage['replyscope.captureLimitBytes']).toBe(8 * MB); // a refused value changes nothing
    storageChanged.fire({ 'replyscope.captureLimitBytes': { newValue: 16 * MB } }, 'local'); // another panel
    expect(conn.status().captureLimitBytes).toBe(16 * MB);
    storageChanged.fire({ 'replyscope.captureLimitBytes': {} }, 'local'); // removed: the default
    expect(conn.status().captureLimitBytes).toBe(64 * MB);
    conn.close();
    expect(storageChanged.listeners).toHaveLength(0);
  });

  it('a cap set through the connection bounds the live panel from then on (its compaction follows it)', async () => {
    const MB = 1024 * 1024;
    const panel = await watchingPanel(64 * MB);
    ports[0].onMessage.fire(snap([{ kind: 'connection', id: 'a', transport: 'fetch', frameUrl: 'https://chat.test/', method: 'GET', url: 'https://chat.test/s', requestHeaders: [], startTime: 0 }]));
    const relay = new CaptureStore(MB); // the relay, already following the new cap
    relay.add([{ kind: 'connection', id: 'a', transport: 'fetch', frameUrl: 'https://chat.test/', method: 'GET', url: 'https://chat.test/s', requestHeaders: [], startTime: 0 }], 0);
    await panel.conn.setCaptureLimit(MB);
    const chunk = 'x'.repeat(16 * 1024);
    for (let k = 0; k < 400; k++) { // 6.25 MiB: past 3× the new cap, far below 3× the old one
      const forward = relay.add([{ kind: 'chunk', conn: 'a', t: k, bytes: chunk.length, text: chunk }], k).forward;
      forward.push(...relay.digestPending(() => true, k));
      ports[0].onMessage.fire({ type: 'records', docId: 'top', records: forward });
      panel.track();
    }
    expect(panel.log.filter((e) => 'snapshot' in e).length).toBeGreaterThan(1); // handed the kept capture anew
    expect(panel.most).toBeLessThanOrEqual(COMPACT_FACTOR * MB + 64 * 1024);
    panel.conn.close();
  });

  it('keeps a live panel bounded past the capture cap: hands it the capture kept here, which reads to the same replies', async () => {
    const CAP = 1024 * 1024;
    const panel = await watchingPanel(CAP);
    // ~5 MB of AgentScope replies through a real relay store with a 1 MiB cap, digesting a little per arrival.
    const events: unknown[] = [];
    for (let r = 0; r < 40; r++) {
      events.push({ type: 'REPLY_START', reply_id: `r${r}`, session_id: 's', name: 'Friday' });
      events.push({ type: 'TEXT_BLOCK_START', reply_id: `r${r}`, block_id: `b${r}` });
      for (let i = 0; i < 1400; i++) events.push({ type: 'TEXT_BLOCK_DELTA', reply_id: `r${r}`, block_id: `b${r}`, delta: `w${r}.${i} ünï 🙂 ` });
      events.push({ type: 'TEXT_BLOCK_END', reply_id: `r${r}`, block_id: `b${r}` });
      events.push({ type: 'REPLY_END', reply_id: `r${r}`, session_id: 's' });
    }
    const body = new TextEncoder().encode(sseBody(events));
    const records = captureOf(cut(body, Array.from({ length: 2000 }, (_, i) => Math.floor((i * body.length) / 2000) + (i % 5))), { id: 'a', state: 'complete' });
    const relay = new CaptureStore(CAP);
    ports[0].onMessage.fire(snap([]));
    records.forEach((r, i) => {
      const forward = relay.add([r], i).forward;
      // The relay digests in idle time: here a burst of arrivals at a time, so digests lag behind evictions.
      if (i % 40 === 0) forward.push(...relay.digestPending(() => true, i));
      ports[0].onMessage.fire({ type: 'records', docId: 'top', records: forward });
      panel.track();
    });
    const snapshots = panel.log.filter((e) => 'snapshot' in e).length;
    expect(body.length).toBeGreaterThan(4 * CAP);
    expect(snapshots).toBeGreaterThan(2); // the first, then compactions
    // Past the threshold, compaction waits for the relay's digest to catch up (here within 40 arrivals of ~2.7 kB),
    // looking again every 64 kB (cap / 16).
    expect(panel.most).toBeLessThanOrEqual(COMPACT_FACTOR * CAP + 256 * 1024);
    // What the panel holds at the end: its last snapshot and what was appended since. It reads like the relay's own
    // snapshot: the evicted head continues from its digest, and every reply it still has ends as in the whole stream.
    const held = panel.records();
    expect(dataBytes(held)).toBeLessThan(body.length / 2);
    const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
    const view = analyzeCapture({ header, records: held })[0];
    const whole = analyzeCapture({ header, records })[0];
    expect(view.evictedEvents).toBeGreaterThan(0);
    expect(view.evictedEvents + view.events.length).toBe(whole.events.length); // every event, read or counted
    expect(view.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(view.replies.length).toBeGreaterThan(3);
    for (const r of view.replies) {
      const w = whole.replies.find((x) => x.id === r.id)!;
      expect(r.history.at(r.history.length - 1)).toEqual(w.history.at(w.history.length - 1));
    }
    panel.conn.close();
  });

  it('with preserve log, the pages it kept count too: the oldest go once the panel outgrows its bound', async () => {
    const CAP = 1024 * 1024;
    const panel = await watchingPanel(CAP);
    const track = () => panel.track();
    panel.conn.setPreserveLog(true);
    // Twelve page loads, each streaming half the cap (so no relay ever evicts), with preserve log on.
    for (let page = 0; page < 12; page++) {
      const id = `c${page}`;
      const docId = `top${page}`;
      ports[0].onMessage.fire({ ...snap([], docId), frameUrl: `https://chat.test/${page}` });
      track();
      ports[0].onMessage.fire({ type: 'records', docId, records: [{ kind: 'connection', id, transport: 'fetch', frameUrl: 'https://chat.test/', method: 'GET', url: 'https://chat.test/s', requestHeaders: [], startTime: page }] });
      track();
      for (let k = 0; k < 64; k++) {
        ports[0].onMessage.fire({ type: 'records', docId, records: [{ kind: 'chunk', conn: id, t: k, bytes: 8192, text: 'x'.repeat(8192) }] });
        track();
      }
      ports[0].onMessage.fire({ type: 'document-gone', docId, isTop: true });
      track();
    }
    ports[0].onMessage.fire({ ...snap([], 'top12'), frameUrl: 'https://chat.test/12' }); // the tab's next page
    track();
    expect(panel.most).toBeLessThanOrEqual(COMPACT_FACTOR * CAP + 8192);
    const last = [...panel.log].reverse().find((e): e is { snapshot: CaptureRecord[] } => 'snapshot' in e)!.snapshot;
    expect(last[0]).toMatchObject({ kind: 'notice', text: expect.stringMatching(/^Preserve log: the \d+ oldest pages were let go/) });
    // The newest pages are the ones kept, in order.
    const ids = last.filter((r) => r.kind === 'connection').map((r) => (r as { id: string }).id);
    expect(ids.at(-1)).toBe('c11');
    expect(ids).toEqual(ids.slice().sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
    panel.conn.close();
  });
});


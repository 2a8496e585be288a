// Past the limit with no data left to evict, ended connections give up their request bodies, then themselves
// (src/extension/retirement.ts) — and a watcher's copy (TabCapture) follows the relay's store record for record.
import { describe, expect, it } from 'vitest';
import type { CaptureRecord, ConnectionRecord, PageRecord } from '../../../src/core/capture/model.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import { relayRecordSchema, tapToRelaySchema, type RelayRecord, type WireRecord } from '../../../src/extension/messages.ts';
import { TabCapture, toCaptureRecords } from '../../../src/extension/tab-capture.ts';

const LIMIT = 256 * 1024;

/** A chat turn: the page posts its whole conversation so far (`history` characters) and gets a short stream back. */
function turn(i: number, history: number, reply = 4000): PageRecord[] {
  const id = `c${i}`;
  const body = JSON.stringify({ messages: 'm'.repeat(history) });
  const conn: ConnectionRecord = {
    kind: 'connection', id, transport: 'fetch', frameUrl: 'https://chat.test/', method: 'POST', url: 'https://chat.test/api/chat',
    requestHeaders: [['content-type', 'application/json']], requestBody: { text: body, size: body.length }, startTime: i,
  };
  const text = `data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', delta: `turn ${i} `.padEnd(reply, '.') })}\n\n`;
  return [conn, { kind: 'chunk', conn: id, t: i + 0.5, bytes: text.length, text }, { kind: 'end', conn: id, t: i + 0.9, state: 'complete' }];
}

/** Runs turns through a store and a watcher fed its snapshot then its live records, as the background does. */
function session(turns: PageRecord[][]) {
  const store = new CaptureStore(LIMIT);
  const watcher = new TabCapture();
  const doc = { docId: 'd', frameId: 0, frameUrl: 'https://chat.test/', isTop: true, siteOrigin: 'https://chat.test', siteEnabled: true };
  watcher.apply({ type: 'snapshot', ...doc, records: [], dropped: 0 });
  const live: RelayRecord[] = [];
  turns.forEach((records, i) => {
    const { forward } = store.add(records, i + 1);
    live.push(...forward);
    watcher.apply({ type: 'records', docId: 'd', records: forward });
  });
  return { store, watcher, live, snapshot: toCaptureRecords(store.snapshot()) };
}

const chunkConns = (records: readonly CaptureRecord[]) => new Set(records.filter((r) => r.kind === 'chunk').map((r) => (r.kind === 'chunk' ? r.conn : '')));

describe('retirement: what goes once no data is left to evict', () => {
  it('a chat whose posted conversation outgrows the limit keeps its newest streams: old request bodies go first', () => {
    // 80 turns, the conversation growing 1,500 characters a turn: ~4.9 MB of bodies against a 256 KiB limit.
    const { store, snapshot, live } = session(Array.from({ length: 80 }, (_, i) => turn(i, 1500 * (i + 1))));
    expect(store.size).toBeLessThanOrEqual(LIMIT);
    // The streams are kept as far as room allows — the last ~15 turns' — not only the very last read: past half the
    // limit the old bodies went before any stream.
    const kept = chunkConns(snapshot);
    for (let i = 65; i < 80; i++) expect(kept.has(`c${i}`)).toBe(true);
    expect(snapshot.find((r) => r.kind === 'connection' && r.id === 'c79')).toMatchObject({ requestBody: { text: expect.any(String) } });
    // A body that went leaves a stub with its size, truncated to nothing (which only the store writes).
    const c0 = snapshot.find((r) => r.kind === 'connection' && r.id === 'c0');
    expect(c0).toBeDefined();
    expect(c0).toMatchObject({ requestBody: { size: 1500 + 15, truncated: true } });
    expect(c0?.kind === 'connection' && c0.requestBody?.text).toBeUndefined();
    expect(snapshot.some((r) => r.kind === 'notice' && r.conn === 'c0')).toBe(false); // no note per connection: the panel says why
    expect(live.some((r) => r.kind === 'retired' && r.what === 'request-body')).toBe(true);
    // Every record a relay forwards passes its hop's schema; the tap's hop refuses a retirement (only a store retires).
    for (const r of live) expect(relayRecordSchema.safeParse(r).success).toBe(true);
    const retired = live.find((r) => r.kind === 'retired');
    expect(tapToRelaySchema.safeParse({ type: 'records', records: [retired] }).success).toBe(false);
  });

  it('thousands of ended connections: the oldest go whole, a note at the top counts them, the newest streams stay', () => {
    // Tiny streams, no bodies: only the connection records themselves pile up (~300 B each).
    const turns = Array.from({ length: 3000 }, (_, i) => {
      const [c, ch, end] = turn(i, 0, 40);
      return [{ ...c, requestBody: undefined }, ch, end];
    });
    const { store, snapshot } = session(turns);
    expect(store.size).toBeLessThanOrEqual(LIMIT);
    const conns = snapshot.filter((r) => r.kind === 'connection');
    expect(conns.length).toBeLessThan(3000);
    const note = snapshot[0];
    expect(note).toMatchObject({ kind: 'notice', level: 'info' });
    expect(note.kind === 'notice' && note.text).toMatch(new RegExp(`^${3000 - conns.length} earlier connections were let go whole`));
    // The last turns keep their streams (records piling up did not evict every new stream).
    expect(chunkConns(snapshot).has('c2999')).toBe(true);
    expect(chunkConns(snapshot).has('c2990')).toBe(true);
    // Nothing of a connection that went is left behind (no end or notice without its connection).
    const ids = new Set(conns.map((r) => (r.kind === 'connection' ? r.id : '')));
    for (const r of snapshot) if ('conn' in r && r.conn !== undefined) expect(ids.has(r.conn)).toBe(true);
  });

  it('a read larger than the limit (kept as the newest) lets no connection go: only records piling up do', () => {
    // Chromium hands a slow reader 2 MiB reads; under the smallest cap the newest stays past the limit
    // (NEWEST_KEPT_MAX). The few ended connections before it were let go whole for it: gone from the list.
    const store = new CaptureStore(LIMIT);
    for (let i = 0; i < 5; i++) store.add(turn(i, 0, 1000), i);
    const text = 'y'.repeat(LIMIT + LIMIT / 2);
    const open = { ...(turn(5, 0)[0] as ConnectionRecord), requestBody: undefined };
    const { forward } = store.add([open, { kind: 'chunk', conn: 'c5', t: 6, bytes: text.length, text }], 6);
    expect(forward.filter((r) => r.kind === 'retired' && r.what === 'connection')).toEqual([]);
    const snapshot = store.snapshot();
    expect(snapshot.filter((r) => r.kind === 'connection').map((r) => (r.kind === 'connection' ? r.id : ''))).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5']);
    expect(snapshot.at(-1)).toMatchObject({ kind: 'chunk', conn: 'c5', bytes: text.length });
  });

  it('an open connection is never let go whole (its next records need it); its body goes like any', () => {
    const store = new CaptureStore(LIMIT);
    store.add(turn(0, 0, 40).slice(0, 2), 1); // still streaming
    for (let i = 1; i < 3000; i++) store.add(turn(i, 0, 40), i + 1);
    const snapshot = store.snapshot();
    expect(snapshot.some((r) => r.kind === 'connection' && r.id === 'c0')).toBe(true);
    expect(snapshot.some((r) => r.kind === 'connection' && r.id === 'c1')).toBe(false);
    expect(store.add([{ kind: 'chunk', conn: 'c0', t: 9999, bytes: 1, text: 'x' }], 9999).rejected).toBe(0);
  });

  it('a watcher fed the live records holds what the relay holds: its export reads like the relay snapshot', () => {
    for (const turns of [
      Array.from({ length: 80 }, (_, i) => turn(i, 3000 * (i + 1))), // bodies past half the limit each
      Array.from({ length: 80 }, (_, i) => turn(i, 1500 * (i + 1))),
      Array.from({ length: 2500 }, (_, i) => turn(i, i % 7 === 0 ? 5000 : 0, 40)),
    ]) {
      const { watcher, snapshot } = session(turns);
      const held = watcher.records();
      // Same connections (bodies stubbed alike), same chunks, the same notes.
      const shape = (records: readonly CaptureRecord[]) => records.filter((r) => r.kind !== 'evicted').map((r) => JSON.stringify(r.kind === 'notice' ? { ...r, t: 0 } : r));
      expect(shape(held)).toEqual(shape(snapshot));
    }
  });

  it('a watcher handed a snapshot mid-session (a panel opened late, or handed the capture anew) counts on from its note', () => {
    const store = new CaptureStore(LIMIT);
    const watcher = new TabCapture();
    const doc = { docId: 'd', frameId: 0, frameUrl: 'https://chat.test/', isTop: true, siteOrigin: 'https://chat.test', siteEnabled: true };
    const small = (i: number) => {
      const [c, ch, end] = turn(i, 0, 40);
      return [{ ...c, requestBody: undefined }, ch, end];
    };
    for (let i = 0; i < 3000; i++) store.add(small(i), i);
    watcher.apply({ type: 'snapshot', ...doc, records: store.snapshot(), dropped: 0 });
    for (let i = 3000; i < 6000; i++) watcher.apply({ type: 'records', docId: 'd', records: store.add(small(i), i).forward });
    const note = (records: readonly (CaptureRecord | WireRecord)[]) => records.flatMap((r) => (r.kind === 'notice' ? [r.text] : []))[0];
    expect(note(store.snapshot())).toMatch(/^\d{4} earlier connections were let go whole/);
    expect(note(watcher.records())).toBe(note(store.snapshot()));
  });

  it('Clear forgets the count of connections let go', () => {
    const store = new CaptureStore(LIMIT);
    for (let i = 0; i < 3000; i++) store.add(turn(i, 0, 40), i);
    expect(store.snapshot()[0]).toMatchObject({ kind: 'notice' });
    store.clear(5000);
    expect(store.snapshot()).toEqual([]);
  });
});

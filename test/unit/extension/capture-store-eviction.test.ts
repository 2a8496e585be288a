import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { ConnectionRecord, EvictionRecord } from '../../../src/core/capture/model.ts';
import { parseRecord } from '../../../src/core/capture/schemas.ts';
import { ChunkSplitter } from '../../../src/core/frames/byte-chunks.ts';
import type { PageRecord, WireRecord } from '../../../src/extension/messages.ts';
import { CaptureStore, NEWEST_KEPT_MAX } from '../../../src/extension/relay/capture-store.ts';
import { toCaptureRecords } from '../../../src/extension/tab-capture.ts';
import { captureOf, cut, sseBody } from '../analysis/support.ts';

// The relay digests what it evicts, so a panel opened after an eviction still reconstructs every reply exactly.

const HEADER = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;

/** A session of `n` replies, each a long text streamed in small deltas (with multi-byte characters). */
function session(n: number): unknown[] {
  const out: unknown[] = [];
  for (let r = 0; r < n; r++) {
    const reply_id = `r${r}`;
    out.push({ type: 'REPLY_START', reply_id, session_id: 's', name: 'Friday', role: 'assistant' });
    out.push({ type: 'TEXT_BLOCK_START', reply_id, block_id: `b${r}` });
    for (let i = 0; i < 150; i++) out.push({ type: 'TEXT_BLOCK_DELTA', reply_id, block_id: `b${r}`, delta: `word ${r}.${i} ünï 🙂 ` });
    out.push({ type: 'TEXT_BLOCK_END', reply_id, block_id: `b${r}` });
    out.push({ type: 'TOOL_RESULT_START', reply_id, tool_call_id: `t${r}`, tool_call_name: 'lookup' });
    out.push({ type: 'TOOL_RESULT_DATA_DELTA', reply_id, tool_call_id: `t${r}`, media_type: 'text/plain', data: 'aGk=' });
    out.push({ type: 'REPLY_END', reply_id, session_id: 's' });
  }
  return out;
}

const finals = (records: PageRecord[]) =>
  Object.fromEntries(analyzeCapture({ header: HEADER, records })[0].replies.map((r) => [r.id, r.history.at(r.history.length - 1)]));

/** The same capture as the fetch tap sends it: chunks as bytes cut on character boundaries. */
function asBytes(records: PageRecord[], chunks: Uint8Array[]): WireRecord[] {
  const splitter = new ChunkSplitter();
  let k = 0;
  return records.flatMap((r): WireRecord[] => {
    if (r.kind !== 'chunk') return [r];
    if (r.bytes === 0) {
      const tail = splitter.flush();
      return tail ? [{ kind: 'bytes', conn: r.conn, t: r.t, ...tail }] : [];
    }
    return [{ kind: 'bytes', conn: r.conn, t: r.t, ...splitter.push(chunks[k++]) }];
  });
}

describe('CaptureStore eviction keeps the evicted part derived', () => {
  it.each(['chunk records', 'bytes records (as the fetch tap sends them)'])('a snapshot after eviction analyses to the same final messages as the whole stream: %s', (form) => {
    const body = new TextEncoder().encode(sseBody(session(6)));
    const cuts = Array.from({ length: 120 }, (_, i) => Math.floor((i * body.length) / 120) + (i % 7));
    const chunks = cut(body, cuts);
    const records = captureOf(chunks, { id: 'a', state: 'open' });
    const input: WireRecord[] = form === 'chunk records' ? records : asBytes(records, chunks);
    if (form !== 'chunk records') expect(toCaptureRecords(input)).toEqual(records);
    const store = new CaptureStore(16 * 1024);
    const live: EvictionRecord[] = [];
    input.forEach((r, i) => {
      for (const f of store.add([r], i).forward) if (f.kind === 'evicted') live.push(f);
      // The relay digests evicted records in idle time, a slice at a time: here two records per arrival.
      let budget = 2;
      for (const f of store.digestPending(() => budget-- > 0, i)) live.push(f);
    });
    for (const f of store.digestPending(() => true, input.length)) live.push(f); // the page idles at last
    const snap = toCaptureRecords(store.snapshot());
    const ev = snap[1] as EvictionRecord;
    expect(ev.kind).toBe('evicted');
    expect(ev.derived?.events).toBeGreaterThan(100);
    // Live increments carry no digest until it has caught up; then a zero-count increment carries the cumulative
    // digest (the snapshot's), and all of them survive the log's strict schema.
    expect(live.some((e) => e.derived === undefined && e.chunks > 0)).toBe(true);
    expect(live.filter((e) => e.derived !== undefined).at(-1)?.derived).toEqual(ev.derived);
    expect(store.digestBacklog).toBe(0);
    for (const e of [...live, ev]) expect(parseRecord(JSON.parse(JSON.stringify(e)))).toEqual(JSON.parse(JSON.stringify(e)));

    const view = analyzeCapture({ header: HEADER, records: snap })[0];
    expect(view.evictedEvents).toBe(ev.derived?.events);
    expect(view.diagnostics.map((d) => d.code)).not.toContain('as.foreign-reply-id');
    expect(view.events.some((e) => e.type === '(not JSON)')).toBe(false);
    const whole = finals(records);
    const part = finals(snap);
    expect(Object.keys(part).length).toBeGreaterThan(0);
    for (const [id, msg] of Object.entries(part)) expect(msg).toEqual(whole[id]);
    // Replies evicted entirely are in the digest, with their final message.
    for (const r of ev.derived?.replies ?? []) if (!(r.id in part)) expect(r.message).toEqual(whole[r.id]);
  });

  it('digests evicted records later, in slices, in order; a snapshot digests what is left first', () => {
    const body = new TextEncoder().encode(sseBody(session(3)));
    const records = captureOf(cut(body, Array.from({ length: 300 }, (_, i) => Math.floor((i * body.length) / 300))), { id: 'a', state: 'open' });
    const store = new CaptureStore(16 * 1024);
    const live = records.flatMap((r, i) => store.add([r], i).forward).filter((f): f is EvictionRecord => f.kind === 'evicted');
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((e) => e.derived === undefined)).toBe(true); // nothing digested during add()
    const backlog = store.digestBacklog;
    expect(backlog).toBeGreaterThan(1);
    let n = 1;
    expect(store.digestPending(() => n-- > 0, 99)).toEqual([]); // one record: the connection's queue is not empty yet
    expect(store.digestBacklog).toBe(backlog - 1);
    const snap = store.snapshot();
    expect(store.digestBacklog).toBe(0);
    const ev = snap.find((r): r is EvictionRecord => r.kind === 'evicted');
    // Digested in slices, the result is the one an eviction digested at once gives (the whole-stream finals test above).
    const whole = finals(records);
    for (const r of ev?.derived?.replies ?? []) if (!(r.id in finals(toCaptureRecords(snap)))) expect(r.message).toEqual(whole[r.id]);
    expect(ev?.derived?.events).toBeGreaterThan(0);
  });

  it('a pi client state nested too deep to write out is reported as not derived; capture and snapshot go on', () => {
    // A block id of 100,000 nested arrays (JSON.parse reads it, pi's client stores it): encoding the client state
    // recursed until the stack overflowed, in the relay, on the page's thread.
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const lines = ['{"type":"start"}', `{"type":"toolcall_start","contentIndex":0,"id":${deep},"toolName":"x"}`,
      ...Array.from({ length: 3000 }, (_, i) => `{"type":"toolcall_delta","contentIndex":0,"delta":"${i},"}`)];
    const body = new TextEncoder().encode(lines.map((l) => `data: ${l}\n\n`).join(''));
    const records = captureOf(cut(body, Array.from({ length: 400 }, (_, i) => Math.floor((i * body.length) / 400))), { id: 'p', state: 'open', requestBody: { model: { id: 'm' } } });
    const store = new CaptureStore(64 * 1024);
    records.forEach((r, i) => {
      store.add([r], i);
      store.digestPending(() => true, i);
    });
    const snap = toCaptureRecords(store.snapshot());
    const ev = snap.find((r): r is EvictionRecord => r.kind === 'evicted');
    expect(ev?.derived?.dialect).toBe('pi-proxy');
    expect(ev?.derived?.pi).toMatchObject({ derived: false, reason: expect.stringMatching(/nested deeper than 1000 levels/) });
    expect(snap.at(-1)).toEqual(records.at(-1)); // the newest record is kept
    const view = analyzeCapture({ header: HEADER, records: snap })[0];
    expect(view.dialect).toBe('pi-proxy');
  });

  it('digests nothing while under the cap', () => {
    const store = new CaptureStore(1 << 20);
    const conn: ConnectionRecord = { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'https://a/', method: 'GET', url: 'https://a/s', requestHeaders: [], startTime: 0 };
    store.add([conn, { kind: 'chunk', conn: 'c', t: 1, bytes: 9, text: 'data: 1\n\n' }], 1);
    expect(store.snapshot().some((r) => r.kind === 'evicted')).toBe(false);
  });
});

describe('CaptureStore: the newest chunk stays under a cap smaller than it', () => {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'a', transport: 'fetch', frameUrl: 'https://app.example/', method: 'GET', url: 'https://api.example/s',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 0,
  };
  const chunk = (mib: number, t: number): WireRecord => {
    const payload = new Uint8Array(mib * 1024 * 1024).fill(0x61);
    return { kind: 'bytes', conn: 'a', t, bytes: payload.length, payload };
  };
  const kept = (store: CaptureStore) => store.snapshot().flatMap((r) => (r.kind === 'bytes' ? [r.t] : []));

  it('a 2 MiB read under the 1 MiB cap is kept until a newer one comes (it was evicted at once: nothing kept)', () => {
    const store = new CaptureStore(1024 * 1024);
    store.add([conn, chunk(2, 1)], 1);
    expect(kept(store)).toEqual([1]);
    store.add([chunk(2, 2)], 2);
    expect(kept(store)).toEqual([2]);
    expect(store.hasEvicted).toBe(true);
    expect(store.size).toBeLessThanOrEqual(1024 * 1024 + NEWEST_KEPT_MAX);
  });

  it('a record past NEWEST_KEPT_MAX still goes: the bound is the cap plus one such record', () => {
    const store = new CaptureStore(1024 * 1024);
    store.add([conn, chunk(5, 1)], 1);
    expect(kept(store)).toEqual([]);
  });
});

// What the relay's store holds on to after the panel's Clear (CaptureStore.clear with keepOpen): only what the open
// connections need to continue — measured by walking what the store can still reach (its records, its connections'
// digests), since the store's own accounting counts records, not digests.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EvictionDigest, MAX_GROWING_CHARS } from '../../../src/core/analysis/eviction-digest.ts';
import type { ConnectionRecord } from '../../../src/core/capture/model.ts';
import type { PageRecord } from '../../../src/extension/messages.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import { reaches, retainedChars } from '../retained.ts';

const sse = (e: unknown) => `data: ${JSON.stringify(e)}\n\n`;

/** A reply of `chars` characters of text, in deltas of 1,000; `open`: without its ends. */
function reply(r: number, chars: number, open = false): unknown[] {
  const out: unknown[] = [{ type: 'REPLY_START', reply_id: `r${r}`, session_id: 's', name: 'F', role: 'assistant' }, { type: 'TEXT_BLOCK_START', reply_id: `r${r}`, block_id: `b${r}` }];
  for (let i = 0; i < chars / 1000; i++) out.push({ type: 'TEXT_BLOCK_DELTA', reply_id: `r${r}`, block_id: `b${r}`, delta: `${r}`.padEnd(1000, '.') });
  if (!open) out.push({ type: 'TEXT_BLOCK_END', reply_id: `r${r}`, block_id: `b${r}` }, { type: 'REPLY_END', reply_id: `r${r}`, session_id: 's' });
  return out;
}

type Transport = 'fetch' | 'websocket';
const connection = (id: string, transport: Transport, body?: string): ConnectionRecord => ({
  kind: 'connection', id, transport, frameUrl: 'https://chat.test/', method: transport === 'fetch' ? 'POST' : 'GET', url: 'https://chat.test/s', requestHeaders: [],
  ...(body !== undefined ? { requestBody: { text: body, size: body.length } } : {}),
  status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1,
});
/** One event as its transport's tap records it (a fetch: a chunk of the body; a socket: a message). */
const record = (conn: string, transport: Transport, e: unknown, t: number): PageRecord =>
  transport === 'fetch'
    ? { kind: 'chunk', conn, t, bytes: sse(e).length, text: sse(e) }
    : { kind: 'message', conn, t, type: 'message', data: JSON.stringify(e), lastEventId: '' };

afterEach(() => vi.restoreAllMocks());

describe('CaptureStore.clear (the panel\'s Clear) keeps only what open connections need to continue', () => {
  it('the request body of an open connection is not held by its digest once the store lets it go', () => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'q'.repeat(900_000) }] });
    const store = new CaptureStore(2 << 20); // the body is under half the limit: it stays until data must go
    store.add([connection('c', 'fetch', body)], 1);
    let t = 2;
    for (const e of reply(0, 20_000)) store.add([record('c', 'fetch', e, t++)], t);
    store.clear(t); // what Clear drops is digested: the digest begins here, from the record as it is (body and all)
    for (const e of reply(1, 2_000_000, true)) store.add([record('c', 'fetch', e, t++)], t);
    store.digestPending(() => true, t);
    // The store evicted, the request body first: its record is a stub now.
    const snapshot = store.snapshot();
    expect(snapshot[0]).toMatchObject({ kind: 'connection', requestBody: { abridged: true, size: body.length } });
    expect(snapshot[1]).toMatchObject({ kind: 'evicted', derived: { replies: expect.arrayContaining([expect.objectContaining({ id: 'r1' })]) } });
    expect(reaches(store, body)).toBe(false);
  });

  it.each(['fetch', 'websocket'] as const)('a long %s session: its digest keeps the reply still open, not the ones that ended; an ended connection keeps nothing', (transport) => {
    const body = transport === 'fetch' ? JSON.stringify({ messages: [{ role: 'user', content: 'q'.repeat(600_000) }] }) : undefined;
    const store = new CaptureStore(64 << 20);
    store.add([connection('open', transport, body), connection('done', transport, body)], 1);
    let t = 2;
    // Twenty turns of 100,000 characters on both, then a reply of 1.2 M characters still streaming on one (past what
    // a digest keeps of a text: the digest of a long reply is bounded, see eviction-digest.ts).
    for (let r = 0; r < 20; r++) for (const e of reply(r, 100_000)) store.add([record('open', transport, e, t), record('done', transport, e, t++)], t);
    for (const e of reply(20, 1_200_000, true)) store.add([record('open', transport, e, t++)], t);
    store.add([{ kind: 'end', conn: 'done', t, state: 'complete' }], t);
    const before = retainedChars(store);
    expect(before).toBeGreaterThan(5_000_000); // what both connections read: 2 M characters each, and the open reply

    store.clear(t);
    // What the store counts: the open connection's record (its request body with it, which the user still sees).
    expect(store.size).toBeLessThan((body?.length ?? 0) + 1024);
    // What it holds: that, and the digest of the open reply — its text capped at the bound of a digest still fed.
    const after = retainedChars(store);
    expect(after).toBeLessThan(store.size + MAX_GROWING_CHARS + 64 * 1024);
    const [conn, evicted, ...rest] = store.snapshot();
    expect(rest).toEqual([]);
    expect(conn).toMatchObject({ kind: 'connection', id: 'open' });
    expect(evicted).toMatchObject({ kind: 'evicted', conn: 'open' });
    const derived = evicted.kind === 'evicted' ? evicted.derived : undefined;
    expect(derived?.replies.map((r) => r.id)).toEqual(['r20']);
    expect(derived?.events).toBe(20 * 104 + 1202); // every event read is still counted: the ones that follow keep their numbers
    expect(reaches(store, 'done')).toBe(false);

    // The open reply goes on from its digest.
    store.add([record('open', transport, { type: 'TEXT_BLOCK_DELTA', reply_id: 'r20', block_id: 'b20', delta: 'THE END' }, t++)], t);
    store.clear(t);
    const text = (store.snapshot()[1] as unknown as { derived: { replies: { message: { content: { text: string }[] } }[] } }).derived.replies[0].message.content[0].text;
    expect(text).toMatch(/^\[… \d+ older characters evicted …\].*THE END$/s);
  });

  it('does not digest what an ended connection has waiting for its digest: it is dropped whole', () => {
    const store = new CaptureStore(1 << 20);
    store.add([connection('done', 'fetch')], 1);
    let t = 2;
    for (const e of reply(0, 1_200_000)) store.add([record('done', 'fetch', e, t++)], t);
    store.add([{ kind: 'end', conn: 'done', t, state: 'complete' }], t);
    expect(store.digestBacklog).toBeGreaterThan(0);
    const push = vi.spyOn(EvictionDigest.prototype, 'push');
    store.clear(t);
    expect(push).not.toHaveBeenCalled();
    expect(store.digestBacklog).toBe(0);
    expect(store.snapshot()).toEqual([]);
    expect(retainedChars(store)).toBe(0);
  });

  it('counts what Clear dropped apart from what the memory cap did: the cap\'s later evictions add to the counts, not to it', () => {
    const store = new CaptureStore(1 << 20);
    store.add([connection('c', 'fetch')], 1);
    let t = 2;
    const events = reply(0, 10_000, true); // 12 events, an open reply
    for (const e of events) store.add([record('c', 'fetch', e, t++)], t);
    store.clear(t);
    // Was { chunks: 12, … } alone, which every reader took for the memory cap's work ("evicted 12 events (memory cap)").
    expect(store.snapshot()[1]).toMatchObject({ kind: 'evicted', conn: 'c', chunks: events.length, messages: 0, cleared: events.length });
    // The stream goes on past the cap: the cap evicts the oldest of what came after.
    for (let i = 0; i < 1_500; i++) store.add([record('c', 'fetch', { type: 'TEXT_BLOCK_DELTA', reply_id: 'r0', block_id: 'b0', delta: 'x'.repeat(1000) }, t++)], t);
    const after = store.snapshot()[1];
    expect(after).toMatchObject({ kind: 'evicted', cleared: events.length });
    expect(after.kind === 'evicted' && after.chunks).toBeGreaterThan(events.length);
  });

  it('a connection the cap evicted from, never cleared, has no count of Clear\'s', () => {
    const store = new CaptureStore(1 << 20);
    store.add([connection('c', 'fetch')], 1);
    let t = 2;
    for (let i = 0; i < 1_500; i++) store.add([record('c', 'fetch', { type: 'TEXT_BLOCK_DELTA', reply_id: 'r0', block_id: 'b0', delta: 'x'.repeat(1000) }, t++)], t);
    const evicted = store.snapshot()[1];
    expect(evicted.kind).toBe('evicted');
    expect(evicted).not.toHaveProperty('cleared');
  });
});

// Random sessions (connections with and without request bodies, chunks, EventSource messages, fetch bytes, ends,
// notes, the limit going down and up, idle digests, Clear, snapshots) against the relay store's bookkeeping — which
// eviction, body retirement, whole-connection retirement and compaction all adjust — and against a watcher's copy
// fed the live records (TabCapture), re-handed a snapshot now and then as a panel is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CaptureRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import type { RelayRecord, WireRecord } from '../../../src/extension/messages.ts';
import { TabCapture, toCaptureRecords } from '../../../src/extension/tab-capture.ts';
import { retiredConnectionsCount, requestBodyCost } from '../../../src/extension/retirement.ts';

type Op =
  | { op: 'open'; body: number; b64: boolean }
  | { op: 'chunk'; pick: number; size: number }
  | { op: 'message'; pick: number; size: number }
  | { op: 'bytes'; pick: number; size: number }
  | { op: 'end'; pick: number }
  | { op: 'notice'; pick: number; conn: boolean }
  | { op: 'limit'; bytes: number }
  | { op: 'digest'; n: number }
  | { op: 'clear'; keepOpen: boolean }
  | { op: 'snapshot' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('open' as const), body: fc.oneof(fc.constant(0), fc.nat(6000)), b64: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ op: fc.constant('chunk' as const), pick: fc.nat(), size: fc.nat(3000) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('message' as const), pick: fc.nat(), size: fc.nat(2000) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('bytes' as const), pick: fc.nat(), size: fc.nat(3000) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('end' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('notice' as const), pick: fc.nat(), conn: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('limit' as const), bytes: fc.integer({ min: 4000, max: 40000 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('digest' as const), n: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('clear' as const), keepOpen: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'snapshot' as const }) },
);

// The store's costs (capture-store.ts), recomputed from what a snapshot holds.
function cost(r: WireRecord): number {
  switch (r.kind) {
    case 'connection': return 256 + r.url.length + requestBodyCost(r);
    case 'notice': return 64 + r.text.length;
    case 'message': return r.data.length + r.type.length + r.lastEventId.length + 32;
    case 'bytes': return r.payload.byteLength + 32;
    case 'chunk': return Math.max(r.bytes, (r.text?.length ?? 0) + (r.base64?.length ?? 0)) + 32;
    case 'evicted': return 0;
    default: return 64;
  }
}

const doc = { docId: 'd', frameId: 0, frameUrl: 'https://p.test/', isTop: true, siteOrigin: 'https://p.test', siteEnabled: true };
const shape = (records: readonly CaptureRecord[]) => records.map((r) => JSON.stringify(r.kind === 'evicted' ? { conn: r.conn, c: r.chunks, m: r.messages, b: r.bytes } : r));

/** What the sessions reached (the generator must make the store retire bodies and whole connections). */
const seen = new Set<string>();

function run(ops: Op[]): void {
  const store = new CaptureStore(20000);
  const watcher = new TabCapture();
  const sendSnapshot = () => watcher.apply({ type: 'snapshot', ...doc, records: store.snapshot(), dropped: 0 });
  sendSnapshot();
  const open: string[] = [];
  let n = 0;
  let t = 0;
  const feed = (forward: RelayRecord[]) => {
    for (const r of forward) if (r.kind === 'retired') seen.add(r.what);
    watcher.apply({ type: 'records', docId: 'd', records: forward });
  };
  // Checked now and then, not after every step: a snapshot digests the queue of evicted records, which must be left
  // to build up (it holds entries of connections let go meanwhile).
  const check = (): void => {
    const snap = store.snapshot();
    const recomputed = snap.filter((r) => retiredConnectionsCount(r) === undefined).reduce((s, r) => s + cost(r), 0);
    expect(store.size).toBe(recomputed);
    // Its private tallies too: what the kept bodies cost, and where each connection record is.
    const inner = store as unknown as { bodyBytes: number; records: unknown[]; conns: Map<string, { at: number; record: unknown }> };
    expect(inner.bodyBytes).toBe(snap.reduce((s, r) => s + (r.kind === 'connection' ? requestBodyCost(r) : 0), 0));
    for (const c of inner.conns.values()) expect(inner.records[c.at]).toBe(c.record);
    const ids = new Set(snap.flatMap((r) => (r.kind === 'connection' ? [r.id] : [])));
    for (const r of snap) if (r.kind !== 'connection' && 'conn' in r && r.conn !== undefined) expect(ids.has(r.conn)).toBe(true);
    expect(shape(watcher.records())).toEqual(shape(toCaptureRecords(snap)));
  };
  for (const o of ops) {
    t++;
    let incoming: WireRecord[] = [];
    const pick = (k: number) => open[k % open.length];
    switch (o.op) {
      case 'open': {
        const id = `c${n++}`;
        const c: ConnectionRecord = { kind: 'connection', id, transport: 'fetch', frameUrl: 'https://p.test/', method: 'POST', url: `https://p.test/${id}`, requestHeaders: [], startTime: t };
        if (o.body) c.requestBody = o.b64 ? { base64: 'A'.repeat(o.body * 4), size: o.body * 3 } : { text: 'b'.repeat(o.body), size: o.body };
        open.push(id);
        incoming = [c];
        break;
      }
      case 'chunk': if (open.length) incoming = [{ kind: 'chunk', conn: pick(o.pick), t, bytes: o.size, text: 'x'.repeat(o.size) }]; break;
      case 'message': if (open.length) incoming = [{ kind: 'message', conn: pick(o.pick), t, type: 'message', data: 'm'.repeat(o.size), lastEventId: '' }]; break;
      case 'bytes': if (open.length) incoming = [{ kind: 'bytes', conn: pick(o.pick), t, bytes: o.size, payload: new TextEncoder().encode('y'.repeat(o.size)) }]; break;
      case 'end': if (open.length) {
        const id = pick(o.pick);
        open.splice(open.indexOf(id), 1);
        incoming = [{ kind: 'end', conn: id, t, state: 'complete' }];
      } break;
      case 'notice': incoming = [{ kind: 'notice', t, level: 'info', text: `note ${t}`, ...(o.conn && open.length ? { conn: pick(o.pick) } : {}) }]; break;
      case 'limit': store.limitBytes = o.bytes; feed(store.enforce(t)); break;
      case 'digest': { let k = o.n; feed(store.digestPending(() => k-- > 0, t)); break; }
      case 'clear': {
        store.clear(t, o.keepOpen);
        if (!o.keepOpen) open.length = 0;
        sendSnapshot();
        break;
      }
      case 'snapshot': check(); sendSnapshot(); break;
    }
    if (incoming.length) feed(store.add(incoming, t).forward);
  }
  check();
}

describe('CaptureStore bookkeeping (property)', () => {
  it('size matches a recomputation from the snapshot; a watcher holds what a snapshot holds', () => {
    fc.assert(fc.property(fc.array(opArb, { minLength: 50, maxLength: 400 }), (ops) => run(ops)), { seed: 7, numRuns: 300 });
    expect([...seen].sort()).toEqual(['connection', 'request-body']);
  });
});

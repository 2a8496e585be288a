// The relay's fast path for tap batches (relay/tap-batch.ts) must accept nothing tapToRelaySchema refuses, and what
// it accepts must be what zod returns; the batches are generated around the edges of every field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DropCounter, tapToRelaySchema } from '../../../src/extension/messages.ts';
import { acceptTapBatch, isPlainTapBatch } from '../../../src/extension/relay/tap-batch.ts';

const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, -0, -1, 1.5, 2 ** 53, 2 ** 53 - 1, NaN, Infinity, -Infinity));
const payload = fc.oneof(
  { weight: 6, arbitrary: fc.uint8Array({ maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(new Uint16Array(2), new ArrayBuffer(2), [1, 2], 'abc', null, undefined) },
);
const bytesRecord = fc.record(
  {
    kind: fc.oneof({ weight: 8, arbitrary: fc.constant('bytes') }, { weight: 1, arbitrary: fc.constantFrom('chunk', 'end', 'BYTES') }),
    conn: fc.oneof({ weight: 8, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: fc.constantFrom<unknown>(1, null) }),
    t: fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0, max: 2e12, noNaN: true }) }, { weight: 1, arbitrary: num }),
    bytes: fc.oneof({ weight: 4, arbitrary: fc.nat(70_000) }, { weight: 1, arbitrary: num }),
    payload,
    extra: fc.constant(1),
  },
  { requiredKeys: [] },
);
/** Mostly a valid value, sometimes an edge or a wrong one. */
const mostly = (valid: fc.Arbitrary<unknown>, odd: fc.Arbitrary<unknown>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: odd });
const str = mostly(fc.string({ maxLength: 6 }), fc.constantFrom<unknown>(1, null, undefined, ['a']));
const time = mostly(fc.double({ min: 0, max: 2e12, noNaN: true }), fc.oneof(num, fc.constant(null)));
const header = mostly(fc.tuple(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 })), fc.constantFrom<unknown>(['a'], ['a', 'b', 'c'], ['a', 1], [null, 'b'], 'a: b', {}));
const headers = mostly(fc.array(header, { maxLength: 3 }), fc.constantFrom<unknown>(null, 'x', {}));
const body = mostly(
  fc.record(
    {
      text: str,
      base64: mostly(fc.base64String({ maxLength: 8 }), fc.constantFrom<unknown>('a b', '====', 'YQ===', '-_', 3)),
      size: mostly(fc.nat(100), num),
      truncated: mostly(fc.boolean(), fc.constantFrom<unknown>(0, 'yes', undefined)),
      extra: fc.constant(1),
    },
    { requiredKeys: ['size'] },
  ).map(({ extra, ...b }) => (extra !== undefined && b.size === 0 ? { ...b, extra } : b)),
  fc.constantFrom<unknown>(null, 'body', undefined, []),
);
/**
 * Records of `kind` as the tap sends them, with some fields odd, a required one dropped (one of `droppable`), or —
 * when `extraWhen` holds for the record — one key too many. `fields` are fc arbitraries; `optional` keys may be absent.
 */
function tapRecord(kind: string, fields: Record<string, fc.Arbitrary<unknown>>, optional: string[], extraWhen: (r: Record<string, unknown>) => boolean) {
  const droppable = Object.keys(fields).filter((k) => !optional.includes(k));
  const model: Record<string, fc.Arbitrary<unknown>> = { ...fields, extra: fc.constant(1), drop: mostly(fc.constant(''), fc.constantFrom(...droppable)) };
  return fc
    .record(model, { requiredKeys: [...droppable, 'drop'] })
    .map(({ drop, extra, ...r }) => {
      const rec: Record<string, unknown> = { kind, ...r };
      if (drop) delete rec[drop as string];
      if (extra !== undefined && extraWhen(r)) rec.extra = extra;
      return rec;
    });
}
const connectionRecord = tapRecord(
  'connection',
  {
    id: mostly(fc.constant('a:1'), fc.constantFrom<unknown>('', 1, null)),
    transport: mostly(fc.constantFrom('fetch', 'eventsource', 'xhr', 'websocket', 'import'), fc.constantFrom<unknown>('ws', 1, undefined)),
    frameUrl: str,
    isSubframe: mostly(fc.boolean(), fc.constantFrom<unknown>(1, undefined)),
    method: str,
    url: str,
    requestHeaders: headers,
    requestBody: body,
    status: mostly(fc.constantFrom(200, 0, 404, 599), num),
    statusText: str,
    responseHeaders: headers,
    startTime: time,
    responseTime: time,
  },
  ['isSubframe', 'requestBody', 'status', 'statusText', 'responseHeaders', 'responseTime'],
  (r) => r.status === 0,
);
const endRecord = tapRecord(
  'end',
  {
    conn: str,
    t: time,
    state: mostly(fc.constantFrom('complete', 'cancelled', 'aborted', 'error', 'evicted-open', 'open'), fc.constantFrom<unknown>('done', 1, null)),
    error: str,
  },
  ['error'],
  (r) => typeof r.error === 'string' && r.error.length === 1,
);
const noticeRecord = tapRecord(
  'notice',
  {
    t: time,
    conn: str,
    level: mostly(fc.constantFrom('info', 'warning'), fc.constantFrom<unknown>('error', 1, null)),
    text: str,
  },
  ['conn'],
  (r) => typeof r.text === 'string' && r.text.length === 1,
);
const messageRecord = tapRecord(
  'message',
  { conn: str, t: time, type: mostly(fc.constantFrom('message', 'delta'), fc.constantFrom<unknown>(1, null)), data: str, lastEventId: str },
  [],
  (r) => typeof r.data === 'string' && r.data.length === 1,
);
// Mostly complete records without the extra key; some with a key missing or the extra one present.
const record = fc.oneof(
  { weight: 6, arbitrary: bytesRecord.map(({ extra: _extra, ...r }) => ({ kind: 'bytes', conn: 'a:1', t: 1, bytes: 1, payload: new Uint8Array(1), ...r })) },
  { weight: 1, arbitrary: bytesRecord },
  { weight: 2, arbitrary: connectionRecord },
  { weight: 2, arbitrary: endRecord },
  { weight: 2, arbitrary: noticeRecord },
  { weight: 2, arbitrary: messageRecord },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ kind: 'chunk', conn: 'a:1', t: 2, bytes: 1, text: 'a' }, null, 'x') },
);
const batch = fc.oneof(
  { weight: 8, arbitrary: fc.array(record, { maxLength: 6 }).map((records) => ({ type: 'records', records })) },
  // Numbered as the tap numbers them — and numbers that are none.
  { weight: 3, arbitrary: fc.tuple(fc.array(record, { maxLength: 6 }), fc.oneof(fc.nat(), fc.constantFrom<unknown>(-1, 1.5, '2', null, undefined, Number.MAX_VALUE))).map(([records, seq]) => ({ type: 'records', records, seq })) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ type: 'records' }, { type: 'other', records: [] }, { type: 'records', records: [], more: 1 }, null, []) },
);

describe('tap batch fast path', () => {
  it('accepts only what zod accepts, and gives back what zod gives', () => {
    let fast = 0;
    const kinds: Record<string, number> = {};
    fc.assert(
      fc.property(batch, (data) => {
        const zod = tapToRelaySchema.safeParse(data);
        if (isPlainTapBatch(data)) {
          fast++;
          for (const r of (data as { records: { kind: string }[] }).records) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
          expect(zod.success).toBe(true);
          expect(data).toEqual(zod.data);
        }
        const drops = new DropCounter();
        const got = acceptTapBatch(data, drops);
        expect(got === undefined).toBe(!zod.success);
        if (got) expect(got).toEqual(zod.data);
        expect(drops.total()).toBe(zod.success ? 0 : 1);
      }),
      { seed: 11, numRuns: 5000 },
    );
    expect(fast).toBeGreaterThan(500); // the generator does reach the fast path
    expect(kinds.connection).toBeGreaterThan(40); // with connection and end records in it
    expect(kinds.end).toBeGreaterThan(40);
    expect(kinds.notice).toBeGreaterThan(40);
    expect(kinds.message).toBeGreaterThan(40);
  });

  it('takes the usual batches (a connection, fetch chunks, the end) without zod, and leaves every other kind to it', () => {
    const conn = {
      kind: 'connection', id: 'f:1', transport: 'fetch', frameUrl: 'http://x/', method: 'POST', url: 'http://x/s', requestHeaders: [['accept', 'text/event-stream']],
      requestBody: { text: '{}', size: 2 }, status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: 1700000000000, responseTime: 1700000000001,
    };
    const chunk = { kind: 'bytes', conn: 'f:1', t: 1700000000000.25, bytes: 3, payload: new Uint8Array([1, 2, 3]) };
    const end = { kind: 'end', conn: 'f:1', t: 2, state: 'complete' };
    expect(isPlainTapBatch({ type: 'records', records: [conn, chunk, chunk, end] })).toBe(true);
    const notice = { kind: 'notice', t: 1700000000000.5, level: 'info', text: 'This page opened a WebSocket (ws://x/s).' };
    expect(isPlainTapBatch({ type: 'records', records: [notice, { ...notice, conn: 'f:1', level: 'warning' }] })).toBe(true);
    const message = { kind: 'message', conn: 'w:1', t: 1700000000000.5, type: 'message', data: '{"type":"text_delta"}', lastEventId: '' };
    expect(isPlainTapBatch({ type: 'records', records: [message, message] })).toBe(true);
    expect(isPlainTapBatch({ type: 'records', records: [chunk, { kind: 'chunk', conn: 'f:1', t: 2, bytes: 1, text: 'a' }] })).toBe(false);
    expect(isPlainTapBatch({ type: 'records', records: [{ ...end, t: null }] })).toBe(false); // zod's NaN, not ours
    expect(acceptTapBatch({ type: 'records', records: [{ ...end, t: null }] }, new DropCounter())?.records[0]).toMatchObject({ t: NaN });
  });
});

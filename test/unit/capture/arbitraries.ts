// Random but realistic captures for property tests: connections whose bodies are random bytes (mostly UTF-8, some
// not) cut into random chunks the way the tap records them, EventSource messages, notices, evictions and ends,
// and a page boundary (`navigation`).
import fc from 'fast-check';
import type { Capture, CaptureRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import { cut, toRecords, utf8 } from '../frames/helpers.ts';

const bodyBytes = fc
  .array(
    fc.oneof(
      { weight: 5, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => utf8(`data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', delta: s })}\n\n`)) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 5 }) },
    ),
    { maxLength: 6 },
  )
  .map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));

const time = fc.oneof({ weight: 5, arbitrary: fc.double({ min: 1.7e12, max: 1.8e12, noNaN: true }) }, { weight: 1, arbitrary: fc.constant(Number.NaN) });

const connection = (id: string, transport: ConnectionRecord['transport']) =>
  fc.record({ t: time, status: fc.constantFrom(200, 500), body: fc.option(fc.string(), { nil: undefined }) }).map(
    ({ t, status, body }): ConnectionRecord => ({
      kind: 'connection',
      id,
      transport,
      frameUrl: 'https://app.example/chat',
      method: body === undefined ? 'GET' : 'POST',
      url: `https://api.example/sessions/s1/stream?agent_id=a${id}`,
      requestHeaders: [['accept', 'text/event-stream'], ['authorization', '•••']],
      ...(body !== undefined ? { requestBody: { text: body, size: utf8(body).length } } : {}),
      status,
      statusText: status === 200 ? 'OK' : 'Internal Server Error',
      responseHeaders: [['content-type', transport === 'fetch' ? 'text/event-stream; charset=utf-8' : 'text/event-stream']],
      startTime: t,
      responseTime: t + 3.25,
    }),
  );

const fetchConn = (id: string) =>
  fc.tuple(connection(id, 'fetch'), bodyBytes.chain((b) => fc.tuple(fc.constant(b), fc.array(fc.integer({ min: 1, max: Math.max(1, b.length) }), { maxLength: 12 }))), fc.constantFrom('complete', 'aborted', 'open'), fc.constantFrom('none', 'head', 'after'))
    .map(([conn, [bytes, cuts], state, evicted]): CaptureRecord[] => {
      const recs: CaptureRecord[] = [conn, ...toRecords(cut(bytes, cuts), id, 1.75e12)];
      // Its head (the chunks kept start anywhere in a frame), or after the chunks kept, as a live panel's log holds it.
      const eviction: CaptureRecord = { kind: 'evicted', conn: id, t: 1.75e12 + 99, chunks: 1, messages: 0, bytes: 10 };
      if (evicted === 'head') recs.splice(1, 0, eviction);
      else if (evicted === 'after') recs.push(eviction);
      if (state !== 'open') recs.push({ kind: 'end', conn: id, t: 1.75e12 + 100, state: state as 'complete' | 'aborted', ...(state === 'aborted' ? { error: 'AbortError: The user aborted a request.' } : {}) });
      return recs;
    });

const esConn = (id: string) =>
  fc.tuple(connection(id, 'eventsource'), fc.array(fc.record({ type: fc.constantFrom('message', 'delta'), data: fc.string({ unit: 'grapheme' }), lastEventId: fc.constantFrom('', '7') }), { maxLength: 5 }), fc.boolean())
    .map(([conn, msgs, evicted]): CaptureRecord[] => [
      conn,
      ...(evicted ? [{ kind: 'evicted' as const, conn: id, t: 1.75e12, chunks: 0, messages: 2, bytes: 30 }] : []),
      ...msgs.map((m, k) => ({ kind: 'message' as const, conn: id, t: 1.75e12 + k, ...m })),
    ]);

/** A WebSocket as a HAR import gives it: the received text messages (type "message", no event id). */
const wsConn = (id: string) =>
  fc.tuple(connection(id, 'websocket'), fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 5 }))
    .map(([conn, data]): CaptureRecord[] => [{ ...conn, status: 101, statusText: 'Switching Protocols', responseHeaders: [] }, ...data.map((d, k) => ({ kind: 'message' as const, conn: id, t: 1.75e12 + k, type: 'message', data: d, lastEventId: '' }))]);

/** Interleaves the per-connection record lists randomly, keeping each list's order. */
export const captureArb: fc.Arbitrary<Capture> = fc
  .tuple(fetchConn('t1:1'), fc.option(fetchConn('t1:2'), { nil: undefined }), fc.option(esConn('t1:3'), { nil: undefined }), fc.array(fc.nat(), { maxLength: 40 }), fc.boolean(),
    fc.option(wsConn('t1:4'), { nil: undefined, freq: 3 }), fc.option(fc.nat(), { nil: undefined }))
  .map(([a, b, c, picks, notice, d, navigatedAt]) => {
    const lists = [a, b ?? [], c ?? [], d ?? []].map((l) => [...l]);
    const records: CaptureRecord[] = [];
    if (notice) records.push({ kind: 'notice', t: 1.75e12, level: 'warning', text: 'Worker fetches are not visible' });
    let p = 0;
    while (lists.some((l) => l.length > 0)) {
      const open = lists.filter((l) => l.length > 0);
      records.push(open[(picks[p++] ?? 0) % open.length].shift() as CaptureRecord);
    }
    // A page boundary Preserve log kept (the panel writes it between two pages' records), anywhere among the records.
    if (navigatedAt !== undefined) records.splice(navigatedAt % (records.length + 1), 0, { kind: 'navigation', t: 1.75e12 + 5, url: 'https://app.example/next?q=secret#frag' });
    return { header: makeHeader('replyscope 0.1.0', { created: '2026-11-29T21:00:00.000Z', pageUrl: 'https://app.example/chat', browser: 'Chromium 156' }), records };
  });

const PAGE_URLS = ['https://app.example/chat', 'https://app.example/settings', 'https://app.example/chat?again'];

/**
 * A capture of one to three page visits as the panel writes it with Preserve log: a `navigation` record before each
 * later page's connections (and after at least one of the page before), fetch and EventSource connections of the top
 * frame or of a subframe, some of whose data and end arrive after the next page began, and the header's `pageUrl` the
 * tab's page as the panel exports (the last one), or none (an older or imported log). Every page has a stream.
 */
export const pagedCaptureArb: fc.Arbitrary<Capture> = fc
  .tuple(
    fc.array(fc.record({
      url: fc.constantFrom(...PAGE_URLS),
      t: fc.integer({ min: 0, max: 1e9 }),
      conns: fc.array(fc.record({ transport: fc.constantFrom('fetch' as const, 'eventsource' as const), subframe: fc.boolean(), late: fc.boolean() }), { minLength: 1, maxLength: 3 }),
    }), { minLength: 1, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([pages, withPageUrl]) => {
    const records: CaptureRecord[] = [];
    let held: CaptureRecord[] = []; // the data of a page's streams that arrives once the next page has begun
    let t = 1.75e12;
    pages.forEach((page, k) => {
      if (k > 0) {
        t += 1000 + page.t;
        records.push({ kind: 'navigation', t, url: page.url }, ...held);
        held = [];
      }
      page.conns.forEach(({ transport, subframe, late }, j) => {
        const id = `p${k}:${j}`;
        const start = (t += 10);
        records.push({
          kind: 'connection', id, transport, frameUrl: subframe ? 'https://widget.example/frame' : page.url, ...(subframe ? { isSubframe: true } : {}),
          method: 'GET', url: `https://api.example/stream?c=${id}`, requestHeaders: [['accept', 'text/event-stream']], status: 200,
          responseHeaders: [['content-type', 'text/event-stream']], startTime: start, responseTime: start + 2,
        });
        const data: CaptureRecord[] = transport === 'fetch'
          ? toRecords([utf8(`data: {"type":"TEXT_BLOCK_DELTA","delta":"${id}"}\n\n`)], id, start + 3)
          : [{ kind: 'message', conn: id, t: start + 3, type: 'message', data: `{"delta":"${id}"}`, lastEventId: '' }];
        data.push({ kind: 'end', conn: id, t: start + 5, state: 'complete' });
        if (late && k < pages.length - 1) held.push(...data);
        else records.push(...data);
      });
    });
    records.push(...held);
    return { header: makeHeader('replyscope 0.1.0', { created: '2026-11-29T21:00:00.000Z', ...(withPageUrl ? { pageUrl: pages.at(-1)!.url } : {}) }), records };
  });

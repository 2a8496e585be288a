// Our HAR read without its `_replyscope` fields (stripped by a tool, or shared as a plain HAR): where its own comments
// say the head of a body or of a message list was evicted (or dropped by Clear), the import records that eviction —
// the panel and the CLI say the stream's head is missing, as for the capture the HAR was made of, instead of reading
// the rest as a whole stream (its replies orphans, and not a word of why).
import { describe, expect, it } from 'vitest';
import { makeHeader, readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { importHar, writeHar } from '../../../src/core/capture/har.ts';
import type { Capture, CaptureRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';

const T0 = Date.parse('2026-11-29T21:00:00.000Z');
const bytesOf = (text: string) => new TextEncoder().encode(text).length;
const ev = (o: object) => JSON.stringify({ id: 'e', created_at: '2026-11-29T21:00:01', reply_id: 'r1', ...o });

function capture(transport: ConnectionRecord['transport'], cleared?: number): Capture {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'c1', transport, frameUrl: 'https://app.example/', method: 'GET', url: 'https://api.example/stream',
    requestHeaders: [], status: transport === 'websocket' ? 101 : 200, responseHeaders: transport === 'websocket' ? [] : [['content-type', 'text/event-stream']],
    startTime: T0, responseTime: T0 + 40,
  };
  const data = [ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'hi' }), ev({ type: 'REPLY_END' })];
  const kept: CaptureRecord[] = transport === 'fetch'
    ? data.map((d, k) => ({ kind: 'chunk', conn: 'c1', t: T0 + 100 * (k + 2), bytes: bytesOf(`data: ${d}\n\n`), text: `data: ${d}\n\n` }))
    : data.map((d, k) => ({ kind: 'message', conn: 'c1', t: T0 + 100 * (k + 2), type: 'message', data: d, lastEventId: '' }));
  const counts = transport === 'fetch' ? { chunks: 3, messages: 0, bytes: 210 } : { chunks: 0, messages: 3, bytes: 210 };
  return {
    header: makeHeader('replyscope 0.1.0', { created: new Date(T0).toISOString() }),
    records: [conn, { kind: 'evicted', conn: 'c1', t: T0 + 150, ...counts, ...(cleared ? { cleared } : {}) }, ...kept,
      { kind: 'end', conn: 'c1', t: T0 + 900, state: 'complete' }],
  };
}

/** The capture's HAR as a reader without our fields reads it. */
function strippedImport(cap: Capture): Capture {
  const har = JSON.parse(writeHar(cap)) as { log: { _replyscope?: unknown; entries: { _replyscope?: unknown }[] } };
  delete har.log._replyscope;
  for (const e of har.log.entries) delete e._replyscope;
  return importHar(har);
}

const evictedOf = (cap: Capture) => cap.records.filter((r) => r.kind === 'evicted');
const saying = (cap: Capture) => analyzeCapture(cap)[0].diagnostics.filter((d) => d.code === 'stream.evicted').map((d) => d.message);

describe('our HAR without its _replyscope fields, its head evicted', () => {
  it('an SSE body: the eviction of its first bytes is recorded (how many chunks not known), before the rest, and said', () => {
    const back = strippedImport(capture('fetch'));
    expect(evictedOf(back)).toEqual([{ kind: 'evicted', conn: 'har:0', t: Number.NaN, chunks: 0, messages: 0, bytes: 210 }]);
    expect(back.records.findIndex((r) => r.kind === 'evicted')).toBeLessThan(back.records.findIndex((r) => r.kind === 'chunk'));
    expect(saying(back)).toEqual(['evicted the body\'s first 210 bytes before this point (memory cap), without a digest: how many events they held is not known']);
    expect(analyzeCapture(back)[0]).toMatchObject({ evictedEvents: 0, evictedBytes: 210, evictedRecordsOnly: true, evictedBy: 'cap' });
    // Exported again, the HAR says the same of it; its capture log reads back as it is.
    expect(evictedOf(strippedImport(back))).toEqual(evictedOf(back));
    expect(readCaptureLog(writeCaptureLog(back))).toEqual(back);
  });

  it('an EventSource\'s or a WebSocket\'s messages: how many were evicted', () => {
    for (const transport of ['eventsource', 'websocket'] as const) {
      const back = strippedImport(capture(transport));
      expect(evictedOf(back), transport).toEqual([{ kind: 'evicted', conn: 'har:0', t: Number.NaN, chunks: 0, messages: 3, bytes: 0 }]);
      expect(saying(back)).toEqual(['evicted 3 chunks or messages before this point (memory cap), without a digest: how many events they held is not known']);
      expect(analyzeCapture(back)[0]).toMatchObject({ evictedEvents: 3, evictedBy: 'cap' });
    }
  });

  it('says what let them go: the memory cap, Clear with the stream open, or both', () => {
    for (const [cleared, by, words] of [[3, 'clear', 'Clear, the stream still open'], [1, 'both', 'memory cap and Clear']] as const) {
      for (const transport of ['fetch', 'eventsource'] as const) {
        const back = strippedImport(capture(transport, cleared));
        expect(analyzeCapture(back)[0].evictedBy, `${transport} ${by}`).toBe(by);
        expect(saying(back)[0]).toContain(`(${words})`);
      }
    }
  });

  it('none where the HAR says none: a head not evicted, or a body whose size alone says more than its text', () => {
    const whole = capture('fetch');
    whole.records.splice(1, 1);
    expect(evictedOf(strippedImport(whole))).toEqual([]);
    const har = JSON.parse(writeHar(capture('fetch'))) as { log: { _replyscope?: unknown; entries: { _replyscope?: unknown; comment?: string; response: { content: { comment?: string } } }[] } };
    delete har.log._replyscope;
    for (const e of har.log.entries) {
      delete e._replyscope;
      delete e.comment;
      delete e.response.content.comment;
    }
    expect(evictedOf(importHar(har))).toEqual([]);
  });
});

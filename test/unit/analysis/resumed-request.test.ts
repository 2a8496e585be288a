// A fetch that resumes an earlier stream — @microsoft/fetch-event-source retrying after a network error sends the
// Last-Event-ID it got — continues a reply begun on an earlier connection: when that connection was not captured, the
// connection says so, so the orphan warnings on its events are read for what they are (stream-resume.test.ts: when it
// was, the reply continues from it).
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { captureOf, sseBody } from './support.ts';

const body = sseBody([
  { id: 'e4', created_at: '2026-03-01T09:00:00', reply_id: 'r1', type: 'TEXT_BLOCK_DELTA', block_id: 'b1', delta: 'lo' },
  { id: 'e5', created_at: '2026-03-01T09:00:01', reply_id: 'r1', type: 'TEXT_BLOCK_END', block_id: 'b1' },
]);

function analyse(requestHeaders: [string, string][]) {
  const records = captureOf([new TextEncoder().encode(body)]).map((r): CaptureRecord => (r.kind === 'connection' ? { ...(r as ConnectionRecord), requestHeaders } : r));
  const a = new CaptureAnalyzer();
  a.push(records);
  return a.connections()[0];
}

describe('a request that resumes an earlier stream', () => {
  it('says so, naming the Last-Event-ID it sent', () => {
    const conn = analyse([['accept', 'text/event-stream'], ['Last-Event-ID', 'e3']]);
    const message = 'resumes a stream from id "e3" that was not captured: its replies start mid-way (no earlier connection to this URL was captured)';
    expect(conn.notes).toEqual([`This request ${message}.`]);
    expect(conn.diagnostics).toContainEqual({ code: 'stream.resumed-uncaptured', severity: 'info', index: 0, message });
    expect(conn.diagnostics.map((d) => d.code)).toContain('as.foreign-reply-id'); // still told: the note explains it
  });

  it('a request without one says nothing of it', () => {
    expect(analyse([['accept', 'text/event-stream']]).notes).toEqual([]);
  });
});

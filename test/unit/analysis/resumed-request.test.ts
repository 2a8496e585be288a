// A fetch that resumes an earlier stream — @microsoft/fetch-event-source retrying after a network error sends the
// Last-Event-ID it got — continues a reply begun on an earlier connection: the connection says so, so the orphan
// warnings on its events are read for what they are.
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
    expect(conn.notes).toEqual(['This request resumes an earlier stream (Last-Event-ID "e3"): a reply begun on an earlier connection continues here, so its events name a reply that did not start on this one.']);
    expect(conn.diagnostics.map((d) => d.code)).toContain('as.foreign-reply-id'); // still told: the note explains it
  });

  it('a request without one says nothing of it', () => {
    expect(analyse([['accept', 'text/event-stream']]).notes).toEqual([]);
  });
});

// An HTTP error answer to a stream request: its diagnostic says what the server answered, not only the status — in a
// CI log ("HTTP 401") the answer is what tells an expired token from a quota.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import type { Capture, ConnectionRecord } from '../../../src/core/capture/model.ts';

const conn = (status: number, statusText: string): ConnectionRecord => ({
  kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'POST', url: 'https://api.example/stream',
  requestHeaders: [['accept', 'text/event-stream']], status, statusText, responseHeaders: [['content-type', 'application/json']], startTime: 1.75e12,
});
const capture = (status: number, statusText: string, texts: string[]): Capture => ({
  header: makeHeader('replyscope test'),
  records: [conn(status, statusText), ...texts.map((text, i) => ({ kind: 'chunk' as const, conn: 'c1', t: 1.75e12 + i, bytes: new TextEncoder().encode(text).length, text })),
    { kind: 'end', conn: 'c1', t: 1.75e12 + 9, state: 'complete' }],
});
const message = (c: Capture) => analyzeCapture(c)[0].diagnostics.find((d) => d.code === 'stream.http-error')?.message;

describe('stream.http-error', () => {
  it('quotes the answer, on one line', () => {
    expect(message(capture(401, 'Unauthorized', ['{"detail":\n  "token', ' expired"}']))).toBe('HTTP 401 Unauthorized — the answer: {"detail": "token expired"}');
  });

  it('cuts a long answer to its head; no answer, only the status', () => {
    const long = message(capture(503, 'Service Unavailable', ['<html>' + 'x'.repeat(5000) + '</html>']));
    expect(long?.startsWith('HTTP 503 Service Unavailable — the answer: <html>xxx')).toBe(true);
    expect(long?.endsWith('…')).toBe(true);
    expect(long!.length).toBeLessThan(300);
    expect(message(capture(429, 'Too Many Requests', []))).toBe('HTTP 429 Too Many Requests');
  });
});

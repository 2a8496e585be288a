// A capture log of one SSE connection whose events arrive at given times: what the viewer specs import to look at a
// stream of their own making (timeline, event cells). Each spec wrote this record list out for itself.
import { writeCaptureLog } from '../../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';

/**
 * `events` each arriving `at` ms after the connection opened (at t = 1,000 ms), one chunk per event, the connection
 * ending at `endAt` ms after it opened (default: 1 ms after the last event).
 */
export function sseCaptureLog(events: [event: Record<string, unknown>, at: number][], options: { url?: string; endAt?: number } = {}): string {
  const records: CaptureRecord[] = [{
    kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'GET', url: options.url ?? 'http://127.0.0.1/sessions/s/stream',
    requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1_000, responseTime: 1_000,
  }];
  for (const [e, at] of events) {
    const text = `data: ${JSON.stringify(e)}\n\n`;
    records.push({ kind: 'chunk', conn: 'c', t: 1_000 + at, bytes: Buffer.byteLength(text), text });
  }
  const endAt = options.endAt ?? (events.length ? events[events.length - 1][1] + 1 : 0);
  records.push({ kind: 'end', conn: 'c', t: 1_000 + endAt, state: 'complete' });
  return writeCaptureLog({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T09:00:00Z' }, records });
}

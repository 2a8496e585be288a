// A connection whose end record says it was still open when the record was taken (`open`: an export or snapshot of a
// live stream; `evicted-open`) has not ended: it reads exactly as the same capture with no end record at all — no
// flushed last line, no "never got a REPLY_END", no "body ends mid-line" — while a real end still gets those checks.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { captureOf, sseBody } from './support.ts';

const ev = (o: Record<string, unknown>) => ({ id: `e${Math.random()}`, created_at: '2026-03-01T09:00:00', reply_id: 'r1', ...o });
// A reply cut mid-stream: its text block open, the body ending inside a data line.
const body = sseBody([
  ev({ type: 'REPLY_START', session_id: 's', name: 'Friday' }),
  ev({ type: 'TEXT_BLOCK_START', block_id: 'b1' }),
  ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b1', delta: 'Hello' }),
]) + 'data: {"type":"TEXT_BLO';

function analyse(records: CaptureRecord[]) {
  const a = new CaptureAnalyzer();
  a.push(records);
  const [conn] = a.connections();
  return { state: conn.state, codes: conn.diagnostics.map((d) => d.code), events: conn.events.length, text: JSON.stringify(conn.replies[0].history.at(conn.replies[0].history.length - 1)) };
}

describe('an end record that says the stream was still open', () => {
  const chunks = [new TextEncoder().encode(body)];
  const live = analyse(captureOf(chunks, { state: 'open' })); // no end record: still arriving
  it.each(['open', 'evicted-open'] as const)('%s: read as the stream without an end, state aside', (state) => {
    const records: CaptureRecord[] = [...captureOf(chunks, { state: 'open' }), { kind: 'end', conn: 'c1', t: 3_000, state }];
    const got = analyse(records);
    expect(got.state).toBe('open');
    expect({ ...got, state: live.state }).toEqual(live);
    expect(got.codes).not.toContain('as.reply-not-ended');
    expect(got.codes).not.toContain('sse.unterminated-final-line');
  });

  it('a real end of the same body is checked for what it left unfinished', () => {
    const ended = analyse(captureOf(chunks, { state: 'complete' }));
    expect(ended.codes).toEqual(expect.arrayContaining(['as.reply-not-ended', 'sse.unterminated-final-line']));
  });
});

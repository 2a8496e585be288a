// Search across deltas: the event whose delta completes a word split over earlier deltas of its block matches.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../panel/core-bridge.ts';
import { eventRows } from '../../../panel/store/filters.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';

function connectionOf(deltas: [block: string, delta: string][]) {
  let n = 0;
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify({ id: `e${n++}`, created_at: '2026-12-01T00:00:00', reply_id: 'r', ...o })}\n\n`;
  const blocks = [...new Set(deltas.map(([b]) => b))];
  const body = ev({ type: 'REPLY_START', session_id: 's', name: 'a' }) + blocks.map((b) => ev({ type: 'TEXT_BLOCK_START', block_id: b })).join('')
    + deltas.map(([b, d]) => ev({ type: 'TEXT_BLOCK_DELTA', block_id: b, delta: d })).join('');
  const records: CaptureRecord[] = [
    { kind: 'connection', id: 'c', transport: 'import', frameUrl: '', method: 'GET', url: 'x.sse', requestHeaders: [], responseHeaders: [['content-type', 'text/event-stream']], startTime: 0 },
    { kind: 'chunk', conn: 'c', t: 1, bytes: Buffer.byteLength(body), text: body },
    { kind: 'end', conn: 'c', t: 2, state: 'complete' },
  ];
  const a = new CaptureAnalyzer();
  a.push(records);
  return a.connection('c')!;
}

const found = (conn: ReturnType<typeof connectionOf>, text: string) =>
  eventRows(conn, text, new Set(), false).flatMap((r) => (r.kind === 'event' && r.event.type === 'TEXT_BLOCK_DELTA' ? [(r.event.raw as { delta: string }).delta] : []));

describe('search across deltas', () => {
  it('finds a word split over deltas at the delta that completes it, case-insensitively, escapes and all', () => {
    const conn = connectionOf([['b', 'The capital is Lis'], ['b', 'b'], ['b', 'on, "by ', ], ['b', 'the sea".\nLisbon again']]);
    expect(found(conn, 'lisbon')).toEqual(['on, "by ', 'the sea".\nLisbon again']); // split, then whole in one delta
    expect(found(conn, 'BY THE SEA"')).toEqual(['the sea".\nLisbon again']); // a quote the raw JSON escapes
    expect(found(conn, 'sea".\nlis')).toEqual(['the sea".\nLisbon again']); // a newline (\n in the raw text)
  });

  it('does not join the text of different blocks', () => {
    const conn = connectionOf([['a', 'Lis'], ['b', 'bon'], ['a', 'sabon']]);
    expect(found(conn, 'lisbon')).toEqual([]);
    expect(found(conn, 'lissabon')).toEqual(['sabon']);
  });
});

// Event views keep their arrival time and created_at in per-connection columns (event-view.ts, EventTimes) instead
// of a number field per object: reads, writes and the serialised form must be what plain fields gave.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { captureOf, sseBody } from './support.ts';

const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;

describe('AnalysedEvent time columns', () => {
  it('reads each event its own time and created_at, past the first column size, and writes one event only', () => {
    const events: Record<string, unknown>[] = [{ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'F', created_at: '2026-03-01T09:00:00.250' }];
    for (let i = 1; i < 1500; i++) events.push({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'x', ...(i % 3 ? { created_at: `2026-03-01T09:00:${String(i % 60).padStart(2, '0')}` } : {}) });
    // One chunk per event: arrival time 1000 + i (captureOf).
    const chunks = events.map((e) => new TextEncoder().encode(sseBody([e])));
    const [view] = analyzeCapture({ header, records: captureOf(chunks) });
    expect(view.events).toHaveLength(1500);
    view.events.forEach((e, i) => {
      expect(e.t).toBe(1000 + i);
      expect(e.createdAt).toBe(i === 0 ? Date.UTC(2026, 2, 1, 9, 0, 0, 250) : i % 3 ? Date.UTC(2026, 2, 1, 9, 0, i % 60) : undefined);
    });
    view.events[1200].t = 5;
    view.events[1200].createdAt = undefined;
    view.events[7].createdAt = 42;
    expect([view.events[1199].t, view.events[1200].t, view.events[1201].t]).toEqual([2199, 5, 2201]);
    expect([view.events[1200].createdAt, view.events[7].createdAt, view.events[8].createdAt]).toEqual([undefined, 42, Date.UTC(2026, 2, 1, 9, 0, 8)]);
  });

  it('serialises as the plain fields did: same keys, same order, createdAt only when there is one', () => {
    const body = sseBody([
      { type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'F', created_at: '2026-03-01T09:00:00' },
      { type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: 'b' },
    ]);
    const [view] = analyzeCapture({ header, records: captureOf([new TextEncoder().encode(body)]) });
    const [a, b] = view.events.map((e) => JSON.parse(JSON.stringify(e)));
    expect(Object.keys(a)).toEqual(['index', 'frameIndex', 't', 'type', 'rawText', 'preview', 'createdAt', 'replyId', 'valid', 'issues', 'extras', 'diagnostics', 'raw']);
    expect(Object.keys(b)).toEqual(['index', 'frameIndex', 't', 'type', 'rawText', 'preview', 'replyId', 'blockId', 'valid', 'issues', 'extras', 'diagnostics', 'raw']);
    expect(a).toMatchObject({ index: 0, t: 1000, createdAt: Date.UTC(2026, 2, 1, 9), type: 'REPLY_START', replyId: 'r' });
  });
});

// "Has errors" keeps the connections a user filtering for errors looks for — a reply that failed among them, on a
// stream that itself ended fine (pi's "529 overloaded_error": HTTP 200, complete, an info diagnostic).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConnectionView, ReplyView } from '../../../src/core/analysis/types.ts';
import { CaptureAnalyzer, loadInput } from '../../../panel/core-bridge.ts';
import { connectionHasErrors, filterConnections } from '../../../panel/store/filters.ts';

function demoConnections(): ConnectionView[] {
  const file = path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson');
  const analyzer = new CaptureAnalyzer();
  analyzer.push(loadInput(readFileSync(file)).records);
  return analyzer.connections();
}

/** A healthy connection (HTTP 200, complete, no diagnostics) holding one reply that finished for `reason`. */
function healthyWithReply(dialect: 'agentscope' | 'pi-proxy', reason: string | undefined): ConnectionView {
  const reply = { id: 'r', dialect, eventIndices: [], diagnostics: [], stepStatus: [], ...(reason ? { finishedReason: reason } : {}) } as unknown as ReplyView;
  return {
    record: { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'POST', url: 'http://x/api/stream', requestHeaders: [], startTime: 0, status: 200 },
    state: 'complete', dialect, bytes: 0, replies: [reply], diagnostics: [], evictedEvents: 0, notes: [],
  } as unknown as ConnectionView;
}

describe('Has errors', () => {
  it("keeps the demo's pi stream whose reply failed with 529 overloaded_error (its only diagnostic is info)", () => {
    const conns = demoConnections();
    const failed = conns.find((c) => c.record.id === 'demo:4')!;
    expect(failed.state).toBe('complete');
    expect(failed.diagnostics.every((d) => d.severity === 'info')).toBe(true);
    expect(failed.replies.map((r) => r.finishedReason)).toEqual(['error']);
    expect(filterConnections(conns, '', true).map((c) => c.record.id)).toContain('demo:4');
    // The pi streams whose replies finished well stay out.
    expect(filterConnections(conns, '', true).map((c) => c.record.id)).not.toContain('demo:2');
    expect(filterConnections(conns, '', true).map((c) => c.record.id)).not.toContain('demo:3');
  });

  it('counts a reply that finished in error or was aborted, in either dialect, and no other ending', () => {
    expect(connectionHasErrors(healthyWithReply('agentscope', 'error'))).toBe(true);
    expect(connectionHasErrors(healthyWithReply('pi-proxy', 'error'))).toBe(true);
    expect(connectionHasErrors(healthyWithReply('pi-proxy', 'aborted'))).toBe(true);
    for (const fine of ['completed', 'interrupted', 'exceed_max_iters', 'stop', 'length', 'toolUse', undefined]) {
      expect(connectionHasErrors(healthyWithReply('agentscope', fine)), String(fine)).toBe(false);
    }
  });
});

// The assistant/agent-form pi history: the message after step k is the one the last carrying event at or before k
// carried, read back from that event's wire text — one parse per seek, none while scrubbing within one carrier's run.
import { describe, expect, it } from 'vitest';
import { CarriedMessageHistory } from '../../../src/core/analysis/carried-history.ts';

describe('CarriedMessageHistory', () => {
  it('every step is the last carried message, each seek parses at most one event', () => {
    let reads = 0;
    const h = new CarriedMessageHistory((raw) => {
      reads++;
      return (raw as { message?: unknown }).message;
    });
    // Steps 0 and 1 carry nothing (e.g. agent_start, turn_start), then every third step carries nothing either.
    const expected: unknown[] = [];
    let current: unknown;
    for (let k = 0; k < 40; k++) {
      const message = k >= 2 && k % 3 !== 0 ? { role: 'assistant', text: `t${k}` } : undefined;
      h.push(JSON.stringify(message ? { type: 'message_update', message } : { type: 'tool_execution_start' }), message);
      if (message) current = message;
      expected.push(current);
    }
    expect(h.length).toBe(40);
    expect(h.at(-1)).toBeUndefined();
    for (const k of [39, 0, 1, 2, 3, 17, 18, 33, 30, 5]) {
      const before = reads;
      expect(h.at(k), `step ${k}`).toEqual(expected[k]);
      expect(reads - before).toBeLessThanOrEqual(1);
    }
    // Steps 2 and 3 share one carrier (step 3 carries nothing): the second seek parses nothing.
    h.at(2);
    const before = reads;
    h.at(3);
    expect(reads).toBe(before);
    expect(() => h.at(40)).toThrow(RangeError);
    expect(() => h.at(-2)).toThrow(RangeError);
  });
});

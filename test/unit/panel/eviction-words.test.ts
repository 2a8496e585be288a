// The scrubber's and the timeline's words for an evicted head name what evicted it: after a Clear with the stream
// open they said "Older events were evicted (memory cap)", "began in events evicted by the memory cap" and "began
// before the evicted part (memory cap)" of a capture nowhere near its cap, while the event list said Clear.
import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import type { EvictionCause } from '../../../src/core/capture/eviction-cause.ts';
import { continuedSpanTitle, continuesEvictionTitle, evictedDetail, evictedStepsTitle } from '../../../panel/lib/eviction-words.ts';

const conn = (evictedBy: EvictionCause | undefined, resumes = false) =>
  ({ evictedBy, replies: [{ continuesConnection: resumes ? 'c0' : undefined }] }) as unknown as ConnectionView;

describe('the words for an evicted head', () => {
  it('say the memory cap when the cap evicted it', () => {
    expect(evictedStepsTitle(conn('cap'))).toBe('Older events were evicted (memory cap)');
    expect(continuesEvictionTitle(conn('cap'))).toMatch(/^This reply began in events evicted by the memory cap: /);
    expect(continuedSpanTitle(conn('cap'))).toBe('began before the evicted part (memory cap)');
    // An older view (no cause): the cap, as before.
    expect(evictedStepsTitle(conn(undefined))).toBe('Older events were evicted (memory cap)');
  });

  it('say Clear when Clear dropped it, the stream still open', () => {
    expect(evictedStepsTitle(conn('clear'))).toBe('Older events were evicted (Clear, the stream still open)');
    expect(continuesEvictionTitle(conn('clear'))).toMatch(/^This reply began in events evicted by Clear \(the stream still open\): /);
    expect(continuedSpanTitle(conn('clear'))).toBe('began before the evicted part (Clear, the stream still open)');
  });

  it('say both when both did', () => {
    expect(evictedStepsTitle(conn('both'))).toBe('Older events were evicted (memory cap and Clear)');
    expect(continuesEvictionTitle(conn('both'))).toMatch(/^This reply began in events evicted by the memory cap and Clear: /);
    expect(continuedSpanTitle(conn('both'))).toBe('began before the evicted part (memory cap and Clear)');
  });

  it('the connection details say how many events went — or chunks or messages, or of a HAR read without our fields, the body\'s bytes', () => {
    expect(evictedDetail({ evictedEvents: 6, evictedBy: 'clear' })).toBe('6 oldest events (Clear, the stream still open)');
    expect(evictedDetail({ evictedEvents: 3, evictedRecordsOnly: true })).toBe('3 oldest chunks or messages (memory cap)');
    expect(evictedDetail({ evictedEvents: 0, evictedRecordsOnly: true, evictedBytes: 2048, evictedBy: 'cap' })).toBe('the body\'s first 2.0 kB (memory cap)');
    expect(evictedDetail({ evictedEvents: 0 })).toBeUndefined();
  });

  it('a span begun on the connection this one resumes says so', () => {
    expect(continuedSpanTitle(conn('clear', true))).toBe('began on the connection this one resumes');
  });
});

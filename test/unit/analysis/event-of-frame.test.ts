// Where a frame-level diagnostic is shown: the binary search equals the scan it replaced, on event lists as the
// reader makes them (frame indices ascending, repeated for frames with several client lines, gaps for heartbeats,
// and events whose frame is not complete yet, -1, only at the end).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventIndexOfFrame } from '../../../src/core/analysis/connection-analysis.ts';

const scan = (events: { frameIndex: number }[], frameIndex: number) => {
  const i = events.findIndex((e) => e.frameIndex >= frameIndex);
  return i === -1 ? Math.max(0, events.length - 1) : i;
};

const eventList = fc
  .tuple(fc.array(fc.nat({ max: 3 }), { maxLength: 60 }), fc.nat({ max: 3 }))
  .map(([steps, unmapped]) => {
    let f = 0;
    const events = steps.map((d) => ({ frameIndex: (f += d) }));
    for (let i = 0; i < unmapped; i++) events.push({ frameIndex: -1 });
    return events;
  });

describe('eventIndexOfFrame', () => {
  it('finds what a scan finds', () => {
    fc.assert(
      fc.property(eventList, fc.nat({ max: 200 }), (events, frame) => {
        expect(eventIndexOfFrame(events, frame)).toBe(scan(events, frame));
      }),
      { seed: 14, numRuns: 5000 },
    );
  });
});

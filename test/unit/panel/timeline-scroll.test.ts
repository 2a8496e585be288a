// The lanes the timeline scrolls to when a reply is selected (timeline-scroll.ts): its block lanes, which sit below
// every reply's reply and model-call lanes — the chart neither moved nor marked them.
import { describe, expect, it } from 'vitest';
import { deriveTimeline } from '../../../src/core/analysis/timeline.ts';
import { timelineViews } from './timeline-views.ts';
import { replyLaneRange } from '../../../panel/components/timeline-scroll.ts';

const views = timelineViews;

describe('replyLaneRange', () => {
  const tl = deriveTimeline(views([
    { type: 'REPLY_START', reply_id: 'a' },
    { type: 'REPLY_START', reply_id: 'b' },
    { type: 'TEXT_BLOCK_START', reply_id: 'a', block_id: 'a1' },
    { type: 'TEXT_BLOCK_START', reply_id: 'b', block_id: 'b1' },
    { type: 'THINKING_BLOCK_START', reply_id: 'b', block_id: 'b0' },
    { type: 'REPLY_START', reply_id: 'c' },
  ]));

  it('a reply\'s block lanes, first to last (after every reply lane)', () => {
    const names = tl.lanes.map((l) => l.label);
    const [first, last] = replyLaneRange(tl.lanes, 'b')!;
    expect([names[first], names[last]]).toEqual(['thinking b0', 'text b1']);
  });

  it('a reply with no block: its own lane; an unknown one: none', () => {
    const [first, last] = replyLaneRange(tl.lanes, 'c')!;
    expect([tl.lanes[first].label, last]).toEqual(['reply c', first]);
    expect(replyLaneRange(tl.lanes, 'zz')).toBeUndefined();
  });
});

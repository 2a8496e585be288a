// The timeline in words (src/core/analysis/timeline-text.ts): a summary per lane and the lane's previous/next event.
import { describe, expect, it } from 'vitest';
import { deriveTimeline } from '../../../src/core/analysis/timeline.ts';
import { gapSummary, laneStep, MARKS_LISTED, summariseLane, summariseLanes } from '../../../src/core/analysis/timeline-text.ts';
import { timelineViews } from './timeline-views.ts';
import { contentsText, stateText } from '../../../panel/lib/timeline-words.ts';

const views = timelineViews;
const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r', ...extra });

const stream = views([
  ev('REPLY_START', { session_id: 's', name: 'a' }), // 0
  ev('TEXT_BLOCK_START', { block_id: 't1' }), // 1
  ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: 'Hi' }), // 2
  { type: 'CUSTOM', name: 'progress', value: { p: 0.5 } }, // 3
  ev('TEXT_BLOCK_DELTA', { block_id: 't1', delta: '!' }), // 4
  ev('TEXT_BLOCK_END', { block_id: 't1' }), // 5
  ev('REQUIRE_USER_CONFIRM', { tool_calls: [] }), // 6
  ev('USER_CONFIRM_RESULT', { confirm_results: [] }), // 7: 3 s later
  ev('USER_INTERRUPT'), // 8
  { type: 'CUSTOM', name: 'progress', value: { p: 1 } }, // 9
  ev('THINKING_BLOCK_START', { block_id: 'k1' }), // 10: never ended
], [0, 10, 20, 30, 40, 50, 100, 3100, 3200, 3300, 3400]);
const tl = deriveTimeline(stream);
const lane = (kind: string) => tl.lanes.find((l) => l.kind === kind)!;

describe('summariseLane', () => {
  it('a text block: first and last event, duration, ended, its deltas', () => {
    expect(summariseLane(lane('text'))).toMatchObject({ firstEvent: 1, lastEvent: 5, start: 10, end: 50, spans: 1, openSpans: 0, deltas: 2, events: 4, markCount: 0 });
  });

  it('a block nothing ended is open to the last event', () => {
    expect(summariseLane(lane('thinking'))).toMatchObject({ firstEvent: 10, lastEvent: 10, openSpans: 1, end: 3400 });
  });

  it('the reply: its marks by name, and its human wait', () => {
    const s = summariseLanes(tl).find((x) => x.lane.kind === 'reply')!;
    expect(s.marks).toEqual([{ event: 6, mark: 'REQUIRE_USER_CONFIRM' }, { event: 7, mark: 'USER_CONFIRM_RESULT' }, { event: 8, mark: 'USER_INTERRUPT' }]);
    expect(s.deltas).toBe(0);
    expect(s.waits.map((w) => [w.startEvent, w.endEvent, w.end - w.start])).toEqual([[6, 7, 3000]]);
  });

  it('a CUSTOM lane: each notification, none of them a delta', () => {
    expect(summariseLane(lane('custom'))).toMatchObject({ firstEvent: 3, lastEvent: 9, events: 2, deltas: 0, markCount: 2 });
  });

  it(`lists the first ${MARKS_LISTED} marks and counts them all`, () => {
    const many = views(Array.from({ length: 30 }, (_, i) => ({ type: 'CUSTOM', name: 'tick', value: {} })), Array.from({ length: 30 }, (_, i) => i));
    const s = summariseLane(deriveTimeline(many).lanes[0]);
    expect([s.markCount, s.marks.length, s.marks[0].event]).toEqual([30, MARKS_LISTED, 0]);
  });
});

describe('laneStep', () => {
  it('moves to the lane\'s next or previous event from any step, and says when there is none', () => {
    const text = lane('text');
    expect(laneStep(text, undefined, 1)).toBe(1);
    expect(laneStep(text, undefined, -1)).toBe(5);
    expect(laneStep(text, 2, 1)).toBe(4); // the CUSTOM at 3 is not the text's
    expect(laneStep(text, 3, -1)).toBe(2);
    expect(laneStep(text, 5, 1)).toBeUndefined();
    expect(laneStep(lane('custom'), 0, 1)).toBe(3);
    expect(laneStep(lane('custom'), 3, 1)).toBe(9);
  });
});

describe('gapSummary', () => {
  it('counts the silences and finds the longest', () => {
    const g = gapSummary(tl.waits);
    expect(g.count).toBe(1);
    expect([g.longest?.startEvent, g.longest?.endEvent]).toEqual([6, 7]);
  });
});

describe('the table\'s words (panel/lib/timeline-words.ts)', () => {
  const row = (kind: string) => summariseLanes(tl).find((s) => s.lane.kind === kind)!;

  it('a lane ended, or not, by its last span', () => {
    expect(stateText(row('text'))).toBe('ended');
    expect(stateText(row('thinking'))).toBe('not ended');
    expect(stateText(row('custom'))).toBe('instant');
  });

  it('a reply resumed after a confirmation (REPLY_START again, no REPLY_END before it) ended, its first span left open', () => {
    const resumed = views([
      ev('REPLY_START', { session_id: 's', name: 'a' }),
      ev('REQUIRE_USER_CONFIRM', { tool_calls: [] }),
      ev('USER_CONFIRM_RESULT', { confirm_results: [] }),
      ev('REPLY_START', { session_id: 's', name: 'a' }),
      ev('REPLY_END', { session_id: 's' }),
    ], [0, 1, 2, 3, 4]);
    const s = summariseLane(deriveTimeline(resumed).lanes[0]);
    expect(stateText(s)).toBe('ended; 1 earlier span never closed');
  });

  it('contents: deltas, marks by name, waits, notifications', () => {
    expect(contentsText(tl, row('text'))).toBe('2 deltas');
    expect(contentsText(tl, row('reply'))).toBe('3 marks: REQUIRE_USER_CONFIRM #6, USER_CONFIRM_RESULT #7, USER_INTERRUPT #8; waiting for the user #6 → #7 (3.00 s)');
    expect(contentsText(tl, row('custom'))).toBe('2 notifications');
    expect(contentsText(tl, row('thinking'))).toBe('1 event');
  });
});

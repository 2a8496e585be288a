// The timeline table's ids and long names (TimelineTable.tsx): a 32-digit id wrapped mid-hex over two to eight
// lines, and a long event name set the Contents column's least width.
import { describe, expect, it } from 'vitest';
import { deriveTimeline } from '../../../src/core/analysis/timeline.ts';
import { timelineViews } from './timeline-views.ts';
import { idPieces, laneIds, longNameParts, shortId, shortIdsIn } from '../../../panel/lib/timeline-words.ts';

const HEX = 'e6336d1ff989d237ba2529d0fcfbedbf';

const views = timelineViews;

describe('shortId', () => {
  it('a long id: its head and tail', () => {
    expect(shortId(HEX)).toBe('e6336d…edbf');
    expect(shortId('toolu_01AbCdEfGhIjKlMnOp')).toBe('toolu_…MnOp'); // ids sharing a head differ by their tail
  });

  it('an id of 16 characters or fewer is whole', () => {
    expect(shortId('call_1234567890a')).toBe('call_1234567890a');
  });
});

describe('laneIds and idPieces', () => {
  const tl = deriveTimeline(views([
    { type: 'REPLY_START', reply_id: HEX, name: 'a' },
    { type: 'TEXT_BLOCK_START', reply_id: HEX, block_id: `blk_${HEX}` },
    { type: 'CUSTOM', name: `progress_${'x'.repeat(30)}`, value: {} },
  ]));
  const lane = (kind: string) => tl.lanes.find((l) => l.kind === kind)!;

  it('a block lane holds its reply\'s id and its block\'s; a CUSTOM lane\'s name is no id', () => {
    expect(laneIds(lane('reply'))).toEqual([HEX]);
    expect(laneIds(lane('text'))).toEqual([HEX, `blk_${HEX}`]);
    expect(laneIds(lane('custom'))).toEqual([]);
  });

  it('cuts the name into words and ids, the longer id first where one holds the other', () => {
    expect(idPieces(`R2 · text blk_${HEX}`, laneIds(lane('text')))).toEqual([
      { text: 'R2 · text ' }, { id: `blk_${HEX}`, short: 'blk_e6…edbf' },
    ]);
    expect(idPieces(`a · ${HEX}`, [HEX])).toEqual([{ text: 'a · ' }, { id: HEX, short: 'e6336d…edbf' }]);
  });

  it('shortIdsIn: the chart\'s lane label, its ids as the table shows them, its words whole', () => {
    expect(shortIdsIn(`R2 · text blk_${HEX}`, laneIds(lane('text')))).toBe('R2 · text blk_e6…edbf');
    expect(shortIdsIn(`R1 · reply ${HEX}`, laneIds(lane('reply')))).toBe('R1 · reply e6336d…edbf');
    // A tool's name is no id: whole, however long.
    expect(shortIdsIn('tool call toolu_01AbCdEfGhIjKlMnOp · plot_csv_of_every_column', ['toolu_01AbCdEfGhIjKlMnOp']))
      .toBe('tool call toolu_…MnOp · plot_csv_of_every_column');
    expect(shortIdsIn(lane('custom').label, laneIds(lane('custom')))).toBe(lane('custom').label);
  });

  it('leaves ids under 4 characters plain (a model call\'s number)', () => {
    expect(idPieces('R1 · model call 1 · qwen', ['1', 'r'])).toEqual([{ text: 'R1 · model call 1 · qwen' }]);
  });
});

describe('longNameParts', () => {
  it('cuts a name longer than 16 characters after its underscores; shorter ones stay whole', () => {
    expect(longNameParts('2 marks: REQUIRE_EXTERNAL_EXECUTION #310, USER_INTERRUPT #7')).toEqual([
      '2 marks: REQUIRE_', 'EXTERNAL_', 'EXECUTION #310, USER_INTERRUPT #7',
    ]);
    expect(longNameParts('55 deltas')).toEqual(['55 deltas']);
  });

  it('the parts are the text', () => {
    const t = 'waiting for the user #254 → #255 (34.00 s); REQUIRE_USER_CONFIRM_ #1';
    expect(longNameParts(t).join('')).toBe(t);
  });
});

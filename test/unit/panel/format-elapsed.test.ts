// The event list's Time column: a time since the connection opened in at most 9 characters (its column is 72 px in a
// docked panel), whole at any length of capture — past a minute it read "1 min 23.…".
import { describe, expect, it } from 'vitest';
import { formatElapsed } from '../../../panel/lib/format.ts';

describe('formatElapsed', () => {
  it('below a minute: as the event pane says it', () => {
    expect([formatElapsed(1_731.8, 1_000), formatElapsed(60_871, 1_000)]).toEqual(['731.8 ms', '59.871 s']);
  });

  it('past a minute: m:ss.sss, the seconds padded, rounded to the millisecond', () => {
    expect(formatElapsed(84_016, 1_000)).toBe('1:23.016');
    expect(formatElapsed(61_005, 1_000)).toBe('1:00.005');
    expect(formatElapsed(120_999.6, 1_000)).toBe('2:00.000'); // 119,999.6 ms: the carry goes to the minutes
    expect(formatElapsed(732_800, 1_000)).toBe('12:11.800');
  });

  it('at most 9 characters below 100 minutes', () => {
    for (let d = 0; d < 100 * 60_000; d += 7_919.3) expect(formatElapsed(d, 0).length).toBeLessThanOrEqual(9);
  });

  it('no time: a dash', () => {
    expect([formatElapsed(NaN, 0), formatElapsed(5, NaN)]).toEqual(['—', '—']);
  });
});

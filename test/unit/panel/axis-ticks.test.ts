// The timeline's axis labels: one format for the whole axis — "20.00 s" stood next to "1 min 0 s" on one axis.
import { describe, expect, it } from 'vitest';
import { axisDuration, axisScale, axisTicks, axisTime, finerStep, niceStep, tickLabels, type LabelRoom } from '../../../panel/lib/axis-ticks.ts';

const labels = (v0: number, v1: number, px = 900, origin = 0) => axisTicks(v0, v1, origin, px).map((k) => k.label);

describe('axisTicks', () => {
  it('an axis past a minute is m:ss throughout, its first minute too', () => {
    expect(labels(0, 103_000)).toEqual(['0:00', '0:20', '0:40', '1:00', '1:20', '1:40']);
  });

  it('under a minute: seconds, as many decimals as the step needs, the same on every label', () => {
    expect(labels(0, 30_000)).toEqual(['0 s', '5 s', '10 s', '15 s', '20 s', '25 s', '30 s']);
    expect(labels(500, 1_500)).toEqual(['0.5 s', '0.6 s', '0.7 s', '0.8 s', '0.9 s', '1.0 s', '1.1 s', '1.2 s', '1.3 s', '1.4 s', '1.5 s']);
  });

  it('under a second: milliseconds', () => {
    expect(labels(0, 800)).toEqual(['0 ms', '100 ms', '200 ms', '300 ms', '400 ms', '500 ms', '600 ms', '700 ms', '800 ms']);
    expect(labels(0, 0.4, 360)).toEqual(['0.0 ms', '0.1 ms', '0.2 ms', '0.3 ms', '0.4 ms']);
  });

  it('zoomed in past a minute: m:ss with the decimals of the step', () => {
    expect(labels(61_000, 61_400, 400)).toEqual(['1:01.0', '1:01.1', '1:01.2', '1:01.3', '1:01.4']);
  });

  it('times count from the origin (the connection\'s start), whatever the view', () => {
    expect(axisTicks(50_000, 91_000, 1_000, 600).map((k) => [k.t, k.label])).toEqual([
      [51_000, '0:50'], [61_000, '1:00'], [71_000, '1:10'], [81_000, '1:20'], [91_000, '1:30'],
    ]);
    // Panned back under a minute, the same axis reads in seconds: the format follows the ticks shown.
    expect(axisTicks(5_000, 46_000, 1_000, 600).map((k) => k.label)).toEqual(['10 s', '20 s', '30 s', '40 s']);
  });

  it('niceStep: 1, 2 or 5 × a power of ten, about 90 px apart', () => {
    expect([niceStep(103_000, 900), niceStep(30_000, 900), niceStep(1_000, 900)]).toEqual([20_000, 5_000, 100]);
  });
});

describe('axisScale: labels that fit, two at least', () => {
  /** The chart's axis: labels may reach 8 px past the plot's end; a label ~6.5 px a character. */
  const room: LabelRoom = { pastEnd: 8, width: (l) => l.length * 6.5 };
  const fits = (v0: number, v1: number, px: number) => (k: { t: number; label: string }) => ((k.t - v0) / (v1 - v0)) * px + 2 + room.width(k.label) <= px + room.pastEnd;

  it('a docked panel\'s ~350 px plot of 1:40 from 0:03: a finer step, four labels (it showed "0:50" alone)', () => {
    // At ~90 px a label: 0:00 (before the view), 0:50, 1:40 (no room for its label).
    expect(niceStep(100_000, 352)).toBe(50_000);
    const axis = axisScale(3_000, 103_000, 0, 352, room);
    expect(axis.step).toBe(20_000);
    expect(axis.ticks.map((k) => k.label)).toEqual(['0:20', '0:40', '1:00', '1:20']);
    expect(axis.ticks.every(fits(3_000, 103_000, 352))).toBe(true);
    expect(axisTicks(3_000, 103_000, 0, 352, room).map((k) => k.label)).toEqual(['0:20', '0:40', '1:00', '1:20']);
  });

  it('the finer step still keeps its labels apart: no finer than the labels\' width', () => {
    for (const px of [90, 120, 196, 352, 500]) {
      const { step, ticks } = axisScale(3_000, 103_000, 0, px, room);
      expect(ticks.length, `${px} px`).toBeGreaterThanOrEqual(2);
      const apart = (step / 100_000) * px;
      if (ticks[0].t !== 3_000) expect(apart, `${px} px`).toBeGreaterThanOrEqual(Math.max(...ticks.map((k) => room.width(k.label))) + 8);
      expect(ticks.every(fits(3_000, 103_000, px)), `${px} px`).toBe(true);
    }
  });

  it('a plot too narrow for two round ticks\' labels: the view\'s start is labelled, and a round tick clear of it', () => {
    expect(axisScale(3_000, 103_000, 0, 90, room).ticks.map((k) => [k.t, k.label])).toEqual([[3_000, '0:03'], [50_000, '0:50']]);
  });

  it('a wide plot keeps its ~90 px step and every label that fits', () => {
    const axis = axisScale(0, 103_000, 0, 1000, room);
    expect(axis.step).toBe(niceStep(103_000, 1000));
    expect(axis.ticks.map((k) => k.label)).toEqual(['0:00', '0:10', '0:20', '0:30', '0:40', '0:50', '1:00', '1:10', '1:20', '1:30', '1:40']);
    // A label that would run past the axis's end is left out: 1:40 on a 900 px plot (at 874 px, ~26 px wide).
    expect(axisTicks(0, 103_000, 0, 900, { pastEnd: 0, width: room.width }).map((k) => k.label).at(-1)).toBe('1:20');
  });

  it('finerStep: down the 1, 2, 5 ladder', () => {
    expect([50_000, 20_000, 10_000, 5, 2, 1, 0.001].map(finerStep)).toEqual([20_000, 10_000, 5_000, 2, 1, 0.5, 0.0005]);
  });

  it('the tooltip reads to the axis\'s step when it is finer than its ~90 px one', () => {
    expect(axisTime(1_000.4, 0, 2_000, 0, 400)).toBe('1.000 s');
    expect(axisTime(1_000.4, 0, 2_000, 0, 400, 0.5)).toBe('1.0004 s');
  });
});

describe('tickLabels', () => {
  it('rounds before it splits minutes: 59.99 s on a whole-second step is 1:00', () => {
    expect(tickLabels([59_990, 120_000], 60_000)).toEqual(['1:00', '2:00']);
  });
});

describe('tickLabels by the view\'s reach', () => {
  it('an axis reaching past a minute is m:ss even where its last label is under one', () => {
    expect(axisTicks(0, 88_000, 0, 360).map((k) => k.label)).toEqual(['0:00', '0:50']);
  });

  it('zoomed in to microseconds on a long axis, the labels still differ', () => {
    const l = labels(61_000, 61_000.1, 400);
    expect(new Set(l).size).toBe(l.length);
    expect(l.slice(0, 2)).toEqual(['1:01.00000', '1:01.00005']); // a step of 50 µs
  });
});

describe('axisTime: a time as the axis reads it (the chart\'s tooltip)', () => {
  it('in the axis\'s unit, to the millisecond: "0:10.530" under "0:20", "1:20" (it read "10.53 s")', () => {
    expect(labels(0, 103_000)[1]).toBe('0:20');
    expect(axisTime(10_530, 0, 103_000, 0, 900)).toBe('0:10.530');
    expect(axisTime(83_016.4, 0, 103_000, 0, 900)).toBe('1:23.016'); // "1 min 23 s"
    expect(axisTime(10_530, 0, 30_000, 0, 900)).toBe('10.530 s');
    expect(axisTime(253.44, 0, 800, 0, 900)).toBe('253.4 ms');
  });

  it('counts from the origin, and is finer where the view is zoomed in further than the millisecond', () => {
    expect(axisTime(11_530, 0, 103_000, 1_000, 900)).toBe('0:10.530');
    expect(axisTime(61_000.05, 61_000, 61_000.1, 0, 400)).toBe('1:01.00005');
  });
});

describe('axisDuration: a length in the axis\'s words', () => {
  it('by its own size, to three significant digits; past a minute m:ss', () => {
    expect([0.25, 45, 340, 2_000, 10_530, 83_000, 3_723_000].map(axisDuration)).toEqual(['0.25 ms', '45 ms', '340 ms', '2.00 s', '10.5 s', '1:23', '62:03']);
  });

  it('rounds before it picks the unit: 999.6 ms is "1.00 s", 59.96 s is "1:00"', () => {
    expect([0, 999.6, 59_960].map(axisDuration)).toEqual(['0 ms', '1.00 s', '1:00']);
  });
});

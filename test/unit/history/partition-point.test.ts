// partitionPoint is the binary search the analysis, the panel and the CLI share: held to a linear scan.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionPoint } from '../../../src/core/partition-point.ts';

describe('partitionPoint', () => {
  it('is the first index where the predicate turns false, as a scan finds it (the lower bound of a value in a sorted list)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (values, v) => {
      const sorted = [...values].sort((a, b) => a - b);
      const scan = sorted.findIndex((x) => !(x < v));
      expect(partitionPoint(sorted.length, (i) => sorted[i] < v)).toBe(scan === -1 ? sorted.length : scan);
    }), { numRuns: 500 });
  });

  it('an empty range is 0; a predicate true throughout is the length', () => {
    expect(partitionPoint(0, () => true)).toBe(0);
    expect(partitionPoint(7, () => true)).toBe(7);
    expect(partitionPoint(7, () => false)).toBe(0);
  });
});

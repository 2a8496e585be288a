// BlockMap (the pi client's persistent blocks by index) against a Map holding the same writes: every version reads
// the same after later writes to its successors (nothing shared is changed), sizes agree, iteration yields exactly
// the Map's entries, and `from` refuses what is no [array index, block] pair (an edited eviction digest).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BlockMap } from '../../../src/core/pi/block-map.ts';
import type { PiBlock } from '../../../src/core/pi/message-state.ts';

const MAX = 2 ** 32 - 2;
const index = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 400 }), fc.constantFrom(15, 16, 17, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 15, MAX - 16, MAX));
const block = (n: number): PiBlock => ({ type: 'text', text: `b${n}` });

describe('BlockMap', () => {
  it('behaves as a Map copied on every write, and versions stay as they were', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(index, fc.integer({ min: 0, max: 99 })), { maxLength: 200 }), (writes) => {
        const versions: [BlockMap, Map<number, PiBlock>][] = [[BlockMap.EMPTY, new Map()]];
        for (const [i, n] of writes) {
          const [map, ref] = versions[versions.length - 1];
          versions.push([map.set(i, block(n)), new Map(ref).set(i, block(n))]);
        }
        for (const [map, ref] of versions) {
          expect(map.size).toBe(ref.size);
          expect([...map].sort((a, b) => a[0] - b[0])).toEqual([...ref].sort((a, b) => a[0] - b[0]));
          for (const [i] of writes) expect(map.get(i)).toEqual(ref.get(i));
          expect(map.get(MAX - 1)).toEqual(ref.get(MAX - 1));
        }
        // Round trip through the digest's form.
        const [last, ref] = versions[versions.length - 1];
        expect([...BlockMap.from([...last.entries()])].sort((a, b) => a[0] - b[0])).toEqual([...ref].sort((a, b) => a[0] - b[0]));
      }),
      { numRuns: 200 },
    );
  });

  it('entries ascend within a chunk, chunks in the order first written', () => {
    const m = BlockMap.EMPTY.set(40, block(1)).set(3, block(2)).set(33, block(3)).set(1, block(4));
    expect([...m.entries()].map(([i]) => i)).toEqual([33, 40, 1, 3]);
  });

  it('from refuses what is no [array index, object] pair', () => {
    for (const bad of [[[-1, {}]], [[1.5, {}]], [[MAX + 1, {}]], [['3', {}]], [[3, 'x']], [[3, null]], [[3]], [3], [null]]) {
      expect(() => BlockMap.from(bad as unknown[]), JSON.stringify(bad)).toThrow(TypeError);
    }
    expect(BlockMap.from([[3, { type: 'text' }], [3, { type: 'thinking' }]]).get(3)).toEqual({ type: 'thinking' });
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CheckpointedHistory } from '../../../src/core/history/seekable-history.ts';

// A reducer with structural sharing and a per-step observable effect, so a wrong starting state shows up.
interface S { items: readonly string[]; sum: number }
const reduce = (s: S, e: number, step: number): S =>
  e % 3 === 0 ? { items: [...s.items, `${step}:${e}`], sum: s.sum + e } : { items: s.items, sum: s.sum * 2 + e };
const initial: S = Object.freeze({ items: Object.freeze([]) as readonly string[], sum: 0 });

function naive(events: number[], k: number): S {
  let s = initial;
  for (let i = 0; i <= k; i++) s = reduce(s, events[i], i);
  return s;
}

describe('CheckpointedHistory', () => {
  it('seek(k) equals a naive replay of events 0..k for random k and random seek orders', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
        (events, interval, seeks) => {
          const h = new CheckpointedHistory<S, number>(initial, reduce, { interval });
          for (const e of events) h.push(e);
          expect(h.length).toBe(events.length);
          for (const raw of seeks) {
            const k = raw % events.length;
            expect(h.at(k)).toEqual(naive(events, k));
          }
          expect(h.at(-1)).toBe(initial);
        },
      ),
      { seed: 20261129, numRuns: 200 },
    );
  });

  it('keeps seeking correctly after old steps are merged into the base', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 2, maxLength: 200 }),
        fc.nat(),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        (events, cut, seeks) => {
          const h = new CheckpointedHistory<S, number>(initial, reduce, { interval: 7 });
          const half = Math.floor(events.length / 2);
          for (const e of events.slice(0, half)) h.push(e);
          const evictAt = cut % (half + 1);
          h.evictBefore(evictAt);
          for (const e of events.slice(half)) h.push(e);
          expect(h.evictedBefore).toBe(evictAt);
          for (const raw of seeks) {
            const k = evictAt + (raw % (events.length - evictAt));
            expect(h.at(k)).toEqual(naive(events, k));
          }
          if (evictAt > 0) expect(() => h.at(evictAt - 1)).toThrow(/evicted/);
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  it('with a live state: checkpoints and the latest step are snapshots of it, other steps replay from them', () => {
    // The owner keeps the state in a mutable object and hands out frozen copies, as ingest's working message does.
    class Live {
      state: { items: string[]; sum: number } = { items: [], sum: 0 };
      snapshots = 0;
      snapshot(): S {
        this.snapshots++;
        return Object.freeze({ items: Object.freeze([...this.state.items]), sum: this.state.sum });
      }
      apply(e: number, step: number): void {
        const next = reduce(this.state, e, step);
        this.state = { items: [...next.items], sum: next.sum };
      }
    }
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        (events, interval, seeks) => {
          const live = new Live();
          const h = new CheckpointedHistory<S, number>(initial, reduce, { interval, live });
          events.forEach((e, step) => {
            live.apply(e, step);
            h.pushLive(e);
          });
          // Only the checkpoints were snapshotted while recording.
          expect(live.snapshots).toBe(Math.floor(events.length / interval));
          for (const raw of seeks) {
            const k = raw % events.length;
            expect(h.at(k)).toEqual(naive(events, k));
          }
          expect(h.last).toEqual(naive(events, events.length - 1));
          expect(h.at(events.length - 1)).toEqual(naive(events, events.length - 1));
        },
      ),
      { seed: 3, numRuns: 200 },
    );
    expect(() => new CheckpointedHistory<S, number>(initial, reduce).pushLive(1)).toThrow(/no live state/);
  });

  it('rejects steps outside the history', () => {
    const h = new CheckpointedHistory<S, number>(initial, reduce);
    h.push(3);
    expect(() => h.at(1)).toThrow(RangeError);
    expect(() => h.at(1.5)).toThrow(RangeError);
  });
});

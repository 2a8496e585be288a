import { describe, expect, it } from 'vitest';
import { UsageReports, type UsageClock } from '../../../src/extension/relay/usage-reports.ts';

/** A clock the test moves; timers fire when it passes their time. */
function manualClock() {
  let t = 0;
  const timers: { at: number; run: () => void }[] = [];
  const clock: UsageClock = {
    now: () => t,
    setTimeout: (run, ms) => void timers.push({ at: t + ms, run }),
  };
  return {
    clock,
    get pendingTimers() {
      return timers.length;
    },
    advance(ms: number) {
      t += ms;
      for (let i = 0; i < timers.length; ) {
        if (timers[i].at <= t) timers.splice(i, 1)[0].run();
        else i++;
      }
    },
  };
}

const MB = 1024 * 1024;

function reporter() {
  const m = manualClock();
  const sent: [number, boolean][] = [];
  const r = new UsageReports((bytes, wantsMore) => sent.push([bytes, wantsMore]), 500, m.clock);
  return { m, sent, r };
}

describe('UsageReports', () => {
  it('reports a step of growth at once when the last report is older than the interval', () => {
    const { m, sent, r } = reporter();
    r.update(MB / 2, false, false, MB);
    expect(sent).toEqual([]); // under a step: nothing to say yet
    r.update(MB, false, false, MB);
    expect(sent).toEqual([[MB, false]]);
    m.advance(600);
    r.update(2 * MB, false, false, MB);
    expect(sent).toEqual([[MB, false], [2 * MB, false]]);
    expect(m.pendingTimers).toBe(0);
  });

  it('spaces reports of a fast-growing capture: one per interval, the latest size when it is over', () => {
    const { m, sent, r } = reporter();
    r.update(MB, false, false, MB);
    for (let i = 2; i <= 12; i++) {
      m.advance(10);
      r.update(i * MB, false, false, MB);
    }
    expect(sent).toEqual([[MB, false]]); // 12 steps in 110 ms: one report so far
    expect(m.pendingTimers).toBe(1); // and one trailing report waiting, not one per step
    m.advance(400);
    expect(sent).toEqual([[MB, false], [12 * MB, false]]);
    // Nothing changed by a step since: the next update does not report.
    m.advance(1000);
    r.update(12 * MB + 10, false, false, MB);
    expect(sent.length).toBe(2);
  });

  it('the trailing report is skipped when the size came back within a step of the last report', () => {
    const { m, sent, r } = reporter();
    r.update(MB, false, false, MB);
    m.advance(10);
    r.update(2 * MB, false, false, MB);
    r.update(MB + 1, false, false, MB); // evicted back before the interval was over
    m.advance(500);
    expect(sent).toEqual([[MB, false]]);
  });

  it('a change of wantsMore is reported (spaced like growth)', () => {
    const { m, sent, r } = reporter();
    r.update(MB, false, false, MB);
    r.update(MB, true, false, MB);
    expect(sent).toEqual([[MB, false]]);
    m.advance(500);
    expect(sent).toEqual([[MB, false], [MB, true]]);
  });

  it('forced reports go at once, whatever the interval; nothing is said for an empty capture never reported', () => {
    const { sent, r } = reporter();
    r.update(0, false, true, MB);
    expect(sent).toEqual([]);
    r.update(10, false, true, MB);
    r.update(20, true, true, MB);
    expect(sent).toEqual([[10, false], [20, true]]);
    expect(r.counted).toBe(true);
    r.sendNow(0);
    expect(sent.at(-1)).toEqual([0, true]);
    expect(r.counted).toBe(false);
    expect(r.latest).toEqual({ bytes: 20, wantsMore: true });
  });

  it('after the cap changed, a counted document reports at its next update though nothing moved; an uncounted one waits for the new step', () => {
    const { m, sent, r } = reporter();
    r.update(4 * MB, true, false, MB); // at its limit, evicting: it holds steady from here on
    expect(sent).toEqual([[4 * MB, true]]);
    m.advance(10);
    r.update(4 * MB, true, false, MB);
    expect(sent).toHaveLength(1); // nothing moved: without a word the budget would keep its old limits
    r.capChanged();
    r.update(4 * MB, true, false, 2 * MB);
    expect(sent).toEqual([[4 * MB, true], [4 * MB, true]]); // at once, within the interval: the budget rebalances
    r.update(4 * MB, true, false, 2 * MB);
    expect(sent).toHaveLength(2); // once

    const small = reporter();
    small.r.update(MB / 2, false, false, 4 * MB);
    small.r.capChanged(); // not counted: no message for a capture under the step (it would wake the service worker)
    small.r.update(MB / 2, false, false, MB / 4);
    expect(small.sent).toEqual([[MB / 2, false]]); // past the new, smaller step: reported as usual
    small.r.update(MB / 2, false, false, MB / 4);
    expect(small.sent).toHaveLength(1);
  });
});

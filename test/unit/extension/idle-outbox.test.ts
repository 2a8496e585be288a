import { describe, expect, it } from 'vitest';
import { IdleOutbox, type IdleDeadlineLike } from '../../../src/extension/relay/idle-outbox.ts';

/** A scheduler the test drives: each pending callback runs when the test says, with the idle time it gives. */
function manualScheduler() {
  const waiting: ((d: IdleDeadlineLike) => void)[] = [];
  return {
    schedule: (run: (d: IdleDeadlineLike) => void) => void waiting.push(run),
    get waiting() {
      return waiting.length;
    },
    /** Runs the next callback with `ms` of idle time on a fake clock (each post advances it by 1 ms). */
    idle(ms: number, clock: { t: number }) {
      const run = waiting.shift()!;
      const end = clock.t + ms;
      run({ didTimeout: false, timeRemaining: () => Math.max(0, end - clock.t) });
    },
    timeout() {
      waiting.shift()!({ didTimeout: true, timeRemaining: () => 0 });
    },
  };
}

describe('IdleOutbox', () => {
  it('sends in order, only while idle time lasts, and keeps one callback pending until drained', () => {
    const clock = { t: 0 };
    const sent: number[] = [];
    const s = manualScheduler();
    const box = new IdleOutbox<number>((m) => { sent.push(m); clock.t += 1; }, 500, s.schedule, () => false);
    for (let i = 0; i < 10; i++) box.push(i);
    expect(s.waiting).toBe(1); // one callback for the whole queue
    s.idle(4, clock); // room for 3 posts: each leaves less than the 2 ms a next one needs after the third
    expect(sent).toEqual([0, 1, 2]);
    expect(s.waiting).toBe(1);
    s.idle(100, clock);
    expect(sent).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(s.waiting).toBe(0);
    expect(box.pending).toBe(0);
  });

  it('a page that never idles still gets one batch out per deadline', () => {
    const sent: string[] = [];
    const s = manualScheduler();
    const box = new IdleOutbox<string>((m) => void sent.push(m), 500, s.schedule, () => false);
    box.push('a');
    box.push('b');
    s.timeout();
    expect(sent).toEqual(['a']);
    s.timeout();
    expect(sent).toEqual(['a', 'b']);
    expect(s.waiting).toBe(0);
  });

  it('flush sends everything now; clear drops what a snapshot supersedes', () => {
    const sent: string[] = [];
    const s = manualScheduler();
    const box = new IdleOutbox<string>((m) => void sent.push(m), 500, s.schedule, () => false);
    box.push('a');
    box.push('b');
    box.flush();
    expect(sent).toEqual(['a', 'b']);
    box.push('c');
    box.clear();
    s.idle(100, { t: 0 });
    expect(sent).toEqual(['a', 'b']);
    box.push('d');
    while (s.waiting) s.idle(100, { t: 0 });
    expect(sent).toEqual(['a', 'b', 'd']);
  });

  it('a hidden page sends at once (its idle callbacks are throttled), everything still in order', () => {
    const sent: string[] = [];
    const s = manualScheduler();
    let hidden = false;
    const box = new IdleOutbox<string>((m) => void sent.push(m), 500, s.schedule, () => hidden);
    box.push('a');
    expect(sent).toEqual([]);
    hidden = true;
    box.push('b');
    expect(sent).toEqual(['a', 'b']);
    while (s.waiting) s.idle(100, { t: 0 }); // the callback scheduled for 'a' finds nothing left
    expect(sent).toEqual(['a', 'b']);
  });
});

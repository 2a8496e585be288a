import { describe, expect, it } from 'vitest';
import { BURST_CHARS, BURST_WINDOW_MS, IdleOutbox, QUIET_MS, type IdleDeadlineLike } from '../../../src/extension/relay/idle-outbox.ts';

/** A scheduler the test drives: each pending callback runs when the test says, with the idle time it gives. */
function manualScheduler() {
  const waiting: ((d: IdleDeadlineLike) => void)[] = [];
  const timeouts: number[] = [];
  return {
    schedule: (run: (d: IdleDeadlineLike) => void, maxDelayMs: number) => {
      waiting.push(run);
      timeouts.push(maxDelayMs);
    },
    /** The deadline each callback was scheduled with, in order. */
    timeouts,
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
    const box = new IdleOutbox<number>((m) => { sent.push(m); clock.t += 1; }, { schedule: s.schedule, immediate: () => false });
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
    const box = new IdleOutbox<string>((m) => void sent.push(m), { schedule: s.schedule, immediate: () => false });
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
    const box = new IdleOutbox<string>((m) => void sent.push(m), { schedule: s.schedule, immediate: () => false });
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
    const box = new IdleOutbox<string>((m) => void sent.push(m), { schedule: s.schedule, immediate: () => hidden });
    box.push('a');
    expect(sent).toEqual([]);
    hidden = true;
    box.push('b');
    expect(sent).toEqual(['a', 'b']);
    while (s.waiting) s.idle(100, { t: 0 }); // the callback scheduled for 'a' finds nothing left
    expect(sent).toEqual(['a', 'b']);
  });

  describe('bursts', () => {
    const MB = BURST_CHARS;
    function setup(holdChars = Infinity) {
      const clock = { t: 1000 };
      const sent: string[] = [];
      const s = manualScheduler();
      const box = new IdleOutbox<string>((m) => void sent.push(m), { schedule: s.schedule, immediate: () => false, now: () => clock.t, holdChars: () => holdChars });
      return { clock, sent, s, box };
    }

    it('holds idle sends while a burst lasts, then drains once it has been quiet', () => {
      const { clock, sent, s, box } = setup();
      box.push('a', MB / 2);
      clock.t += 10;
      box.push('b', MB / 2); // 1 MiB within the window: a burst
      s.idle(50, clock); // an idle gap between two chunks
      expect(sent).toEqual([]);
      expect(s.waiting).toBe(1); // still scheduled
      clock.t += QUIET_MS - 20; // not quiet yet
      s.idle(50, clock);
      expect(sent).toEqual([]);
      clock.t += 30; // QUIET_MS after the last burst-sized push
      s.idle(50, clock);
      expect(sent).toEqual(['a', 'b']);
      expect(s.waiting).toBe(0);
    });

    it('keeps the deadline while holding: one batch per deadline in an endless burst', () => {
      const { clock, sent, s, box } = setup();
      box.push('a', MB);
      box.push('b', MB);
      expect(s.timeouts).toEqual([500]);
      clock.t += 200;
      box.push('c', MB); // the burst goes on
      s.idle(50, clock); // held, rescheduled with what is left of the deadline
      expect(sent).toEqual([]);
      expect(s.timeouts.at(-1)).toBe(300);
      clock.t += 300;
      box.push('d', MB);
      s.timeout();
      expect(sent).toEqual(['a']); // one batch, not all
      expect(s.timeouts.at(-1)).toBe(500); // and the next deadline
      clock.t += 50;
      s.idle(50, clock); // still in the burst: nothing more
      expect(sent).toEqual(['a']);
    });

    it('an idle moment past the deadline, in a burst, sends one batch however much idle time it has', () => {
      const { clock, sent, s, box } = setup();
      box.push('a', MB);
      box.push('b', MB);
      clock.t += 600; // past the deadline
      box.push('c', MB); // and still in the burst
      s.idle(100, clock);
      expect(sent).toEqual(['a']);
    });

    it('holds back no more than holdChars: past it, idle moments send again, in the burst too', () => {
      const { clock, sent, s, box } = setup(3 * MB);
      box.push('a', MB);
      box.push('b', MB);
      s.idle(50, clock);
      expect(sent).toEqual([]); // 2 MiB held
      box.push('c', MB);
      clock.t += 10;
      s.idle(50, clock); // 3 MiB: at the bound
      expect(sent).toEqual(['a', 'b', 'c']);
      box.push('d', MB); // below the bound again: held
      s.idle(50, clock);
      expect(sent).toEqual(['a', 'b', 'c']);
    });

    it('data that comes slowly never counts as a burst: sent in idle time as it comes', () => {
      const { clock, sent, s, box } = setup();
      for (let i = 0; i < 20; i++) {
        box.push(`t${i}`, 4096); // a token stream: 4 KB every 30 ms
        clock.t += 30;
        if (s.waiting) s.idle(50, clock);
        expect(sent.length).toBe(i + 1);
      }
    });

    it('the window restarts: 1 MiB spread over more than the window is no burst', () => {
      const { clock, sent, s, box } = setup();
      box.push('a', MB * 0.6);
      clock.t += BURST_WINDOW_MS + 1;
      box.push('b', MB * 0.6);
      s.idle(50, clock);
      expect(sent).toEqual(['a', 'b']);
    });

    it('re-sent data (a snapshot) does not make a burst', () => {
      const { clock, sent, s, box } = setup();
      for (let i = 0; i < 8; i++) box.push(`snap${i}`); // no captured size
      s.idle(50, clock);
      expect(sent.length).toBe(8);
    });
  });
});

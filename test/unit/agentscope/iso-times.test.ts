// iso-times.ts reads created_at per event through a per-minute cache; it must give exactly what the generic readers
// of time/python-iso.ts give — for runs of strings in one minute, across minutes, for malformed tails, and around
// zone transitions (local time is what the lifecycle compares).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetIsoTimes, localIso, plainIsoAsUtc, readIsoTimes } from '../../../src/core/agentscope/iso-times.ts';
import { parseLocalIso, parsePlainIsoAsUtc } from '../../../src/core/time/python-iso.ts';

const savedTz = process.env.TZ;
/** Switch the process's zone (Node applies a TZ assignment at once) and drop offsets cached under the old one. */
function zone(tz: string): void {
  process.env.TZ = tz;
  forgetIsoTimes();
}
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
  forgetIsoTimes();
});

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Strings near each other in time (so the cache is hit and missed), some of them malformed after the minute. */
const isoRun = fc.record({
  year: fc.constantFrom(2021, 2026),
  month: fc.constantFrom(2, 3, 9, 10, 11), // months with DST changes in the zones below
  day: fc.integer({ min: 1, max: 31 }),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  steps: fc.array(fc.record({ dms: fc.integer({ min: 0, max: 90_000 }), tail: fc.constantFrom('us', 'ms', 'none', 'bad-sec', 'bad-frac', 'long', 'short') }), { maxLength: 12 }),
}).map(({ year, month, day, hour, minute, steps }) => {
  let t = Date.UTC(year, month - 1, day, hour, minute);
  return steps.map(({ dms, tail }) => {
    t += dms;
    const d = new Date(t);
    const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    const sec = pad(d.getUTCSeconds());
    const ms = pad(d.getUTCMilliseconds(), 3);
    switch (tail) {
      case 'us': return `${base}:${sec}.${ms}123`;
      case 'ms': return `${base}:${sec}.${ms}`;
      case 'none': return `${base}:${sec}`;
      case 'bad-sec': return `${base}:6${sec[1]}.000`;
      case 'bad-frac': return `${base}:${sec}.`;
      case 'long': return `${base}:${sec}.1234567890`;
      default: return `${base}:${sec[0]}`;
    }
  });
});

describe('iso-times: cached readings of created_at', () => {
  for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata']) {
    it(`equal parsePlainIsoAsUtc and parseLocalIso (${tz})`, () => {
      zone(tz);
      fc.assert(
        fc.property(fc.array(isoRun, { maxLength: 5 }), (runs) => {
          for (const v of runs.flat()) {
            expect(plainIsoAsUtc(v)).toBe(parsePlainIsoAsUtc(v));
            expect(localIso(v)).toBe(parseLocalIso(v));
            expect(plainIsoAsUtc(v)).toBe(parsePlainIsoAsUtc(v)); // the remembered answer
          }
        }),
        { seed: 11, numRuns: 300 },
      );
    });
  }

  it('reads the minute of a spring-forward gap and a fall-back overlap as Date does', () => {
    zone('Europe/Berlin');
    // 2026-03-29 02:00–03:00 does not exist in Berlin; 2026-10-25 02:00–03:00 happens twice.
    for (const v of ['2026-03-29T01:59:59.999', '2026-03-29T02:30:00', '2026-03-29T02:30:10.5', '2026-03-29T03:00:00', '2026-10-25T02:30:00', '2026-10-25T02:30:01.000001', '2026-10-25T03:00:00']) {
      expect(localIso(v)).toBe(parseLocalIso(v));
      expect(plainIsoAsUtc(v)).toBe(parsePlainIsoAsUtc(v));
    }
  });

  it('does not take a minute shortcut across a transition inside that minute', () => {
    // Liberia left its LMT-based offset (-0:44:30) at 00:44:30 local time on 1972-01-07: mid-minute.
    zone('Africa/Monrovia');
    for (const v of ['1972-01-07T00:44:00', '1972-01-07T00:44:10.250', '1972-01-07T00:44:29', '1972-01-07T00:44:31', '1972-01-07T00:44:59.999', '1972-01-07T00:45:00']) {
      expect(localIso(v)).toBe(parseLocalIso(v));
    }
  });

  it('readIsoTimes gives both readings of one string at once (NaN where the reader gives undefined)', () => {
    zone('Europe/Berlin');
    fc.assert(
      fc.property(fc.array(isoRun, { maxLength: 5 }), (runs) => {
        for (const v of [...runs.flat(), 'yesterday', '']) {
          const [utc, local] = readIsoTimes(v);
          expect(utc).toBe(parsePlainIsoAsUtc(v) ?? NaN);
          expect(local).toBe(parseLocalIso(v));
        }
      }),
      { seed: 12, numRuns: 200 },
    );
  });

  it('leaves non-plain strings to the generic readers', () => {
    for (const v of ['2026-03-01T09:00:00Z', '2026-03-30T09:00:00', 'yesterday', '', '2026-03-01 09:00:00']) {
      expect(localIso(v)).toBe(parseLocalIso(v));
      expect(plainIsoAsUtc(v)).toBe(parsePlainIsoAsUtc(v));
    }
  });
});

// python-iso.ts reads Python's zone-less isoformat by hand (ingest reads one per event); it must give exactly what
// Date.parse gives — local time for `parseLocalIso`, UTC for `parsePlainIsoAsUtc` — and it must cover every date
// that exists (a month's last days included), not just the ones that were easy.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLocalIso, parsePlainIsoAsUtc } from '../../../src/core/time/python-iso.ts';

const savedTz = process.env.TZ;
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const monthDays = (y: number, m: number) => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];

const plainIso = fc.record({
  year: fc.oneof(fc.constantFrom(1900, 2000, 2024, 2026, 2100), fc.integer({ min: 1000, max: 9999 })),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 27, max: 31 })),
  hour: fc.integer({ min: 0, max: 23 }),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 59 }),
  fraction: fc.constantFrom('', '.5', '.123', '.123456', '.000001'),
}).map((p) => ({ ...p, text: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${p.fraction}` }));

describe('python-iso: Python isoformat read as Date.parse reads it', () => {
  for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe']) {
    it(`equals Date.parse, and reads every existing date itself (${tz})`, () => {
      process.env.TZ = tz;
      fc.assert(
        fc.property(plainIso, ({ year, month, day, text }) => {
          expect(parseLocalIso(text)).toBe(Date.parse(text));
          const utc = parsePlainIsoAsUtc(text);
          if (day <= monthDays(year, month)) expect(utc).toBe(Date.parse(`${text}Z`));
          else expect(utc).toBeUndefined(); // 02-30 & co.: left to Date.parse, which engines read differently
        }),
        { seed: 29, numRuns: 3000 },
      );
    });
  }

  it('reads the last days of months, leap days and the century rule', () => {
    process.env.TZ = 'UTC';
    for (const v of ['2026-11-30T10:00:00.123456', '2026-12-31T23:59:59', '2024-02-29T12:00:00', '2000-02-29T00:00:00', '2026-01-31T08:15:00.5']) {
      expect(parsePlainIsoAsUtc(v)).toBe(Date.parse(`${v}Z`));
    }
    for (const v of ['2026-02-29T12:00:00', '1900-02-29T00:00:00', '2100-02-29T00:00:00', '2026-04-31T00:00:00', '2026-02-30T00:00:00']) {
      expect(parsePlainIsoAsUtc(v)).toBeUndefined();
    }
  });
});

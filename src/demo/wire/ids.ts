// Ids and timestamps in the shapes AgentScope produces: `uuid.uuid4().hex` ids and `datetime.now().isoformat()`
// timestamps (local time, no zone, microseconds omitted when zero). Injectable so tests can be deterministic.

import { randomUUID } from 'node:crypto';

export interface IdSource {
  /** A fresh entity id (event id, block id, reply id…). */
  id(): string;
  /** The current time as AgentScope writes it. */
  now(): string;
}

/** What the real service uses: random uuid4 hex ids and the wall clock. */
export const realIds: IdSource = {
  id: () => randomUUID().replace(/-/g, ''),
  now: () => pythonIsoformat(performance.timeOrigin + performance.now()),
};

/**
 * Deterministic ids (`<prefix>000001`, … padded to 32 hex-ish chars) and a clock that advances 1 ms per call from
 * `start` — for unit tests and reproducible captures.
 */
export function sequentialIds(start = Date.UTC(2026, 0, 1, 9, 0, 0), prefix = 'demo'): IdSource {
  let n = 0;
  let t = start;
  return {
    id: () => `${prefix}${String(++n).padStart(32 - prefix.length, '0')}`,
    now: () => pythonIsoformat((t += 1)),
  };
}

/** `datetime.fromtimestamp(ms / 1000).isoformat()` in local time, with microsecond precision from fractional ms. */
export function pythonIsoformat(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const micros = Math.floor((epochMs - whole) * 1000) + (whole % 1000) * 1000;
  const d = new Date(whole);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const base =
    `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return micros === 0 ? base : `${base}.${pad(micros, 6)}`;
}

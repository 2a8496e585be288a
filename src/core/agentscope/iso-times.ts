// The two readings of an event's `created_at` that ingest needs, without redoing the work per event:
// - the lifecycle compares Python-local times (`parseLocalIso`, i.e. Date.parse of a zone-less string: local time),
// - the event view shows a machine-independent axis (`parsePlainIsoAsUtc`).
// Both cost a generic parse per event (a component array, Date.UTC, and for local time the zone machinery: together
// ~5% of ingest). Consecutive events almost always share their minute, so the minute ("YYYY-MM-DDTHH:MM", which the
// previous string's successful parse validated) is converted once and only seconds and fraction are read per event.
// Within one wall-clock minute the zone offset is constant (checked: a transition inside the minute would make its
// first and last millisecond disagree), so local = utc + the minute's offset. The results are exactly those of
// `parseLocalIso` / `parsePlainIsoAsUtc` (test/unit/agentscope/iso-times.test.ts checks them against each other).
import { parseLocalIso, parsePlainIsoAsUtc } from '../time/python-iso.ts';

let lastText: string | undefined;

/**
 * The two readings of `lastText`: [UTC (NaN: not the plain form), local (NaN: not parsable)]. In a typed array, not
 * module variables or return values: a double kept in either is a heap object, allocated per event.
 */
const last = new Float64Array(2);

/** The minute prefix whose UTC value is cached ('' = none), its value, and its local offset (NaN = not cached). */
let minute = '';
let minuteUtc = 0;
let minuteOffset = NaN;

/**
 * Milliseconds after the minute of a plain isoformat tail ":SS[.ffffff]" (from index 16), validated exactly as
 * python-iso.ts's plainIsoParts validates it; -1 when it is not one.
 */
function secondsPart(v: string): number {
  const n = v.length;
  if (n < 19 || n > 29 || v.charCodeAt(16) !== 58) return -1;
  const a = v.charCodeAt(17) - 48;
  const b = v.charCodeAt(18) - 48;
  if (a < 0 || a > 9 || b < 0 || b > 9) return -1;
  const second = a * 10 + b;
  if (second > 59) return -1;
  let ms = 0;
  if (n > 19) {
    if (v.charCodeAt(19) !== 46 || n === 20) return -1;
    for (let i = 20; i < n; i++) {
      const d = v.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      if (i < 23) ms = ms * 10 + d;
    }
    for (let i = Math.min(n, 23); i < 23; i++) ms *= 10;
  }
  return second * 1000 + ms;
}

/** The character codes of `minute` (read once, not per event from a string slice). */
const minuteCodes = new Uint16Array(16);

/** `v.startsWith(minute)`, from the end (minutes change first): inlined character reads, not a builtin call. */
function sameMinute(v: string): boolean {
  if (v.length < 16) return false;
  for (let i = 15; i >= 0; i--) if (v.charCodeAt(i) !== minuteCodes[i]) return false;
  return true;
}

/**
 * Read `v` into `last` (and remember it as `lastText`): both readings at once, since ingest needs both for every
 * event (the lifecycle's clock check and the event view) and they share the parse.
 */
function read(v: string): void {
  if (v !== lastText) readAnew(v);
}

/** `read` without asking whether `v` is the last string: a new string per event rarely is, and the comparison of
 * two strings cut from a chunk's text cost a third of the reading. */
function readAnew(v: string): void {
  const s = minute !== '' && sameMinute(v) ? secondsPart(v) : -1;
  let utc: number;
  if (s >= 0) utc = minuteUtc + s;
  else {
    const parsed = parsePlainIsoAsUtc(v);
    utc = parsed ?? NaN;
    if (parsed !== undefined && v.slice(0, 16) !== minute) {
      minute = v.slice(0, 16);
      for (let i = 0; i < 16; i++) minuteCodes[i] = minute.charCodeAt(i);
      minuteUtc = parsePlainIsoAsUtc(`${minute}:00`) as number;
      minuteOffset = NaN;
    }
  }
  last[0] = utc;
  last[1] = Number.isNaN(utc) ? parseLocalIso(v) : localOf(v, utc);
  lastText = v;
}

/** `parseLocalIso(v)` for a plain isoformat `v` whose UTC reading is `utc` (so `minute` is v's minute). */
function localOf(v: string, utc: number): number {
  if (Number.isNaN(minuteOffset)) {
    const first = parseLocalIso(`${minute}:00.000`) - minuteUtc;
    const lastMs = parseLocalIso(`${minute}:59.999`) - (minuteUtc + 59_999);
    if (first !== lastMs || Number.isNaN(first)) return parseLocalIso(v); // a zone transition inside this minute
    minuteOffset = first;
  }
  return utc + minuteOffset;
}

/** `parsePlainIsoAsUtc(v)`, remembering the last answer (the lifecycle and the event view read the same string). */
export function plainIsoAsUtc(v: string): number | undefined {
  read(v);
  const utc = last[0];
  return Number.isNaN(utc) ? undefined : utc;
}

/**
 * Forget the cached minute (its zone offset was found under the time zone in force then). A zone change while a
 * stream is being read otherwise applies from the next minute on; tests that switch zones call this.
 */
export function forgetIsoTimes(): void {
  minute = '';
  minuteOffset = NaN;
  lastText = undefined;
}

/** `parseLocalIso(v)`. */
export function localIso(v: string): number {
  read(v);
  return last[1];
}

/**
 * Both readings of a created_at `v` at once, for ingest's per-event path: `isoTimes[0]` = `plainIsoAsUtc(v)` (NaN
 * for undefined), `isoTimes[1]` = `localIso(v)`. Valid until the next call of any function here.
 */
export function readIsoTimes(v: string): Float64Array {
  readAnew(v);
  return last;
}

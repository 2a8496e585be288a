// A time written as a bare number, in the unit its writer meant. AgentScope never writes one: an event's `created_at`
// is a `str` (EventBase: `datetime.now().isoformat()`), and pydantic's JSON mode refuses a number there, so such an
// event is invalid. A server of its own may still stamp its events so — Python's `time.time()` in seconds,
// JavaScript's `Date.now()` in milliseconds — and every reader of a numeric created_at (the event view, the timeline's
// axis, stream.held-back, an import of bare events) reads it here, so that none takes seconds for milliseconds: read
// as ms, a stream of `time.time()` stamps was made 1000 times faster than it was — 20 minutes read as made were told
// "held back", and a reply held to its end was not.

/** Below this a number is epoch seconds (until the year 5138); from it on, epoch milliseconds (from March 1973). */
export const EPOCH_SECONDS_BELOW = 1e11;

/** Epoch ms of a numeric time: seconds below EPOCH_SECONDS_BELOW, milliseconds from it on. */
export function epochMsOfNumber(v: number): number {
  return v < EPOCH_SECONDS_BELOW ? v * 1000 : v;
}

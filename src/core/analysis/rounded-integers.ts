// Integers that JSON.parse cannot hold. A JSON number is a double in JavaScript, so an integer literal beyond 2^53
// (a 64-bit trace id, a snowflake id in `metadata`) is read as the nearest double: 1234567890123456789 comes back
// as 1234567890123456800. The Python reference (pydantic) keeps it an exact int, so the reconstruction here differs
// from it there, and so does every JavaScript frontend that reads the stream with JSON.parse — which is worth
// telling the developer: the value their backend sent is not the value their UI holds. pi's client is JavaScript
// itself and rounds the same way; the server's value is still not the one the frontend gets.
//
// The event's text is the truth: it is scanned for integer literals (outside strings) whose value the parse
// changed. The scan runs only when a run of 16 digits is in the text (any integer beyond 2^53 has 16 or more), so
// ordinary events pay a look at every 16th character (see hasDigitRun16).
import type { Diagnostic } from '../diagnostics/types.ts';
import { describeRounded, roundedIntegers } from '../frames/json-integers.ts';

/**
 * The `stream.unsafe-integer` diagnostic of event `index` for the rounded integers of its text that `seen` has not
 * had yet (path and literal; an event that carries the whole message repeats the same value on every update), or
 * undefined. `reader`: who reads the stream with JSON.parse besides Replyscope, for the message.
 */
export function roundedIntegerDiagnostic(text: string, index: number, seen: Set<string>, reader: 'python' | 'pi'): Diagnostic | undefined {
  const fresh = roundedIntegers(text).filter((r) => {
    const key = `${r.path}\u0000${r.literal}`;
    if (seen.has(key)) return false;
    if (seen.size < 10_000) seen.add(key); // bounded: past that, repeats are told again rather than kept forever
    return true;
  });
  if (fresh.length === 0) return undefined;
  const shown = describeRounded(fresh, ' in this event');
  const who = reader === 'python'
    ? 'Python (the reference) keeps it exact; JSON.parse — Replyscope\'s reconstruction and any JavaScript frontend — reads'
    : 'JSON.parse — pi\'s client, Replyscope and any JavaScript frontend — reads';
  return {
    code: 'stream.unsafe-integer',
    severity: 'warning',
    index,
    message: `The integer ${shown.literal} is beyond 2^53: ${who} ${shown.read}${shown.more}.`,
  };
}

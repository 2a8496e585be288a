// `--timeout DURATION`: how long the CLI waits for its input to end. Seconds (`30`, `1.5`) or a number with a unit
// (`500ms`, `30s`, `2m`, `1h`) — the forms CI configs and `timeout(1)` use. Anything else is a usage error naming the
// option, checked before any input is read.
import { CliError } from './cli-error.ts';

export interface Timeout {
  ms: number;
  /** As the messages name it: the value given, with its unit ("30" is told "30s"). */
  text: string;
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Node's timers hold at most 2^31 − 1 ms (~24.8 days); a longer one fires at once, with only a process warning. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const FORM = /^(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)?$/;

/** True for a value --timeout takes (so "--timeout FILE" is told as such, and "--timeout 30" is not). */
export function isDuration(v: string): boolean {
  return FORM.test(v.trim());
}

/** The --timeout option's value, or undefined when it is not given. Throws CliError (exit 2) for a bad value. */
export function timeoutOf(v: string | true | undefined): Timeout | undefined {
  if (v === undefined) return undefined;
  const given = String(v).trim();
  const m = FORM.exec(given);
  if (!m) throw new CliError(`--timeout takes a duration: seconds (30) or a number with a unit (500ms, 30s, 2m, 1h); got "${String(v)}"`);
  const unit = m[2] ?? 's';
  const ms = Math.round(Number(m[1]) * UNIT_MS[unit]);
  // 0 would cut every input before it is read; "no timeout" is the option left out.
  if (ms <= 0) throw new CliError(`--timeout must be longer than 0 (got "${String(v)}"); leave it out to wait for the input's end`);
  if (ms > MAX_TIMEOUT_MS) throw new CliError(`--timeout is at most 24 days (got "${String(v)}"); leave it out to wait for the input's end`);
  return { ms, text: m[2] ? given : `${given}s` };
}

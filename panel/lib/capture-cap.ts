// The capture cap as the panel shows and takes it: in MB of 1,048,576 bytes (formatBytes' MB, so "64 MB" is the
// default the README names), within the bounds the extension's setter enforces (src/extension/settings.ts).
import { DEFAULT_CAPTURE_LIMIT_BYTES, MAX_CAPTURE_LIMIT_BYTES, MIN_CAPTURE_LIMIT_BYTES } from '../../src/extension/settings.ts';

const MB = 1024 * 1024;
export const MIN_CAP_MB = MIN_CAPTURE_LIMIT_BYTES / MB;
export const MAX_CAP_MB = MAX_CAPTURE_LIMIT_BYTES / MB;
export const DEFAULT_CAP_MB = DEFAULT_CAPTURE_LIMIT_BYTES / MB;

/** A cap in bytes as MB, to two decimals at most ("64", "1.5"): what the field starts with and the toolbar shows. */
export function capMB(bytes: number): string {
  return String(Math.round((bytes / MB) * 100) / 100);
}

/** What the field holds, read: the cap in bytes, or why it is none (a sentence the dialog shows as it is). */
export type CapInput = { bytes: number } | { error: string };

const BOUNDS = `from ${MIN_CAP_MB} to ${MAX_CAP_MB}`;

/**
 * The field's text as a cap: a number of MB (decimals with a point), `MIN_CAP_MB`…`MAX_CAP_MB`, rounded to whole
 * bytes. Anything else is refused with a sentence that says what was wrong and what is taken — not a cap that
 * quietly differs from what was typed (no clamping, no "12abc" read as 12).
 */
export function readCapInput(text: string): CapInput {
  const t = text.trim();
  if (t === '') return { error: `Enter the cap in MB, a number ${BOUNDS}.` };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return { error: `"${t}" is not a number of MB — enter a number ${BOUNDS} (e.g. ${DEFAULT_CAP_MB * 2}).` };
  const bytes = Math.round(Number(t) * MB);
  if (bytes < MIN_CAPTURE_LIMIT_BYTES) return { error: `${t} MB is below the smallest cap, ${MIN_CAP_MB} MB: enter a number ${BOUNDS}.` };
  if (bytes > MAX_CAPTURE_LIMIT_BYTES) {
    return { error: `${t} MB is above the largest cap, ${MAX_CAP_MB} MB (more could exhaust the panel's memory): enter a number ${BOUNDS}.` };
  }
  return { bytes };
}

/**
 * The dialog's field read against the stored cap: while it still shows that cap as capMB writes it, the stored cap
 * itself. One that is no multiple of 0.01 MB (set by hand: 1,234,567 bytes) shows as "1.18" — read, that is another
 * cap (1,237,320 bytes): Save without an edit wrote it, and one rounded down warned "Lower than now" on opening.
 */
export function readCapField(text: string, current: number | undefined): CapInput {
  if (current !== undefined && text.trim() === capMB(current)) return { bytes: current };
  return readCapInput(text);
}

/**
 * Said before saving a cap lower than the current one: every capture holding more loses its oldest data at once,
 * the way it does at the cap. Undefined when nothing is lost (the same cap or a higher one).
 */
export function lowerCapWarning(current: number, next: number): string | undefined {
  if (next >= current) return undefined;
  return `Lower than now (${capMB(current)} MB): a tab whose capture holds more than ${capMB(next)} MB evicts its oldest data as soon as you save, as it does at the cap — its replies continue from a digest of what went. Export… first to keep it all.`;
}

// A HAR as the import reads it: JSON from any writer (a browser, Playwright, a HAR tool, a hand edit), so any field
// may be missing or of another type — each is read as what it should be, or as absent. Shared by the import's parts:
// the log (har-import.ts), a browser's entries (har-import-browser.ts) and their answers (har-import-answer.ts).

export class HarImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HarImportError';
  }
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * A byte count as a HAR gives it (`bodySize`, `content.size`), in whole bytes: a writer's fraction rounded (kept as
 * it was, it went into the capture, whose log then refused it on re-import: "expected int"). A negative one is -1,
 * HAR 1.2's "not known"; one past the integers a number holds exactly is no count at all (undefined).
 */
export function byteCount(v: unknown): number | undefined {
  const n = num(v);
  if (n === undefined) return undefined;
  if (n < 0) return -1;
  const whole = Math.round(n);
  return Number.isSafeInteger(whole) ? whole : undefined;
}

export function pairs(v: unknown): [string, string][] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObj).map((h) => [String(h.name ?? ''), String(h.value ?? '')]);
}

/**
 * `target.push(...items)` for lists as long as a capture's: spread as arguments, the records of an entry of ~120,000
 * chunks or socket messages (a day-long session: our own HAR of a 150 MB capture) overflowed the stack, and the HAR
 * was refused as "Maximum call stack size exceeded".
 */
export function pushAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

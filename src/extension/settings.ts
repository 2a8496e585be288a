// User settings of the capture, kept in storage.local (read by every relay, written by the panel client):
// the per-site on/off switch, the URL include list, and the per-tab memory cap.
// Content scripts read storage directly, so turning a site off needs no service worker.
import { z } from 'zod';

export const SETTINGS_KEYS = {
  disabledSites: 'replyscope.disabledSites',
  includeUrls: 'replyscope.includeUrls',
  captureLimitBytes: 'replyscope.captureLimitBytes',
} as const;

export const DEFAULT_CAPTURE_LIMIT_BYTES = 64 * 1024 * 1024;
/** Below a few chunks' worth a capture would evict nearly everything it receives (shares go no lower either). */
export const MIN_CAPTURE_LIMIT_BYTES = 1024 * 1024;
/**
 * The most the panel lets a user set. The capture is held twice over: in the inspected page (the cap, more for a
 * moment during a burst) and in a live panel, which keeps up to COMPACT_FACTOR (3) × the cap of captured data, twice
 * that while a relay's digest catches up (panel-compaction.ts), and whose analysis holds ~1.8× what it reads, up to
 * ~3× for very short replies (README, Limits): 11–18× the cap at worst — 1.4–2.3 GiB at 128 MiB, within the ~3.5 GiB
 * JavaScript heap of a Chromium page (measured in Chromium 156, 64-bit); at 256 MiB up to 4.5 GiB, past it.
 * A value written into storage by hand is taken as it is (parseSettings).
 */
export const MAX_CAPTURE_LIMIT_BYTES = 128 * 1024 * 1024;

/**
 * A relay reports what its capture holds once it holds this much, and again after each change of this much (see
 * background/tab-budget.ts): 1/16 of the cap, at least 1 MiB — small captures never wake the service worker.
 */
export function usageReportStep(capBytes: number): number {
  return Math.max(1024 * 1024, Math.floor(capBytes / 16));
}

export interface CaptureSettings {
  /** Top-level origins where capture is off. */
  disabledSites: string[];
  /** URL patterns captured whatever their content type (substring, or `*` wildcards over the whole URL). */
  includeUrls: string[];
  captureLimitBytes: number;
}

const settingsSchema = z.object({
  [SETTINGS_KEYS.disabledSites]: z.array(z.string()).catch([]).default([]),
  [SETTINGS_KEYS.includeUrls]: z.array(z.string()).catch([]).default([]),
  [SETTINGS_KEYS.captureLimitBytes]: z.number().int().min(MIN_CAPTURE_LIMIT_BYTES).catch(DEFAULT_CAPTURE_LIMIT_BYTES).default(DEFAULT_CAPTURE_LIMIT_BYTES),
});

/** Storage contents → settings; malformed values fall back to defaults rather than breaking capture. */
export function parseSettings(raw: Record<string, unknown>): CaptureSettings {
  const parsed = settingsSchema.parse(raw);
  return {
    disabledSites: parsed[SETTINGS_KEYS.disabledSites],
    includeUrls: parsed[SETTINGS_KEYS.includeUrls],
    captureLimitBytes: parsed[SETTINGS_KEYS.captureLimitBytes],
  };
}

type StorageArea = Pick<chrome.storage.StorageArea, 'get' | 'set'>;

function localArea(): StorageArea {
  return chrome.storage.local;
}

export async function readSettings(area: StorageArea = localArea()): Promise<CaptureSettings> {
  const raw = (await area.get(Object.values(SETTINGS_KEYS))) as Record<string, unknown>;
  return parseSettings(raw);
}

export async function setSiteEnabled(origin: string, enabled: boolean, area: StorageArea = localArea()): Promise<void> {
  if (!origin || origin === 'null') throw new Error(`cannot switch capture for an opaque origin (${JSON.stringify(origin)})`);
  const { disabledSites } = await readSettings(area);
  const next = disabledSites.filter((o) => o !== origin);
  if (!enabled) next.push(origin);
  await area.set({ [SETTINGS_KEYS.disabledSites]: next });
}

export async function setIncludeUrls(patterns: string[], area: StorageArea = localArea()): Promise<void> {
  const clean = patterns.map((p) => p.trim()).filter((p) => p.length > 0);
  await area.set({ [SETTINGS_KEYS.includeUrls]: clean });
}

/** The user's cap (bytes): an integer from MIN_CAPTURE_LIMIT_BYTES to MAX_CAPTURE_LIMIT_BYTES, else it throws. */
export async function setCaptureLimit(bytes: number, area: StorageArea = localArea()): Promise<void> {
  if (!Number.isInteger(bytes) || bytes < MIN_CAPTURE_LIMIT_BYTES || bytes > MAX_CAPTURE_LIMIT_BYTES) {
    throw new Error(`capture limit must be an integer from 1 MiB to ${MAX_CAPTURE_LIMIT_BYTES / 1024 / 1024} MiB, got ${bytes}`);
  }
  await area.set({ [SETTINGS_KEYS.captureLimitBytes]: bytes });
}

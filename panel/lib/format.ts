// Small formatting helpers shared by the views (compact DevTools-style numbers).
import { headOf } from '../../src/core/diagnostics/shown.ts';

export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Relative time of an event against the connection start, or '—' when the event has no time. */
export function formatRelative(t: number, origin: number): string {
  if (!Number.isFinite(t) || !Number.isFinite(origin)) return '—';
  const d = t - origin;
  // Sub-millisecond below a second (events of one chunk), milliseconds after it: "2.540 s", not "2540.0 ms" (which
  // a narrow Time column cut to "2540.0…").
  if (d < 1000) return `${d.toFixed(1)} ms`;
  if (d < 60_000) return `${(d / 1000).toFixed(3)} s`;
  return `${Math.floor(d / 60_000)} min ${((d % 60_000) / 1000).toFixed(1)} s`;
}

/**
 * The event list's Time: `formatRelative` in at most 9 characters, so a narrow column shows it whole. Past a minute
 * it is m:ss.sss ("1:23.016"): "1 min 23.0 s" did not fit the column and every row after the first minute read
 * "1 min 23.…".
 */
export function formatElapsed(t: number, origin: number): string {
  if (!Number.isFinite(t) || !Number.isFinite(origin)) return '—';
  const d = t - origin;
  if (d < 60_000) return formatRelative(t, origin);
  const ms = Math.round(d);
  const seconds = ((ms % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return `${Math.floor(ms / 60_000)}:${seconds}`;
}

/** Summarise a usage object of either protocol (AgentScope input/output_tokens, pi input/output/totalTokens). */
export function formatUsage(usage: unknown, compact = false): string {
  if (!usage || typeof usage !== 'object') return '—';
  const u = usage as Record<string, unknown>;
  const num = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : undefined);
  const input = num('input_tokens') ?? num('input') ?? num('inputTokens');
  const output = num('output_tokens') ?? num('output') ?? num('outputTokens');
  if (input === undefined && output === undefined) return '—';
  if (compact) return `${input ?? '?'} → ${output ?? '?'}`;
  // Prompt-cache tokens, when the provider counted any (AgentScope's cache_input_tokens / cache_creation_input_tokens,
  // pi's cacheRead / cacheWrite): the difference between a slow, costly reply and a cached one, seen only in the
  // JSON tab before.
  const read = num('cache_input_tokens') ?? num('cacheRead') ?? 0;
  const written = num('cache_creation_input_tokens') ?? num('cacheWrite') ?? 0;
  const cache = [read ? `${read} read` : '', written ? `${written} written` : ''].filter(Boolean).join(', ');
  return `${input ?? '?'} in / ${output ?? '?'} out${cache ? ` (cache: ${cache})` : ''}`;
}

export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** `s` in at most `n` characters, the last an ellipsis when it was longer (never splitting a surrogate pair). */
export function truncate(s: string, n: number): string {
  return s.length > n ? headOf(s, n - 1) + '…' : s;
}

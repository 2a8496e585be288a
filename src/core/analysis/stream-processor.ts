// The protocol-specific half of analysis: a processor turns the raw events of one connection into event facts,
// replies with seekable histories, and lifecycle diagnostics. One processor per dialect family.
import type { EndRecord } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import type { RawEvent } from './body-reader.ts';
import type { ReplyView, SchemaIssue, SeekableHistory } from './types.ts';

/** What a processor decides about one event (the rest of EventView is filled by the analyzer). */
export interface EventFacts {
  type: string;
  valid: boolean;
  issues: SchemaIssue[];
  extras: string[];
  replyId?: string;
  blockId?: string;
  preview: string;
  createdAt?: number;
  diagnostics: Diagnostic[];
}

export interface StreamProcessor {
  push(ev: RawEvent, index: number): EventFacts;
  /** The body ended (complete, aborted or failed): end-of-stream rules. */
  end(end: EndRecord | undefined): Diagnostic[];
  replies(): ReplyView[];
}

export type StepStatus = ReplyView['stepStatus'][number];

/** Exposes a history of internal states as a history of messages (e.g. pi client state → message JSON). */
export function mapHistory<S, M>(h: SeekableHistory<S>, f: (s: S) => M): SeekableHistory<M> {
  return {
    get length() {
      return h.length;
    },
    get initial() {
      return f(h.initial);
    },
    get evictedBefore() {
      return h.evictedBefore;
    },
    at: (k: number) => f(h.at(k)),
  };
}

export function typeOf(raw: unknown): string {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const t = (raw as Record<string, unknown>).type;
    if (typeof t === 'string') return t;
  }
  return '?';
}

const PREVIEW_MAX = 120;

export function clip(s: string, max = PREVIEW_MAX): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A short, single-line description of what an event carries, for the event list. */
export function previewOf(raw: unknown, keys: readonly string[]): string {
  if (raw === null || typeof raw !== 'object') return raw === undefined ? '' : clip(String(raw));
  const obj = raw as Record<string, unknown>;
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string') return clip(v);
    if (v !== undefined && v !== null && typeof v === 'object') return clip(stringifyForPreview(v));
  }
  return '';
}

/** JSON.stringify recurses: a value nested thousands deep (valid JSON, JSON.parse reads it) overflows the stack. */
function stringifyForPreview(v: object): string {
  try {
    return JSON.stringify(v);
  } catch {
    return Array.isArray(v) ? '[… nested too deeply to preview]' : '{… nested too deeply to preview}';
  }
}

export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const fast = parsePlainIso(v);
  if (fast !== undefined) return fast;
  // Python isoformat without a zone is local time in the reference; treat it as UTC for a stable axis.
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Two ASCII digits at `i` as a number, or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction]` (Python's isoformat, no zone) read as UTC, exactly as Date.parse(`${v}Z`) reads it
 * (milliseconds = the first three fraction digits, truncated) — but without building a string and running the
 * generic date parser on every event. Returns undefined for anything else (and for dates it is not sure about:
 * day > 28, which Date.parse normalises across months), so the caller falls back to Date.parse.
 */
function parsePlainIso(v: string): number | undefined {
  if (v.length < 19 || v.length > 29 || v[4] !== '-' || v[7] !== '-' || v[10] !== 'T' || v[13] !== ':' || v[16] !== ':') return undefined;
  const hi = two(v, 0);
  const lo = two(v, 2);
  const month = two(v, 5);
  const day = two(v, 8);
  const hour = two(v, 11);
  const minute = two(v, 14);
  const second = two(v, 17);
  if (hi < 10 || lo < 0 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  let ms = 0;
  if (v.length > 19) {
    if (v[19] !== '.' || v.length === 20) return undefined;
    for (let i = 20; i < v.length; i++) {
      const d = v.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return undefined;
      if (i < 23) ms = ms * 10 + d;
    }
    for (let i = Math.min(v.length, 23); i < 23; i++) ms *= 10;
  }
  return Date.UTC(hi * 100 + lo, month - 1, day, hour, minute, second, ms);
}

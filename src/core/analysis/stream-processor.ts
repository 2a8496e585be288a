// The protocol-specific half of analysis: a processor turns the raw events of one connection into event facts,
// replies with seekable histories, and lifecycle diagnostics. One processor per dialect family.
import type { EndRecord, EvictionDerived } from '../capture/model.ts';
import type { Diagnostic } from '../diagnostics/types.ts';
import type { RawEvent } from './body-reader.ts';
import type { EventView, ReplyView, SchemaIssue, SeekableHistory } from './types.ts';
import { parsePlainIsoAsUtc } from '../time/python-iso.ts';
import { epochMsOfNumber } from '../time/epoch-number.ts';
import { clipped, shownJsonClipped } from '../diagnostics/shown.ts';

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
  /**
   * Where the stream stood after its first `count` events (`events`: the connection's event views, those the
   * processor was pushed), in the form an eviction digest has: what a later connection that resumes the stream there
   * starts from (see stream-resume.ts) — the seeding is the one an evicted head gets.
   */
  stateAt(count: number, events: readonly EventView[]): EvictionDerived;
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

/** Longest `type` an event view shows (a stream can send megabytes there; the raw text keeps all of it). */
const VIEW_TYPE_MAX = 200;

/** `typeOf` as an event view shows it: cut to VIEW_TYPE_MAX characters. */
export function viewType(type: string): string {
  return clipped(type, VIEW_TYPE_MAX);
}

export function typeOf(raw: unknown): string {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const t = (raw as Record<string, unknown>).type;
    if (typeof t === 'string') return t;
  }
  return '?';
}

export const PREVIEW_MAX = 120;

export function clip(s: string, max = PREVIEW_MAX): string {
  return clipped(s, max);
}

/** A short, single-line description of what an event carries, for the event list. */
export function previewOf(raw: unknown, keys: readonly string[]): string {
  if (raw === null || typeof raw !== 'object') return raw === undefined ? '' : clip(String(raw));
  const obj = raw as Record<string, unknown>;
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'string') return clip(v);
    if (v !== undefined && v !== null && typeof v === 'object') return shownJsonClipped(v, PREVIEW_MAX) ?? '';
  }
  return '';
}

/** Epoch ms of a created_at: an isoformat (zone-less read as UTC), or a number in its unit (epoch-number.ts). */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  if (typeof v === 'number') return Number.isFinite(v) ? epochMsOfNumber(v) : undefined;
  const fast = parsePlainIsoAsUtc(v);
  if (fast !== undefined) return fast;
  // Python isoformat without a zone is local time in the reference; treat it as UTC for a stable axis.
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

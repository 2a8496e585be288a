// Checks that hold for ANY input, valid or hostile, run through the whole analysis pipeline:
// - analysis never throws (batch, and record by record as a live panel pushes them, with reads in between);
// - live (incremental) and batch analysis agree — the same records always give the same views;
// - every invalid event, every step the reference warns on / raises on / rejects, and every event the client could
//   not read, is named by a diagnostic at that event; every diagnostic is well-formed and documented;
// - every history step can be materialised, the timeline can be derived, the views serialise;
// - no prototype was touched.
import { CaptureAnalyzer, analyzeCapture } from '../../src/core/analysis/analyze.ts';
import { deriveTimeline } from '../../src/core/analysis/timeline.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import type { Capture, CaptureRecord } from '../../src/core/capture/model.ts';
import { makeHeader } from '../../src/core/capture/capture-log.ts';
import { diagnosticDoc } from '../../src/core/diagnostics/catalog.ts';

export function captureOf(records: CaptureRecord[]): Capture {
  return { header: makeHeader('replyscope-fuzz', { created: '2026-01-01T00:00:00.000Z' }), records };
}

const PROTOS: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

/** A fingerprint of the built-in prototypes (own keys and their value types) to detect pollution. */
export function prototypeFingerprint(): string {
  return PROTOS.map(([name, p]) => `${name}:${Reflect.ownKeys(p).map((k) => `${String(k)}=${typeof (Object.getOwnPropertyDescriptor(p, k)?.value)}`).join(',')}`).join('|');
}

export function prototypeProblems(before: string): string[] {
  const out: string[] = [];
  const probe = {} as Record<string, unknown>;
  for (const k of ['polluted', 'isAdmin']) if (probe[k] !== undefined) out.push(`Object.prototype.${k} was set`);
  if (prototypeFingerprint() !== before) out.push('a built-in prototype changed');
  return out;
}

/** A stable digest of what the panel and CLI show for one connection. */
export function digest(c: ConnectionView): string {
  const finals = c.replies.map((r) => {
    let final: unknown;
    try {
      final = r.history.length > 0 ? r.history.at(r.history.length - 1) : r.history.initial;
    } catch (err) {
      final = `THROWS ${(err as Error).message}`;
    }
    return { id: r.id, steps: r.history.length, status: r.stepStatus, idx: r.eventIndices, final };
  });
  return JSON.stringify({
    state: c.state, dialect: c.dialect, bytes: c.bytes, frames: c.frames.length,
    events: c.events.map((e) => [e.index, e.frameIndex, e.type, e.valid, e.replyId ?? null, e.diagnostics.length]),
    diagnostics: c.diagnostics.map((d) => [d.code, d.severity, d.index]),
    finals,
  });
}

const SEVERITIES = new Set(['error', 'warning', 'info']);
/** Diagnostics about the whole connection that explain why its events cannot be read as a protocol. */
const CONNECTION_LEVEL = new Set(['stream.unknown-dialect', 'stream.http-error']);
/** Diagnostics saying the client stopped reading here: later events need no diagnostic of their own. */
const CLIENT_STOPPED = new Set(['pi.ignored-after-failure', 'sse.client-json-error']);

/** Problems with one connection view (an empty list = the view is sound). */
export function viewProblems(c: ConnectionView, opts: { seekAll: boolean }): string[] {
  const out: string[] = [];
  const n = c.events.length;
  const at = new Set(c.diagnostics.map((d) => d.index));
  for (const d of c.diagnostics) {
    if (typeof d.code !== 'string' || !d.code || !SEVERITIES.has(d.severity) || typeof d.message !== 'string' || !d.message) {
      out.push(`malformed diagnostic ${JSON.stringify(d).slice(0, 200)}`);
    }
    if (!Number.isInteger(d.index) || d.index < 0 || (d.index >= Math.max(1, n) && d.index !== 0)) out.push(`diagnostic ${d.code} index ${d.index} outside 0..${n - 1}`);
    if (!diagnosticDoc(d.code)) out.push(`diagnostic code ${d.code} has no documentation in the catalogue`);
  }
  for (const d of c.diagnostics) {
    if (d.code === 'analysis.event-failed') out.push(`CONTAINED failure at event ${d.index}: ${d.message.slice(0, 300)}`);
  }
  // A live connection whose dialect is still unknown gets its verdict at the end (stream.unknown-dialect); so does one
  // whose end record says it was still open (an export of a live stream: no end yet, see analyze.ts finish).
  const connectionLevel = c.diagnostics.some((d) => CONNECTION_LEVEL.has(d.code)) || ((c.state === 'live' || c.state === 'open') && c.dialect === 'unknown');
  // After the client stopped reading (JSON.parse threw, or it failed), one diagnostic covers every later event.
  const stoppedAt = Math.min(...c.diagnostics.filter((d) => CLIENT_STOPPED.has(d.code)).map((d) => d.index));
  for (const e of c.events) {
    if (!e.valid && !at.has(e.index) && !connectionLevel && !(e.index >= stoppedAt)) out.push(`event ${e.index} (${e.type}) is invalid but no diagnostic names it`);
  }
  for (const r of c.replies) {
    if (r.eventIndices.length !== r.stepStatus.length || r.history.length !== r.eventIndices.length) {
      out.push(`reply ${r.id}: ${r.eventIndices.length} events, ${r.stepStatus.length} statuses, ${r.history.length} steps`);
    }
    r.stepStatus.forEach((s, k) => {
      if (s !== 'changed' && s !== 'unchanged' && !at.has(r.eventIndices[k])) out.push(`reply ${r.id} step ${k} is '${s}' but event ${r.eventIndices[k]} has no diagnostic`);
    });
    const ks = opts.seekAll ? r.eventIndices.map((_, k) => k) : [0, r.history.length >> 1, r.history.length - 1];
    for (const k of new Set(ks)) {
      if (k < 0 || k >= r.history.length) continue;
      try {
        JSON.stringify(r.history.at(k));
      } catch (err) {
        out.push(`reply ${r.id}: history.at(${k}) throws ${(err as Error).message}`);
      }
    }
  }
  try {
    const tl = deriveTimeline(c.events);
    for (const lane of tl.lanes) for (const s of lane.spans) if (Number.isNaN(s.start) || Number.isNaN(s.end)) out.push(`timeline lane ${lane.id} has a NaN span`);
  } catch (err) {
    out.push(`deriveTimeline throws ${(err as Error).stack?.split('\n').slice(0, 3).join(' / ')}`);
  }
  try {
    // Raw event values are left out: a valid-JSON value nested 10,000 deep cannot be re-serialised by JSON.stringify.
    JSON.stringify({ events: c.events.map((e) => ({ ...e, raw: undefined })), frames: c.frames, diagnostics: c.diagnostics });
  } catch (err) {
    out.push(`the view does not serialise: ${(err as Error).message}`);
  }
  return out;
}

function crash(where: string, err: unknown): string {
  const e = err as Error;
  return `CRASH in ${where}: ${e?.name ?? 'throw'}: ${String(e?.message ?? err).slice(0, 300)} @ ${(e?.stack ?? '').split('\n').slice(1, 4).map((s) => s.trim()).join(' / ')}`;
}

export interface PipelineResult {
  problems: string[];
  views: ConnectionView[];
}

/**
 * Batch analysis, then live analysis fed in `groups` (record counts per push, cycled), reading the views between
 * pushes like the panel does, then the comparison and the view checks.
 */
export function checkPipeline(records: CaptureRecord[], groups: number[], opts: { seekAll: boolean }): PipelineResult {
  const problems: string[] = [];
  let views: ConnectionView[] = [];
  try {
    views = analyzeCapture(captureOf(records));
  } catch (err) {
    return { problems: [crash('analyzeCapture', err)], views };
  }
  try {
    const live = new CaptureAnalyzer();
    let i = 0;
    let g = 0;
    while (i < records.length) {
      const n = Math.max(1, groups.length ? groups[g++ % groups.length] : 1);
      const changed = live.push(records.slice(i, i + n));
      for (const id of changed) live.connection(id);
      i += n;
    }
    const a = views.map(digest);
    const b = live.connections().map(digest);
    if (a.length !== b.length || a.some((d, k) => d !== b[k])) {
      const k = a.findIndex((d, j) => d !== b[j]);
      problems.push(`live analysis differs from batch analysis (connection ${k}): batch ${a[k]?.slice(0, 300)} / live ${b[k]?.slice(0, 300)}`);
    }
  } catch (err) {
    problems.push(crash('CaptureAnalyzer.push (live)', err));
  }
  for (const v of views) {
    try {
      problems.push(...viewProblems(v, opts));
    } catch (err) {
      problems.push(crash('view checks', err));
    }
  }
  return { problems, views };
}

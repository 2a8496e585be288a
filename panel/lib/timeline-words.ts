// The timeline table's words for a lane (TimelineTable.tsx): its state, its contents, a length on the axis. Apart
// from the component so that a unit test reads them.
import type { Timeline as TL } from '../../src/core/analysis/timeline.ts';
import { CUSTOM_OTHER_ID, waitText } from '../../src/core/analysis/timeline.ts';
import type { LaneSummary } from '../../src/core/analysis/timeline-text.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { formatMs } from './format.ts';

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A length on the axis in words: time, or (no times in the input) events. */
export function lengthText(tl: TL, d: number): string {
  return tl.axis === 'index' ? plural(Math.round(d), 'event') : formatMs(d);
}

/**
 * Where a block that began before what the connection holds began: before its evicted head (memory cap), or on the
 * connection it resumes (a Last-Event-ID request, whose replies continue from there).
 */
export function beganBefore(conn: ConnectionView): string {
  return conn.replies.some((r) => r.continuesConnection !== undefined) ? 'this connection (on the one it resumes)' : 'the evicted part';
}

/**
 * Whether the lane's block ended — by its last span: a reply resumed after a confirmation (REPLY_START again, no
 * REPLY_END before the wait) has an earlier span nothing closed, yet it did end; "not ended" said otherwise.
 */
export function stateText(s: LaneSummary, before = 'the evicted part'): string {
  if (s.lane.spans.every((sp) => sp.startEvent === sp.endEvent)) return 'instant';
  const last = s.lane.spans[s.lane.spans.length - 1];
  const continued = s.continued ? `, began before ${before}` : '';
  if (last.open) return `not ended${continued}${s.spans > 1 ? ` (${s.openSpans} of ${plural(s.spans, 'span')} open)` : ''}`;
  const earlier = s.openSpans ? `; ${plural(s.openSpans, 'earlier span')} never closed` : s.spans > 1 ? ` (${plural(s.spans, 'span')})` : '';
  return `ended${continued}${earlier}`;
}

export function contentsText(tl: TL, s: LaneSummary): string {
  const parts: string[] = [];
  if (s.deltas) parts.push(plural(s.deltas, 'delta'));
  if (s.lane.kind === 'custom' && s.lane.id !== CUSTOM_OTHER_ID) parts.push(plural(s.events, 'notification'));
  else if (s.markCount) {
    const listed = s.marks.map((m) => `${m.mark} #${m.event}`).join(', ');
    parts.push(`${plural(s.markCount, 'mark')}: ${listed}${s.markCount > s.marks.length ? ', …' : ''}`);
  }
  for (const w of s.waits) {
    parts.push(`${waitText(w)} #${w.startEvent}${w.open ? ', unanswered' : ` → #${w.endEvent}`} (${lengthText(tl, w.end - w.start)})`);
  }
  if (!parts.length) parts.push(plural(s.events, 'event'));
  return parts.join('; ');
}

// The timeline table's words for a lane (TimelineTable.tsx): its state, its contents, a length on the axis. Apart
// from the component so that a unit test reads them.
import type { Timeline as TL, TimelineLane } from '../../src/core/analysis/timeline.ts';
import { CUSTOM_OTHER_ID, waitText } from '../../src/core/analysis/timeline.ts';
import type { LaneSummary } from '../../src/core/analysis/timeline-text.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { axisDuration } from './axis-ticks.ts';

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A length on the axis in words: time as the axis reads it, or (no times in the input) events. */
export function lengthText(tl: TL, d: number): string {
  return tl.axis === 'index' ? plural(Math.round(d), 'event') : axisDuration(d);
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

/** Ids longer than this are shown shortened (shortId). */
const ID_SHOWN_MAX = 16;

/**
 * An id as the table shows it: its head and tail ("e6336d…edbf") when it is long — both ends, since tool call ids
 * share their head ("toolu_01…", "call_…"). A 32-digit hex id wrapped mid-id, over two to eight lines.
 */
export function shortId(id: string): string {
  const chars = Array.from(id);
  return chars.length > ID_SHOWN_MAX ? `${chars.slice(0, 6).join('')}…${chars.slice(-4).join('')}` : id;
}

/** The ids in a lane's name: its reply's and its block's (tool call's, model call's…); a CUSTOM lane's name is words. */
export function laneIds(lane: TimelineLane): string[] {
  const ids = lane.replyId ? [lane.replyId] : [];
  const prefix = `${lane.kind}:${lane.replyId ?? ''}:`;
  if (lane.kind !== 'custom' && lane.id.startsWith(prefix) && lane.id.length > prefix.length) ids.push(lane.id.slice(prefix.length));
  return ids;
}

export type IdPiece = { text: string } | { id: string; short: string };

/**
 * `text` as plain pieces and the `ids` it holds (a longer id first where two overlap), each with its short form. Ids
 * under 4 characters ("1", a model call's number) stay plain: they never wrap.
 */
export function idPieces(text: string, ids: readonly string[]): IdPiece[] {
  const sorted = [...new Set(ids)].filter((id) => id.length >= 4).sort((a, b) => b.length - a.length);
  const out: IdPiece[] = [];
  let plain = '';
  for (let i = 0; i < text.length;) {
    const id = sorted.find((x) => text.startsWith(x, i));
    if (id === undefined) {
      plain += text[i++];
      continue;
    }
    if (plain) out.push({ text: plain });
    plain = '';
    out.push({ id, short: shortId(id) });
    i += id.length;
  }
  if (plain) out.push({ text: plain });
  return out;
}

/**
 * `text` with its `ids` shortened as the table shows them (idPieces): the chart's lane labels, which are plain SVG
 * text. "R1 · text e6336d1ff989d237…" was cut by the label column, a long id taking all of it.
 */
export function shortIdsIn(text: string, ids: readonly string[]): string {
  return idPieces(text, ids).map((p) => ('text' in p ? p.text : p.short)).join('');
}

/** Names longer than this may wrap after their underscores (longNameParts). */
const NAME_WHOLE_MAX = 16;

/** `text` cut after each underscore of its words longer than 16 characters ("REQUIRE_", "EXTERNAL_", "EXECUTION"). */
export function longNameParts(text: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const m of text.matchAll(/\S+/g)) {
    if (m[0].length <= NAME_WHOLE_MAX) continue;
    for (let i = m[0].indexOf('_'); i >= 0 && i < m[0].length - 1; i = m[0].indexOf('_', i + 1)) {
      const at = m.index! + i + 1;
      parts.push(text.slice(from, at));
      from = at;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

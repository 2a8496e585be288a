// Timeline lane derivation: turns a connection's events into lanes of spans on one time axis.
// Pure (no DOM): the panel draws the result as SVG, tests check it directly.
//
// One lane per content block (text, thinking, tool call, tool result, data, hint), plus one lane per model call and
// one per reply. A span runs from the event that opened the block to the event that closed it (or to the last event
// of the connection while it is still open); the events in between that touched the block are ticks.
// Human-in-the-loop waits (REQUIRE_USER_CONFIRM → USER_CONFIRM_RESULT, REQUIRE_EXTERNAL_EXECUTION →
// EXTERNAL_EXECUTION_RESULT) and long silences between events are "waits", drawn across all lanes.
// AgentScope CUSTOM notifications belong to no reply: they get lanes of their own, one per name, a mark per event.
import { CUSTOM_NO_NAME, type EventRole, eventRole, externalResults } from './timeline-roles.ts';
import type { EventView } from './types.ts';
import type { LaneKind, Timeline, TimelineAxis, TimelineLane, TimelineOptions, TimelineSpan, TimelineWait } from './timeline-types.ts';

export { CUSTOM_NO_NAME, type EventRole, eventRole, eventRoleOf } from './timeline-roles.ts';

export type { LaneKind, Timeline, TimelineAxis, TimelineLane, TimelineOptions, TimelineSpan, TimelineTick, TimelineWait } from './timeline-types.ts';

/**
 * What a wait is, in words: a REQUIRE_USER_CONFIRM waits for the user's answer, a REQUIRE_EXTERNAL_EXECUTION for the
 * client to run the tool and send its result (no user need be involved). Both were "waiting for the user".
 */
export function waitText(w: TimelineWait): string {
  if (w.kind === 'gap') return 'gap';
  return w.label.startsWith('REQUIRE_EXTERNAL_EXECUTION') ? 'waiting for external execution' : 'waiting for the user';
}

/** Choose the axis: arrival times when every event has one, else created_at when every event has one, else index. */
export function chooseAxis(events: readonly EventView[]): TimelineAxis {
  if (events.length > 0 && events.every((e) => Number.isFinite(e.t))) return 'arrival';
  if (events.length > 0 && events.every((e) => e.createdAt !== undefined && Number.isFinite(e.createdAt))) {
    return 'created_at';
  }
  return 'index';
}

export function axisTime(e: EventView, axis: TimelineAxis, position: number): number {
  if (axis === 'arrival') return e.t;
  if (axis === 'created_at') return e.createdAt as number;
  return position;
}

const KIND_LABEL: Record<LaneKind, string> = {
  reply: 'reply',
  'model-call': 'model call',
  text: 'text',
  thinking: 'thinking',
  'tool-call': 'tool call',
  'tool-result': 'tool result',
  data: 'data',
  hint: 'hint',
  'tool-execution': 'tool exec',
  custom: 'custom',
};

/** Lanes sort by kind (reply, model call first) then by first appearance. */
const KIND_ORDER: LaneKind[] = [
  'reply',
  'model-call',
  'thinking',
  'text',
  'tool-call',
  'tool-result',
  'tool-execution',
  'data',
  'hint',
  'custom',
];

/**
 * Distinct CUSTOM names that get a lane each; the rest share one. An app that puts an id in the name (a name per
 * event) would otherwise add a lane per event.
 */
export const CUSTOM_LANES_MAX = 12;
export const CUSTOM_OTHER = '(other names)';
/**
 * Ids of the shared lane and the lane of CUSTOMs without a name: not `custom::<name>` as a named lane's, so that no
 * name — "(other names)" itself — falls into them (the middle part, a reply id elsewhere, is never set for CUSTOM).
 */
export const CUSTOM_OTHER_ID = 'custom:*:other';
const CUSTOM_NO_NAME_ID = 'custom:*:no-name';

/**
 * Derive the timeline of `events` (one connection's events, or one reply's). Spans of the same block that is opened
 * again (duplicate START) start a new span in the same lane; a delta or end with no open span opens an implicit one
 * at that event (the diagnostics say why it is odd; the timeline still shows where the data went).
 */
export function deriveTimeline(events: readonly EventView[], options: TimelineOptions = {}): Timeline {
  const axis = chooseAxis(events);
  const gapThreshold = options.gapThreshold ?? (axis === 'index' ? Infinity : 2000);
  const times = events.map((e, i) => axisTime(e, axis, i));
  const lanes = new Map<string, TimelineLane>();
  const firstSeen = new Map<string, number>();
  const openSpans = new Map<string, TimelineSpan>();
  const modelCallCount = new Map<string, number>();
  const waits: TimelineWait[] = [];
  const openWaits = new Map<string, TimelineWait>();
  /** A continuing reply's first kept event (time, index): where its blocks that began before the cut start. */
  const replyStart = new Map<string, { t: number; event: number }>();
  let lastT = -Infinity;
  let first = Infinity;
  for (const t of times) {
    if (!Number.isFinite(t)) continue;
    if (t < first) first = t;
    if (t > lastT) lastT = t;
  }
  if (first === Infinity) first = lastT = 0;

  /** One human wait per reply at a time: REQUIRE_* opens it, the matching *_RESULT closes it. */
  const trackWait = (what: 'begin' | 'finish', reply: string, e: EventView, t: number): void => {
    const open = openWaits.get(reply);
    if (what === 'begin' && !open) {
      const w: TimelineWait = { kind: 'human', start: t, end: t, startEvent: e.index, endEvent: e.index, label: e.type, open: true, replyId: reply };
      openWaits.set(reply, w);
      waits.push(w);
    } else if (what === 'finish' && open) {
      open.end = t;
      open.endEvent = e.index;
      open.open = false;
      open.label = `${open.label} → ${e.type}`;
      openWaits.delete(reply);
    }
  };

  const laneFor = (role: EventRole, reply: string, key: string): TimelineLane => {
    const id = `${role.kind}:${reply}:${key}`;
    let lane = lanes.get(id);
    if (!lane) {
      const base = role.kind === 'reply' ? `reply ${reply}`.trim() : `${KIND_LABEL[role.kind]} ${key}`;
      lane = { id, kind: role.kind, label: role.label ? `${base} · ${role.label}` : base, spans: [] };
      if (reply) lane.replyId = reply;
      lanes.set(id, lane);
      firstSeen.set(id, lanes.size);
    } else if (role.label && !lane.label.includes(' · ')) {
      lane.label = `${lane.label} · ${role.label}`;
    }
    return lane;
  };

  let customLanes = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const t = times[i];
    if (i > 0 && t - times[i - 1] > gapThreshold) {
      const prev = events[i - 1];
      waits.push({ kind: 'gap', start: times[i - 1], end: t, startEvent: prev.index, endEvent: e.index, label: 'gap' });
    }
    const role = eventRole(e);
    if (!role) continue;
    if (role.kind === 'custom') {
      if (options.dialect?.startsWith('pi-')) continue;
      // No reply (even if analysis ever gave it one): the lane is the connection's. A name's lane is keyed by the
      // name; the shared lane and the nameless one have ids no name gives (a name "(other names)" got the shared
      // lane's, and the names after the twelfth went into it).
      const id = role.label === CUSTOM_NO_NAME ? CUSTOM_NO_NAME_ID : `custom::${role.key}`;
      let lane = lanes.get(id);
      if (!lane) {
        const own = customLanes < CUSTOM_LANES_MAX;
        if (own) customLanes++;
        const laneId = own ? id : CUSTOM_OTHER_ID;
        lane = lanes.get(laneId);
        if (!lane) {
          // An empty name is shown as "" (the label "custom " said nothing).
          const label = !own ? CUSTOM_OTHER : role.label === CUSTOM_NO_NAME ? CUSTOM_NO_NAME : role.key === '' ? '""' : role.key;
          lane = { id: laneId, kind: 'custom', label: `${KIND_LABEL.custom} ${label}`, spans: [] };
          lanes.set(laneId, lane);
          firstSeen.set(laneId, lanes.size);
        }
      }
      lane.spans.push({ start: t, end: t, startEvent: e.index, endEvent: e.index, open: false, ticks: [], mark: role.mark });
      continue;
    }
    const reply = e.replyId ?? '';
    const continuing = options.continuing?.has(reply) ?? false;
    if (continuing && !replyStart.has(reply)) replyStart.set(reply, { t, event: e.index });
    if (role.wait) trackWait(role.wait, reply, e, t);
    // A result whose id already has a tool-result lane in this reply (a streamed result, an earlier external one) is
    // skipped as append_event skips it: it checks the results that existed before the event.
    const external = externalResults(e);
    const known = new Set(external.length ? lanes.keys() : []);
    for (const r of external) {
      if (known.has(`tool-result:${reply}:${r.key}`)) continue;
      const lane = laneFor({ kind: 'tool-result', key: r.key, phase: 'point', label: r.label }, reply, r.key);
      if (!lane.spans.some((sp) => sp.startEvent === e.index)) lane.spans.push({ start: t, end: t, startEvent: e.index, endEvent: e.index, open: false, ticks: [] });
    }

    // Model calls carry no id: they are numbered in order within their reply, and a delta/end belongs to the
    // call that is open (or, with none open, to a new implicit one).
    let key = role.key;
    if (role.kind === 'model-call') {
      // A continuing reply's calls are counted from the cut: their ordinals say so ("model call after the cut 1").
      const callKey = (k: number) => (continuing ? `after the cut ${k}` : String(k));
      const n = modelCallCount.get(reply) ?? 0;
      const isOpen = openSpans.has(`model-call:${reply}:${callKey(n)}`);
      if (role.phase === 'start' || !isOpen) modelCallCount.set(reply, n + 1);
      key = callKey(role.phase === 'start' || !isOpen ? n + 1 : n);
    }
    const lane = laneFor(role, reply, key);
    let span = openSpans.get(lane.id);

    if (role.phase === 'point') {
      if (span) {
        span.ticks.push(role.mark ? { t, event: e.index, mark: role.mark } : { t, event: e.index });
        span.end = Math.max(span.end, t);
      } else {
        lane.spans.push({ start: t, end: t, startEvent: e.index, endEvent: e.index, open: false, ticks: [], ...(role.mark ? { mark: role.mark } : {}) });
      }
      continue;
    }
    if (role.phase === 'start' || !span) {
      // A repeated START leaves the earlier span open (nothing closed it) and starts a new one. In a reply that began
      // before the cut, the first delta or end of a block never started here belongs to a block that began before it.
      const before = role.phase !== 'start' && lane.spans.length === 0 ? replyStart.get(reply) : undefined;
      span = before ? { start: before.t, end: t, startEvent: before.event, open: true, ticks: [], continued: true } : { start: t, end: t, startEvent: e.index, open: true, ticks: [] };
      lane.spans.push(span);
      openSpans.set(lane.id, span);
      if (role.phase === 'start') continue;
    }
    span.end = Math.max(span.end, t);
    if (role.phase === 'delta') span.ticks.push({ t, event: e.index });
    if (role.phase === 'end') {
      span.open = false;
      span.endEvent = e.index;
      openSpans.delete(lane.id);
    }
  }

  // Whatever is still open runs to the last event (it was streaming when the capture ended).
  for (const span of openSpans.values()) span.end = Math.max(span.end, lastT);
  for (const w of openWaits.values()) w.end = Math.max(w.end, lastT);

  const sorted = [...lanes.values()].sort(
    (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || firstSeen.get(a.id)! - firstSeen.get(b.id)!,
  );
  return { axis, start: first, end: lastT, lanes: sorted, waits, times };
}

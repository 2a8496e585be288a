// Timeline lane derivation: turns a connection's events into lanes of spans on one time axis.
// Pure (no DOM): the panel draws the result as SVG, tests check it directly.
//
// One lane per content block (text, thinking, tool call, tool result, data, hint), plus one lane per model call and
// one per reply. A span runs from the event that opened the block to the event that closed it (or to the last event
// of the connection while it is still open); the events in between that touched the block are ticks.
// Human-in-the-loop waits (REQUIRE_USER_CONFIRM → USER_CONFIRM_RESULT, REQUIRE_EXTERNAL_EXECUTION →
// EXTERNAL_EXECUTION_RESULT) and long silences between events are "waits", drawn across all lanes.
// AgentScope CUSTOM notifications belong to no reply: they get lanes of their own, one per name, a mark per event.
import type { Dialect, EventView } from './types.ts';

export type LaneKind =
  | 'reply'
  | 'model-call'
  | 'text'
  | 'thinking'
  | 'tool-call'
  | 'tool-result'
  | 'data'
  | 'hint'
  | 'tool-execution'
  | 'custom';

/** Which clock the axis uses: arrival times, the events' own `created_at`, or (neither known) the event index. */
export type TimelineAxis = 'arrival' | 'created_at' | 'index';

export interface TimelineTick {
  /** Position on the axis. */
  t: number;
  /** Connection event index. */
  event: number;
  /**
   * A reply-level event drawn as a mark on the reply's bar (USER_INTERRUPT, REQUIRE_USER_CONFIRM…): its type. Delta
   * ticks have none. The text alternative names the marks by it.
   */
  mark?: string;
}

export interface TimelineSpan {
  start: number;
  end: number;
  startEvent: number;
  /** The closing event, when the block was closed. */
  endEvent?: number;
  /** True when nothing closed the block (still streaming, or the stream never closed it). */
  open: boolean;
  /**
   * The block (reply, model call) began before the memory cap evicted the connection's head: the span starts at its
   * reply's first kept event and is drawn open to the left. (It was a zero-length span at the closing event.)
   */
  continued?: true;
  ticks: TimelineTick[];
  /** A point span that is one event (a CUSTOM notification): what it was (the CUSTOM's name). */
  mark?: string;
}

export interface TimelineLane {
  /** Stable key: `<kind>:<reply>:<block id>`. */
  id: string;
  kind: LaneKind;
  label: string;
  replyId?: string;
  spans: TimelineSpan[];
}

export interface TimelineWait {
  kind: 'human' | 'gap';
  start: number;
  end: number;
  startEvent: number;
  endEvent: number;
  label: string;
  /** True for a human wait that no result answered yet. */
  open?: boolean;
  /** The reply that waits (human waits; '' when the events named none). */
  replyId?: string;
}

/**
 * What a wait is, in words: a REQUIRE_USER_CONFIRM waits for the user's answer, a REQUIRE_EXTERNAL_EXECUTION for the
 * client to run the tool and send its result (no user need be involved). Both were "waiting for the user".
 */
export function waitText(w: TimelineWait): string {
  if (w.kind === 'gap') return 'gap';
  return w.label.startsWith('REQUIRE_EXTERNAL_EXECUTION') ? 'waiting for external execution' : 'waiting for the user';
}

export interface Timeline {
  axis: TimelineAxis;
  /** Axis range; start === end when there is at most one distinct time. */
  start: number;
  end: number;
  lanes: TimelineLane[];
  waits: TimelineWait[];
  /** Position of each event on the axis, indexed like the input array (not by EventView.index). */
  times: number[];
}

export interface TimelineOptions {
  /** Silences longer than this (axis units: ms, or events for the index axis) become gap waits. Default 2000 ms. */
  gapThreshold?: number;
  /** Replies that began before an eviction (ReplyView.continuesEviction): their blocks may have started before it. */
  continuing?: ReadonlySet<string>;
  /**
   * The connection's dialect. In a pi stream a CUSTOM is no notification but a frame of a type pi does not know (the
   * client skips it, a diagnostic says so): it gets no lane there — "custom progress, 1 notification" told otherwise.
   */
  dialect?: Dialect;
}

type Phase = 'start' | 'delta' | 'end' | 'point';

/** What one event means for the timeline. */
export interface EventRole {
  kind: LaneKind;
  /** Identifies the block within its kind and reply (block id, tool-call id, content index, model-call ordinal). */
  key: string;
  phase: Phase;
  /** Label for a lane this event opens. */
  label?: string;
  /** Human-in-the-loop: this event starts or ends a wait. */
  wait?: 'begin' | 'finish';
  /** A point event: what the text alternative and the tooltip call it (event type, CUSTOM's name). */
  mark?: string;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

function field(raw: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = str(raw[n]);
    if (v !== undefined) return v;
  }
  return undefined;
}

const AS_BLOCK_KINDS: Record<string, LaneKind> = {
  TEXT_BLOCK: 'text',
  THINKING_BLOCK: 'thinking',
  DATA_BLOCK: 'data',
  TOOL_CALL: 'tool-call',
  TOOL_RESULT: 'tool-result',
};

/** AgentScope (snake_case) and its legacy camelCase dialect use the same upper-case type names. */
function agentScopeRole(type: string, raw: Record<string, unknown>, blockId?: string): EventRole | undefined {
  if (type === 'REPLY_START') return { kind: 'reply', key: '', phase: 'start' };
  if (type === 'REPLY_END') return { kind: 'reply', key: '', phase: 'end' };
  if (type === 'MODEL_CALL_START') {
    return { kind: 'model-call', key: '', phase: 'start', label: field(raw, 'model_name', 'modelName') };
  }
  if (type === 'MODEL_CALL_END') return { kind: 'model-call', key: '', phase: 'end' };
  if (type === 'HINT_BLOCK') {
    const id = blockId ?? field(raw, 'block_id', 'blockId', 'id') ?? '';
    // Labelled by its source (who gave the hint: "permission", a middleware's name), when it names one: the lane's
    // label already says "hint" ("hint hint-1 · hint" said it twice and nothing else).
    return { kind: 'hint', key: id, phase: 'point', label: field(raw, 'source') };
  }
  if (type === 'REQUIRE_USER_CONFIRM' || type === 'REQUIRE_EXTERNAL_EXECUTION') {
    return { kind: 'reply', key: '', phase: 'point', wait: 'begin', mark: type };
  }
  if (type === 'USER_CONFIRM_RESULT' || type === 'EXTERNAL_EXECUTION_RESULT') {
    return { kind: 'reply', key: '', phase: 'point', wait: 'finish', mark: type };
  }
  // The agent loop stopped by the user or by its iteration limit: a mark on the reply's bar at that moment (they
  // were drawn nowhere — the timeline showed a reply ending with no sign of why).
  if (type === 'USER_INTERRUPT' || type === 'EXCEED_MAX_ITERS') return { kind: 'reply', key: '', phase: 'point', mark: type };
  // An app's own notification (progress, citations, state_updated…): `name` and a `value` object, no reply_id — it
  // happens between or inside replies and belongs to none. One lane per name, so "which one, when" reads at a glance.
  if (type === 'CUSTOM') {
    // No name (the schema wants one; the diagnostics say so) is not the name "?": its own lane, "(no name)".
    const name = str(raw.name);
    return { kind: 'custom', key: name ?? '', phase: 'point', mark: name ?? CUSTOM_NO_NAME, ...(name === undefined ? { label: CUSTOM_NO_NAME } : {}) };
  }
  const m = /^(TEXT_BLOCK|THINKING_BLOCK|DATA_BLOCK|TOOL_CALL|TOOL_RESULT)_(START|END|[A-Z_]*DELTA)$/.exec(type);
  if (!m) return undefined;
  const kind = AS_BLOCK_KINDS[m[1]];
  const isTool = kind === 'tool-call' || kind === 'tool-result';
  // Tool results are keyed by their call (a result's data deltas carry their own block ids inside the result).
  const key =
    (isTool ? field(raw, 'tool_call_id', 'toolCallId') : field(raw, 'block_id', 'blockId')) ?? blockId ?? '?';
  const phase: Phase = m[2] === 'START' ? 'start' : m[2] === 'END' ? 'end' : 'delta';
  const label = isTool ? field(raw, 'tool_call_name', 'toolCallName', 'name') : undefined;
  return { kind, key, phase, label };
}

/**
 * The tool results an EXTERNAL_EXECUTION_RESULT adds to its reply (id, tool name), for lanes of their own: they are
 * tool_result blocks of the message like a streamed result's, but no TOOL_RESULT_* event names them, so the timeline
 * drew none (the event was only a point on the reply lane). Only a valid event adds blocks.
 */
function externalResults(e: EventView): { key: string; label?: string }[] {
  if (e.type !== 'EXTERNAL_EXECUTION_RESULT' || !e.valid) return [];
  const raw = e.raw as { execution_results?: unknown } | undefined;
  const results = Array.isArray(raw?.execution_results) ? raw.execution_results : [];
  return results.flatMap((r) => {
    const id = r && typeof r === 'object' ? field(r as Record<string, unknown>, 'id') : undefined;
    return id === undefined ? [] : [{ key: id, label: field(r as Record<string, unknown>, 'name') }];
  });
}

/** pi-ai AssistantMessageEvent / pi-agent-core proxy event types. */
function piAssistantRole(type: string, raw: Record<string, unknown>): EventRole | undefined {
  if (type === 'start') return { kind: 'model-call', key: '', phase: 'start' };
  if (type === 'done' || type === 'error') return { kind: 'model-call', key: '', phase: 'end' };
  const m = /^(text|thinking|toolcall)_(start|delta|end)$/.exec(type);
  if (!m) return undefined;
  const kind: LaneKind = m[1] === 'toolcall' ? 'tool-call' : (m[1] as 'text' | 'thinking');
  const key = field(raw, 'contentIndex') ?? '?';
  const phase = m[2] as Phase;
  const label = kind === 'tool-call' ? field(raw, 'toolName') : undefined;
  return { kind, key, phase, label };
}

/** pi-agent-core AgentEvent: message_update wraps an assistant event; tool executions get their own lanes. */
function piAgentRole(type: string, raw: Record<string, unknown>): EventRole | undefined {
  switch (type) {
    case 'agent_start':
      return { kind: 'reply', key: '', phase: 'start' };
    case 'agent_end':
      return { kind: 'reply', key: '', phase: 'end' };
    case 'turn_start':
      return { kind: 'model-call', key: '', phase: 'start', label: 'turn' };
    case 'turn_end':
      return { kind: 'model-call', key: '', phase: 'end' };
    case 'tool_execution_start':
    case 'tool_execution_update':
    case 'tool_execution_end': {
      const phase: Phase = type.endsWith('start') ? 'start' : type.endsWith('end') ? 'end' : 'delta';
      return { kind: 'tool-execution', key: field(raw, 'toolCallId') ?? '?', phase, label: field(raw, 'toolName') };
    }
    case 'message_update': {
      const inner = raw.assistantMessageEvent;
      if (inner && typeof inner === 'object') {
        const innerRaw = inner as Record<string, unknown>;
        const r = piAssistantRole(str(innerRaw.type) ?? '', innerRaw);
        // start/done of the inner stream are the message's own boundaries, already marked by message_start/_end.
        if (r && r.kind !== 'model-call') return r;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** AgentScope's text deltas: a valid one without extra keys has nothing for the timeline but its type and block. */
const AS_TEXT_DELTAS: Record<string, LaneKind> = {
  TEXT_BLOCK_DELTA: 'text', THINKING_BLOCK_DELTA: 'thinking', TOOL_CALL_DELTA: 'tool-call', TOOL_RESULT_TEXT_DELTA: 'tool-result',
};

/**
 * Classify one event for the timeline; undefined when it opens, touches or closes nothing. `e.raw` parses the event's
 * text on every read, so it is read once — and not at all for a valid AgentScope text delta without extra keys (nearly
 * every event): its lane is its block, which the view already names. A million-event connection parsed four million
 * times when its timeline was first drawn.
 */
export function eventRole(e: EventView): EventRole | undefined {
  const delta = Object.hasOwn(AS_TEXT_DELTAS, e.type) ? AS_TEXT_DELTAS[e.type] : undefined;
  if (delta !== undefined && e.valid && e.extras.length === 0 && e.blockId !== undefined) return { kind: delta, key: e.blockId, phase: 'delta', label: undefined };
  return eventRoleOf(e.type, e.raw, e.blockId);
}

/** `eventRole` from the parsed event (exported for the test that holds the shortcut above equal to it). */
export function eventRoleOf(type: string, parsed: unknown, blockId: string | undefined): EventRole | undefined {
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const raw = parsed as Record<string, unknown>;
  if (/^[A-Z][A-Z_]+$/.test(type)) return agentScopeRole(type, raw, blockId);
  return piAgentRole(type, raw) ?? piAssistantRole(type, raw);
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
/** The mark and label of a CUSTOM without a name. */
export const CUSTOM_NO_NAME = '(no name)';
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

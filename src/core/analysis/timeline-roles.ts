// What one event means for the timeline (timeline.ts): the lane it belongs to — the block, tool call, model call or
// reply it touches — and whether it opens, continues or closes that lane, by dialect (AgentScope, pi-ai's assistant
// stream, pi-agent-core's agent events). Apart from the lanes' derivation so each reads on its own.
import type { LaneKind } from './timeline-types.ts';
import type { EventView } from './types.ts';

/** The mark and label of a CUSTOM without a name. */
export const CUSTOM_NO_NAME = '(no name)';

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
export function externalResults(e: EventView): { key: string; label?: string }[] {
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

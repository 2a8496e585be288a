// A compiled fast path for validating the AgentScope events that make up almost all of a real stream (block
// starts/deltas/ends, tool calls and results, model calls, reply start/end) in their ordinary wire shape.
//
// Why: zod is the reference validation here and stays so — it produces the pydantic-style error report — but for a
// well-formed event it costs several times a JSON.parse (a generic walk of the schema, a copy of every field, then a
// second walk to find extra keys). This path recognises the common, valid shapes with a few typeof checks and returns
// an object equal to the one zod would return (same keys, values and defaults). Anything it is not sure about — an
// unknown key, a non-empty metadata, a lax int such as "5" or true, an error object — returns undefined, and the
// caller validates with zod as before. test/unit/analysis/agentscope-fast-validate.test.ts checks it against zod.
import type { AgentEvent } from '../agentscope/schema.ts';

type FieldKind =
  | { kind: 'string' }
  | { kind: 'int'; default?: number }
  | { kind: 'enum'; values: readonly string[]; default?: string }
  | { kind: 'null-default' };

const str: FieldKind = { kind: 'string' };
const int: FieldKind = { kind: 'int' };
const int0: FieldKind = { kind: 'int', default: 0 };
const REPLY_REASONS = ['completed', 'interrupted', 'exceed_max_iters', 'error'] as const;
const MODEL_REASONS = ['interrupted', 'completed'] as const;
const ROLES = ['user', 'assistant', 'system'] as const;
const RESULT_STATES = ['success', 'error', 'interrupted', 'denied', 'running'] as const;

/** Own fields after `reply_id`, in the schema's declaration order (which is zod's output order). */
const SHAPES: Record<string, [string, FieldKind][]> = {
  REPLY_START: [['session_id', str], ['name', str], ['role', { kind: 'enum', values: ROLES, default: 'assistant' }]],
  REPLY_END: [['session_id', str], ['finished_reason', { kind: 'enum', values: REPLY_REASONS, default: 'completed' }], ['error', { kind: 'null-default' }]],
  MODEL_CALL_START: [['model_name', str]],
  MODEL_CALL_END: [['input_tokens', int], ['output_tokens', int], ['cache_input_tokens', int0], ['cache_creation_input_tokens', int0],
    ['finished_reason', { kind: 'enum', values: MODEL_REASONS, default: 'completed' }]],
  TEXT_BLOCK_START: [['block_id', str]],
  TEXT_BLOCK_DELTA: [['block_id', str], ['delta', str]],
  TEXT_BLOCK_END: [['block_id', str]],
  THINKING_BLOCK_START: [['block_id', str]],
  THINKING_BLOCK_DELTA: [['block_id', str], ['delta', str]],
  THINKING_BLOCK_END: [['block_id', str]],
  DATA_BLOCK_START: [['block_id', str], ['media_type', str]],
  DATA_BLOCK_DELTA: [['block_id', str], ['data', str], ['media_type', str]],
  DATA_BLOCK_END: [['block_id', str]],
  TOOL_CALL_START: [['tool_call_id', str], ['tool_call_name', str]],
  TOOL_CALL_DELTA: [['tool_call_id', str], ['delta', str]],
  TOOL_CALL_END: [['tool_call_id', str]],
  TOOL_RESULT_START: [['tool_call_id', str], ['tool_call_name', str]],
  TOOL_RESULT_TEXT_DELTA: [['tool_call_id', str], ['delta', str]],
  TOOL_RESULT_END: [['tool_call_id', str], ['state', { kind: 'enum', values: RESULT_STATES }]],
};

/** Keys each shape accepts (the base event fields plus its own). */
const ALLOWED: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(SHAPES).map(([type, fields]) => [type, new Set(['type', 'id', 'created_at', 'metadata', 'reply_id', ...fields.map(([k]) => k)])]),
);

function isEmptyPlainObject(v: unknown): v is Record<string, never> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

/**
 * The validated event as the zod schema returns it (same keys and values), when `raw` is one of the common shapes
 * and valid; undefined when the fast path does not decide (validate with zod then). Never mutates `raw`. When `raw`
 * already carries every field (the usual wire form: pydantic serialises defaults too), the result *is* `raw` —
 * no copy, so a million-event capture keeps one object per event instead of two (keys then stay in wire order,
 * which nothing reads: the reducers take fields by name).
 */
export function fastValidateAgentScope(raw: unknown): AgentEvent | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const obj = raw as Record<string, unknown>;
  const type = obj.type;
  if (typeof type !== 'string') return undefined;
  // Own keys only: a wire `type` of "__proto__" or "constructor" would otherwise find Object.prototype / Object.
  const fields = Object.hasOwn(SHAPES, type) ? SHAPES[type] : undefined;
  if (fields === undefined) return undefined;
  const allowed = ALLOWED[type];
  for (const key in obj) if (!allowed.has(key)) return undefined; // an extra key: zod reports it
  if (typeof obj.reply_id !== 'string') return undefined;
  if ('id' in obj && typeof obj.id !== 'string') return undefined;
  if ('created_at' in obj && typeof obj.created_at !== 'string') return undefined;
  let defaults: Record<string, unknown> | undefined;
  if (!('metadata' in obj)) defaults = { metadata: {} };
  else if (!isEmptyPlainObject(obj.metadata)) return undefined;
  for (const [key, f] of fields) {
    const v = obj[key];
    if (v === undefined) {
      // Absent: a default fills it, or the event is invalid (zod words the error).
      const d = f.kind === 'int' || f.kind === 'enum' ? f.default : f.kind === 'null-default' ? null : undefined;
      if (d === undefined) return undefined;
      (defaults ??= {})[key] = d;
      continue;
    }
    switch (f.kind) {
      case 'string':
        if (typeof v !== 'string') return undefined;
        break;
      case 'int':
        if (!Number.isSafeInteger(v)) return undefined;
        break;
      case 'enum':
        if (typeof v !== 'string' || !f.values.includes(v)) return undefined;
        break;
      case 'null-default':
        if (v !== null) return undefined;
        break;
    }
  }
  return (defaults ? { ...obj, ...defaults } : obj) as unknown as AgentEvent;
}

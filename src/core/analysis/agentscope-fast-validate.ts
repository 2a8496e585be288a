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

/**
 * Every key any shape accepts gets a slot. The event is read in one `for…in` pass into the slots: a property read
 * by the loop's own key is served from the object's enumeration cache, whereas reads by name at a site that sees all
 * the event shapes (a dozen per event) each went through V8's megamorphic lookup — most of this function's cost.
 */
const BASE_KEYS = ['type', 'id', 'created_at', 'metadata', 'reply_id'] as const;
const KEYS = [...new Set([...BASE_KEYS, ...Object.values(SHAPES).flatMap((fields) => fields.map(([k]) => k))])];
const SLOT = new Map<string, number>(KEYS.map((k, i) => [k, i]));
const [TYPE, ID, CREATED_AT, METADATA, REPLY_ID] = [0, 1, 2, 3, 4];
const [BLOCK_ID, TOOL_CALL_ID, DELTA] = ['block_id', 'tool_call_id', 'delta'].map((k) => SLOT.get(k) as number);
if (KEYS.length > 31) throw new Error('fast-validate: too many keys for a bit mask');

const S = (k: string) => SLOT.get(k) as number;
const [S_BLOCK_ID, S_DELTA, S_TOOL_CALL_ID, S_DATA, S_MEDIA_TYPE, S_TOOL_CALL_NAME, S_STATE, S_MODEL_NAME] =
  ['block_id', 'delta', 'tool_call_id', 'data', 'media_type', 'tool_call_name', 'state', 'model_name'].map(S);

/**
 * `SLOT.get(key)` for the keys of an event being read (-1: none). A switch, the frequent keys first: the keys of a
 * parsed object are interned strings, compared here by identity; a Map lookup per key cost more (measured).
 */
function slotOf(key: string): number {
  switch (key) {
    case 'id': return ID;
    case 'created_at': return CREATED_AT;
    case 'metadata': return METADATA;
    case 'type': return TYPE;
    case 'reply_id': return REPLY_ID;
    case 'block_id': return S_BLOCK_ID;
    case 'delta': return S_DELTA;
    case 'tool_call_id': return S_TOOL_CALL_ID;
    case 'data': return S_DATA;
    case 'media_type': return S_MEDIA_TYPE;
    case 'tool_call_name': return S_TOOL_CALL_NAME;
    case 'state': return S_STATE;
    case 'model_name': return S_MODEL_NAME;
    default: return SLOT.get(key) ?? -1;
  }
}
for (const k of KEYS) if (slotOf(k) !== SLOT.get(k)) throw new Error(`fast-validate: slotOf(${k}) disagrees with SLOT`);

/** Per type: its fields (slot, key, kind) and the mask of the slots it accepts. A Map: a wire `type` of "__proto__"
 * or "constructor" finds nothing (and looking a fresh string up in a Map only hashes it). */
interface CompiledShape {
  /** The type name as a constant (an event's own `type` string is a fresh copy per event). */
  type: string;
  slots: number[];
  keys: string[];
  kinds: FieldKind[];
  allowed: number;
}
const COMPILED = new Map<string, CompiledShape>(
  Object.entries(SHAPES).map(([type, fields]) => [type, {
    type,
    // Parallel arrays: the per-event loop reads them by index (no tuple destructuring per field).
    slots: fields.map(([k]) => SLOT.get(k) as number),
    keys: fields.map(([k]) => k),
    kinds: fields.map(([, f]) => f),
    allowed: [...BASE_KEYS, ...fields.map(([k]) => k)].reduce((m, k) => m | (1 << (SLOT.get(k) as number)), 0),
  }]),
);

/** The slots of the event being validated (reused: validation allocates nothing on success). */
const values: unknown[] = KEYS.map(() => undefined);

/** The type string of the last event whose shape was looked up, and that shape (see `shapeOf`). */
let lastTypeText = '';
let lastShape: CompiledShape | undefined;

/** `COMPILED.get(type)`: runs of one type compare with the previous type string instead of hashing a fresh one. */
function shapeOf(type: string): CompiledShape | undefined {
  if (type === lastTypeText) return lastShape;
  const shape = COMPILED.get(type);
  lastTypeText = type;
  lastShape = shape;
  return shape;
}

/**
 * The fields of the event the last successful `fastValidateAgentScope` call accepted, read in its single pass (the
 * analysis' delta lane reads them here instead of from the event, whose shape varies by type: see above). Valid
 * until the next call.
 */
export const lastFast = { type: '', replyId: '', createdAt: undefined as string | undefined, target: undefined as string | undefined, delta: undefined as string | undefined };

/** The value read into `slot`, if the event has that key (`seen`: mask of the slots read for this event). */
function slotValue(seen: number, slot: number): unknown {
  return seen & (1 << slot) ? values[slot] : undefined;
}

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
  let seen = 0;
  for (const key in obj) {
    const slot = slotOf(key);
    if (slot === -1) return undefined; // a key no shape has: zod reports it
    seen |= 1 << slot;
    values[slot] = obj[key];
  }
  const type = seen & (1 << TYPE) ? values[TYPE] : undefined;
  if (typeof type !== 'string') return undefined;
  const shape = shapeOf(type);
  if (shape === undefined || (seen & ~shape.allowed) !== 0) return undefined; // an extra key: zod reports it
  if (typeof slotValue(seen, REPLY_ID) !== 'string') return undefined;
  if (seen & (1 << ID) && typeof values[ID] !== 'string') return undefined;
  if (seen & (1 << CREATED_AT) && typeof values[CREATED_AT] !== 'string') return undefined;
  let defaults: Record<string, unknown> | undefined;
  if (!(seen & (1 << METADATA))) defaults = { metadata: {} };
  else if (!isEmptyPlainObject(values[METADATA])) return undefined;
  const { slots, kinds } = shape;
  for (let n = 0; n < slots.length; n++) {
    const f = kinds[n];
    const value = slotValue(seen, slots[n]);
    if (value === undefined) {
      // Absent: a default fills it, or the event is invalid (zod words the error).
      const d = f.kind === 'int' || f.kind === 'enum' ? f.default : f.kind === 'null-default' ? null : undefined;
      if (d === undefined) return undefined;
      (defaults ??= {})[shape.keys[n]] = d;
      continue;
    }
    switch (f.kind) {
      case 'string':
        if (typeof value !== 'string') return undefined;
        break;
      case 'int':
        if (!Number.isSafeInteger(value)) return undefined;
        break;
      case 'enum':
        if (typeof value !== 'string' || !f.values.includes(value)) return undefined;
        break;
      case 'null-default':
        if (value !== null) return undefined;
        break;
    }
  }
  lastFast.type = shape.type;
  lastFast.replyId = values[REPLY_ID] as string;
  lastFast.createdAt = slotValue(seen, CREATED_AT) as string | undefined;
  lastFast.target = (slotValue(seen, BLOCK_ID) ?? slotValue(seen, TOOL_CALL_ID)) as string | undefined;
  lastFast.delta = slotValue(seen, DELTA) as string | undefined;
  return (defaults ? { ...obj, ...defaults } : obj) as unknown as AgentEvent;
}

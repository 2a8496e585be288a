// The older camelCase dialect of the `agentscope-typescript` package (agentscope-ai/agentscope-typescript,
// src/event: `EventType` with RUN_STARTED/RUN_FINISHED, MODEL_CALL_STARTED/ENDED, BINARY_BLOCK_*,
// TOOL_RESULT_BINARY_DELTA; fields replyId, blockId, sessionId, toolCallId, toolCallName, mediaType, createdAt,
// inputTokens, toolCalls, confirmResults, executionResults…). Servers built on it are still around; AgentScope's Java
// port accepts the same names as aliases. We normalise such events to the current wire form so they reconstruct,
// and say that we did (lifecycle reports `as.legacy-dialect`).
//
// Mapping (documented, conservative):
//  - event type renames: see LEGACY_TYPE_MAP (every other type name is shared by both dialects);
//  - object keys camelCase → snake_case at every depth of the event, except inside free-form payloads
//    (`metadata`, `value`, `structured_output`) whose keys belong to the application;
//  - a key already present in snake_case wins over its camelCase twin (the camelCase one is dropped and noted).
// Legacy-only fields without a current counterpart (e.g. EXCEED_MAX_ITERS `agentId` → `agent_id`) simply become
// extras, which validation reports.

export const LEGACY_TYPE_MAP: Readonly<Record<string, string>> = {
  RUN_STARTED: 'REPLY_START',
  RUN_FINISHED: 'REPLY_END',
  MODEL_CALL_STARTED: 'MODEL_CALL_START',
  MODEL_CALL_ENDED: 'MODEL_CALL_END',
  BINARY_BLOCK_START: 'DATA_BLOCK_START',
  BINARY_BLOCK_DELTA: 'DATA_BLOCK_DELTA',
  BINARY_BLOCK_END: 'DATA_BLOCK_END',
  TOOL_RESULT_BINARY_DELTA: 'TOOL_RESULT_DATA_DELTA',
};

/** Free-form payloads: their keys are application data, not protocol fields. */
const OPAQUE_KEYS = new Set(['metadata', 'value', 'structured_output', 'structuredOutput']);

export interface LegacyNormalisation {
  /** The event in the current wire form (the input itself when it was not legacy). */
  raw: unknown;
  legacy: boolean;
  /** What was rewritten, e.g. `type RUN_STARTED → REPLY_START`, `replyId → reply_id`. */
  notes: string[];
}

const CAMEL = /[a-z0-9][A-Z]/;

function snake(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Top-level keys only the legacy dialect uses. Detection relies on these (not on "any camelCase key") so that a
 * current event carrying an application's camelCase extra (`traceId`) is not mistaken for legacy.
 */
const LEGACY_KEYS = new Set([
  'replyId',
  'sessionId',
  'createdAt',
  'blockId',
  'mediaType',
  'toolCallId',
  'toolCallName',
  'modelName',
  'inputTokens',
  'outputTokens',
  'toolCalls',
  'confirmResults',
  'executionResults',
]);

/** Whether the event looks like the legacy dialect: a legacy-only type name, or a legacy protocol key. */
export function isLegacyEvent(raw: unknown): boolean {
  if (!isObject(raw)) return false;
  if (typeof raw.type === 'string' && raw.type in LEGACY_TYPE_MAP) return true;
  return Object.keys(raw).some((k) => LEGACY_KEYS.has(k));
}

/**
 * Deepest level whose keys are converted. Below it a value is kept as it came: an event's value can be nested
 * 100,000 deep (JSON.parse reads it), and converting it recursed until the stack overflowed.
 */
const MAX_CONVERTED_DEPTH = 1000;

function convert(value: unknown, path: string, notes: string[], depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_CONVERTED_DEPTH) {
    notes.push(`${path.slice(0, 60)}… nested deeper than ${MAX_CONVERTED_DEPTH} levels: kept as it came`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => convert(v, `${path}${i}.`, notes, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const k of keys) {
    const target = CAMEL.test(k) && !OPAQUE_KEYS.has(k) ? snake(k) : k;
    if (target !== k) {
      if (Object.prototype.hasOwnProperty.call(value, target)) {
        notes.push(`${path}${k} dropped (${path}${target} also present)`);
        continue;
      }
      notes.push(`${path}${k} → ${path}${target}`);
    }
    out[target] = OPAQUE_KEYS.has(target) ? value[k] : convert(value[k], `${path}${target}.`, notes, depth + 1);
  }
  return out;
}

/** Normalise one raw event (already JSON-parsed). Non-legacy events come back untouched. */
export function normaliseLegacyEvent(raw: unknown): LegacyNormalisation {
  if (!isLegacyEvent(raw)) return { raw, legacy: false, notes: [] };
  const notes: string[] = [];
  const converted = convert(raw, '', notes) as Record<string, unknown>;
  const type = converted.type;
  if (typeof type === 'string' && type in LEGACY_TYPE_MAP) {
    converted.type = LEGACY_TYPE_MAP[type];
    notes.unshift(`type ${type} → ${LEGACY_TYPE_MAP[type]}`);
  }
  return { raw: converted, legacy: true, notes };
}

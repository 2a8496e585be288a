// zod schemas of the 28 `agentscope.event` types (event/_event.py at the mirrored commit) and the validation entry
// points. Validation mirrors what the reference does to a wire consumer's text: `EventClass.model_validate_json(text)`
// with the class chosen by the `type` field (pydantic JSON mode: lax int/bool coercion, unknown keys ignored, strict
// strings). Factory defaults (`id`, `created_at`, a data delta's `block_id`) are left absent — see blocks.ts.
import { z } from 'zod';
import {
  ErrorInfoSchema,
  JsonObject,
  MediaBlockInput,
  ModelFinishedReason,
  ReplyFinishedReason,
  Role,
  ToolCallBlockInput,
  ToolResultBlockInput,
  ToolResultState,
  PermissionRuleSchema,
  pyBool,
  pyInt,
} from './blocks.ts';
import { AGENTSCOPE_EVENT_TYPES, type AgentScopeEventType } from './event-types.ts';
import { parseWireJson } from './wire-json.ts';
import { shownJsonClipped } from '../diagnostics/shown.ts';
import { checkedAgainstText } from './py-int-literals.ts';

export * from './blocks.ts';

export { AGENTSCOPE_EVENT_TYPES, type AgentScopeEventType } from './event-types.ts';
export const EventTypeSchema = z.enum(AGENTSCOPE_EVENT_TYPES);

const base = {
  id: z.string().optional(),
  created_at: z.string().optional(),
  metadata: JsonObject.default({}),
};
const reply = { ...base, reply_id: z.string() };
const block = { ...reply, block_id: z.string() };
const call = { ...reply, tool_call_id: z.string() };
const ev = <T extends AgentScopeEventType>(type: T) => ({ type: z.literal(type) });

export const ReplyStartEvent = z.object({
  ...ev('REPLY_START'),
  ...reply,
  session_id: z.string(),
  name: z.string(),
  role: Role.default('assistant'),
});
export const ReplyEndEvent = z.object({
  ...ev('REPLY_END'),
  ...reply,
  session_id: z.string(),
  finished_reason: ReplyFinishedReason.default('completed'),
  error: ErrorInfoSchema.nullable().default(null),
});
export const ModelCallStartEvent = z.object({ ...ev('MODEL_CALL_START'), ...reply, model_name: z.string() });
export const ModelCallEndEvent = z.object({
  ...ev('MODEL_CALL_END'),
  ...reply,
  input_tokens: pyInt,
  output_tokens: pyInt,
  cache_input_tokens: pyInt.default(0),
  cache_creation_input_tokens: pyInt.default(0),
  finished_reason: ModelFinishedReason.default('completed'),
});
export const TextBlockStartEvent = z.object({ ...ev('TEXT_BLOCK_START'), ...block });
export const TextBlockDeltaEvent = z.object({ ...ev('TEXT_BLOCK_DELTA'), ...block, delta: z.string() });
export const TextBlockEndEvent = z.object({ ...ev('TEXT_BLOCK_END'), ...block });
export const DataBlockStartEvent = z.object({ ...ev('DATA_BLOCK_START'), ...block, media_type: z.string() });
export const DataBlockDeltaEvent = z.object({
  ...ev('DATA_BLOCK_DELTA'),
  ...block,
  data: z.string(),
  media_type: z.string(),
});
export const DataBlockEndEvent = z.object({ ...ev('DATA_BLOCK_END'), ...block });
export const ThinkingBlockStartEvent = z.object({ ...ev('THINKING_BLOCK_START'), ...block });
export const ThinkingBlockDeltaEvent = z.object({ ...ev('THINKING_BLOCK_DELTA'), ...block, delta: z.string() });
export const ThinkingBlockEndEvent = z.object({ ...ev('THINKING_BLOCK_END'), ...block });
export const HintBlockEvent = z.object({
  ...ev('HINT_BLOCK'),
  ...block,
  source: z.string().nullable().default(null),
  hint: z.union([z.string(), z.array(MediaBlockInput)]),
});
export const ToolCallStartEvent = z.object({ ...ev('TOOL_CALL_START'), ...call, tool_call_name: z.string() });
export const ToolCallDeltaEvent = z.object({ ...ev('TOOL_CALL_DELTA'), ...call, delta: z.string() });
export const ToolCallEndEvent = z.object({ ...ev('TOOL_CALL_END'), ...call });
export const ToolResultStartEvent = z.object({ ...ev('TOOL_RESULT_START'), ...call, tool_call_name: z.string() });
export const ToolResultTextDeltaEvent = z.object({ ...ev('TOOL_RESULT_TEXT_DELTA'), ...call, delta: z.string() });
export const ToolResultDataDeltaEvent = z
  .object({
    ...ev('TOOL_RESULT_DATA_DELTA'),
    ...call,
    block_id: z.string().optional(),
    media_type: z.string(),
    data: z.string().nullable().default(null),
    // A plain str here: the URL is only checked (and can raise) when append_event builds the URLSource.
    url: z.string().nullable().default(null),
  })
  .refine((e) => (e.data === null) !== (e.url === null), {
    message: 'Value error, Exactly one of `data` or `url` must be provided.',
  });
export const ToolResultEndEvent = z.object({ ...ev('TOOL_RESULT_END'), ...call, state: ToolResultState });
export const ExceedMaxItersEvent = z.object({ ...ev('EXCEED_MAX_ITERS'), ...reply, name: z.string() });
export const RequireUserConfirmEvent = z.object({
  ...ev('REQUIRE_USER_CONFIRM'),
  ...reply,
  tool_calls: z.array(ToolCallBlockInput),
});
export const RequireExternalExecutionEvent = z.object({
  ...ev('REQUIRE_EXTERNAL_EXECUTION'),
  ...reply,
  tool_calls: z.array(ToolCallBlockInput),
});
export const ConfirmResultSchema = z.object({
  confirmed: pyBool,
  tool_call: ToolCallBlockInput,
  rules: z.array(PermissionRuleSchema).nullable().default(null),
});
export const UserConfirmResultEvent = z.object({
  ...ev('USER_CONFIRM_RESULT'),
  ...reply,
  confirm_results: z.array(ConfirmResultSchema),
});
export const UserInterruptEvent = z.object({ ...ev('USER_INTERRUPT'), ...reply });
export const ExternalExecutionResultEvent = z.object({
  ...ev('EXTERNAL_EXECUTION_RESULT'),
  ...reply,
  execution_results: z.array(ToolResultBlockInput),
});
/** CUSTOM has no reply_id (a `reply_id` key on the wire is an ignored extra). */
export const CustomEvent = z.object({ ...ev('CUSTOM'), ...base, name: z.string(), value: JsonObject.default({}) });

export const EVENT_SCHEMAS = {
  REPLY_START: ReplyStartEvent,
  REPLY_END: ReplyEndEvent,
  MODEL_CALL_START: ModelCallStartEvent,
  MODEL_CALL_END: ModelCallEndEvent,
  TEXT_BLOCK_START: TextBlockStartEvent,
  TEXT_BLOCK_DELTA: TextBlockDeltaEvent,
  TEXT_BLOCK_END: TextBlockEndEvent,
  DATA_BLOCK_START: DataBlockStartEvent,
  DATA_BLOCK_DELTA: DataBlockDeltaEvent,
  DATA_BLOCK_END: DataBlockEndEvent,
  THINKING_BLOCK_START: ThinkingBlockStartEvent,
  THINKING_BLOCK_DELTA: ThinkingBlockDeltaEvent,
  THINKING_BLOCK_END: ThinkingBlockEndEvent,
  HINT_BLOCK: HintBlockEvent,
  TOOL_CALL_START: ToolCallStartEvent,
  TOOL_CALL_DELTA: ToolCallDeltaEvent,
  TOOL_CALL_END: ToolCallEndEvent,
  TOOL_RESULT_START: ToolResultStartEvent,
  TOOL_RESULT_TEXT_DELTA: ToolResultTextDeltaEvent,
  TOOL_RESULT_DATA_DELTA: ToolResultDataDeltaEvent,
  TOOL_RESULT_END: ToolResultEndEvent,
  EXCEED_MAX_ITERS: ExceedMaxItersEvent,
  REQUIRE_USER_CONFIRM: RequireUserConfirmEvent,
  REQUIRE_EXTERNAL_EXECUTION: RequireExternalExecutionEvent,
  USER_CONFIRM_RESULT: UserConfirmResultEvent,
  USER_INTERRUPT: UserInterruptEvent,
  EXTERNAL_EXECUTION_RESULT: ExternalExecutionResultEvent,
  CUSTOM: CustomEvent,
} as const satisfies Record<AgentScopeEventType, z.ZodType>;

type Schemas = typeof EVENT_SCHEMAS;
export type AgentEventOf<T extends AgentScopeEventType> = z.infer<Schemas[T]>;
export type AgentEvent = { [T in AgentScopeEventType]: AgentEventOf<T> }[AgentScopeEventType];
/** Events that name a reply (all but CUSTOM). */
export type ReplyEvent = Exclude<AgentEvent, { type: 'CUSTOM' }>;

export interface ValidationIssue {
  path: string;
  message: string;
}
export type ValidationResult =
  | { ok: true; event: AgentEvent; extras: string[] }
  | {
      ok: false;
      issues: ValidationIssue[];
      /** Why: the text is not JSON (as the reference parses it), the type is unknown, or the fields are wrong. */
      reason: 'json' | 'unknown-type' | 'schema';
    };

export function isAgentScopeEventType(t: unknown): t is AgentScopeEventType {
  return typeof t === 'string' && (EVENT_SCHEMAS as Record<string, unknown>)[t] !== undefined;
}

/** A `type` that is no string is quoted by this many characters of its JSON (as an event view's type is cut). */
const TYPE_SHOWN_MAX = 200;

/**
 * Python repr of the `type` value, for the "unknown event type" message. One that is no string is written as JSON, its
 * head only: JSON.stringify wrote all of it and overflowed the stack on a value nested 100,000 deep (a legacy event
 * keeps its values at any depth, and validateEvent takes parsed values from anyone).
 */
function describeType(t: unknown): string {
  if (t === undefined || t === null) return 'None';
  if (typeof t === 'string') return `'${t}'`;
  return shownJsonClipped(t, TYPE_SHOWN_MAX) ?? String(t);
}

function lookup(raw: unknown, path: readonly PropertyKey[]): { found: boolean } {
  let cur: unknown = raw;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, key)) return { found: false };
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return { found: cur !== undefined };
}

/** Validate an already-parsed event object (note: JSON.parse loses the lone-surrogate distinction — prefer parseWireEvent). */
export function validateEvent(raw: unknown): ValidationResult {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, reason: 'schema', issues: [{ path: '', message: 'Input should be an object' }] };
  }
  const type = (raw as Record<string, unknown>).type;
  if (!isAgentScopeEventType(type)) {
    return { ok: false, reason: 'unknown-type', issues: [{ path: 'type', message: `unknown event type ${describeType(type)}` }] };
  }
  const result = (EVENT_SCHEMAS[type] as z.ZodType).safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => {
      const found = lookup(raw, issue.path).found;
      // zod says "expected string, received undefined"; pydantic says "Field required" — keep the reference wording.
      const message = !found && issue.code !== 'custom' ? 'Field required' : issue.message;
      return { path: issue.path.map(String).join('.'), message };
    });
    return { ok: false, reason: 'schema', issues };
  }
  return { ok: true, event: result.data as AgentEvent, extras: findExtras(raw, result.data) };
}

/** Parse and validate one event from its wire text, as `model_validate_json` does. */
export function parseWireEvent(text: string): ValidationResult {
  const parsed = parseWireJson(text);
  if (!parsed.ok) return { ok: false, reason: 'json', issues: [{ path: '', message: parsed.message }] };
  return checkedAgainstText(text, validateEvent(parsed.value));
}

/**
 * Keys present in the input but dropped by validation (pydantic ignores them; we report them), as dotted paths.
 * Walks input and output side by side, so it reaches any depth the schema knows. Free-form objects (metadata,
 * value) are copied whole by the schema and so never report.
 */
const MAX_EXTRAS_DEPTH = 32;

export function findExtras(input: unknown, output: unknown, prefix = '', depth = 0): string[] {
  // No AgentScope schema nests deeper than a few levels: below that everything is free-form data (metadata, tool
  // input) the schema copies whole, so there is nothing to report — and a hostile 10,000-deep value must not
  // overflow the stack.
  if (depth > MAX_EXTRAS_DEPTH) return [];
  const extras: string[] = [];
  if (Array.isArray(input) && Array.isArray(output)) {
    input.forEach((item, i) => extras.push(...findExtras(item, output[i], `${prefix}${i}.`, depth + 1)));
  } else if (isPlainObject(input) && isPlainObject(output)) {
    for (const key of Object.keys(input)) {
      if (!Object.prototype.hasOwnProperty.call(output, key)) extras.push(prefix + key);
      else extras.push(...findExtras(input[key], output[key], `${prefix}${key}.`, depth + 1));
    }
  }
  return extras;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

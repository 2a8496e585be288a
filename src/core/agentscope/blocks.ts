// zod schemas of AgentScope's message content: the six content blocks, their sources, tool-call/result states,
// Usage, ErrorInfo, the finished reasons and Msg itself (agentscope/message/_block.py, _base.py, types/_reply.py at
// the mirrored commit). Two forms per block:
//  - the stored form (`TextBlockSchema`, …): what a Msg holds — every field present;
//  - the wire form (`TextBlockInput`, …): what an event may carry. pydantic fills `id`/`created_at` from factories
//    (random ids, the wall clock); we leave them absent so parsing stays deterministic, and `append-event.ts` fills
//    them from an injectable clock/id generator when a block enters a message.
// Validation follows pydantic in JSON mode ("lax"): see `pyInt`/`pyBool`. Unknown keys are stripped (pydantic's
// default `extra="ignore"`) — `schema.ts` reports them — except on ThinkingBlock, which is `extra="allow"`.
import { z } from 'zod';
import { utf8Length } from '../frames/utf8-chunks.ts';
import { pyAnyUrl } from './py-compat.ts';

/**
 * What pydantic-core trims from a numeric string: Rust's `str::trim`, i.e. Unicode White_Space — which has U+0085 and
 * not U+FEFF, where JavaScript's `trim()` has U+FEFF and not U+0085 (so "\u008512" is 12 and "\ufeff12" no int).
 */
function isPySpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** (A loop, not a regular expression: `\s+$` backtracks quadratically over a long run of spaces inside the text.) */
function pyTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPySpace(s.charCodeAt(a))) a++;
  while (b > a && isPySpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/**
 * pydantic lax `int` in JSON mode: ints, floats without fraction, bools, numeric strings (trimmed, `_`, `.0`).
 * A number of any size is taken: JSON.parse makes the same double of an integer literal, which pydantic reads as a
 * Python int however long, and of a float literal, which it refuses from ±2^63 on — the text tells them apart, see
 * wideFloatIssues (py-int-literals.ts), applied where the wire text is at hand.
 */
export const pyInt = z.unknown().transform((v, ctx): number => {
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message, input: v });
    return z.NEVER;
  };
  if (v === undefined) return fail('Field required');
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return fail('Input should be a finite number');
    if (!Number.isInteger(v)) return fail('Input should be a valid integer, got a number with a fractional part');
    return v;
  }
  if (typeof v === 'string') {
    let s = pyTrim(v);
    // pydantic-core refuses a (trimmed) string over 4300 bytes before parsing it, as Python's int() does since the
    // digit limit of CVE-2020-10735.
    if (utf8Length(s) > 4300) return fail('Unable to parse input string as an integer, exceeded maximum size');
    const dot = s.lastIndexOf('.');
    // "12.0" and "12.00" are 12; "12." is no int (pydantic-core strips a dot followed by zeros, at least one).
    if (dot >= 0 && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot);
    // Python int(): optional sign, digits with single underscores between them. (No repeated group: one overflows
    // the expression's backtrack stack on a string of millions of digit groups.)
    if (/^[+-]?\d[\d_]*$/.test(s) && !s.endsWith('_') && !s.includes('__')) return Number(s.replace(/_/g, ''));
    return fail('Input should be a valid integer, unable to parse string as an integer');
  }
  return fail('Input should be a valid integer');
});

const TRUE_STRINGS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_STRINGS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** pydantic lax `bool` in JSON mode: bools, 0/1 (int or float), and a fixed set of case-insensitive strings. */
export const pyBool = z.unknown().transform((v, ctx): boolean => {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number' && (v === 0 || v === 1)) return v === 1;
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (TRUE_STRINGS.has(s)) return true;
    if (FALSE_STRINGS.has(s)) return false;
  }
  ctx.addIssue({
    code: 'custom',
    input: v,
    message: v === undefined ? 'Field required' : 'Input should be a valid boolean, unable to interpret input',
  });
  return z.NEVER;
});

/** pydantic `AnyUrl`: validated and normalised (WHATWG); the stored value is `str(url)`. */
export const pyUrl = z.string().transform((v, ctx): string => {
  const r = pyAnyUrl(v);
  if (r.ok) return r.url;
  ctx.addIssue({ code: 'custom', message: r.message, input: v });
  return z.NEVER;
});

/** A JSON object (`dict` / `Dict[str, Any]`): arrays and scalars are rejected. */
export const JsonObject = z.record(z.string(), z.unknown());

export const ToolCallState = z.enum(['pending', 'asking', 'allowed', 'submitted', 'finished']);
export const ToolResultState = z.enum(['success', 'error', 'interrupted', 'denied', 'running']);
export const ReplyFinishedReason = z.enum(['completed', 'interrupted', 'exceed_max_iters', 'error']);
/** The model call's reason (agentscope.model.FinishedReason) — a different, smaller enum. */
export const ModelFinishedReason = z.enum(['interrupted', 'completed']);
export const ErrorType = z.enum([
  'authentication',
  'permission',
  'rate_limit',
  'invalid_request',
  'upstream',
  'connection',
  'internal',
  'setup',
  'unknown',
]);
export const PermissionBehavior = z.enum(['allow', 'deny', 'ask', 'passthrough']);
export const Role = z.enum(['user', 'assistant', 'system']);
export const ContentBlockType = z.enum(['text', 'thinking', 'hint', 'tool_call', 'tool_result', 'data']);

export const ErrorInfoSchema = z.object({ type: ErrorType.default('unknown'), message: z.string() });

export const UsageSchema = z.object({
  input_tokens: pyInt,
  output_tokens: pyInt,
  cache_input_tokens: pyInt.default(0),
  cache_creation_input_tokens: pyInt.default(0),
});

/** PermissionRule: note `rule_content` is required although it may be null. */
export const PermissionRuleSchema = z.object({
  tool_name: z.string(),
  rule_content: z.string().nullable(),
  behavior: PermissionBehavior,
  source: z.string(),
});

export const Base64SourceSchema = z.object({
  type: z.literal('base64').default('base64'),
  data: z.string(),
  media_type: z.string(),
});
export const URLSourceSchema = z.object({ type: z.literal('url').default('url'), url: pyUrl, media_type: z.string() });
/** pydantic's smart union: a source without `type` is tried as base64 first, like the reference's order. */
export const SourceSchema = z.union([Base64SourceSchema, URLSourceSchema]);

const stamp = { id: z.string(), created_at: z.string(), finished_at: z.string().nullable() };
const wireStamp = {
  id: z.string().optional(),
  created_at: z.string().optional(),
  finished_at: z.string().nullable().default(null),
};

export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string(), ...stamp });
export const TextBlockInput = TextBlockSchema.extend({ type: z.literal('text').default('text'), ...wireStamp });

export const ThinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), ...stamp });

export const DataBlockSchema = z.object({
  type: z.literal('data'),
  source: SourceSchema,
  name: z.string().nullable(),
  ...stamp,
});
export const DataBlockInput = DataBlockSchema.extend({
  type: z.literal('data').default('data'),
  name: z.string().nullable().default(null),
  ...wireStamp,
});

/**
 * A list element of a hint or a tool-result output: `TextBlock | DataBlock` in pydantic's smart mode, where a
 * member that validates with more fields set wins (a nested model's fields count too). An item without `type` that
 * is both — a `text` and a valid `source` — is therefore a DataBlock (its source adds two fields or three to the
 * one `text` adds), so the data block is tried first; zod's union takes the first that passes.
 */
export const MediaBlockInput = z.union([DataBlockInput, TextBlockInput]);
export const MediaBlockSchema = z.union([TextBlockSchema, DataBlockSchema]);

export const HintBlockSchema = z.object({
  type: z.literal('hint'),
  hint: z.union([z.string(), z.array(MediaBlockSchema)]),
  source: z.string().nullable(),
  ...stamp,
});

export const ToolCallBlockSchema = z.object({
  type: z.literal('tool_call'),
  name: z.string(),
  input: z.string(),
  state: ToolCallState,
  suggested_rules: z.array(PermissionRuleSchema),
  ...stamp,
});
export const ToolCallBlockInput = ToolCallBlockSchema.extend({
  type: z.literal('tool_call').default('tool_call'),
  state: ToolCallState.default('pending'),
  suggested_rules: z.array(PermissionRuleSchema).default([]),
  ...wireStamp,
  id: z.string(),
});

export const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  name: z.string(),
  output: z.union([z.string(), z.array(MediaBlockSchema)]),
  state: ToolResultState,
  metadata: JsonObject,
  ...stamp,
});
export const ToolResultBlockInput = ToolResultBlockSchema.extend({
  type: z.literal('tool_result').default('tool_result'),
  output: z.union([z.string(), z.array(MediaBlockInput)]),
  state: ToolResultState.default('running'),
  metadata: JsonObject.default({}),
  ...wireStamp,
  id: z.string(),
});

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ThinkingBlockSchema,
  HintBlockSchema,
  ToolCallBlockSchema,
  ToolResultBlockSchema,
  DataBlockSchema,
]);

/** The stored message (what `Msg.model_dump(mode="json")` produces). */
export const MsgSchema = z.object({
  name: z.string(),
  content: z.array(ContentBlockSchema),
  role: Role,
  id: z.string(),
  metadata: JsonObject,
  created_at: z.string(),
  usage: UsageSchema.nullable(),
  finished_at: z.string().nullable(),
  finished_reason: ReplyFinishedReason.nullable(),
  structured_output: JsonObject.nullable(),
  error: ErrorInfoSchema.nullable(),
});

export type TextBlock = z.infer<typeof TextBlockSchema>;
export type ThinkingBlock = z.infer<typeof ThinkingBlockSchema>;
export type DataBlock = z.infer<typeof DataBlockSchema>;
export type HintBlock = z.infer<typeof HintBlockSchema>;
export type ToolCallBlock = z.infer<typeof ToolCallBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;
export type MediaBlock = z.infer<typeof MediaBlockSchema>;
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ContentBlockTypeName = z.infer<typeof ContentBlockType>;
export type Base64Source = z.infer<typeof Base64SourceSchema>;
export type URLSource = z.infer<typeof URLSourceSchema>;
export type PermissionRule = z.infer<typeof PermissionRuleSchema>;
export type Usage = z.infer<typeof UsageSchema>;
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;
export type Msg = z.infer<typeof MsgSchema>;
export type TextBlockIn = z.infer<typeof TextBlockInput>;
export type DataBlockIn = z.infer<typeof DataBlockInput>;
export type MediaBlockIn = z.infer<typeof MediaBlockInput>;
export type ToolCallBlockIn = z.infer<typeof ToolCallBlockInput>;
export type ToolResultBlockIn = z.infer<typeof ToolResultBlockInput>;

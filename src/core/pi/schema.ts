// zod 4 schemas of the pi wire formats (pi-ai / pi-agent-core 0.73.1 types; the installed .d.ts are the reference).
// Three event forms travel over HTTP:
// - proxy:     what a streamProxy server sends — AssistantMessageEvent without `partial` (toolcall_start carries
//              id/toolName, done/error carry usage instead of the message);
// - assistant: pi-ai AssistantMessageEvent with the whole `partial` message (done → message, error → error);
// - agent:     pi-agent-core AgentEvent (agent_start … tool_execution_end).
// Objects are loose: unknown keys are accepted like the reference accepts them, and reported as extras.
import { z } from 'zod';

const num = z.number();
const contentIndex = z.number().int().nonnegative();

export const PiUsageSchema = z.looseObject({
  input: num,
  output: num,
  cacheRead: num,
  cacheWrite: num,
  totalTokens: num,
  cost: z.looseObject({ input: num, output: num, cacheRead: num, cacheWrite: num, total: num }),
});

export const PiStopReasonSchema = z.enum(['stop', 'length', 'toolUse', 'error', 'aborted']);
const doneReason = z.enum(['stop', 'length', 'toolUse']);
const errorReason = z.enum(['aborted', 'error']);

export const PiTextContentSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  textSignature: z.string().optional(),
});
export const PiThinkingContentSchema = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  thinkingSignature: z.string().optional(),
  redacted: z.boolean().optional(),
});
export const PiImageContentSchema = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() });
export const PiToolCallSchema = z.looseObject({
  type: z.literal('toolCall'),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  thoughtSignature: z.string().optional(),
  /** Only while streaming: the raw argument text so far (removed at toolcall_end). */
  partialJson: z.string().optional(),
});
export const PiAssistantContentSchema = z.discriminatedUnion('type', [
  PiTextContentSchema,
  PiThinkingContentSchema,
  PiToolCallSchema,
]);
const userContent = z.discriminatedUnion('type', [PiTextContentSchema, PiImageContentSchema]);

export const PiAssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(PiAssistantContentSchema),
  api: z.string(),
  provider: z.string(),
  model: z.string(),
  responseModel: z.string().optional(),
  responseId: z.string().optional(),
  diagnostics: z.array(z.looseObject({ type: z.string(), timestamp: num })).optional(),
  usage: PiUsageSchema,
  stopReason: PiStopReasonSchema,
  errorMessage: z.string().optional(),
  timestamp: num,
});
export const PiUserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(userContent)]),
  timestamp: num,
});
export const PiToolResultMessageSchema = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.array(userContent),
  details: z.unknown().optional(),
  isError: z.boolean(),
  timestamp: num,
});
/** Apps add their own message kinds (CustomAgentMessages); they only need a role we do not know. */
const customMessage = z.looseObject({ role: z.string().refine((r) => !['user', 'assistant', 'toolResult'].includes(r)) });
export const PiAgentMessageSchema = z.union([
  PiUserMessageSchema,
  PiAssistantMessageSchema,
  PiToolResultMessageSchema,
  customMessage,
]);

// ---- proxy form (no partial) ----
export const PiProxyEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('start') }),
  z.looseObject({ type: z.literal('text_start'), contentIndex }),
  z.looseObject({ type: z.literal('text_delta'), contentIndex, delta: z.string() }),
  z.looseObject({ type: z.literal('text_end'), contentIndex, contentSignature: z.string().optional() }),
  z.looseObject({ type: z.literal('thinking_start'), contentIndex }),
  z.looseObject({ type: z.literal('thinking_delta'), contentIndex, delta: z.string() }),
  z.looseObject({ type: z.literal('thinking_end'), contentIndex, contentSignature: z.string().optional() }),
  z.looseObject({ type: z.literal('toolcall_start'), contentIndex, id: z.string(), toolName: z.string() }),
  z.looseObject({ type: z.literal('toolcall_delta'), contentIndex, delta: z.string() }),
  z.looseObject({ type: z.literal('toolcall_end'), contentIndex }),
  z.looseObject({ type: z.literal('done'), reason: doneReason, usage: PiUsageSchema }),
  z.looseObject({ type: z.literal('error'), reason: errorReason, errorMessage: z.string().optional(), usage: PiUsageSchema }),
]);

// ---- assistant form (pi-ai AssistantMessageEvent) ----
const partial = PiAssistantMessageSchema;
export const PiAssistantMessageEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('start'), partial }),
  z.looseObject({ type: z.literal('text_start'), contentIndex, partial }),
  z.looseObject({ type: z.literal('text_delta'), contentIndex, delta: z.string(), partial }),
  z.looseObject({ type: z.literal('text_end'), contentIndex, content: z.string(), partial }),
  z.looseObject({ type: z.literal('thinking_start'), contentIndex, partial }),
  z.looseObject({ type: z.literal('thinking_delta'), contentIndex, delta: z.string(), partial }),
  z.looseObject({ type: z.literal('thinking_end'), contentIndex, content: z.string(), partial }),
  z.looseObject({ type: z.literal('toolcall_start'), contentIndex, partial }),
  z.looseObject({ type: z.literal('toolcall_delta'), contentIndex, delta: z.string(), partial }),
  z.looseObject({ type: z.literal('toolcall_end'), contentIndex, toolCall: PiToolCallSchema, partial }),
  z.looseObject({ type: z.literal('done'), reason: doneReason, message: PiAssistantMessageSchema }),
  z.looseObject({ type: z.literal('error'), reason: errorReason, error: PiAssistantMessageSchema }),
]);

// ---- agent form (pi-agent-core AgentEvent) ----
const toolExec = { toolCallId: z.string(), toolName: z.string() };
export const PiAgentEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('agent_start') }),
  z.looseObject({ type: z.literal('agent_end'), messages: z.array(PiAgentMessageSchema) }),
  z.looseObject({ type: z.literal('turn_start') }),
  z.looseObject({
    type: z.literal('turn_end'),
    message: PiAgentMessageSchema,
    toolResults: z.array(PiToolResultMessageSchema),
  }),
  z.looseObject({ type: z.literal('message_start'), message: PiAgentMessageSchema }),
  z.looseObject({
    type: z.literal('message_update'),
    message: PiAgentMessageSchema,
    assistantMessageEvent: PiAssistantMessageEventSchema,
  }),
  z.looseObject({ type: z.literal('message_end'), message: PiAgentMessageSchema }),
  z.looseObject({ type: z.literal('tool_execution_start'), ...toolExec, args: z.unknown() }),
  z.looseObject({ type: z.literal('tool_execution_update'), ...toolExec, args: z.unknown(), partialResult: z.unknown() }),
  z.looseObject({ type: z.literal('tool_execution_end'), ...toolExec, result: z.unknown(), isError: z.boolean() }),
]);

export type PiUsage = z.infer<typeof PiUsageSchema>;
export type PiStopReason = z.infer<typeof PiStopReasonSchema>;
export type PiTextContent = z.infer<typeof PiTextContentSchema>;
export type PiThinkingContent = z.infer<typeof PiThinkingContentSchema>;
export type PiImageContent = z.infer<typeof PiImageContentSchema>;
export type PiToolCall = z.infer<typeof PiToolCallSchema>;
export type PiAssistantContent = z.infer<typeof PiAssistantContentSchema>;
export type PiAssistantMessage = z.infer<typeof PiAssistantMessageSchema>;
export type PiAgentMessage = z.infer<typeof PiAgentMessageSchema>;
export type PiProxyEvent = z.infer<typeof PiProxyEventSchema>;
export type PiAssistantMessageEvent = z.infer<typeof PiAssistantMessageEventSchema>;
export type PiAgentEvent = z.infer<typeof PiAgentEventSchema>;

export { PI_AGENT_EVENT_TYPES, PI_PROXY_EVENT_TYPES } from './event-types.ts';

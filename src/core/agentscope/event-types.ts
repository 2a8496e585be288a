// The 28 `EventType` names, on their own: the page tap (a classic script without zod) recognises agent messages by
// them (capture/agent-message-sniff.ts), the schemas in schema.ts are built from them.

/** Every `EventType` value, in the reference's declaration order. */
export const AGENTSCOPE_EVENT_TYPES = [
  'REPLY_START',
  'REPLY_END',
  'MODEL_CALL_START',
  'MODEL_CALL_END',
  'TEXT_BLOCK_START',
  'TEXT_BLOCK_DELTA',
  'TEXT_BLOCK_END',
  'DATA_BLOCK_START',
  'DATA_BLOCK_DELTA',
  'DATA_BLOCK_END',
  'THINKING_BLOCK_START',
  'THINKING_BLOCK_DELTA',
  'THINKING_BLOCK_END',
  'HINT_BLOCK',
  'TOOL_CALL_START',
  'TOOL_CALL_DELTA',
  'TOOL_CALL_END',
  'TOOL_RESULT_START',
  'TOOL_RESULT_TEXT_DELTA',
  'TOOL_RESULT_DATA_DELTA',
  'TOOL_RESULT_END',
  'EXCEED_MAX_ITERS',
  'REQUIRE_USER_CONFIRM',
  'REQUIRE_EXTERNAL_EXECUTION',
  'USER_CONFIRM_RESULT',
  'USER_INTERRUPT',
  'EXTERNAL_EXECUTION_RESULT',
  'CUSTOM',
] as const;
export type AgentScopeEventType = (typeof AGENTSCOPE_EVENT_TYPES)[number];

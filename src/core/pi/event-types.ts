// pi's event type names, on their own: the page tap (a classic script without zod) recognises agent messages by
// them (capture/agent-message-sniff.ts); schema.ts and validate.ts use them too.

/** pi-ai's AssistantMessageEvent types, which the proxy form (without `partial`) shares. */
export const PI_PROXY_EVENT_TYPES = [
  'start', 'text_start', 'text_delta', 'text_end', 'thinking_start', 'thinking_delta', 'thinking_end',
  'toolcall_start', 'toolcall_delta', 'toolcall_end', 'done', 'error',
] as const;
/** pi-agent-core's AgentEvent types. */
export const PI_AGENT_EVENT_TYPES = [
  'agent_start', 'agent_end', 'turn_start', 'turn_end', 'message_start', 'message_update', 'message_end',
  'tool_execution_start', 'tool_execution_update', 'tool_execution_end',
] as const;

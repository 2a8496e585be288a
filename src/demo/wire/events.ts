// AgentScope AgentEvents as the service serialises them: `event.model_dump(mode="json")` of the pydantic classes
// in agentscope/event/_event.py. Key order is pydantic's: the EventBase fields (id, created_at, metadata) first,
// then the subclass fields in declaration order; every field is present, defaults and nulls included.

import type { IdSource } from './ids.ts';
import type { DataBlock, TextBlock, ToolCallBlock, ToolResultBlock, ToolResultState, PermissionRule } from './blocks.ts';

/** One event as a plain JSON object; `type` is the EventType value. */
export type WireEvent = { type: string } & Record<string, unknown>;

export type ReplyFinishedReason = 'completed' | 'interrupted' | 'exceed_max_iters' | 'error';
export type ErrorType =
  | 'authentication' | 'permission' | 'rate_limit' | 'invalid_request' | 'upstream'
  | 'connection' | 'internal' | 'setup' | 'unknown';

export interface ConfirmResult {
  confirmed: boolean;
  tool_call: ToolCallBlock;
  rules: PermissionRule[] | null;
}

/** Builds events with fresh ids and timestamps from `ids`. Method names follow the Python class names. */
export class EventFactory {
  constructor(private readonly ids: IdSource) {}

  private base(type: string, fields: Record<string, unknown>, metadata: Record<string, unknown> = {}): WireEvent {
    return { id: this.ids.id(), created_at: this.ids.now(), metadata, type, ...fields };
  }

  replyStart(f: { session_id: string; reply_id: string; name: string; role?: 'user' | 'assistant' | 'system' }) {
    return this.base('REPLY_START', { session_id: f.session_id, reply_id: f.reply_id, name: f.name, role: f.role ?? 'assistant' });
  }

  replyEnd(f: { session_id: string; reply_id: string; finished_reason?: ReplyFinishedReason;
                error?: { type: ErrorType; message: string } | null }) {
    return this.base('REPLY_END', {
      session_id: f.session_id,
      reply_id: f.reply_id,
      finished_reason: f.finished_reason ?? 'completed',
      error: f.error ?? null,
    });
  }

  modelCallStart(reply_id: string, model_name: string) {
    return this.base('MODEL_CALL_START', { reply_id, model_name });
  }

  modelCallEnd(reply_id: string, u: { input_tokens: number; output_tokens: number; cache_input_tokens?: number;
                                      cache_creation_input_tokens?: number; finished_reason?: 'completed' | 'interrupted' }) {
    return this.base('MODEL_CALL_END', {
      reply_id,
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cache_input_tokens: u.cache_input_tokens ?? 0,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      finished_reason: u.finished_reason ?? 'completed',
    });
  }

  /** TEXT_/THINKING_BLOCK_START|END and DATA_BLOCK_END share the shape {reply_id, block_id}. */
  blockEdge(type: `${'TEXT' | 'THINKING'}_BLOCK_${'START' | 'END'}` | 'DATA_BLOCK_END', reply_id: string, block_id: string) {
    return this.base(type, { reply_id, block_id });
  }

  blockDelta(type: 'TEXT_BLOCK_DELTA' | 'THINKING_BLOCK_DELTA', reply_id: string, block_id: string, delta: string) {
    return this.base(type, { reply_id, block_id, delta });
  }

  dataBlockStart(reply_id: string, block_id: string, media_type: string) {
    return this.base('DATA_BLOCK_START', { reply_id, block_id, media_type });
  }

  dataBlockDelta(reply_id: string, block_id: string, data: string, media_type: string) {
    return this.base('DATA_BLOCK_DELTA', { reply_id, block_id, data, media_type });
  }

  hintBlock(reply_id: string, block_id: string, hint: string | (TextBlock | DataBlock)[], source: string | null = null) {
    return this.base('HINT_BLOCK', { reply_id, block_id, source, hint });
  }

  toolCallStart(reply_id: string, tool_call_id: string, tool_call_name: string) {
    return this.base('TOOL_CALL_START', { reply_id, tool_call_id, tool_call_name });
  }

  toolCallDelta(reply_id: string, tool_call_id: string, delta: string) {
    return this.base('TOOL_CALL_DELTA', { reply_id, tool_call_id, delta });
  }

  toolCallEnd(reply_id: string, tool_call_id: string) {
    return this.base('TOOL_CALL_END', { reply_id, tool_call_id });
  }

  toolResultStart(reply_id: string, tool_call_id: string, tool_call_name: string) {
    return this.base('TOOL_RESULT_START', { reply_id, tool_call_id, tool_call_name });
  }

  toolResultTextDelta(reply_id: string, tool_call_id: string, delta: string) {
    return this.base('TOOL_RESULT_TEXT_DELTA', { reply_id, tool_call_id, delta });
  }

  /** Exactly one of data/url; the other is serialised as null, as pydantic does. */
  toolResultDataDelta(reply_id: string, tool_call_id: string, media_type: string, src: { data: string } | { url: string }) {
    return this.base('TOOL_RESULT_DATA_DELTA', {
      reply_id,
      tool_call_id,
      block_id: this.ids.id(),
      media_type,
      data: 'data' in src ? src.data : null,
      url: 'url' in src ? src.url : null,
    });
  }

  /** ToolResultEndEvent redeclares `metadata`; pydantic keeps the inherited position, so it stays third. */
  toolResultEnd(reply_id: string, tool_call_id: string, state: ToolResultState, metadata: Record<string, unknown> = {}) {
    return this.base('TOOL_RESULT_END', { reply_id, tool_call_id, state }, metadata);
  }

  requireUserConfirm(reply_id: string, tool_calls: ToolCallBlock[]) {
    return this.base('REQUIRE_USER_CONFIRM', { reply_id, tool_calls });
  }

  requireExternalExecution(reply_id: string, tool_calls: ToolCallBlock[]) {
    return this.base('REQUIRE_EXTERNAL_EXECUTION', { reply_id, tool_calls });
  }

  userConfirmResult(reply_id: string, confirm_results: ConfirmResult[]) {
    return this.base('USER_CONFIRM_RESULT', { reply_id, confirm_results });
  }

  externalExecutionResult(reply_id: string, execution_results: ToolResultBlock[]) {
    return this.base('EXTERNAL_EXECUTION_RESULT', { reply_id, execution_results });
  }

  custom(name: string, value: Record<string, unknown> = {}) {
    return this.base('CUSTOM', { name, value });
  }
}

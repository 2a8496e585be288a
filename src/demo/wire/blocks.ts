// Content blocks as pydantic's `model_dump(mode="json")` writes them (agentscope/message/_block.py): every field,
// defaults included, in declaration order. Used inside REQUIRE_* / *_RESULT events and HINT_BLOCK lists.

import type { IdSource } from './ids.ts';

export interface PermissionRule {
  tool_name: string;
  rule_content: string | null;
  behavior: 'allow' | 'deny' | 'ask' | 'passthrough';
  source: string;
}

export type ToolCallState = 'pending' | 'asking' | 'allowed' | 'submitted' | 'finished';
export type ToolResultState = 'success' | 'error' | 'interrupted' | 'denied' | 'running';

export interface ToolCallBlock {
  type: 'tool_call';
  id: string;
  name: string;
  input: string;
  state: ToolCallState;
  suggested_rules: PermissionRule[];
  created_at: string;
  finished_at: string | null;
}

export interface TextBlock {
  type: 'text';
  text: string;
  id: string;
  created_at: string;
  finished_at: string | null;
}

export interface DataBlock {
  type: 'data';
  id: string;
  source: { type: 'base64'; data: string; media_type: string } | { type: 'url'; url: string; media_type: string };
  name: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface ToolResultBlock {
  type: 'tool_result';
  id: string;
  name: string;
  output: string | (TextBlock | DataBlock)[];
  state: ToolResultState;
  metadata: Record<string, unknown>;
  created_at: string;
  finished_at: string | null;
}

export function toolCallBlock(
  ids: IdSource,
  f: { id: string; name: string; input: string; state?: ToolCallState; suggested_rules?: PermissionRule[];
       created_at?: string; finished_at?: string | null },
): ToolCallBlock {
  return {
    type: 'tool_call',
    id: f.id,
    name: f.name,
    input: f.input,
    state: f.state ?? 'pending',
    suggested_rules: f.suggested_rules ?? [],
    created_at: f.created_at ?? ids.now(),
    finished_at: f.finished_at ?? null,
  };
}

export function textBlock(ids: IdSource, text: string, f: { id?: string; finished_at?: string | null } = {}): TextBlock {
  return { type: 'text', text, id: f.id ?? ids.id(), created_at: ids.now(), finished_at: f.finished_at ?? null };
}

export function base64DataBlock(ids: IdSource, data: string, mediaType: string, name: string | null = null): DataBlock {
  return {
    type: 'data',
    id: ids.id(),
    source: { type: 'base64', data, media_type: mediaType },
    name,
    created_at: ids.now(),
    finished_at: null,
  };
}

export function toolResultBlock(
  ids: IdSource,
  f: { id: string; name: string; output: ToolResultBlock['output']; state?: ToolResultState;
       metadata?: Record<string, unknown>; finished_at?: string | null },
): ToolResultBlock {
  return {
    type: 'tool_result',
    id: f.id,
    name: f.name,
    output: f.output,
    state: f.state ?? 'running',
    metadata: f.metadata ?? {},
    created_at: ids.now(),
    finished_at: f.finished_at ?? null,
  };
}

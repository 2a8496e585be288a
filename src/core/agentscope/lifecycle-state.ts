// What the AgentScope lifecycle checker tracks per reply and per block (lifecycle.ts), split from it.
import type { ToolCallBlock } from './blocks.ts';

export type ToolCallState = ToolCallBlock['state'];

export type Kind = 'text' | 'thinking' | 'data' | 'tool_call' | 'tool_result';

export interface BlockState {
  kind: Kind;
  id: string;
  start: number;
  end: number | null;
  mediaType?: string;
  input?: string;
  callState?: ToolCallState;
  answered?: number;
}

export interface ReplyState {
  id: string;
  start: number;
  ended: number | null;
  last: number;
  /** Blocks by kind, then id: the per-event lookup (a `kind + id` key string cost an allocation per event). */
  blocks: Record<Kind, Map<string, BlockState>>;
  /** Every block in the order it was first seen (end-of-stream reports list them in this order). */
  order: BlockState[];
  /** Ids of tool results present (TOOL_RESULT_START or EXTERNAL_EXECUTION_RESULT). */
  results: Map<string, number>;
  /** Deltas/ends seen for a block id not started yet: a later START turns them into delta-before-start. */
  early: Map<string, number[]>;
}

export const key = (kind: Kind, id: string) => `${kind}\u0000${id}`;
export const LABEL: Record<Kind, string> = { text: 'text block', thinking: 'thinking block', data: 'data block', tool_call: 'tool call', tool_result: 'tool result' };

export function newReply(id: string, at: number): ReplyState {
  const blocks = { text: new Map(), thinking: new Map(), data: new Map(), tool_call: new Map(), tool_result: new Map() };
  return { id, start: at, ended: null, last: at, blocks, order: [], results: new Map(), early: new Map() };
}

export function addBlock(r: ReplyState, b: BlockState): void {
  r.blocks[b.kind].set(b.id, b);
  r.order.push(b);
}

/** Tool-call state transitions the documented diagram allows, as seen on the wire. */
export const ALLOWED: Record<string, ToolCallState[]> = {
  asking: ['pending'], // REQUIRE_USER_CONFIRM
  submitted: ['pending', 'allowed'], // REQUIRE_EXTERNAL_EXECUTION (ALLOW happens server-side without an event)
};

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
  /**
   * Blocks by kind, then id: the per-event lookup (a `kind + id` key string cost an allocation per event). A kind's
   * map is created with its first block, and `results` / `early` when first needed: seven empty maps per reply were
   * ~1 KB, more than a short reply's wire text.
   */
  blocks: Record<Kind, Map<string, BlockState> | undefined>;
  /** Every block in the order it was first seen (end-of-stream reports list them in this order). */
  order: BlockState[];
  /** Ids of tool results present (TOOL_RESULT_START or EXTERNAL_EXECUTION_RESULT). */
  results?: Map<string, number>;
  /** Deltas/ends seen for a block id not started yet: a later START turns them into delta-before-start. */
  early?: Map<string, number[]>;
}

export const key = (kind: Kind, id: string) => `${kind}\u0000${id}`;
export const LABEL: Record<Kind, string> = { text: 'text block', thinking: 'thinking block', data: 'data block', tool_call: 'tool call', tool_result: 'tool result' };

export function newReply(id: string, at: number): ReplyState {
  const blocks = { text: undefined, thinking: undefined, data: undefined, tool_call: undefined, tool_result: undefined };
  return { id, start: at, ended: null, last: at, blocks, order: [] };
}

/** The block tracked for `kind` and `id` in reply `r`. */
export function blockOf(r: ReplyState, kind: Kind, id: string): BlockState | undefined {
  return r.blocks[kind]?.get(id);
}

export function addBlock(r: ReplyState, b: BlockState): void {
  (r.blocks[b.kind] ??= new Map()).set(b.id, b);
  r.order.push(b);
}

/** Record that reply `r` has a result for tool call `id` (from event `at`). */
export function addResult(r: ReplyState, id: string, at: number): void {
  (r.results ??= new Map()).set(id, at);
}

/** Tool-call state transitions the documented diagram allows, as seen on the wire. */
export const ALLOWED: Record<string, ToolCallState[]> = {
  asking: ['pending'], // REQUIRE_USER_CONFIRM
  submitted: ['pending', 'allowed'], // REQUIRE_EXTERNAL_EXECUTION (ALLOW happens server-side without an event)
};

// Building blocks for scenario scripts: the event sequences a ReAct agent produces (model call, streamed text or
// thinking block, streamed tool-call arguments, tool result), with token-sized deltas and human-ish pauses.

import type { ScenarioContext } from './types.ts';
import type { ToolResultState } from '../wire/blocks.ts';
import { pythonJsonDumps } from '../wire/python-json.ts';

/**
 * Splits text into token-sized pieces the way model streams look: words keep their leading space, long words and
 * runs of punctuation are cut into ≤4-character pieces. Joining the pieces gives the text back exactly.
 */
export function tokenize(text: string): string[] {
  const pieces: string[] = [];
  for (const word of text.match(/\s*\S+|\s+$/gu) ?? []) {
    const chars = Array.from(word); // never split a surrogate pair
    for (let i = 0; i < chars.length; i += 4) pieces.push(chars.slice(i, i + 4).join(''));
  }
  return pieces;
}

/** Deterministic jitter: the same scenario always has the same rhythm. */
export function tokenDelay(i: number): number {
  return 18 + ((i * 37) % 45);
}

export async function startReply(ctx: ScenarioContext): Promise<string> {
  const replyId = ctx.ids.id();
  await ctx.emit(ctx.ev.replyStart({ session_id: ctx.sessionId, reply_id: replyId, name: ctx.agentName }));
  return replyId;
}

export async function endReply(ctx: ScenarioContext, replyId: string, error?: { type: 'rate_limit' | 'upstream' | 'internal'; message: string }) {
  await ctx.emit(ctx.ev.replyEnd({
    session_id: ctx.sessionId,
    reply_id: replyId,
    finished_reason: error ? 'error' : 'completed',
    error: error ?? null,
  }));
}

export interface Usage { input_tokens: number; output_tokens: number; cache_input_tokens?: number; cache_creation_input_tokens?: number }

/** MODEL_CALL_START … body … MODEL_CALL_END with the given usage. A "thinking" pause precedes the first token. */
export async function modelCall(ctx: ScenarioContext, replyId: string, usage: Usage, body: () => Promise<unknown>, model = 'qwen3.7-plus') {
  await ctx.emit(ctx.ev.modelCallStart(replyId, model));
  await ctx.pause(350);
  await body();
  await ctx.emit(ctx.ev.modelCallEnd(replyId, usage));
}

/** A streamed text or thinking block; returns its block id. */
export async function streamBlock(ctx: ScenarioContext, replyId: string, text: string, kind: 'TEXT' | 'THINKING' = 'TEXT'): Promise<string> {
  const blockId = ctx.ids.id();
  await ctx.emit(ctx.ev.blockEdge(`${kind}_BLOCK_START`, replyId, blockId));
  let i = 0;
  for (const piece of tokenize(text)) {
    await ctx.pause(tokenDelay(i++));
    await ctx.emit(ctx.ev.blockDelta(`${kind}_BLOCK_DELTA`, replyId, blockId, piece));
  }
  await ctx.emit(ctx.ev.blockEdge(`${kind}_BLOCK_END`, replyId, blockId));
  return blockId;
}

/** A tool call whose JSON arguments arrive in small fragments (as providers stream them). Returns the call id. */
export async function streamToolCall(ctx: ScenarioContext, replyId: string, name: string, args: unknown, callId = `call_${ctx.ids.id().slice(0, 24)}`): Promise<{ id: string; input: string }> {
  // Python's json.dumps spacing, as an AgentScope model wrapper would re-serialise the arguments.
  const input = pythonJsonDumps(args);
  await ctx.emit(ctx.ev.toolCallStart(replyId, callId, name));
  for (let i = 0; i < input.length; i += 7) {
    await ctx.pause(tokenDelay(i));
    await ctx.emit(ctx.ev.toolCallDelta(replyId, callId, input.slice(i, i + 7)));
  }
  await ctx.emit(ctx.ev.toolCallEnd(replyId, callId));
  return { id: callId, input };
}

/** TOOL_RESULT_START, the output streamed as text deltas (line by line), TOOL_RESULT_END. */
export async function streamToolResult(ctx: ScenarioContext, replyId: string, callId: string, name: string, output: string, state: ToolResultState = 'success', opts: { start?: boolean } = {}) {
  if (opts.start !== false) await ctx.emit(ctx.ev.toolResultStart(replyId, callId, name));
  await ctx.pause(400); // the tool "runs"
  for (const line of output.match(/[^\n]*\n|[^\n]+$/g) ?? [output]) {
    await ctx.pause(60);
    await ctx.emit(ctx.ev.toolResultTextDelta(replyId, callId, line));
  }
  await ctx.emit(ctx.ev.toolResultEnd(replyId, callId, state));
}

/**
 * Splits bytes into base64 chunks that each decode on their own (whole 3-byte groups, padding only on the last) —
 * AgentScope decodes every DATA_BLOCK_DELTA separately, so a well-behaved producer must chunk like this.
 */
export function base64Chunks(bytes: Uint8Array, bytesPerChunk = 120): string[] {
  const size = Math.max(3, bytesPerChunk - (bytesPerChunk % 3));
  const chunks: string[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(Buffer.from(bytes.subarray(i, i + size)).toString('base64'));
  return chunks;
}

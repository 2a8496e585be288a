// A deliberately broken producer, so Replyscope's diagnostics have something to show. Every defect is one a real
// streaming backend can plausibly have (a reordered queue, a shared emitter leaking another reply's events, a
// base64 encoder cutting mid-quantum, an exception path that forgets to close a block).

import type { Scenario } from './types.ts';
import { endReply, startReply, tokenize, tokenDelay } from './script.ts';
import { SUNSET_PNG_BASE64 } from './tool-scenarios.ts';

const BROKEN_TEXT = 'This reply was produced by a buggy backend.';
/**
 * The first 11 characters of a PNG's base64 — what an encoder that cuts chunks by character count instead of whole
 * 4-character quanta sends. Python's decoder raises "Incorrect padding" on it, so the reference `append_event` errors.
 */
export const INVALID_BASE64_CHUNK = 'iVBORw0KGgo';

export const broken: Scenario = {
  name: 'broken',
  title: 'Broken stream',
  prompt: 'Show me what a buggy backend looks like.',
  description: 'Delta before start, a foreign reply id, an invalid base64 chunk and a text block that never ends.',
  async run(ctx) {
    const reply = await startReply(ctx);
    await ctx.emit(ctx.ev.modelCallStart(reply, 'qwen3.7-plus'));
    const textId = ctx.ids.id();
    // 1. A delta overtakes its START (the reference warns "unknown block id" and drops it).
    await ctx.emit(ctx.ev.blockDelta('TEXT_BLOCK_DELTA', reply, textId, 'Lost: '));
    await ctx.emit(ctx.ev.blockEdge('TEXT_BLOCK_START', reply, textId));
    let i = 0;
    for (const piece of tokenize(BROKEN_TEXT)) {
      await ctx.pause(tokenDelay(i++));
      await ctx.emit(ctx.ev.blockDelta('TEXT_BLOCK_DELTA', reply, textId, piece));
    }
    // 2. Another reply's event leaks into this stream (the reference warns and skips it).
    await ctx.emit(ctx.ev.blockDelta('TEXT_BLOCK_DELTA', ctx.ids.id(), textId, ' [from another reply]'));
    // 3. An image whose first chunk is not standard padded base64 (the reference raises on that event).
    const dataId = ctx.ids.id();
    await ctx.emit(ctx.ev.dataBlockStart(reply, dataId, 'image/png'));
    await ctx.emit(ctx.ev.dataBlockDelta(reply, dataId, INVALID_BASE64_CHUNK, 'image/png'));
    await ctx.pause(40);
    await ctx.emit(ctx.ev.dataBlockDelta(reply, dataId, SUNSET_PNG_BASE64, 'image/png'));
    await ctx.emit(ctx.ev.blockEdge('DATA_BLOCK_END', reply, dataId));
    await ctx.emit(ctx.ev.modelCallEnd(reply, { input_tokens: 30, output_tokens: 12 }));
    // 4. The text block is never ended before REPLY_END.
    await endReply(ctx, reply);
  },
  intent: {
    // What the reference's append_event leaves: the dropped/raising events change nothing.
    finished_reason: 'completed',
    texts: [BROKEN_TEXT],
    data: ['image/png'],
    usage: { input_tokens: 30, output_tokens: 12 },
  },
};

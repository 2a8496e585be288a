// A reply's message at a history checkpoint, kept as a patch of the one before (WorkingMsg.checkpoint makes them).
//
// Checkpoints (what the history keeps every `interval` events) are mostly patches: the blocks that changed since the
// previous checkpoint. Handing the whole message over at each one made the next write copy the content array — one
// pointer per block, every interval, all of them kept: a reply of 2,800 blocks held 11 KB per 16 events, more than its
// wire text, and pushed the analysis heap from 1.9× to 4.2× the body. A full checkpoint (the message itself, shared)
// comes only every ⌈blocks / keyframeBlocks⌉ checkpoints (WorkingMsgOptions), so with the default of 16 the array
// copies average at most one pointer per event; a seek from a patch rebuilds the message once (`MsgPatch.materialize`:
// the last full one, then every patch since, in order).
//
// Apart from working-msg.ts because a patch outlives the message under construction: the history keeps it, and a
// seek reads it, long after ingest.
import type { ContentBlock, Msg } from './blocks.ts';
import { DeferredCheckpoint } from '../history/seekable-history.ts';

/**
 * A checkpoint kept as what changed since the previous one (`prev`: a patch or a full message): the content length,
 * the blocks at the changed indices (ascending; all shared, never written again) and a message carrying the
 * top-level fields (its content is not read).
 */
export class MsgPatch extends DeferredCheckpoint<Msg> {
  constructor(
    readonly prev: Msg | MsgPatch,
    readonly top: Msg,
    readonly length: number,
    readonly indices: readonly number[],
    readonly blocks: readonly ContentBlock[],
  ) {
    super();
  }

  /** The message this checkpoint stands for: the last full one with every patch since applied in order. */
  materialize(): Msg {
    const chain: MsgPatch[] = [];
    let p: Msg | MsgPatch = this;
    while (p instanceof MsgPatch) {
      chain.push(p);
      p = p.prev;
    }
    const content = p.content.slice();
    for (let j = chain.length - 1; j >= 0; j--) {
      const { indices, blocks } = chain[j];
      for (let n = 0; n < indices.length; n++) content[indices[n]] = blocks[n];
    }
    return { ...this.top, content };
  }
}

/** The content length of the message a checkpoint stands for. */
export function lengthOf(c: Msg | MsgPatch): number {
  return c instanceof MsgPatch ? c.length : c.content.length;
}

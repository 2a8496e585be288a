// A reply's message under construction during ingest, written in place between snapshots.
//
// Why: `appendEvent` is pure — every delta copies the message, its content array and the block it grows (three
// objects per event, nearly all garbage at once: ~12% of ingest plus its share of GC). The analysis only needs the
// message after every `interval`-th event (the history's checkpoints) and whenever someone reads the latest state;
// every other step is replayed on demand from a checkpoint with the pure `appendEvent`. So ingest keeps one working
// message and copies on write only what a snapshot handed out: after `snapshot()` the message, its content array and
// every block are shared with the snapshot (never written again); the first write after it copies the message and
// content array once, and each block it touches once.
//
// `applyInPlace` covers the events that make up almost all of a stream (text / thinking / tool-call / tool-result
// text deltas and block ends, in their ordinary form) and mirrors what append-event.ts and append-tool-result.ts do
// for them. Anything else — a warning, an unknown block, a string tool output, a START, a missing created_at — is
// declined (undefined), and the caller applies the pure reducer to `snapshot()` and `adopt`s its result.
// test/unit/agentscope/working-msg.test.ts checks the states against the pure reducer's, event by event.
//
// Checkpoints (`checkpoint()`, what the history keeps every `interval` events) are mostly patches: the blocks that
// changed since the previous checkpoint, with a full message every ⌈blocks / keyframeBlocks⌉ (see msg-patch.ts).
import type { AgentEvent } from './schema.ts';
import type { ContentBlock, MediaBlock, Msg, ToolResultBlock } from './blocks.ts';
import { findBlock } from './msg-edit.ts';
import { lengthOf, MsgPatch } from './msg-patch.ts';

export { MsgPatch } from './msg-patch.ts';

export type InPlaceStatus = 'changed' | 'unchanged';

/** Texts longer than this (2^28 code units; V8's limit is about twice that) are appended delta by delta. */
const DIRECT_ABOVE = 1 << 28;

const NO_CONTENT: ContentBlock[] = [];

export interface WorkingMsgOptions {
  /** A full checkpoint every ⌈blocks / keyframeBlocks⌉ checkpoints (see msg-patch.ts). Default 16. */
  keyframeBlocks?: number;
}

export class WorkingMsg {
  private msg: Msg;
  /** True when `msg` is equal to the last snapshot handed out (and is that very object). */
  private frozen = true;
  /** The message object and its content array are private copies (not shared with a snapshot). */
  private ownMsg = false;
  /** owned[i]: content[i] (and a tool result's output array) is a private copy. */
  private owned: boolean[] = [];
  /**
   * Deltas streamed into one field of one owned block and not joined into it yet: the block content index (-1: none),
   * the field and the parts. Appending each delta to the field made one rope node per event, every one of them kept
   * (checkpoints share the rope); joined here once per snapshot interval, the message holds a node per interval.
   */
  private pendingIndex = -1;
  private pendingField: 'text' | 'thinking' | 'input' = 'text';
  private readonly pendingParts: string[] = [];
  /** Length of the pending field with the pending parts joined. */
  private pendingLength = 0;
  /** The block the last delta found (a run of deltas streams into one block): kind, id, index in content. */
  private lastKind = '';
  private lastTarget = '';
  private lastIndex = -1;

  // Checkpoint state (see msg-patch.ts).
  private readonly keyframeBlocks: number;
  /** The last checkpoint handed out, and checkpoints since the last full one. */
  private lastCheckpoint: Msg | MsgPatch | undefined;
  private sinceFull = 0;
  /** Content indices whose block is another object than at the last checkpoint (`isDirty` marks them). */
  private dirty: number[] = [];
  private isDirty: boolean[] = [];
  /** A top-level field changed since the last checkpoint (`top`: a message with the fields as of that one). */
  private topChanged = false;
  private top: Msg | undefined;
  /** The content got shorter since the last checkpoint (no patch can say so): the next one is full. */
  private shrunk = false;

  constructor(initial: Msg, options: WorkingMsgOptions = {}) {
    this.msg = initial;
    this.keyframeBlocks = Math.max(1, options.keyframeBlocks ?? 16);
  }

  /** The current state, read-only (for top-level fields; it may change in place after the next event). */
  get current(): Msg {
    this.flush();
    return this.msg;
  }

  /** An immutable message equal to the current state: the same object until the next change. */
  snapshot(): Msg {
    this.flush();
    if (!this.frozen) {
      // Hand the current objects over as they are; from now on they are shared and copied before any write.
      this.frozen = true;
      this.ownMsg = false;
      this.owned.length = 0;
    }
    return this.msg;
  }

  /**
   * What the history keeps at a checkpoint: the message itself (shared, like `snapshot()`) every
   * ⌈blocks / keyframeBlocks⌉ checkpoints, otherwise a patch of the blocks changed since the previous checkpoint.
   */
  checkpoint(): Msg | MsgPatch {
    this.flush();
    const prev = this.lastCheckpoint;
    const content = this.msg.content;
    const dirty = this.dirty;
    if (prev !== undefined && !this.shrunk && !this.topChanged && dirty.length === 0 && content.length === lengthOf(prev)) return prev;
    if (prev === undefined || this.shrunk || this.sinceFull + 1 >= Math.ceil(content.length / this.keyframeBlocks)) {
      const full = this.snapshot();
      this.lastCheckpoint = full;
      this.top = full;
      this.sinceFull = 0;
      this.clearChanges();
      return full;
    }
    dirty.sort((a, b) => a - b); // ascending: `materialize` then fills the copied array in order, without holes
    const blocks = dirty.map((i) => content[i]);
    // The patch shares these blocks: the next write to one copies it first.
    for (const i of dirty) this.owned[i] = false;
    if (this.topChanged || this.top === undefined) this.top = { ...this.msg, content: NO_CONTENT };
    const patch = new MsgPatch(prev, this.top, content.length, dirty.slice(), blocks);
    this.lastCheckpoint = patch;
    this.sinceFull++;
    this.clearChanges();
    return patch;
  }

  private clearChanges(): void {
    for (const i of this.dirty) this.isDirty[i] = false;
    this.dirty.length = 0;
    this.topChanged = false;
    this.shrunk = false;
  }

  private markDirty(i: number): void {
    if (this.isDirty[i]) return;
    this.isDirty[i] = true;
    this.dirty.push(i);
  }

  /** Continue from a state computed elsewhere (the pure reducer applied to `snapshot()`): shared, never written. */
  adopt(msg: Msg): void {
    // What changed, for the next checkpoint's patch: the pure reducer shares every block it did not change, so the
    // blocks that are other objects are the changed ones (one identity check per block: the reducer copied as many).
    const was = this.msg;
    if (msg !== was) {
      const before = was.content;
      const after = msg.content;
      if (after.length < before.length) this.shrunk = true;
      for (let i = 0; i < after.length; i++) if (i >= before.length || after[i] !== before[i]) this.markDirty(i);
      if (!this.topChanged) this.topChanged = !sameTopLevel(was, msg);
    }
    this.msg = msg;
    this.lastIndex = -1;
    this.pendingIndex = -1; // (none: the state adopted was computed from a snapshot, which joined them)
    this.pendingParts.length = 0;
    this.frozen = true;
    this.ownMsg = false;
    this.owned.length = 0;
  }

  /**
   * Apply `event` in place as append_event would, or decline (undefined) when it is not one of the common cases.
   * The caller routed the event here by its reply_id, which must be this message's id, and passes the block /
   * tool-call id the event names as `target` (an equal string; one shared by all events naming the block makes the
   * block lookup compare by identity).
   */
  applyInPlace(event: AgentEvent, target: string): InPlaceStatus | undefined {
    switch (event.type) {
      case 'TEXT_BLOCK_DELTA':
        return this.applyDelta(1, target, event.delta);
      case 'THINKING_BLOCK_DELTA':
        return this.applyDelta(2, target, event.delta);
      case 'TOOL_CALL_DELTA':
        return this.applyDelta(3, target, event.delta);
      case 'TOOL_RESULT_TEXT_DELTA':
        return this.applyDelta(4, target, event.delta);
      case 'TEXT_BLOCK_END':
      case 'THINKING_BLOCK_END':
        return this.finish(event.type === 'TEXT_BLOCK_END' ? 'text' : 'thinking', target, event.created_at);
      case 'TOOL_CALL_END':
        return this.finish('tool_call', target, event.created_at);
      default:
        return undefined;
    }
  }

  /**
   * A delta event given by its parts: `code` 1 TEXT_BLOCK_DELTA, 2 THINKING_BLOCK_DELTA, 3 TOOL_CALL_DELTA,
   * 4 TOOL_RESULT_TEXT_DELTA; `target` its block / tool-call id; `delta` its text (same contract as `applyInPlace`).
   */
  applyDelta(code: number, target: string, delta: string): InPlaceStatus | undefined {
    if (code <= 3) {
      const i = this.find(code === 1 ? 'text' : code === 2 ? 'thinking' : 'tool_call', target);
      if (i < 0) return undefined;
      if (delta === '') return 'unchanged';
      // The block found has the kind asked for, so the field is the kind's: text, thinking or (tool call) input.
      const field = code === 1 ? 'text' : code === 2 ? 'thinking' : 'input';
      if (this.pendingIndex !== i || this.pendingField !== field) {
        this.flush();
        const b = this.writable(i) as unknown as Record<string, string>;
        this.pendingIndex = i;
        this.pendingField = field;
        this.pendingLength = b[field].length;
      }
      this.pendingLength += delta.length;
      if (this.pendingLength > DIRECT_ABOVE) {
        // Near the engine's string length limit: append at once, so an over-long text fails at this very event (as
        // the pure reducer's concatenation does), not at a later join.
        this.flush();
        const b = this.msg.content[i] as unknown as Record<string, string>;
        b[field] += delta;
        return 'changed';
      }
      this.pendingParts.push(delta);
      return 'changed';
    }
    if (code !== 4) return undefined;
    const i = this.find('tool_result', target);
    if (i < 0) return undefined;
    const output = (this.msg.content[i] as ToolResultBlock).output;
    // A string output is converted first, and a delta after a non-text item appends a new block (clock needed).
    if (typeof output === 'string') return undefined;
    const last = output[output.length - 1];
    if (!last || last.type !== 'text') return undefined;
    if (delta === '') return 'unchanged';
    const out = (this.writable(i) as ToolResultBlock).output as MediaBlock[];
    out[out.length - 1] = { ...last, text: last.text + delta };
    return 'changed';
  }

  /**
   * `findBlock`: the first block of that kind and id. Blocks are only ever appended or replaced by one with the same
   * kind and id (never removed, moved or renamed), so the first match found earlier stays the first match.
   */
  private find(kind: ContentBlock['type'], id: string): number {
    const i = this.lastIndex;
    if (i >= 0 && this.lastTarget === id && this.lastKind === kind) return i;
    const found = findBlock(this.msg, kind, id);
    if (found >= 0) {
      this.lastKind = kind;
      this.lastTarget = id;
      this.lastIndex = found;
    }
    return found;
  }

  /** Join the pending deltas into their block's field (an owned block: a snapshot joins them before handing over). */
  private flush(): void {
    const i = this.pendingIndex;
    if (i < 0) return;
    const parts = this.pendingParts;
    const b = this.msg.content[i] as unknown as Record<'text' | 'thinking' | 'input', string>;
    b[this.pendingField] += parts.length === 1 ? parts[0] : parts.join('');
    parts.length = 0;
    this.pendingIndex = -1;
  }

  /** A block END: `finished_at` = the event's created_at (events without one need the clock: declined). */
  private finish(kind: ContentBlock['type'], id: string, createdAt: string | undefined): InPlaceStatus | undefined {
    if (typeof createdAt !== 'string') return undefined;
    this.flush();
    const i = findBlock(this.msg, kind, id);
    if (i < 0) return undefined;
    if (this.msg.content[i].finished_at === createdAt) return 'unchanged';
    this.writable(i).finished_at = createdAt;
    return 'changed';
  }

  /** Block i, as a private copy that may be written (copying the message and content array first if shared). */
  private writable(i: number): ContentBlock {
    this.frozen = false;
    if (!this.ownMsg) {
      this.msg = { ...this.msg, content: this.msg.content.slice() };
      this.ownMsg = true;
    }
    let b = this.msg.content[i];
    if (!this.owned[i]) {
      b = { ...b };
      if (b.type === 'tool_result' && typeof b.output !== 'string') b.output = b.output.slice();
      this.msg.content[i] = b;
      this.owned[i] = true;
      this.markDirty(i);
    }
    return b;
  }
}

/** The messages' fields other than `content` are the same values (same keys, same order). */
function sameTopLevel(a: Msg, b: Msg): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i]) return false;
    if (k !== 'content' && (a as unknown as Record<string, unknown>)[k] !== (b as unknown as Record<string, unknown>)[k]) return false;
  }
  return true;
}

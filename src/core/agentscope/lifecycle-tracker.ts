// The bookkeeping half of the AgentScope lifecycle checker (lifecycle.ts): the replies and blocks seen so far, the
// created_at clock, and the diagnostics of the event being checked — with the lookups every rule shares (the reply
// an event names, the block a delta or END names, a START). The per-event-type rules live in lifecycle.ts.
import type { Diagnostic, Severity } from '../diagnostics/types.ts';
import { LABEL, addBlock, blockOf, key, newReply, type BlockState, type Kind, type ReplyState } from './lifecycle-state.ts';
import { PyError, isCanonicalBase64, pyB64Decode } from './py-compat.ts';

/** What most events get: no diagnostic (shared, frozen: callers must not push into a result). */
export const NONE: Diagnostic[] = Object.freeze([]) as unknown as Diagnostic[];

export class LifecycleTracker {
  protected replies = new Map<string, ReplyState>();
  /** The latest created_at so far (local ms; NaN: none yet) and the event index that had it. Two number fields, not
   * an object: the check runs for every event. */
  private clockT = NaN;
  private clockIndex = 0;
  // The event being checked and its diagnostics so far: fields rather than a closure per event (measured).
  protected index = 0;
  protected out: Diagnostic[] = NONE;
  /** The block the last delta found (runs of deltas name one block): its reply, kind and id, and the block. */
  private lastReply: ReplyState | undefined;
  private lastKind: Kind | '' = '';
  private lastId = '';
  private lastBlock: BlockState | undefined;

  protected begin(index: number): void {
    this.index = index;
    this.out = NONE;
  }

  protected add(code: string, severity: Severity, message: string, related?: number[]): void {
    if (this.out === NONE) this.out = [];
    const index = this.index;
    this.out.push(related && related.length ? { code, severity, index, message, related } : { code, severity, index, message });
  }

  protected take(): Diagnostic[] {
    const out = this.out;
    this.out = NONE;
    return out;
  }

  /** Continue the clock from time `t` (local ms) of an event `at` stands for (seeding from evicted events). */
  protected seedClockAt(t: number, at: number): void {
    this.clockT = t;
    this.clockIndex = at;
  }

  /** The created_at order check. `t`: `createdAt` as Python-local ms (NaN: none, or not a time: no check). */
  protected checkClock(createdAt: string | undefined, t: number, index: number): void {
    if (Number.isNaN(t)) return;
    if (t < this.clockT) {
      this.add('as.non-monotonic-created-at', 'warning', `created_at ${createdAt} is earlier than the previous event's.`, [this.clockIndex]);
    } else {
      // A tie or a later time (or the first time: NaN compares false) moves the clock on; an earlier one does not.
      this.clockT = t;
      this.clockIndex = index;
    }
  }

  protected reply(type: string, replyId: string, index: number): ReplyState {
    let r = this.replies.get(replyId);
    if (!r) {
      r = newReply(replyId, index);
      this.replies.set(replyId, r);
      if (type !== 'REPLY_START') this.add('as.foreign-reply-id', 'warning', `Event names reply ${replyId}, which never started in this stream.`);
      return r;
    }
    if (type === 'REPLY_START') {
      if (r.ended === null) this.add('as.duplicate-reply-start', 'info', `Reply ${r.id} started again before it ended (a parked reply resuming).`, [r.start]);
      r.ended = null; // a second REPLY_START continues the same message
    } else if (r.ended !== null) {
      this.add('as.event-after-reply-end', 'warning', `${type} after this reply's REPLY_END (the reference still applies it).`, [r.ended]);
    }
    r.last = index;
    return r;
  }

  /** A START of block `id`: the first one is tracked, a repeated one reported; earlier orphan deltas reported. */
  protected start(r: ReplyState, index: number, kind: Kind, id: string, extra?: Partial<BlockState>): void {
    const first = blockOf(r, kind, id);
    if (first) this.add('as.duplicate-start-id', 'warning', `${LABEL[kind]} ${id} started twice; the reference appends a second block and only ever updates the first.`, [first.start]);
    else addBlock(r, extra ? { kind, id, start: index, end: null, ...extra } : { kind, id, start: index, end: null });
    if (r.early === undefined || r.early.size === 0) return;
    const k = key(kind, id);
    const early = r.early.get(k);
    if (early) {
      this.add('as.delta-before-start', 'error', `${LABEL[kind]} ${id} received events before its START; the reference dropped them.`, early);
      r.early.delete(k);
    }
  }

  /** The block a delta/end names (reported when unknown, or when it already ended); an end marks it ended. */
  protected find(r: ReplyState, type: string, index: number, kind: Kind, id: string, isEnd: boolean): BlockState | undefined {
    // A block once tracked stays the one its kind and id name (a repeated START does not replace it).
    let b = r === this.lastReply && kind === this.lastKind && id === this.lastId ? this.lastBlock : undefined;
    if (b === undefined) {
      b = blockOf(r, kind, id);
      if (!b) {
        const code = kind === 'tool_call' || kind === 'tool_result' ? 'as.unknown-tool-call-id' : 'as.unknown-block-id';
        this.add(code, 'warning', `No ${LABEL[kind]} with id ${id} in this reply; the reference skips the event.`);
        const k = key(kind, id);
        const early = r.early?.get(k);
        if (early) early.push(index); // in place: a long run of orphan deltas must stay linear
        else (r.early ??= new Map()).set(k, [index]);
        return undefined;
      }
      this.lastReply = r;
      this.lastKind = kind;
      this.lastId = id;
      this.lastBlock = b;
    }
    if (b.end !== null) {
      this.add(isEnd ? 'as.repeated-end' : 'as.delta-after-end', 'warning', `${type} after ${LABEL[kind]} ${id} ended (the reference still applies it).`, [b.end]);
    }
    if (isEnd) b.end = index;
    return b;
  }

  protected *openBlocks(r: ReplyState): Iterable<BlockState> {
    for (const b of r.order) if (b.end === null) yield b;
  }

  protected *unanswered(r: ReplyState): Iterable<BlockState> {
    for (const b of r.order) {
      if (b.kind === 'tool_call' && b.answered === undefined && !r.results?.has(b.id) && b.callState !== 'finished') yield b;
    }
  }

  /** A chunk the reference raises on is an error; one it decodes only leniently (junk, data after padding) a warning. */
  protected checkBase64(data: string): void {
    // Canonical base64 always decodes: only a chunk that is not canonical needs the (slower) reference decoder.
    if (data === '' || isCanonicalBase64(data, true)) return;
    try {
      pyB64Decode(data);
    } catch (err) {
      if (err instanceof PyError) this.add('as.invalid-base64', 'error', `Chunk ${JSON.stringify(data.slice(0, 40))} is not decodable: the reference raises ${err.text}.`);
      return;
    }
    this.add('as.base64-lenient', 'warning', `Chunk ${JSON.stringify(data.slice(0, 40))} is not canonical base64; the reference's lenient decoder drops junk/whitespace and anything after padding.`);
  }
}

export function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

// Copy-on-write editing of a Msg for append-event.ts: every helper returns its input object when nothing changes, so
// unchanged blocks (and whole messages) are shared between successive states.
import type { ContentBlock, MediaBlock, MediaBlockIn, Msg, TextBlock, ToolResultBlock, ToolResultBlockIn } from './blocks.ts';
import type { Clock } from './message.ts';
import { pyRepr } from './py-compat.ts';
import { jsonEqual } from '../json-equal.ts';

export interface ApplyWarning {
  /** `foreign-reply`: reply_id is not the message's id; `unknown-block`: the target block/call/result is not found. */
  kind: 'foreign-reply' | 'unknown-block';
  /** The reference's log line (without the `WARNING: ` prefix). */
  message: string;
}

export interface ApplyError {
  kind: 'custom-event' | 'invalid-base64' | 'invalid-url';
  /** `Type: message` as Python prints it, e.g. `binascii.Error: Incorrect padding`. */
  message: string;
}

/** The reference's log name for a block type in "… not found, skipping." (DataBlock's id is printed with %s). */
export const BLOCK_LABEL = { text: 'TextBlock', thinking: 'ThinkingBlock', data: 'DataBlock', tool_call: 'ToolCallBlock', tool_result: 'ToolResultBlock' } as const;

export interface Env {
  clock: Clock;
  eventTime: string;
}

/** Thrown where the reference raises after it already changed the message (see ApplyOutcome.error). */
export class PartialError extends Error {
  constructor(
    readonly error: ApplyError,
    readonly partial: Msg,
  ) {
    super(error.message);
  }
}

export type Step = { msg: Msg } | { warning: ApplyWarning };

export function notFound(type: keyof typeof BLOCK_LABEL, id: string): Step {
  const shown = type === 'data' ? id : pyRepr(id);
  return { warning: { kind: 'unknown-block', message: `${BLOCK_LABEL[type]} ${shown} not found, skipping.` } };
}

export function findBlock(msg: Msg, type: ContentBlock['type'], id: string): number {
  // A plain loop: this runs for every delta (findIndex allocated a closure per call).
  const content = msg.content;
  for (let i = 0; i < content.length; i++) {
    const b = content[i];
    if (b.type === type && b.id === id) return i;
  }
  return -1;
}

export function withBlock(msg: Msg, index: number, block: ContentBlock): Msg {
  if (msg.content[index] === block) return msg;
  const content = msg.content.slice();
  content[index] = block;
  return { ...msg, content };
}

export function withAppended(msg: Msg, ...blocks: ContentBlock[]): Msg {
  return blocks.length ? { ...msg, content: [...msg.content, ...blocks] } : msg;
}

/** Copy-on-write field update: returns `obj` itself when every field already has the value (JSON-equal). */
export function patch<T extends object>(obj: T, changes: Partial<T>): T {
  for (const key of Object.keys(changes) as (keyof T)[]) {
    if (!jsonEqual(obj[key], changes[key])) return { ...obj, ...changes };
  }
  return obj;
}

export function textBlock(text: string, env: Env, id?: string): TextBlock {
  return { type: 'text', text, id: id ?? env.clock.newId(), created_at: env.clock.now(), finished_at: null };
}

/** A nested text/data block from an event: fill the ids/timestamps pydantic would have generated. */
export function materialiseMedia(b: MediaBlockIn, env: Env): MediaBlock {
  const id = b.id ?? env.clock.newId();
  const created_at = b.created_at ?? env.clock.now();
  if (b.type === 'text') return { type: 'text', text: b.text, id, created_at, finished_at: b.finished_at };
  return { type: 'data', id, source: b.source, name: b.name, created_at, finished_at: b.finished_at };
}

export function materialiseResult(r: ToolResultBlockIn, env: Env): ToolResultBlock {
  return {
    type: 'tool_result',
    id: r.id,
    name: r.name,
    output: typeof r.output === 'string' ? r.output : r.output.map((b) => materialiseMedia(b, env)),
    state: r.state,
    metadata: r.metadata,
    created_at: r.created_at ?? env.clock.now(),
    finished_at: r.finished_at ?? env.eventTime,
  };
}


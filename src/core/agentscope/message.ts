// Msg factories and read helpers mirroring agentscope.message (UserMsg / AssistantMsg / SystemMsg,
// get_text_content, get_content_blocks, has_content_blocks). Messages are plain immutable objects.
import type { ContentBlock, ContentBlockTypeName, DataBlock, Msg, TextBlock, Usage } from './blocks.ts';
import { ContentBlockSchema } from './blocks.ts';

type FinishedReason = Msg['finished_reason'];

/** Where the factories get ids and timestamps (the reference: uuid4().hex and datetime.now().isoformat()). */
export interface Clock {
  /** ISO 8601 timestamp for newly created blocks/messages. */
  now(): string;
  /** Id for blocks the reference would give a generated id. */
  newId(): string;
}

/** Local time without zone, like Python's `datetime.now().isoformat()`. */
function pythonNow(): string {
  const d = new Date();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}000`
  );
}

export const SYSTEM_CLOCK: Clock = {
  now: pythonNow,
  newId: () => globalThis.crypto.randomUUID().replace(/-/g, ''),
};

export interface MsgOptions {
  metadata?: Record<string, unknown>;
  created_at?: string;
  finished_at?: string | null;
  finished_reason?: FinishedReason;
  id?: string;
  structured_output?: Record<string, unknown> | null;
  usage?: Usage | null;
  clock?: Clock;
}

export class MsgConstructionError extends Error {}

function toBlocks(content: string | readonly ContentBlock[], clock: Clock): ContentBlock[] {
  if (typeof content !== 'string') {
    return content.map((b, i) => {
      const r = ContentBlockSchema.safeParse(b);
      if (!r.success) throw new MsgConstructionError(`content[${i}] is not a valid content block: ${r.error.issues[0]?.message}`);
      return b;
    });
  }
  const block: TextBlock = { type: 'text', text: content, id: clock.newId(), created_at: clock.now(), finished_at: null };
  return [block];
}

function build(role: Msg['role'], name: string, content: string | readonly ContentBlock[], o: MsgOptions, finishedDefaultsToCreated: boolean): Msg {
  if (typeof name !== 'string') throw new MsgConstructionError('name must be a string');
  const clock = o.clock ?? SYSTEM_CLOCK;
  const blocks = toBlocks(content, clock);
  const created_at = o.created_at || clock.now();
  const finished_at = o.finished_at ?? (finishedDefaultsToCreated ? created_at : null);
  const msg: Msg = {
    name,
    content: blocks,
    role,
    id: o.id || clock.newId(),
    metadata: o.metadata ?? {},
    created_at,
    usage: o.usage ?? null,
    finished_at,
    finished_reason: o.finished_reason ?? null,
    structured_output: o.structured_output ?? null,
    error: null,
  };
  assertRoleContent(msg);
  return msg;
}

/** The reference's `validate_role_content`: user → text/data only, system → text only. */
export function assertRoleContent(msg: Pick<Msg, 'role' | 'content'>): void {
  if (msg.role === 'user' && msg.content.some((b) => b.type !== 'text' && b.type !== 'data')) {
    throw new MsgConstructionError('User message can only contain text blocks or data blocks.');
  }
  if (msg.role === 'system' && msg.content.some((b) => b.type !== 'text')) {
    throw new MsgConstructionError('System message can only contain text blocks.');
  }
}

/** A user message; `finished_at` defaults to `created_at`. */
export function UserMsg(name: string, content: string | readonly (TextBlock | DataBlock)[], options: Omit<MsgOptions, 'structured_output' | 'usage'> = {}): Msg {
  return build('user', name, content, options, true);
}

/** An assistant message; `finished_at` stays null until a REPLY_END. */
export function AssistantMsg(name: string, content: string | readonly ContentBlock[], options: MsgOptions = {}): Msg {
  return build('assistant', name, content, options, false);
}

/** A system message; `finished_at` defaults to `created_at`. */
export function SystemMsg(name: string, content: string | readonly TextBlock[], options: Omit<MsgOptions, 'structured_output' | 'usage'> = {}): Msg {
  return build('system', name, content, options, true);
}

type Types = ContentBlockTypeName | readonly ContentBlockTypeName[];

function matches(block: ContentBlock, types: Types): boolean {
  return typeof types === 'string' ? block.type === types : types.includes(block.type);
}

/** All text blocks' text joined by `separator`; null when there is none (like the reference). */
export function getTextContent(msg: Msg, separator = '\n'): string | null {
  const texts = msg.content.filter((b): b is TextBlock => b.type === 'text').map((b) => b.text);
  return texts.length ? texts.join(separator) : null;
}

/** Content blocks, optionally filtered by one type or a list of types. */
export function getContentBlocks<T extends ContentBlockTypeName>(msg: Msg, type: T): Extract<ContentBlock, { type: T }>[];
export function getContentBlocks(msg: Msg, types?: readonly ContentBlockTypeName[]): ContentBlock[];
export function getContentBlocks(msg: Msg, types?: Types): ContentBlock[] {
  return types === undefined ? [...msg.content] : msg.content.filter((b) => matches(b, types));
}

/** Whether the message has blocks of the type(s); with no type, whether it has any block. */
export function hasContentBlocks(msg: Msg, types?: Types): boolean {
  return types === undefined ? msg.content.length > 0 : msg.content.some((b) => matches(b, types));
}

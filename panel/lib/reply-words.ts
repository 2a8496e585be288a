// How the reply list names a reply. An AgentScope reply has its agent's name and its own id ("Friday e6336d…"); a pi
// message has neither — the analyzer's id is "<connection>#<n>" ("demo:5#0"), which read as the reply's name — so it
// is named by the model that wrote it and, among several, its place in the stream: "claude-sonnet-4-5 message 2".
import type { ReplyView } from '../../src/core/analysis/types.ts';
import { truncate } from './format.ts';

const isPi = (r: ReplyView) => r.dialect.startsWith('pi-');

/**
 * The model a pi message names: the proxy form's first message (the request's model, as streamProxy starts it), or
 * the message the other forms carry (their last one, kept as parsed: nothing is replayed for it).
 */
export function piModel(r: ReplyView): string | undefined {
  const h = r.history;
  const message = h.initial ?? (h.length > 0 ? h.at(h.length - 1) : undefined);
  const model = (message as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' && model !== '' ? model : undefined;
}

/**
 * The number of the reply at `index` of its connection's list, as the reply list and the timeline's lanes ("R5 · text
 * …") both name it: a lane's name had nothing to find it by in the list.
 */
export const replyNumberText = (index: number): string => `R${index + 1}`;

/**
 * The row's bold name and the dim words after it: the agent's name and the id, or a pi message's model and its place
 * when the stream has `several` — none when it is the only one (a proxy stream is one message: "message 1" only took
 * the room the model's name needed in a narrow list).
 */
export function replyLabel(r: ReplyView, index: number, several: boolean): { name: string | undefined; id: string | undefined } {
  if (!isPi(r)) return { name: r.name, id: r.id };
  return { name: piModel(r) ?? r.role, id: several ? `message ${index + 1}` : undefined };
}

/**
 * A reply named in a sentence (the scrubber's "Back to …", the event pane) as the reply list names it: a pi message's
 * analyzer id ("demo:5#0") is no name. An id longer than `idChars` is shortened.
 */
export function replyWords(r: ReplyView, replies: readonly ReplyView[], idChars = Infinity): string {
  const { name, id } = replyLabel(r, replies.indexOf(r), replies.length > 1);
  return [name, id === undefined ? undefined : truncate(id, idChars)].filter((w) => w !== undefined && w !== '').join(' ');
}

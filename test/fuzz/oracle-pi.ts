// What the reconstruction of a valid pi proxy stream must be, from streamProxy's documented behaviour: one reply
// whose message starts from the request's model, text/thinking = concatenated deltas (with the end's signature),
// tool-call arguments = the parsed JSON that was streamed, stop reason and usage from the terminal event.
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import type { PiStream } from './pi-gen.ts';

interface PiContent {
  type: string;
  text?: string;
  thinking?: string;
  textSignature?: string;
  thinkingSignature?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
}

export function checkPiValid(stream: PiStream, conn: ConnectionView, sample: (n: number) => number): string[] {
  const problems: string[] = [];
  if (conn.dialect !== 'pi-proxy') problems.push(`dialect ${conn.dialect}, expected pi-proxy`);
  if (conn.events.length !== stream.events.length) problems.push(`${conn.events.length} events, ${stream.events.length} sent`);
  const bad = conn.events.filter((e) => !e.valid);
  if (bad.length) problems.push(`valid events reported invalid: ${bad.slice(0, 3).map((e) => `${e.index} ${e.type} ${JSON.stringify(e.issues)}`).join('; ')}`);
  const errors = conn.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) problems.push(`error diagnostics on a valid stream: ${errors.slice(0, 3).map((d) => `${d.code}@${d.index}: ${d.message}`).join('; ')}`);
  if (conn.replies.length !== 1) return [...problems, `${conn.replies.length} replies, expected 1`];
  const reply = conn.replies[0];
  if (reply.history.length !== stream.events.length) problems.push(`${reply.history.length} steps, ${stream.events.length} events`);
  const final = reply.history.at(reply.history.length - 1) as Record<string, unknown>;
  const model = stream.requestBody.model;
  for (const k of ['api', 'provider'] as const) if (final[k] !== model[k]) problems.push(`message ${k} ${String(final[k])} ≠ request ${String(model[k])}`);
  if (final.model !== model.id) problems.push(`message model ${String(final.model)} ≠ request model id ${String(model.id)}`);
  const content = final.content as (PiContent | null)[];
  if (content.length !== stream.blocks.length) problems.push(`${content.length} content entries, ${stream.blocks.length} blocks`);
  for (const b of stream.blocks) {
    const c = content[b.index];
    if (!c) {
      problems.push(`content[${b.index}] missing`);
      continue;
    }
    if (b.kind === 'text' && (c.type !== 'text' || c.text !== b.expectText)) problems.push(`content[${b.index}] text ${JSON.stringify(c.text)} ≠ deltas ${JSON.stringify(b.expectText)}`);
    if (b.kind === 'thinking' && (c.type !== 'thinking' || c.thinking !== b.expectText)) problems.push(`content[${b.index}] thinking ≠ deltas`);
    if (b.kind === 'text' && b.signature !== undefined && c.textSignature !== b.signature) problems.push(`content[${b.index}] textSignature ${c.textSignature} ≠ ${b.signature}`);
    if (b.kind === 'thinking' && b.signature !== undefined && c.thinkingSignature !== b.signature) problems.push(`content[${b.index}] thinkingSignature ≠ ${b.signature}`);
    if (b.kind === 'toolCall') {
      if (c.type !== 'toolCall' || c.id !== b.toolId || c.name !== b.toolName) problems.push(`content[${b.index}] tool call ${JSON.stringify(c).slice(0, 200)} ≠ ${b.toolId}/${b.toolName}`);
      else if (JSON.stringify(c.arguments) !== JSON.stringify(JSON.parse(b.expectText))) problems.push(`content[${b.index}] arguments ${JSON.stringify(c.arguments)} ≠ streamed ${b.expectText}`);
    }
  }
  const t = stream.terminal;
  if (final.stopReason !== t.reason) problems.push(`stopReason ${String(final.stopReason)} ≠ ${t.reason}`);
  if (t.type === 'error' && final.errorMessage !== t.errorMessage) problems.push(`errorMessage ${String(final.errorMessage)} ≠ ${t.errorMessage}`);
  if (JSON.stringify(final.usage) !== JSON.stringify(stream.usage)) problems.push(`usage ${JSON.stringify(final.usage)} ≠ ${JSON.stringify(stream.usage)}`);
  // Seeking back must give the message as it stood then: text so far is a prefix of the final text.
  const k = sample(reply.history.length);
  const mid = reply.history.at(k) as { content?: (PiContent | null)[] };
  for (const [i, c] of (mid.content ?? []).entries()) {
    const f = content[i];
    if (c && f && c.type === 'text' && !(f.text ?? '').startsWith(c.text ?? '')) problems.push(`step ${k}: content[${i}] text is not a prefix of the final text`);
  }
  return problems;
}

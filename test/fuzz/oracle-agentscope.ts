// What the reconstruction of a valid AgentScope stream must be, checked two ways:
// 1. against the reference rules stated independently of our code (text of a block = concatenation of its deltas,
//    data = base64 of the concatenated decoded chunks, tool-call input = its argument deltas, usage sums, reason);
// 2. against folding `appendEvent` (src/core/agentscope/append-event.ts) over the reply's events one at a time,
//    with no chunking, framing, routing or checkpointing in between — at the last step and at sampled steps.
import { appendEvent, type ApplyContext } from '../../src/core/agentscope/append-event.ts';
import type { ContentBlock, Msg } from '../../src/core/agentscope/blocks.ts';
import { AssistantMsg } from '../../src/core/agentscope/message.ts';
import { parseWireEvent } from '../../src/core/agentscope/schema.ts';
import type { ConnectionView, ReplyView } from '../../src/core/analysis/types.ts';
import type { AsStream } from './agentscope-gen.ts';

/** Block `created_at`, generated ids and a hint's own finish time come from the reconstructing clock: normalise. */
export function normaliseMsg(v: unknown, key?: string, parentType?: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => normaliseMsg(x, undefined, parentType));
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const isBlock = typeof o.type === 'string' && 'id' in o && !('role' in o);
    for (const [k, x] of Object.entries(o)) {
      if (isBlock && k === 'created_at') continue;
      if (o.type === 'hint' && k === 'finished_at') continue;
      out[k] = normaliseMsg(x, k, o.type);
    }
    return out;
  }
  if (key === 'id' && typeof v === 'string' && /^(gen|oracle)-\d+-\d+$/.test(v)) return '<generated-id>';
  return v;
}

function oracleContext(index: number): ApplyContext {
  let n = 0;
  return { now: () => '2000-01-01T00:00:00', newId: () => `oracle-${index}-${n++}` };
}

/** Fold appendEvent over the events naming `replyId`; returns the message after each of them. */
export function foldReply(stream: AsStream, replyId: string): Msg[] {
  const own = stream.events.filter((e) => e.reply_id === replyId);
  const first = own[0];
  const name = own.find((e) => e.type === 'REPLY_START')?.name as string | undefined;
  let msg = AssistantMsg(name ?? '', [], { id: replyId, created_at: first?.created_at as string });
  const steps: Msg[] = [];
  own.forEach((raw, k) => {
    const v = parseWireEvent(JSON.stringify(raw));
    if (!v.ok) throw new Error(`generator produced an invalid event ${JSON.stringify(raw).slice(0, 200)}: ${JSON.stringify(v.issues)}`);
    msg = appendEvent(msg, v.event, oracleContext(k));
    steps.push(msg);
  });
  return steps;
}

function findBlock(msg: Msg, type: string, id: string): ContentBlock | undefined {
  return msg.content.find((b) => b.type === type && b.id === id);
}

/** Independent statement of the reference rules for the generated blocks. Returns problems found (empty = fine). */
export function checkRules(stream: AsStream, reply: ReplyView, final: Msg): string[] {
  const script = stream.replies.find((r) => r.replyId === reply.id);
  if (!script) return [`reply ${reply.id} is not in the generated stream`];
  const out: string[] = [];
  for (const b of script.blocks) {
    const type = b.kind === 'model_call' ? undefined : b.kind;
    if (!type) continue;
    const got = findBlock(final, type, b.id) as Record<string, unknown> | undefined;
    if (!got) {
      out.push(`${b.kind} block ${b.id} missing`);
      continue;
    }
    if (b.kind === 'text' && got.text !== b.expectText) out.push(`text of ${b.id}: ${JSON.stringify(got.text)} ≠ deltas ${JSON.stringify(b.expectText)}`);
    if (b.kind === 'thinking' && got.thinking !== b.expectText) out.push(`thinking of ${b.id} ≠ concatenated deltas`);
    if (b.kind === 'tool_call' && got.input !== b.expectText) out.push(`tool-call input of ${b.id}: ${JSON.stringify(got.input)} ≠ ${JSON.stringify(b.expectText)}`);
    if (b.kind === 'data') {
      const data = (got.source as { data?: string }).data;
      const want = Buffer.from(b.expectBytes ?? []).toString('base64');
      if (data !== want) out.push(`data of ${b.id}: ${data} ≠ base64 of the decoded chunks ${want}`);
    }
    if (b.kind === 'tool_result') {
      const output = got.output as { type: string; text?: string }[];
      const text = output.filter((o) => o.type === 'text').map((o) => o.text).join('');
      const hasDeltas = b.events.some((e) => e.type === 'TOOL_RESULT_TEXT_DELTA');
      if (hasDeltas ? text !== b.expectText : output.length !== 0) out.push(`tool-result output of ${b.id} ≠ its text deltas`);
      const end = b.events.find((e) => e.type === 'TOOL_RESULT_END');
      if (end && got.state !== end.state) out.push(`tool-result state of ${b.id}: ${String(got.state)} ≠ ${String(end.state)}`);
    }
  }
  const starts = script.blocks.filter((b) => b.kind !== 'model_call').length;
  if (final.content.length !== starts) out.push(`${final.content.length} content blocks, ${starts} started`);
  if (script.endReason && final.finished_reason !== script.endReason) out.push(`finished_reason ${final.finished_reason} ≠ ${script.endReason}`);
  const calls = script.blocks.filter((b) => b.kind === 'model_call').length;
  if (calls > 0) {
    const u = final.usage as { input_tokens: number; output_tokens: number } | null;
    if (!u || u.input_tokens !== script.usage.input || u.output_tokens !== script.usage.output) {
      out.push(`usage ${JSON.stringify(u)} ≠ sums ${JSON.stringify(script.usage)}`);
    }
  }
  return out;
}

/** Compare every reply of a valid stream's analysis with the reference; `sample(n)` picks step indices to seek. */
export function checkAgentScopeValid(stream: AsStream, conn: ConnectionView, sample: (n: number) => number): string[] {
  const problems: string[] = [];
  if (conn.dialect !== 'agentscope') problems.push(`dialect ${conn.dialect}, expected agentscope`);
  if (conn.events.length !== stream.events.length) problems.push(`${conn.events.length} events, ${stream.events.length} sent`);
  const bad = conn.events.filter((e) => !e.valid);
  if (bad.length) problems.push(`valid events reported invalid: ${bad.slice(0, 3).map((e) => `${e.index} ${e.type} ${JSON.stringify(e.issues)}`).join('; ')}`);
  if (conn.replies.length !== stream.replies.length) problems.push(`${conn.replies.length} replies, ${stream.replies.length} generated`);
  for (const reply of conn.replies) {
    const steps = foldReply(stream, reply.id);
    if (reply.history.length !== steps.length) {
      problems.push(`reply ${reply.id}: ${reply.history.length} steps, ${steps.length} events`);
      continue;
    }
    if (steps.length === 0) continue;
    const final = reply.history.at(steps.length - 1) as Msg;
    problems.push(...checkRules(stream, reply, final).map((p) => `reply ${reply.id}: ${p}`));
    const ks = new Set([steps.length - 1, sample(steps.length), sample(steps.length), sample(steps.length)]);
    for (const k of ks) {
      const got = JSON.stringify(normaliseMsg(reply.history.at(k)));
      const want = JSON.stringify(normaliseMsg(steps[k]));
      if (got !== want) problems.push(`reply ${reply.id} step ${k}: history ${got.slice(0, 300)} ≠ appendEvent fold ${want.slice(0, 300)}`);
    }
  }
  return problems;
}

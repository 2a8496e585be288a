// Valid AgentScope session streams: one or more replies, each a REPLY_START, a random mix of blocks (text, thinking,
// data, tool call, tool result, hint, model call) whose events are interleaved at random (each block's own events
// stay in order), and usually a REPLY_END. Every event carries `created_at`, block ids are unique within a reply, and
// data deltas are canonical padded base64 — so the reference rules give an exact expected reconstruction.
import fc from 'fast-check';

/** `s` cut at the given points (taken modulo its length + 1, duplicates ignored): pieces that join to `s`. */
export function cutText(s: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of [...points, s.length]) {
    out.push(s.slice(from, p));
    from = p;
  }
  return out;
}

export interface AsBlockScript {
  kind: 'text' | 'thinking' | 'data' | 'tool_call' | 'tool_result' | 'hint' | 'model_call';
  id: string;
  /** The block's events in order (without reply_id/created_at, added when the stream is assembled). */
  events: Record<string, unknown>[];
  /** What the reference must end up with for this block (checked independently of appendEvent). */
  expectText?: string;
  expectBytes?: Uint8Array;
}

export interface AsReplyScript {
  replyId: string;
  name: string;
  blocks: AsBlockScript[];
  endReason?: 'completed' | 'interrupted' | 'exceed_max_iters' | 'error';
  usage: { input: number; output: number };
}

export interface AsStream {
  replies: AsReplyScript[];
  /** The wire events, in stream order. */
  events: Record<string, unknown>[];
}

/** Any well-formed Unicode text, biased towards short pieces; includes astral characters, CR/LF, U+2028. */
export const textPiece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\r\n', '\u2028', '👩‍👩‍👧', 'é', '\u0301', '"\\', '</script>', 'data: x\n\n') },
);

const idArb = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 8 });

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

const textLike = (kind: 'text' | 'thinking', id: string) =>
  fc.tuple(fc.array(textPiece, { maxLength: 8 }), fc.boolean()).map(([deltas, ended]): AsBlockScript => {
    const T = kind === 'text' ? 'TEXT' : 'THINKING';
    return {
      kind, id, expectText: deltas.join(''),
      events: [
        { type: `${T}_BLOCK_START`, block_id: id },
        ...deltas.map((delta) => ({ type: `${T}_BLOCK_DELTA`, block_id: id, delta })),
        ...(ended ? [{ type: `${T}_BLOCK_END`, block_id: id }] : []),
      ],
    };
  });

const dataBlock = (id: string) =>
  fc.tuple(fc.array(fc.uint8Array({ minLength: 1, maxLength: 20 }), { maxLength: 5 }), fc.constantFrom('image/png', 'audio/wav', 'application/octet-stream'))
    .map(([pieces, media_type]): AsBlockScript => ({
      kind: 'data', id,
      expectBytes: Uint8Array.from(pieces.flatMap((p) => [...p])),
      events: [
        { type: 'DATA_BLOCK_START', block_id: id, media_type },
        ...pieces.map((p) => ({ type: 'DATA_BLOCK_DELTA', block_id: id, data: b64(p), media_type })),
        { type: 'DATA_BLOCK_END', block_id: id },
      ],
    }));

/** Tool-call arguments: a JSON object text cut into deltas at random places. */
const toolCall = (id: string) =>
  fc.tuple(fc.string({ maxLength: 10 }), fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), fc.array(fc.nat(), { maxLength: 6 }))
    .map(([name, args, cuts]): AsBlockScript => {
      const json = JSON.stringify(args);
      const deltas = cutText(json, cuts);
      return {
        kind: 'tool_call', id, expectText: json,
        events: [
          { type: 'TOOL_CALL_START', tool_call_id: id, tool_call_name: name },
          ...deltas.map((delta) => ({ type: 'TOOL_CALL_DELTA', tool_call_id: id, delta })),
          { type: 'TOOL_CALL_END', tool_call_id: id },
        ],
      };
    });

const toolResult = (id: string) =>
  fc.tuple(fc.string({ maxLength: 10 }), fc.array(textPiece, { maxLength: 5 }), fc.constantFrom('success', 'error', 'interrupted', 'denied'))
    .map(([name, deltas, state]): AsBlockScript => ({
      kind: 'tool_result', id, expectText: deltas.join(''),
      events: [
        { type: 'TOOL_RESULT_START', tool_call_id: id, tool_call_name: name },
        ...deltas.map((delta) => ({ type: 'TOOL_RESULT_TEXT_DELTA', tool_call_id: id, delta })),
        { type: 'TOOL_RESULT_END', tool_call_id: id, state },
      ],
    }));

const hint = (id: string) =>
  fc.string({ unit: 'binary', maxLength: 30 }).map((h): AsBlockScript => ({
    kind: 'hint', id, events: [{ type: 'HINT_BLOCK', block_id: id, hint: h }],
  }));

const modelCall = (id: string) =>
  fc.tuple(fc.string({ maxLength: 12 }), fc.nat({ max: 100_000 }), fc.nat({ max: 100_000 })).map(([model_name, i, o]): AsBlockScript => ({
    kind: 'model_call', id,
    events: [
      { type: 'MODEL_CALL_START', model_name },
      { type: 'MODEL_CALL_END', input_tokens: i, output_tokens: o },
    ],
  }));

const BLOCK_KINDS = ['text', 'text', 'thinking', 'data', 'tool_call', 'tool_result', 'hint', 'model_call'] as const;

function blockArb(kind: (typeof BLOCK_KINDS)[number], id: string): fc.Arbitrary<AsBlockScript> {
  switch (kind) {
    case 'text':
    case 'thinking':
      return textLike(kind, id);
    case 'data':
      return dataBlock(id);
    case 'tool_call':
      return toolCall(id);
    case 'tool_result':
      return toolResult(id);
    case 'hint':
      return hint(id);
    case 'model_call':
      return modelCall(id);
  }
}

const replyArb = (ordinal: number): fc.Arbitrary<AsReplyScript> =>
  fc.record({ prefix: idArb, name: fc.string({ maxLength: 10 }), kinds: fc.array(fc.constantFrom(...BLOCK_KINDS), { maxLength: 6 }), end: fc.option(fc.constantFrom('completed', 'interrupted', 'exceed_max_iters', 'error') as fc.Arbitrary<AsReplyScript['endReason'] & string>, { freq: 5 }) })
    .chain(({ prefix, name, kinds, end }) =>
      fc.tuple(...kinds.map((k, i) => blockArb(k, `${prefix}-${k}-${i}`))).map((blocks): AsReplyScript => {
        const usage = { input: 0, output: 0 };
        for (const b of blocks) {
          const endEv = b.events.find((e) => e.type === 'MODEL_CALL_END');
          if (endEv) {
            usage.input += endEv.input_tokens as number;
            usage.output += endEv.output_tokens as number;
          }
        }
        return { replyId: `r${ordinal}-${prefix}`, name, blocks, endReason: end ?? undefined, usage };
      }));

/** Merge per-block event lists into one order, using `choices` to pick which list advances next. */
export function interleave<T>(lists: T[][], choices: number[]): T[] {
  const queues = lists.map((l) => [...l]).filter((l) => l.length > 0);
  const out: T[] = [];
  let k = 0;
  while (queues.length > 0) {
    const q = (choices[k++ % Math.max(1, choices.length)] ?? 0) % queues.length;
    out.push(queues[q].shift() as T);
    if (queues[q].length === 0) queues.splice(q, 1);
  }
  return out;
}

function timeOf(i: number): string {
  return new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + i * 7).toISOString().replace('Z', '');
}

export const agentScopeStreamArb: fc.Arbitrary<AsStream> = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.nat(), { maxLength: 60 }), fc.boolean())
  .chain(([n, choices, interleaveReplies]) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => replyArb(i))).map((replies): AsStream => {
      const perReply = replies.map((r) => {
        const body = interleave(r.blocks.map((b) => b.events), choices);
        const start = { type: 'REPLY_START', session_id: 's', name: r.name };
        const end = r.endReason
          ? [{ type: 'REPLY_END', session_id: 's', finished_reason: r.endReason, ...(r.endReason === 'error' ? { error: { type: 'unknown', message: 'boom' } } : {}) }]
          : [];
        return [start, ...body, ...end].map((e) => ({ ...e, reply_id: r.replyId }));
      });
      const merged = interleaveReplies ? interleave(perReply, choices.slice().reverse()) : perReply.flat();
      // Keep CUSTOM notifications out of valid streams: the reference raises on them (a diagnostic, not a step).
      return { replies, events: merged.map((e, i) => ({ ...e, created_at: timeOf(i) })) };
    }));

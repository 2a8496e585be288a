// Real pi-agent-core Agent driven by pi-ai's faux provider (thinking, text and a tool call, then a second turn).
// Its AgentEvents — serialised the moment they are emitted, as a server forwarding them would — must validate,
// pass the message checker, split into one reply per assistant message and raise no lifecycle diagnostics.
import { Agent } from '@mariozechner/pi-agent-core';
import {
  createAssistantMessageEventStream,
  fauxAssistantMessage,
  fauxText,
  fauxThinking,
  fauxToolCall,
  registerFauxProvider,
  streamSimple,
} from '@mariozechner/pi-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPiAgentEvent, checkPiAssistantEvent, initialPiMessageCheck } from '../../../src/core/pi/message-check.ts';
import { splitPiReplies } from '../../../src/core/pi/replies.ts';
import { feedPiText, endPiSession, startPiSession } from '../../../src/core/pi/session.ts';
import { validatePiEvent } from '../../../src/core/pi/validate.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import type { ChunkRecord, ConnectionRecord, EvictionRecord } from '../../../src/core/capture/model.ts';
import { captureOf } from '../analysis/support.ts';

let agentEvents: Record<string, unknown>[] = [];
/** One list per model call (each would be its own HTTP response). */
let assistantCalls: Record<string, unknown>[][] = [];
let faux: ReturnType<typeof registerFauxProvider>;

beforeAll(async () => {
  faux = registerFauxProvider({ tokenSize: { min: 1, max: 2 } });
  faux.setResponses([
    fauxAssistantMessage(
      [fauxThinking('The user wants an echo.'), fauxText('Calling the tool now.'), fauxToolCall('echo', { text: 'héllo "x"' }, { id: 'call_1' })],
      { stopReason: 'toolUse' },
    ),
    fauxAssistantMessage('It said héllo.'),
  ]);
  const agent = new Agent({
    initialState: {
      model: faux.getModel(),
      systemPrompt: 'test',
      tools: [
        {
          name: 'echo',
          label: 'Echo',
          description: 'echo',
          parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as never,
          execute: (async (_id: string, params: { text: string }) => ({ content: [{ type: 'text', text: params.text }], details: {} })) as never,
        },
      ],
    },
    // The faux stream shares block objects between events; clone each event when it is produced (what a server
    // serialising the stream sees), then hand it on.
    streamFn: (model, context, options) => {
      const source = streamSimple(model, context, options);
      const copy = createAssistantMessageEventStream();
      (async () => {
        for await (const ev of source) copy.push(ev);
        copy.end(await source.result());
      })();
      const push = (source as unknown as { push(e: unknown): void }).push.bind(source);
      (source as unknown as { push(e: unknown): void }).push = (e: unknown) => {
        if ((e as { type: string }).type === 'start') assistantCalls.push([]);
        assistantCalls[assistantCalls.length - 1].push(JSON.parse(JSON.stringify(e)));
        push(structuredClone(e));
      };
      return copy;
    },
  });
  agent.subscribe((event) => {
    agentEvents.push(JSON.parse(JSON.stringify(event)));
  });
  await agent.prompt('echo héllo');
});

afterAll(() => {
  faux.unregister();
  agentEvents = [];
  assistantCalls = [];
});

describe('real pi agent streams', () => {
  it('validate as the agent and assistant forms', () => {
    const types = new Set(agentEvents.map((e) => e.type));
    for (const t of ['agent_start', 'turn_start', 'message_update', 'tool_execution_end', 'turn_end', 'agent_end']) {
      expect(types).toContain(t);
    }
    const inner = new Set(agentEvents.map((e) => (e.assistantMessageEvent as { type?: string } | undefined)?.type));
    for (const t of ['thinking_delta', 'text_delta', 'toolcall_delta', 'toolcall_end']) expect(inner).toContain(t);
    for (const ev of agentEvents) expect(validatePiEvent(ev)).toMatchObject({ ok: true, form: 'agent', extras: [] });
    expect(assistantCalls).toHaveLength(2);
    for (const ev of assistantCalls.flat()) expect(validatePiEvent(ev)).toMatchObject({ ok: true, form: 'assistant', extras: [] });
  });

  it('carry messages consistent with their deltas', () => {
    let a = initialPiMessageCheck;
    for (const ev of agentEvents) {
      const r = checkPiAgentEvent(a, ev);
      expect(r.mismatches).toEqual([]);
      a = r.state;
    }
    for (const call of assistantCalls) {
      let b = initialPiMessageCheck;
      for (const ev of call) {
        const r = checkPiAssistantEvent(b, ev);
        expect(r.mismatches).toEqual([]);
        b = r.state;
      }
    }
  });

  it('report where a carried message was tampered with', () => {
    const tampered = structuredClone(agentEvents);
    const k = tampered.findIndex(
      (e) => e.type === 'message_update' && (e.assistantMessageEvent as { type: string }).type === 'text_delta',
    );
    const inner = tampered[k].assistantMessageEvent as { partial: { content: { text?: string }[] }; contentIndex: number };
    inner.partial.content[inner.contentIndex].text += '!';
    let s = initialPiMessageCheck;
    const found = tampered.flatMap((ev) => {
      const r = checkPiAgentEvent(s, ev);
      s = r.state;
      return r.mismatches;
    });
    expect(found.map((m) => m.index)).toContain(k);
    // A text that extends the built one could be a later state (see message-check.ts): the next delta proves it
    // was not, and the mismatch is pinned on event k.
    expect(found.filter((m) => m.index === k).map((m) => m.path)).toContain(`assistantMessageEvent.partial.content[${inner.contentIndex}].text`);
  });

  it('a message_end whose message differs says the event names no block (not "about content[-]")', () => {
    const tampered = structuredClone(agentEvents);
    const k = tampered.findIndex((e) => e.type === 'message_end' && (e.message as { role?: string }).role === 'assistant');
    const blocks = (tampered[k].message as { content: { type: string; text?: string }[] }).content;
    const j = blocks.findIndex((b) => b.type === 'text');
    blocks[j].text = 'TAMPERED';
    let s = initialPiMessageCheck;
    const found = tampered.flatMap((ev) => {
      const r = checkPiAgentEvent(s, ev);
      s = r.state;
      return r.mismatches;
    });
    const m = found.find((x) => x.index === k);
    expect(m?.message).toBe(`content[${j}] changed although the event changes no block (it names no content index): the message it carries differs from the one the stream built`);
  });

  it('a turn_start missing between two turns is told at the message that comes without it', async () => {
    const { checkAgentSequence, initialAgentSequence } = await import('../../../src/core/pi/agent-sequence.ts');
    const seq = ['agent_start', 'turn_start', 'message_start', 'message_end', 'turn_end', 'message_start', 'message_end', 'turn_end', 'agent_end'];
    let s = initialAgentSequence;
    const told = seq.flatMap((type, index) => {
      const r = checkAgentSequence(s, { type, message: { role: 'assistant' } }, index);
      s = r.state;
      return r.diagnostics.map((d) => [d.index, d.message]);
    });
    expect(told).toEqual([[5, 'message_start between turns: no turn_start since the last turn_end'], [7, 'turn_end without turn_start']]);
    // The real loop's streams (every message inside a turn) raise nothing: see the test above and below.
  });

  it('split into one reply per assistant message', () => {
    const replies = splitPiReplies(agentEvents);
    expect(replies).toHaveLength(2);
    expect(replies.every((r) => r.closed && !r.orphan)).toBe(true);
    expect(replies.map((r) => r.turn)).toEqual([0, 1]);
    for (const r of replies) {
      const types = r.eventIndices.map((i) => agentEvents[i].type);
      expect(types[0]).toBe('message_start');
      expect(types[types.length - 1]).toBe('message_end');
    }
    for (const call of assistantCalls) expect(splitPiReplies(call)).toHaveLength(1);
  });

  it('raise no lifecycle diagnostics when served as SSE', () => {
    for (const events of [agentEvents, ...assistantCalls]) {
      const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
      const fed = feedPiText(startPiSession(), body);
      expect(fed.diagnostics).toEqual([]);
      expect(endPiSession(fed.session)).toEqual([]);
    }
  });

  // A panel's memory cap evicts a stream's head: the assistant and agent forms keep no client state in the digest
  // (every event carries the message), and the checks restarted from nothing — "delta on a block never started: the
  // client fails", "message_update without message_start" on every update, validate exit 1 for a sound stream.
  it('evicted at any event: the rest reads without the diagnostics the cut itself would cause', () => {
    const streams: [string, Record<string, unknown>[]][] = [['agent', agentEvents], ['assistant', assistantCalls[0]]];
    for (const [form, events] of streams) {
      const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`);
      const records = captureOf(body.map((b) => new TextEncoder().encode(b)));
      const HEADER = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
      const full = analyzeCapture({ header: HEADER, records })[0];
      const serious = (v: typeof full) => v.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code);
      expect(serious(full), form).toEqual([]);
      const chunks = records.filter((r): r is ChunkRecord => r.kind === 'chunk');
      for (let k = 1; k < chunks.length - 1; k++) {
        const digest = new EvictionDigest(records[0] as ConnectionRecord);
        for (const c of chunks.slice(0, k)) digest.push(c);
        const evicted: EvictionRecord = { kind: 'evicted', conn: 'c1', t: chunks[k - 1].t, chunks: k, messages: 0, bytes: 0, derived: digest.derived() };
        const rest = records.filter((r) => r.kind !== 'chunk' || chunks.indexOf(r) >= k);
        const part = analyzeCapture({ header: HEADER, records: [rest[0], evicted, ...rest.slice(1)] })[0];
        expect(serious(part), `${form} cut after ${k}`).toEqual([]);
        if (part.replies.length === 0) continue; // only turn_end and agent_end were left
        // The first reply continues from before the cut when its start was evicted (then its TTFT is unknown).
        const first = full.replies.find((r) => r.eventIndices.some((i) => i >= k))!;
        const begunBefore = first.eventIndices[0] < k;
        expect(part.replies[0].continuesEviction ?? false, `${form} cut after ${k}`).toBe(begunBefore);
        if (begunBefore) expect(part.replies[0].timeToFirstTokenMs).toBeUndefined();
        // The last message is the full stream's: the reconstruction reads the carried messages.
        const last = (v: typeof full) => v.replies.at(-1)!.history.at(v.replies.at(-1)!.history.length - 1);
        expect(last(part)).toEqual(last(full));
      }
    }
  });
});

// The WebSocket tap records a socket from its first agent event on: every event a reference stream starts with (or
// soon reaches) must be recognised, and the messages of other protocols on a page's sockets must not be.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTSCOPE_EVENT_TYPES } from '../../../src/core/agentscope/schema.ts';
import { AGENT_EVENT_NAMES, isForeignSocketMessage, looksLikeAgentEvent } from '../../../src/core/capture/agent-message-sniff.ts';
import { PI_AGENT_EVENT_TYPES, PI_PROXY_EVENT_TYPES } from '../../../src/core/pi/schema.ts';

const conformance = path.resolve(import.meta.dirname, '../../..', '../shared/conformance');

function caseEvents(protocol: 'agentscope' | 'pi'): { name: string; events: unknown[] }[] {
  const dir = path.join(conformance, protocol, 'cases');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ name: f, events: (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { events?: unknown[] }).events ?? [] }));
}

describe('looksLikeAgentEvent', () => {
  it('knows every AgentScope type but CUSTOM, and pi\'s block and agent events but its common words start/done/error', () => {
    for (const t of AGENTSCOPE_EVENT_TYPES) expect(AGENT_EVENT_NAMES.has(t)).toBe(t !== 'CUSTOM');
    for (const t of PI_PROXY_EVENT_TYPES) expect(AGENT_EVENT_NAMES.has(t)).toBe(!['start', 'done', 'error'].includes(t));
    for (const t of PI_AGENT_EVENT_TYPES) expect(AGENT_EVENT_NAMES.has(t)).toBe(true);
  });

  it('recognises each conformance stream within its first three events, as pydantic or JSON.stringify writes them', () => {
    const cases = [...caseEvents('agentscope'), ...caseEvents('pi')];
    expect(cases.length).toBeGreaterThan(20);
    for (const { name, events } of cases) {
      if (events.length === 0) continue;
      const texts = events.slice(0, 3).flatMap((e) => [JSON.stringify(e), JSON.stringify(e, null, 1)]);
      expect(texts.some(looksLikeAgentEvent), name).toBe(true);
      // pi's common words count with pi's shape only: a proxy `done`/`error` by its stop reason, never the bare `start`.
      for (const e of events) {
        const { type, reason, partial } = e as { type?: unknown; reason?: unknown; partial?: unknown };
        if (typeof type !== 'string' || AGENT_EVENT_NAMES.has(type)) continue;
        const expected = type === 'start' ? partial !== undefined : ['done', 'error'].includes(type) && typeof reason === 'string';
        expect(looksLikeAgentEvent(JSON.stringify(e)), `${name} ${type}`).toBe(expected);
      }
    }
    // pydantic's model_dump_json: the type after id, created_at and a metadata of any size.
    const meta = JSON.stringify({ trace: 'x'.repeat(3000) });
    expect(looksLikeAgentEvent(`{"id":"e1","created_at":"2026-03-01T09:00:00","metadata":${meta},"type":"TEXT_BLOCK_DELTA","reply_id":"r","block_id":"b","delta":"hi"}`)).toBe(true);
    expect(looksLikeAgentEvent(' \n{"type": "text_delta", "contentIndex": 0, "delta": "x"}')).toBe(true);
  });

  it('leaves other protocols alone: hot reload, presence, nested or quoted agent names, non-JSON text', () => {
    const others = [
      '{"type":"connected"}', '{"type":"update","updates":[{"type":"js-update","path":"/src/App.tsx"}]}', '{"type":"full-reload"}',
      '{"type":"error","err":{"message":"boom"}}', '{"type":"hash","data":"abc"}', '{"type":"ok"}', '{"type":"start"}', '{"type":"done"}',
      '{"type":"done","reason":"finished"}', '{"type":"start","reason":"stop"}', '{"type":"error","partial":null}',
      '{"type":"CUSTOM","name":"x"}', '{"op":"presence","users":3}', 'ping', '', '[{"type":"text_delta"}]',
      '{"event":"msg","payload":{"type":"text_delta","delta":"x"}}', // an agent name below the top level
      '{"text":"{\\"type\\":\\"TEXT_BLOCK_DELTA\\"}"}', // quoted inside a string
      '{"type":"text_delta"', // cut JSON
      'data: {"type":"text_delta"}', // an SSE line, not a message
    ];
    for (const text of others) expect(looksLikeAgentEvent(text), text).toBe(false);
  });

  it('judges a message of several MB by its head, and finds no name past the first 4 KiB', () => {
    const big = `{"type":"TOOL_RESULT_TEXT_DELTA","reply_id":"r","tool_call_id":"c","delta":"${'y'.repeat(2_000_000)}"}`;
    expect(looksLikeAgentEvent(big)).toBe(true);
    expect(looksLikeAgentEvent(`{"pad":"${'p'.repeat(5000)}","type":"text_delta","contentIndex":0,"delta":"x"}`)).toBe(false);
    // A common word alone cannot be confirmed without the parse.
    expect(looksLikeAgentEvent(`{"type":"done","reason":"stop","pad":"${'p'.repeat(2_000_000)}"}`)).toBe(false);
    expect(looksLikeAgentEvent(`{"type":"done","reason":"stop","pad":"${'p'.repeat(1000)}"}`)).toBe(true);
  });
});

describe('isForeignSocketMessage', () => {
  it('every event of every conformance stream is an event, whatever its shape, but a stray {"type":"ping"}', () => {
    const foreign: string[] = [];
    let events = 0;
    for (const { name, events: list } of [...caseEvents('agentscope'), ...caseEvents('pi')]) {
      for (const e of list) {
        events++;
        if (isForeignSocketMessage(JSON.stringify(e))) foreign.push(`${name} ${JSON.stringify(e)}`);
      }
    }
    expect(events).toBeGreaterThan(500);
    // (The reference rejects it in an SSE stream; on a socket it is the app's keep-alive.)
    expect(foreign).toEqual(['unknown_event_type.json {"type":"ping"}']);
    // Any protocol name counts here, the common words and CUSTOM too, and the legacy dialect's.
    for (const t of ['start', 'done', 'error', 'CUSTOM', 'RUN_STARTED', 'BINARY_BLOCK_DELTA']) expect(isForeignSocketMessage(`{"type":"${t}"}`), t).toBe(false);
  });

  it('the app\'s own messages are foreign; a broken object or array is not (it is reported as an event)', () => {
    for (const text of ['ping', 'pong 3', '42', '"hi"', 'null', '[]', '[{"type":"text_delta"}]', '{"type":"presence","users":3}', '{"op":"typing"}', '{"type":7}', '{"type":"PING"}'])
      expect(isForeignSocketMessage(text), text).toBe(true);
    for (const text of ['{"type":"text_delta"', '{"type":"TEXT_BLOCK_DELTA",}', '[1,', ' \n{"type":"turn_end","message":{}}',
      '{"type":"TEXT_MESSAGE_CONTENT","reply_id":"r"}', '{"type":"text_delta2","contentIndex":0}'])
      expect(isForeignSocketMessage(text), text).toBe(false);
  });
});

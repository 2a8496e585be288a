// What the event list, the step pane and the timeline's tooltip show of an AgentScope event besides its type: the
// block it changes (EventView.blockId — the Block column, the step pane's "block"/"tool call" line) and what it
// carries (EventView.preview — the Data column, also searched).
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { EventView } from '../../../src/core/analysis/types.ts';
import { captureOf, sseBody } from './support.ts';

const R = 'r1';
const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, id: `e-${type}`, created_at: '2026-12-01T09:00:00', reply_id: R, ...extra });
const PNG = 'iVBORw0KGgo=';

function rows(events: unknown[]): EventView[] {
  const body = new TextEncoder().encode(sseBody(events));
  const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: captureOf([body]) });
  return conn.events;
}

const toolResult = [
  ev('REPLY_START', { session_id: 's', name: 'planner' }),
  ev('TOOL_CALL_START', { tool_call_id: 'call_wx', tool_call_name: 'get_weather' }),
  ev('TOOL_CALL_END', { tool_call_id: 'call_wx' }),
  ev('TOOL_RESULT_START', { tool_call_id: 'call_wx', tool_call_name: 'get_weather' }),
  ev('TOOL_RESULT_TEXT_DELTA', { tool_call_id: 'call_wx', delta: '21°C' }),
  ev('TOOL_RESULT_DATA_DELTA', { tool_call_id: 'call_wx', block_id: 'chart-1', media_type: 'image/png', data: PNG }),
  ev('TOOL_RESULT_DATA_DELTA', { tool_call_id: 'call_wx', block_id: 'radar-1', media_type: 'image/png', url: 'https://example.com/radar.png' }),
  ev('TOOL_RESULT_END', { tool_call_id: 'call_wx', state: 'success' }),
];

describe('AgentScope event rows: the block an event changes', () => {
  it('a TOOL_RESULT_DATA_DELTA names its tool result (tool_call_id), not the id of the data block it adds inside it', () => {
    const got = rows(toolResult);
    // Every TOOL_RESULT_* event of one result names the same block: the step pane labels it "tool call".
    expect(got.slice(3).map((e) => [e.type, e.blockId])).toEqual([
      ['TOOL_RESULT_START', 'call_wx'],
      ['TOOL_RESULT_TEXT_DELTA', 'call_wx'],
      ['TOOL_RESULT_DATA_DELTA', 'call_wx'],
      ['TOOL_RESULT_DATA_DELTA', 'call_wx'],
      ['TOOL_RESULT_END', 'call_wx'],
    ]);
    expect(got.every((e) => e.valid)).toBe(true);
  });
});

describe('AgentScope event rows: the Data column says what the event carries', () => {
  const preview = (events: unknown[], type: string, nth = 0) => rows(events).filter((e) => e.type === type)[nth].preview;

  it('a TOOL_RESULT_DATA_DELTA by URL shows its URL (its data is null)', () => {
    expect(preview(toolResult, 'TOOL_RESULT_DATA_DELTA', 0)).toBe(PNG);
    expect(preview(toolResult, 'TOOL_RESULT_DATA_DELTA', 1)).toBe('https://example.com/radar.png');
  });

  it('a HINT_BLOCK shows its hint: the text, or its blocks (texts, a data block by name or media type)', () => {
    const events = [
      ev('REPLY_START', { session_id: 's', name: 'planner' }),
      ev('HINT_BLOCK', { block_id: 'h1', source: 'permission', hint: 'The user allowed get_weather.' }),
      ev('HINT_BLOCK', { block_id: 'h2', source: null, hint: [{ type: 'text', text: 'Cite sources.' }, { type: 'data', source: { type: 'base64', data: PNG, media_type: 'image/png' } }] }),
    ];
    expect(preview(events, 'HINT_BLOCK', 0)).toBe('The user allowed get_weather.');
    expect(preview(events, 'HINT_BLOCK', 1)).toBe('Cite sources. [image/png]');
  });

  it('a DATA_BLOCK_START shows its media type', () => {
    const events = [ev('REPLY_START', { session_id: 's', name: 'p' }), ev('DATA_BLOCK_START', { block_id: 'img', media_type: 'audio/wav' })];
    expect(preview(events, 'DATA_BLOCK_START')).toBe('audio/wav');
  });

  it('the human-in-the-loop events name the calls they park and what came back', () => {
    const call = { id: 'call_rm', name: 'delete_file', input: '{"path": "/tmp/x"}' };
    const events = [
      ev('REPLY_START', { session_id: 's', name: 'p' }),
      ev('REQUIRE_USER_CONFIRM', { tool_calls: [call] }),
      ev('USER_CONFIRM_RESULT', { confirm_results: [{ confirmed: false, tool_call: call }] }),
      ev('REQUIRE_EXTERNAL_EXECUTION', { tool_calls: [call, { id: 'call_py', name: 'run_python', input: '{}' }] }),
      ev('EXTERNAL_EXECUTION_RESULT', { execution_results: [{ id: 'call_py', name: 'run_python', state: 'success', output: [{ type: 'text', text: '1' }, { type: 'data', name: 'beep.wav', source: { type: 'base64', data: PNG, media_type: 'audio/wav' } }] }] }),
    ];
    expect(preview(events, 'REQUIRE_USER_CONFIRM')).toBe('call_rm delete_file');
    expect(preview(events, 'USER_CONFIRM_RESULT')).toBe('call_rm delete_file denied');
    expect(preview(events, 'REQUIRE_EXTERNAL_EXECUTION')).toBe('call_rm delete_file, call_py run_python');
    expect(preview(events, 'EXTERNAL_EXECUTION_RESULT')).toBe('call_py run_python success 1 [beep.wav]');
  });

  it("a confirmation that is no boolean is quoted as JSON — its head only, whatever its size or depth", () => {
    const call = { id: 'call_rm', name: 'delete_file', input: '{}' };
    const confirm = (confirmed: string) => `{"type":"USER_CONFIRM_RESULT","reply_id":"${R}","confirm_results":[{"tool_call":${JSON.stringify(call)},"confirmed":${confirmed}}]}`;
    const body = [JSON.stringify(ev('REPLY_START', { session_id: 's', name: 'p' })), confirm('"yes"'), confirm(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)];
    const [conn] = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(body.map((l) => `data: ${l}\n\n`).join(''))]) });
    // JSON.stringify of a value nested 100,000 deep overflowed the stack: the event was one Replyscope could not analyse.
    expect(conn.diagnostics.filter((d) => d.code === 'analysis.event-failed')).toEqual([]);
    expect(conn.events[1].preview).toBe('call_rm delete_file confirmed: "yes"');
    expect(conn.events[2].preview).toBe(`call_rm delete_file confirmed: ${'['.repeat(120 - 'call_rm delete_file confirmed: '.length)}…`);
    expect(conn.events[2].valid).toBe(false); // deeper than pydantic's JSON parser reads
  });
});

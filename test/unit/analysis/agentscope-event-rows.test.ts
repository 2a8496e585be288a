// What the event list, the step pane and the timeline's tooltip show of an AgentScope event besides its type: the
// block it changes (EventView.blockId — the Block column, the step pane's "block"/"tool call" line).
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

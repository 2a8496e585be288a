// How the reply list names a reply: an AgentScope reply by its agent's name and id, a pi message by its model and
// its place in the stream — not by the analyzer's internal id ("demo:5#0").
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';
import { replyLabel, replyWords } from '../../../panel/lib/reply-words.ts';
import { captureOf, sseBody } from '../analysis/support.ts';

const demo = analyzeCapture(loadInput(readFileSync(path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson')), 'demo'));

describe('replyLabel', () => {
  it('a pi proxy message: the model of its request — not its internal id; among several, its place', () => {
    const pi = demo.find((c) => c.dialect === 'pi-proxy')!;
    expect(pi.replies[0].id).toMatch(/#0$/);
    expect(replyLabel(pi.replies[0], 0, false)).toEqual({ name: 'claude-sonnet-4-5', id: undefined });
    expect(replyLabel(pi.replies[0], 1, true)).toEqual({ name: 'claude-sonnet-4-5', id: 'message 2' });
  });

  it('an AgentScope reply: its agent\'s name and its id, as before', () => {
    const as = demo.find((c) => c.dialect === 'agentscope')!;
    const r = as.replies.find((x) => x.name)!;
    expect(replyLabel(r, 3, true)).toEqual({ name: r.name, id: r.id });
  });

  it('a pi message in the form that carries it (AssistantMessageEvent): the model it carries; none: its role', () => {
    const msg = (model?: string) => ({ role: 'assistant', content: [], api: 'a', provider: 'p', ...(model ? { model } : {}), stopReason: 'stop', timestamp: 1 });
    const read = (model?: string) => analyzeCapture({
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: captureOf([new TextEncoder().encode(sseBody([{ type: 'start', partial: msg(model) }, { type: 'done', reason: 'stop', message: msg(model) }]))]),
    })[0];
    const carried = read('gpt-5');
    expect(carried.dialect).toBe('pi-assistant');
    expect(replyLabel(carried.replies[0], 0, true)).toEqual({ name: 'gpt-5', id: 'message 1' });
    expect(replyLabel(read().replies[0], 0, false)).toEqual({ name: 'assistant', id: undefined });
  });
});

describe('replyWords (the scrubber\'s "Back to …", the event pane)', () => {
  it('a pi message as the list names it, not "demo:5#0"; an AgentScope reply by name and id, the id shortened', () => {
    const pi = demo.find((c) => c.dialect === 'pi-proxy')!;
    expect(replyWords(pi.replies[0], pi.replies, 16)).toBe('claude-sonnet-4-5');
    const as = demo.find((c) => c.dialect === 'agentscope')!;
    const r = as.replies.find((x) => x.name && x.id.length > 16)!;
    expect(replyWords(r, as.replies, 16)).toBe(`${r.name} ${r.id.slice(0, 15)}…`);
  });
});

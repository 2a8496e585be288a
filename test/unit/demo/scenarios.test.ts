// Every demo scenario: each frame validates against the core AgentScope schemas from its wire text, the core
// reconstruction of the reply has the facts the scenario intends (written by hand in the scenario files), and the
// stream is shaped as the service shapes it.

import { describe, expect, it } from 'vitest';
import { SCENARIOS, scenarioByName } from '../../../src/demo/scenarios/index.ts';
import { CHART_PNG_BASE64, SUNSET_PNG_BASE64 } from '../../../src/demo/scenarios/tool-scenarios.ts';
import { factsOf, playScenario, reconstruct } from './support.ts';

const PNG_SIGNATURE = '89504e470d0a1a0a';

describe('demo scenarios', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: valid events, intended final message`, async () => {
      const texts = await playScenario(scenario.name);
      const { events, statuses, replies } = reconstruct(texts);
      expect(replies).toHaveLength(1);
      expect(events[0].type).toBe('REPLY_START');
      expect(events.at(-1)?.type).toBe('REPLY_END');
      expect(factsOf(replies[0], scenario.intent)).toEqual(scenario.intent);
      if (scenario.name !== 'broken') {
        // A well-behaved stream: nothing the reference would skip or raise on (CUSTOM is routed aside by the page).
        expect(statuses.filter((s) => s === 'warned' || s === 'error')).toEqual([]);
        // Every block that was started was ended before REPLY_END.
        for (const block of replies[0].content) {
          if (block.type === 'text' || block.type === 'thinking' || block.type === 'data') expect(block.finished_at).not.toBeNull();
        }
      }
    });
  }

  it('confirm: Deny gives the denied intent and the continuation shape of the service', async () => {
    const scenario = scenarioByName('confirm')!;
    const texts = await playScenario('confirm', 'deny');
    const { events, replies } = reconstruct(texts);
    expect(factsOf(replies[0], scenario.deniedIntent!)).toEqual(scenario.deniedIntent);
    const types = events.map((e) => e.type);
    const ask = types.indexOf('REQUIRE_USER_CONFIRM');
    // The service broadcasts the decision, then a REPLY_START with the same reply id, then the agent's events.
    expect(types.slice(ask, ask + 3)).toEqual(['REQUIRE_USER_CONFIRM', 'USER_CONFIRM_RESULT', 'REPLY_START']);
    expect(events.filter((e) => e.type === 'REPLY_START').map((e) => e.reply_id)).toEqual([replies[0].id, replies[0].id]);
  });

  it('confirm: the confirmation request carries the asking call with its suggested rules', async () => {
    const { events } = reconstruct(await playScenario('confirm'));
    const ask = events.find((e) => e.type === 'REQUIRE_USER_CONFIRM');
    expect(ask?.type === 'REQUIRE_USER_CONFIRM' && ask.tool_calls.map((c) => [c.name, c.state, c.suggested_rules.length])).toEqual([['Bash', 'asking', 1]]);
  });

  it('external: the result the page sends becomes the tool result; the call was submitted before', async () => {
    const output = 'Sun Mar 01 2026 10:00:00 (Europe/Paris)';
    const { events, replies } = reconstruct(await playScenario('external', 'allow', output));
    const req = events.find((e) => e.type === 'REQUIRE_EXTERNAL_EXECUTION');
    expect(req?.type === 'REQUIRE_EXTERNAL_EXECUTION' && req.tool_calls[0].state).toBe('submitted');
    const result = replies[0].content.find((b) => b.type === 'tool_result');
    // TOOL_RESULT_START opened the result; the agent's text delta carries the page's output into it.
    const texts = result?.type === 'tool_result' && typeof result.output !== 'string' ? result.output.map((o) => (o.type === 'text' ? o.text : '')) : [];
    expect(texts).toEqual([output]);
  });

  it('image: the reconstructed data blocks are the generated PNGs, byte for byte', async () => {
    const { replies } = reconstruct(await playScenario('image'));
    const data = replies[0].content.find((b) => b.type === 'data');
    expect(data?.type === 'data' && data.source.type === 'base64' && data.source.data).toBe(SUNSET_PNG_BASE64);
    expect(Buffer.from(SUNSET_PNG_BASE64, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
    const result = replies[0].content.find((b) => b.type === 'tool_result');
    const image = result?.type === 'tool_result' && typeof result.output !== 'string' ? result.output.find((o) => o.type === 'data') : undefined;
    expect(image?.type === 'data' && image.source.type === 'base64' && image.source.data).toBe(CHART_PNG_BASE64);
  });

  it('image: the DATA_BLOCK is streamed in several chunks that each decode on their own', async () => {
    const { events } = reconstruct(await playScenario('image'));
    const chunks = events.flatMap((e) => (e.type === 'DATA_BLOCK_DELTA' ? [e.data] : []));
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(Buffer.from(c, 'base64').toString('base64')).toBe(c);
  });

  it('text streams arrive as token-sized deltas', async () => {
    const { events } = reconstruct(await playScenario('plain-text'));
    const deltas = events.flatMap((e) => (e.type === 'TEXT_BLOCK_DELTA' ? [e.delta] : []));
    expect(deltas.length).toBeGreaterThan(10);
    expect(Math.max(...deltas.map((d) => Array.from(d).length))).toBeLessThanOrEqual(4);
  });

  it('custom: CUSTOM notifications are on the stream, without reply_id', async () => {
    const { events } = reconstruct(await playScenario('custom'));
    const custom = events.filter((e) => e.type === 'CUSTOM');
    expect(custom.map((e) => e.type === 'CUSTOM' && e.name)).toEqual(['state_updated', 'team_updated']);
    expect(custom.every((e) => !('reply_id' in e))).toBe(true);
  });

  it('broken: each defect is one the reference skips or raises on, and one block is left open', async () => {
    const { events, statuses, replies } = reconstruct(await playScenario('broken'));
    const at = (pred: (e: (typeof events)[number]) => boolean) => statuses[events.findIndex(pred)];
    // 1. delta before its START: unknown block → warned
    expect(at((e) => e.type === 'TEXT_BLOCK_DELTA')).toBe('warned');
    // 2. foreign reply id → warned
    expect(at((e) => e.type === 'TEXT_BLOCK_DELTA' && e.reply_id !== replies[0].id)).toBe('warned');
    // 3. invalid base64 chunk → the reference raises
    expect(at((e) => e.type === 'DATA_BLOCK_DELTA')).toBe('error');
    // 4. the text block was never ended
    const text = replies[0].content.find((b) => b.type === 'text');
    expect(text?.finished_at).toBeNull();
  });
});

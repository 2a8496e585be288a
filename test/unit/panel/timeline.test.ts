// Lane derivation (src/core/analysis/timeline.ts) on the conformance cases' real event sequences.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUSTOM_LANES_MAX, CUSTOM_OTHER, CUSTOM_OTHER_ID, deriveTimeline, eventRole, eventRoleOf, waitText } from '../../../src/core/analysis/timeline.ts';
import type { EventView } from '../../../src/core/analysis/types.ts';

const conformance = path.resolve(__dirname, '../../../../shared/conformance');
const load = (dir: string, name: string) =>
  JSON.parse(readFileSync(path.join(conformance, dir, 'cases', `${name}.json`), 'utf8')) as { events: Record<string, unknown>[] };

/** EventViews as analysis shapes them (only the fields the timeline reads), optionally with arrival times. */
function views(events: Record<string, unknown>[], times?: number[]): EventView[] {
  return events.map((raw, index) => ({
    index,
    frameIndex: index,
    t: times ? times[index] : NaN,
    createdAt: typeof raw.created_at === 'string' ? Date.parse(raw.created_at + 'Z') : undefined,
    type: typeof raw.type === 'string' ? raw.type : '?',
    raw,
    rawText: JSON.stringify(raw),
    valid: true,
    issues: [],
    extras: [],
    replyId: typeof raw.reply_id === 'string' ? raw.reply_id : undefined,
    preview: '',
    diagnostics: [],
  }));
}

describe('deriveTimeline — AgentScope', () => {
  const evs = views(load('agentscope', 'confirm_allowed').events);
  const tl = deriveTimeline(evs);

  it('uses created_at when events carry no arrival time, and says so', () => {
    expect(tl.axis).toBe('created_at');
    expect(tl.end - tl.start).toBe((evs.length - 1) * 1000); // the case's events are one second apart
  });

  it('has one lane per block plus reply and model-call lanes, reply first', () => {
    expect(tl.lanes.map((l) => l.id)).toEqual([
      'reply:reply-1:',
      'model-call:reply-1:1',
      'text:reply-1:txt-1',
      'tool-call:reply-1:call-bash',
      'tool-result:reply-1:call-bash',
    ]);
  });

  it('spans run from START to END with deltas as ticks', () => {
    const text = tl.lanes.find((l) => l.kind === 'text')!;
    const startIdx = evs.findIndex((e) => e.type === 'TEXT_BLOCK_START');
    const endIdx = evs.findIndex((e) => e.type === 'TEXT_BLOCK_END');
    expect(text.spans).toHaveLength(1);
    expect(text.spans[0]).toMatchObject({ startEvent: startIdx, endEvent: endIdx, open: false, start: tl.times[startIdx], end: tl.times[endIdx] });
    expect(text.spans[0].ticks.map((t) => t.event)).toEqual(
      evs.filter((e) => e.type === 'TEXT_BLOCK_DELTA').map((e) => e.index),
    );
  });

  it('marks the human-in-the-loop wait from REQUIRE_USER_CONFIRM to USER_CONFIRM_RESULT', () => {
    const human = tl.waits.filter((w) => w.kind === 'human');
    expect(human).toHaveLength(1);
    expect(evs[human[0].startEvent].type).toBe('REQUIRE_USER_CONFIRM');
    expect(evs[human[0].endEvent].type).toBe('USER_CONFIRM_RESULT');
    expect(human[0].open).toBe(false);
  });

  it('marks a USER_INTERRUPT and an EXCEED_MAX_ITERS on the reply bar', () => {
    const at = (type: string, s: number) => ({ type, id: `e-${type}`, reply_id: 'r', created_at: `2026-03-01T09:00:0${s}` });
    const stream = views([
      { ...at('REPLY_START', 1), session_id: 's', name: 'a' },
      at('USER_INTERRUPT', 2),
      at('EXCEED_MAX_ITERS', 3),
      { ...at('REPLY_END', 4), session_id: 's' },
    ]);
    const reply = deriveTimeline(stream).lanes.find((l) => l.kind === 'reply')!;
    expect(reply.spans).toHaveLength(1);
    expect(reply.spans[0].ticks.map((t) => t.event)).toEqual([1, 2]);
  });

  it('opens an implicit span for a delta before its START, and a new one at the START', () => {
    const d = views(load('agentscope', 'delta_before_start').events);
    const lane = deriveTimeline(d).lanes.find((l) => l.kind === 'text')!;
    const first = d.find((e) => e.type === 'TEXT_BLOCK_DELTA')!;
    expect(lane.spans[0].startEvent).toBe(first.index);
    expect(lane.spans.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps a block that never ends open until the last event', () => {
    const cut = evs.slice(0, evs.findIndex((e) => e.type === 'TEXT_BLOCK_END'));
    const t = deriveTimeline(cut);
    const span = t.lanes.find((l) => l.kind === 'text')!.spans[0];
    expect(span.open).toBe(true);
    expect(span.end).toBe(t.end);
  });
});

describe('deriveTimeline — pi and axes', () => {
  it('charts pi proxy events by content index on the index axis when nothing has a time', () => {
    const tl = deriveTimeline(views(load('pi', 'done_toolUse').events));
    expect(tl.axis).toBe('index');
    expect(tl.lanes.map((l) => l.id)).toEqual(['model-call::1', 'text::0', 'tool-call::1']);
    expect(tl.lanes[2].label).toContain('calc');
    expect(tl.waits).toEqual([]);
  });

  it('prefers arrival times and turns long silences into gaps', () => {
    const raw = load('agentscope', 'thinking_then_text').events;
    const times = raw.map((_, i) => 1000 + i * 50 + (i >= 6 ? 5000 : 0));
    const tl = deriveTimeline(views(raw, times));
    expect(tl.axis).toBe('arrival');
    expect(tl.waits.filter((w) => w.kind === 'gap')).toEqual([
      { kind: 'gap', start: times[5], end: times[6], startEvent: 5, endEvent: 6, label: 'gap' },
    ]);
  });

  it('classifies pi-agent message_update by its inner assistant event', () => {
    const e = views([{ type: 'message_update', assistantMessageEvent: { type: 'text_delta', contentIndex: 2, delta: 'x' } }])[0];
    expect(eventRole(e)).toMatchObject({ kind: 'text', key: '2', phase: 'delta' });
  });
});

describe('eventRole without parsing a valid text delta', () => {
  it('gives the role the parsed event gives, for every event of analysed captures (odd deltas included)', async () => {
    const { CaptureAnalyzer } = await import('../../../src/core/analysis/analyze.ts');
    const { sampleCapture } = await import('../../../panel/dev/sample-capture.ts');
    const { generateCapture } = await import('../../../bench/capture-gen.ts');
    const { Utf8ChunkEncoder } = await import('../../../src/core/frames/utf8-chunks.ts');
    // Deltas with an extra key, a tool name where none belongs, an empty or numeric id, a camelCase id.
    const odd = [
      { type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a' },
      { type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: '' },
      { type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: '', delta: 'x' },
      { type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: '', delta: 'y', extra: 1 },
      { type: 'TOOL_CALL_START', reply_id: 'r', tool_call_id: 'c', tool_call_name: 'search' },
      { type: 'TOOL_CALL_DELTA', reply_id: 'r', tool_call_id: 'c', delta: '{', tool_call_name: 'other' },
      { type: 'TOOL_CALL_DELTA', reply_id: 'r', toolCallId: 'c', delta: '}' },
      { type: 'TOOL_CALL_DELTA', reply_id: 'r', tool_call_id: 'c', tool_call_name: 'named' }, // invalid (no delta): extras are not reported
      { type: 'THINKING_BLOCK_DELTA', reply_id: 'r', block_id: 7, delta: 'z' },
      { type: 'TOOL_RESULT_TEXT_DELTA', reply_id: 'r', tool_call_id: 'nope', delta: 'r' },
    ].map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
    const enc = new Utf8ChunkEncoder();
    const oddRecords = [
      { kind: 'connection', id: 'odd', transport: 'fetch', frameUrl: 'http://x/', method: 'GET', url: 'http://x/s', requestHeaders: [], status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: 0, responseTime: 1 },
      { kind: 'chunk', conn: 'odd', t: 2, ...enc.push(new TextEncoder().encode(odd)) },
      { kind: 'end', conn: 'odd', t: 3, state: 'complete' },
    ];
    let shortcut = 0;
    for (const records of [sampleCapture().records, generateCapture({ events: 20_000 }).records, oddRecords]) {
      const a = new CaptureAnalyzer();
      a.push(records as never);
      for (const conn of a.connections()) {
        for (const e of conn.events) {
          expect(eventRole(e), `${conn.record.id} #${e.index} ${e.rawText}`).toEqual(eventRoleOf(e.type, e.raw, e.blockId));
          if (e.valid && e.extras.length === 0 && /_DELTA$/.test(e.type)) shortcut++;
        }
      }
    }
    expect(shortcut).toBeGreaterThan(15_000); // the shortcut is what nearly every event takes
  });
});

// A reply whose start the memory cap evicted: its reply lane was a zero-length span at REPLY_END, its model call a
// point labelled "model call 1" (it was the second). The blocks begun before the cut now run from the reply's first
// kept event, marked as continuing, and the calls say they are counted from the cut.
describe('deriveTimeline — a reply that began before an eviction', () => {
  it('draws what began before the cut from the first kept event, marked continued', async () => {
    const { analyzeCapture } = await import('../../../src/core/analysis/analyze.ts');
    const { EvictionDigest } = await import('../../../src/core/analysis/eviction-digest.ts');
    const { captureOf, sseBody } = await import('../analysis/support.ts');
    const e = (type: string, extra: Record<string, unknown> = {}) => ({ id: 'e', created_at: '2026-01-01T00:00:00', metadata: {}, type, reply_id: 'r', ...extra });
    const events = [e('REPLY_START', { session_id: 's', name: 'n' }), e('MODEL_CALL_START', { model_name: 'qwen' }), e('TEXT_BLOCK_START', { block_id: 'b' }),
      e('TEXT_BLOCK_DELTA', { block_id: 'b', delta: 'one ' }), e('TEXT_BLOCK_DELTA', { block_id: 'b', delta: 'two' }), e('TEXT_BLOCK_END', { block_id: 'b' }),
      e('MODEL_CALL_END', { input_tokens: 1, output_tokens: 2 }), e('MODEL_CALL_START', { model_name: 'qwen' }), e('MODEL_CALL_END', {}), e('REPLY_END', { session_id: 's' })];
    const records = captureOf(events.map((x) => new TextEncoder().encode(sseBody([x]))));
    const chunks = records.filter((r) => r.kind === 'chunk') as import('../../../src/core/capture/model.ts').ChunkRecord[];
    const digest = new EvictionDigest(records[0] as import('../../../src/core/capture/model.ts').ConnectionRecord);
    for (const c of chunks.slice(0, 4)) digest.push(c);
    const evicted = { kind: 'evicted' as const, conn: 'c1', t: chunks[3].t, chunks: 4, messages: 0, bytes: 0, derived: digest.derived() };
    const rest = records.filter((r) => r.kind !== 'chunk' || chunks.indexOf(r as never) >= 4);
    const conn = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' }, records: [rest[0], evicted, ...rest.slice(1)] })[0];
    expect(conn.replies[0].continuesEviction).toBe(true);
    const tl = deriveTimeline(conn.events, { continuing: new Set(['r']) });
    const lane = (kind: string) => tl.lanes.find((l) => l.kind === kind)!;
    const first = conn.events[0];
    // A call started after the cut is the next one, not a third continuing from before it.
    expect(tl.lanes.filter((l) => l.kind === 'model-call').map((l) => [l.label, l.spans.length, l.spans[0].continued ?? false]))
      .toEqual([['model call after the cut 1', 1, true], ['model call after the cut 2 · qwen', 1, false]]);
    for (const kind of ['reply', 'model-call', 'text']) {
      const [span] = lane(kind).spans;
      expect(span, kind).toMatchObject({ start: first.t, startEvent: first.index, continued: true, open: false });
      expect(span.end, kind).toBeGreaterThan(span.start);
    }
    expect(lane('model-call').label).toBe('model call after the cut 1');
    // Without the option (an unevicted stream): a delta without a start is an implicit span at that event, as before.
    const end = conn.events.at(-1)!; // REPLY_END
    expect(deriveTimeline(conn.events).lanes.find((l) => l.kind === 'reply')!.spans[0]).toMatchObject({ start: end.t, startEvent: end.index, end: end.t });
  });
});

describe('deriveTimeline — results an external execution returns', () => {
  it('each result EXTERNAL_EXECUTION_RESULT adds gets a tool-result lane, as a streamed result does', () => {
    const evs = views(load('agentscope', 'external_execution').events);
    const tl = deriveTimeline(evs);
    const at = evs.findIndex((e) => e.type === 'EXTERNAL_EXECUTION_RESULT');
    const results = (evs[at].raw as { execution_results: { id: string; name: string }[] }).execution_results;
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      const lane = tl.lanes.find((l) => l.kind === 'tool-result' && l.id.endsWith(`:${r.id}`));
      expect(lane?.label).toBe(`tool result ${r.id} · ${r.name}`);
      expect(lane?.spans).toEqual([{ start: tl.times[at], end: tl.times[at], startEvent: at, endEvent: at, open: false, ticks: [] }]);
    }
  });

  it('a result for an id that already has one gets no lane of its own (append_event skips it)', () => {
    const r = (type: string, extra: Record<string, unknown>) => ({ type, reply_id: 'r', created_at: '2026-12-01T00:00:00', ...extra });
    const evs = views([
      r('REPLY_START', { session_id: 's', name: 'a' }),
      r('TOOL_RESULT_START', { tool_call_id: 't1', tool_call_name: 'f' }),
      r('TOOL_RESULT_END', { tool_call_id: 't1', state: 'success' }),
      r('EXTERNAL_EXECUTION_RESULT', { execution_results: [{ id: 't1', name: 'f', output: 'late' }, { id: 't2', name: 'g', output: 'ok' }] }),
    ]);
    const lanes = deriveTimeline(evs).lanes.filter((l) => l.kind === 'tool-result');
    expect(lanes.map((l) => [l.label, l.spans.map((s) => [s.startEvent, s.endEvent])])).toEqual([
      ['tool result t1 · f', [[1, 2]]],
      ['tool result t2 · g', [[3, 3]]],
    ]);
  });
});

describe('waitText — what a human-in-the-loop wait waits for', () => {
  it('a confirmation waits for the user, an external execution for the client to run the tool', () => {
    const wait = (name: string) => {
      const human = deriveTimeline(views(load('agentscope', name).events)).waits.filter((w) => w.kind === 'human');
      expect(human).toHaveLength(1);
      return waitText(human[0]);
    };
    expect(wait('confirm_allowed')).toBe('waiting for the user');
    expect(wait('external_execution')).toBe('waiting for external execution');
  });
});

describe('deriveTimeline — hint lanes', () => {
  it('a hint lane is labelled by the hint block id and its source, when it has one', () => {
    const r = (extra: Record<string, unknown>) => ({ type: 'HINT_BLOCK', reply_id: 'r', created_at: '2026-12-01T00:00:00', ...extra });
    const evs = views([
      { type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a', created_at: '2026-12-01T00:00:00' },
      r({ block_id: 'h1', source: 'permission', hint: 'The user allowed get_weather.' }),
      r({ block_id: 'h2', source: null, hint: 'Cite sources.' }),
    ]);
    expect(deriveTimeline(evs).lanes.filter((l) => l.kind === 'hint').map((l) => l.label)).toEqual(['hint h1 · permission', 'hint h2']);
  });
});

describe('deriveTimeline — CUSTOM notifications', () => {
  const at = (type: string, s: number, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r', created_at: `2026-03-01T09:00:0${s}`, ...extra });
  const custom = (name: string, s: number) => ({ type: 'CUSTOM', id: `c${s}`, name, value: { s }, created_at: `2026-03-01T09:00:0${s}` });

  it('gets a lane per name, of the connection (no reply), a mark at each event, after the reply lanes', () => {
    const evs = views([
      custom('state_updated', 0),
      { ...at('REPLY_START', 1), session_id: 's', name: 'a' },
      custom('state_updated', 2),
      custom('team_updated', 3),
      { ...at('REPLY_END', 4), session_id: 's' },
    ]);
    const tl = deriveTimeline(evs);
    const lanes = tl.lanes.filter((l) => l.kind === 'custom');
    expect(tl.lanes.at(-1)!.kind).toBe('custom');
    expect(lanes.map((l) => [l.id, l.label, l.replyId])).toEqual([
      ['custom::state_updated', 'custom state_updated', undefined],
      ['custom::team_updated', 'custom team_updated', undefined],
    ]);
    expect(lanes[0].spans.map((s) => [s.startEvent, s.endEvent, s.start, s.mark])).toEqual([
      [0, 0, tl.times[0], 'state_updated'],
      [2, 2, tl.times[2], 'state_updated'],
    ]);
    expect(lanes[1].spans.map((s) => s.startEvent)).toEqual([3]);
    // Inside the reply, yet not on its bar: the reply lane has no tick for them.
    expect(tl.lanes.find((l) => l.kind === 'reply')!.spans[0].ticks).toEqual([]);
  });

  it('shares one lane among the names after the first CUSTOM_LANES_MAX', () => {
    const evs = views(Array.from({ length: CUSTOM_LANES_MAX + 3 }, (_, i) => ({ type: 'CUSTOM', name: `n${i}`, value: {}, created_at: '2026-03-01T09:00:00' })));
    const lanes = deriveTimeline(evs).lanes;
    expect(lanes).toHaveLength(CUSTOM_LANES_MAX + 1);
    const other = lanes.at(-1)!;
    expect(other.id).toBe(CUSTOM_OTHER_ID);
    expect(other.spans.map((s) => s.mark)).toEqual([`n${CUSTOM_LANES_MAX}`, `n${CUSTOM_LANES_MAX + 1}`, `n${CUSTOM_LANES_MAX + 2}`]);
  });

  it('keeps a CUSTOM named like the shared lane, an empty name and a missing one apart, each labelled', () => {
    const evs = views([
      { type: 'CUSTOM', name: CUSTOM_OTHER, value: {}, created_at: '2026-03-01T09:00:00' },
      { type: 'CUSTOM', name: '', value: {}, created_at: '2026-03-01T09:00:00' },
      { type: 'CUSTOM', value: {}, created_at: '2026-03-01T09:00:00' },
      { type: 'CUSTOM', name: '?', value: {}, created_at: '2026-03-01T09:00:00' },
      ...Array.from({ length: CUSTOM_LANES_MAX }, (_, i) => ({ type: 'CUSTOM', name: `n${i}`, value: {}, created_at: '2026-03-01T09:00:00' })),
    ]);
    const lanes = deriveTimeline(evs).lanes;
    expect(lanes).toHaveLength(CUSTOM_LANES_MAX + 1);
    expect(lanes.slice(0, 4).map((l) => [l.label, l.spans.map((s) => s.startEvent)])).toEqual([
      [`custom ${CUSTOM_OTHER}`, [0]], // its own lane: the names after the twelfth are not added to it
      ['custom ""', [1]], // "custom " said nothing
      ['custom (no name)', [2]],
      ['custom ?', [3]], // not the lane of the CUSTOM without a name
    ]);
    const other = lanes.at(-1)!;
    expect(other.id).not.toBe(lanes[0].id);
    expect(other.label).toBe(`custom ${CUSTOM_OTHER}`);
    expect(other.spans.map((s) => s.mark)).toEqual(['n8', 'n9', 'n10', 'n11']);
  });

  it('draws no CUSTOM lane in a pi stream: there a CUSTOM is an unknown frame the client skips, no notification', () => {
    const evs = views([
      { type: 'start' },
      { type: 'text_start', contentIndex: 0 },
      { type: 'CUSTOM', name: 'progress', value: {} },
      { type: 'text_delta', contentIndex: 0, delta: 'hi' },
    ]);
    expect(deriveTimeline(evs, { dialect: 'pi-proxy' }).lanes.map((l) => l.kind)).not.toContain('custom');
    expect(deriveTimeline(evs, { dialect: 'agentscope' }).lanes.map((l) => l.kind)).toContain('custom');
  });

  it('names the reply bar\'s marks by their event type (delta ticks have none)', () => {
    const evs = views([
      { ...at('REPLY_START', 1), session_id: 's', name: 'a' },
      at('USER_INTERRUPT', 2),
      { ...at('REPLY_END', 3), session_id: 's' },
    ]);
    expect(deriveTimeline(evs).lanes[0].spans[0].ticks).toEqual([{ t: Date.parse('2026-03-01T09:00:02Z'), event: 1, mark: 'USER_INTERRUPT' }]);
  });
});

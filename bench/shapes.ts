// `npm run bench:shapes`: memory, ingest time and seek cost of stream shapes the budgeted capture does not have —
// a reply with thousands of blocks, many short replies, pi proxy streams (whose events are tiny), a tool call that
// streams a file. No budgets: these are the probes behind docs/performance.md's "Memory beyond the benchmark's capture", kept so
// the numbers can be reproduced and a regression seen. Memory is measured like the memory figure (heap after full
// GCs, analysis alive minus records only, over the body's UTF-8 size).
import type { CaptureRecord, ConnectionRecord } from '../src/core/capture/model.ts';
import { Utf8ChunkEncoder } from '../src/core/frames/utf8-chunks.ts';
import { generateCapture } from './capture-gen.ts';
import { loadCore } from './core.ts';
import { pipelineIngest } from './ingest.ts';
import { machine } from './report.ts';
import { heapAfterGc, median, quantile } from './stats.ts';

interface Shape {
  name: string;
  records: () => { records: CaptureRecord[]; bodyBytes: number };
}

/** SSE frames as records: a connection, chunks of four frames, the end. */
function sseRecords(frames: string[], url: string): { records: CaptureRecord[]; bodyBytes: number } {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'shape:1', transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: 'POST', url,
    requestHeaders: [], status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: 0, responseTime: 1,
  };
  const records: CaptureRecord[] = [conn];
  const enc = new Utf8ChunkEncoder();
  const utf8 = new TextEncoder();
  let bodyBytes = 0;
  for (let i = 0; i < frames.length; i += 4) {
    const bytes = utf8.encode(frames.slice(i, i + 4).join(''));
    bodyBytes += bytes.length;
    records.push({ kind: 'chunk', conn: conn.id, t: 2 + i, ...enc.push(bytes) });
  }
  records.push({ kind: 'end', conn: conn.id, t: 3 + frames.length, state: 'complete' });
  return { records, bodyBytes };
}

const frame = (o: object) => `data: ${JSON.stringify(o)}\n\n`;

/** AgentScope: `replies` replies of one model call with one text block of `deltas` deltas (11 events at 5). */
function shortReplies(replies: number, deltas: number): string[] {
  const out: string[] = [];
  let n = 0;
  let clock = Date.UTC(2026, 2, 1, 9);
  const emit = (type: string, f: object) => {
    clock += 7;
    out.push(frame({ id: `e${(n++).toString(36).padStart(20, '0')}`, created_at: new Date(clock).toISOString().slice(0, 23) + '123', metadata: {}, type, ...f }));
  };
  for (let r = 0; r < replies; r++) {
    const reply_id = `r${r.toString(36).padStart(20, 'x')}`;
    const block_id = `b${r.toString(36).padStart(10, 'y')}`;
    emit('REPLY_START', { session_id: 's', reply_id, name: 'Friday', role: 'assistant' });
    emit('MODEL_CALL_START', { reply_id, model_name: 'm' });
    emit('TEXT_BLOCK_START', { reply_id, block_id });
    for (let d = 0; d < deltas; d++) emit('TEXT_BLOCK_DELTA', { reply_id, block_id, delta: ` word${d}` });
    emit('TEXT_BLOCK_END', { reply_id, block_id });
    emit('MODEL_CALL_END', { reply_id, input_tokens: 1, output_tokens: 2, cache_input_tokens: 0, cache_creation_input_tokens: 0, finished_reason: 'completed' });
    emit('REPLY_END', { session_id: 's', reply_id, finished_reason: 'completed', error: null });
  }
  return out;
}

/** pi-ai usage, the same for every pi message here. */
const PI_USAGE = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** pi proxy: one message of `blocks` blocks (text, thinking, tool call in turn) of `per` deltas each. */
function piProxy(blocks: number, per: number, only?: 'toolcall'): string[] {
  const out = [frame({ type: 'start' })];
  const words = ['the ', 'stream ', 'token ', 'déjà ', '数据 ', '🙂 '];
  for (let b = 0; b < blocks; b++) {
    const kind = only ?? (b % 3 === 2 ? 'toolcall' : b % 3 === 1 ? 'thinking' : 'text');
    if (kind === 'toolcall') {
      out.push(frame({ type: 'toolcall_start', contentIndex: b, id: `toolu_${b}`, toolName: 'write' }), frame({ type: 'toolcall_delta', contentIndex: b, delta: '{"content":"' }));
      for (let d = 0; d < per - 2; d++) out.push(frame({ type: 'toolcall_delta', contentIndex: b, delta: d % 20 === 19 ? '\\n' : 'abcd' }));
      out.push(frame({ type: 'toolcall_delta', contentIndex: b, delta: '"}' }));
    } else {
      out.push(frame({ type: `${kind}_start`, contentIndex: b }));
      for (let d = 0; d < per; d++) out.push(frame({ type: `${kind}_delta`, contentIndex: b, delta: words[d % words.length] }));
    }
    out.push(frame({ type: `${kind}_end`, contentIndex: b }));
  }
  out.push(frame({ type: 'done', reason: 'stop', usage: PI_USAGE }));
  return out;
}

/** pi-ai AssistantMessageEvents: one text block of `deltas` deltas, every event carrying the whole message so far. */
function piAssistant(deltas: number): string[] {
  const msg = (text: string | undefined) => ({ role: 'assistant', content: text === undefined ? [] : [{ type: 'text', text }], api: 'a', provider: 'p', model: 'm', usage: PI_USAGE, stopReason: 'stop', timestamp: 1 });
  const out = [frame({ type: 'start', partial: msg(undefined) }), frame({ type: 'text_start', contentIndex: 0, partial: msg('') })];
  let text = '';
  for (let d = 0; d < deltas; d++) {
    text += ` token${d % 50}`;
    out.push(frame({ type: 'text_delta', contentIndex: 0, delta: ` token${d % 50}`, partial: msg(text) }));
  }
  out.push(frame({ type: 'text_end', contentIndex: 0, content: text, partial: msg(text) }), frame({ type: 'done', reason: 'stop', message: msg(text) }));
  return out;
}

const SHAPES: Shape[] = [
  { name: 'AgentScope, one reply of 280k events (~2,800 blocks)', records: () => { const c = generateCapture({ events: 300_000, longReplyEvents: 280_000 }); return { records: c.records, bodyBytes: c.bodyBytes }; } },
  { name: 'AgentScope, 100k replies of 11 events', records: () => sseRecords(shortReplies(100_000, 5), 'http://127.0.0.1/agentscope') },
  { name: 'pi proxy, a 30k-event message (30 blocks)', records: () => sseRecords(piProxy(30, 1000), 'http://127.0.0.1/api/stream') },
  { name: 'pi proxy, a 33k-event message of 1,500 blocks', records: () => sseRecords(piProxy(1500, 20), 'http://127.0.0.1/api/stream') },
  { name: 'pi proxy, a tool call streaming a 19 KB file in 5,000 deltas', records: () => sseRecords(piProxy(1, 5000, 'toolcall'), 'http://127.0.0.1/api/stream') },
  { name: 'pi assistant form, 3,000 deltas each carrying the message', records: () => sseRecords(piAssistant(3000), 'http://127.0.0.1/api/stream') },
];

async function main(): Promise<void> {
  const core = await loadCore();
  console.log(`machine: ${machine()}\n`);
  console.log('shape'.padEnd(64), 'events'.padStart(9), 'body MB'.padStart(8), 'heap/body'.padStart(10), 'ingest ms'.padStart(10), 'seek µs median / p99');
  for (const shape of SHAPES) {
    let input: { records: CaptureRecord[]; bodyBytes: number } | undefined = shape.records();
    const before = heapAfterGc();
    const t0 = performance.now();
    let analyzer: ReturnType<typeof pipelineIngest> | undefined = pipelineIngest(core, input.records);
    const ingestMs = performance.now() - t0;
    const after = heapAfterGc();
    const conn = analyzer.connections()[0];
    // Seeks into the longest reply, at random steps (a fixed LCG: the same steps every run).
    const reply = conn.replies.reduce((a, b) => (b.history.length > a.history.length ? b : a));
    const times: number[] = [];
    let x = 12345;
    for (let i = 0; i < 2000; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const k = x % reply.history.length;
      const s = performance.now();
      reply.history.at(k);
      times.push((performance.now() - s) * 1000);
    }
    console.log(shape.name.padEnd(64), String(conn.events.length).padStart(9), (input.bodyBytes / 1e6).toFixed(1).padStart(8),
      `${((after - before) / input.bodyBytes).toFixed(2)}×`.padStart(10), ingestMs.toFixed(0).padStart(10), `${median(times).toFixed(1)} / ${quantile(times, 0.99).toFixed(1)}`);
    analyzer = undefined;
    input = undefined;
  }
}

await main();

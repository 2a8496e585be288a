// A deterministic sample capture for screenshots and the viewer e2e tests: what the tap would record for an
// AgentScope session stream (thinking, markdown text, a streamed tool call waiting for the user's confirmation, a
// tool result with a real PNG, heartbeats), a pi proxy stream (POST with the model in the request body), and a
// deliberately broken AgentScope stream (delta before start, foreign reply, invalid event, unclosed block).
import { deflateSync } from 'node:zlib';
import type { Capture, CaptureRecord, ConnectionRecord } from '../../src/core/capture/model.ts';

const T0 = Date.UTC(2026, 10, 29, 9, 30, 0);

/** A tiny real PNG (a 24×24 gradient with a dot), so the bubble shows an image decoded from base64. */
export function samplePng(): string {
  const w = 24;
  const h = 24;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    raw[y * (w * 3 + 1)] = 0;
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      const dot = (x - 12) ** 2 + (y - 12) ** 2 < 30;
      raw[o] = dot ? 250 : 30 + x * 9;
      raw[o + 1] = dot ? 200 : 90 + y * 6;
      raw[o + 2] = dot ? 40 : 200;
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const byte of b) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

/** Deterministic jitter so arrival gaps look like a real model's token cadence. */
function jitter(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

type Ev = Record<string, unknown>;

function sseStream(conn: ConnectionRecord, items: (Ev | { gap: number } | { heartbeat: true } | { raw: string })[], seed: number): CaptureRecord[] {
  const rnd = jitter(seed);
  const out: CaptureRecord[] = [conn];
  let t = conn.responseTime ?? conn.startTime + 40;
  let n = 0;
  for (const item of items) {
    if ('gap' in item) {
      t += item.gap as number;
      continue;
    }
    t += 15 + rnd() * 45;
    const text = 'heartbeat' in item ? ':\n\n' : 'raw' in item ? (item.raw as string) : `data: ${JSON.stringify({ id: `evt-${String(++n).padStart(4, '0')}`, created_at: new Date(t - 3).toISOString(), ...item })}\n\n`;
    out.push({ kind: 'chunk', conn: conn.id, t, bytes: Buffer.byteLength(text), text });
  }
  out.push({ kind: 'end', conn: conn.id, t: t + 5, state: 'complete' });
  return out;
}

const deltas = (s: string, size: number) => s.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];

function agentscopeSession(): CaptureRecord[] {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'tab1:1', transport: 'fetch', frameUrl: 'http://127.0.0.1:8000/', method: 'GET',
    url: 'http://127.0.0.1:8000/sessions/s-42/stream?agent_id=friday', requestHeaders: [['accept', 'text/event-stream']],
    status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream'], ['cache-control', 'no-cache']],
    startTime: T0, responseTime: T0 + 35,
  };
  const r = 'reply-7f3a';
  const SESSION = 's-42';
  const png = samplePng();
  const args = '{"path": "reports/q3.csv", "columns": ["region", "revenue"], "chart": {"type": "bar"}}';
  const text1 = 'I\'ll chart **Q3 revenue by region**. First I need to read the report:\n\n- `reports/q3.csv`\n- columns *region* and *revenue*';
  const text2 = 'Here is the chart. **EMEA** leads with 41% of revenue; APAC grew fastest (+18%).';
  const items: (Ev | { gap: number } | { heartbeat: true })[] = [
    { heartbeat: true },
    { type: 'REPLY_START', reply_id: r, session_id: 's-42', name: 'Friday' },
    { type: 'MODEL_CALL_START', reply_id: r, model_name: 'qwen-max' },
    { type: 'THINKING_BLOCK_START', reply_id: r, block_id: 'think-1' },
    ...deltas('The user wants a chart. I should read the CSV first, then plot revenue per region.', 9).map((d) => ({ type: 'THINKING_BLOCK_DELTA', reply_id: r, block_id: 'think-1', delta: d })),
    { type: 'THINKING_BLOCK_END', reply_id: r, block_id: 'think-1' },
    { type: 'TEXT_BLOCK_START', reply_id: r, block_id: 'txt-1' },
    ...deltas(text1, 6).map((d) => ({ type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: 'txt-1', delta: d })),
    { type: 'TEXT_BLOCK_END', reply_id: r, block_id: 'txt-1' },
    { type: 'TOOL_CALL_START', reply_id: r, tool_call_id: 'call-plot', tool_call_name: 'plot_csv' },
    ...deltas(args, 7).map((d) => ({ type: 'TOOL_CALL_DELTA', reply_id: r, tool_call_id: 'call-plot', delta: d })),
    { type: 'TOOL_CALL_END', reply_id: r, tool_call_id: 'call-plot' },
    { type: 'MODEL_CALL_END', reply_id: r, input_tokens: 812, output_tokens: 96 },
    { type: 'REQUIRE_USER_CONFIRM', reply_id: r, tool_calls: [{ type: 'tool_call', id: 'call-plot', name: 'plot_csv', input: args }] },
    { heartbeat: true },
    { gap: 2600 },
    { heartbeat: true },
    { gap: 1500 },
    { type: 'USER_CONFIRM_RESULT', reply_id: r, confirm_results: [{ confirmed: true, tool_call: { type: 'tool_call', id: 'call-plot', name: 'plot_csv', input: args } }] },
    { type: 'TOOL_RESULT_START', reply_id: r, tool_call_id: 'call-plot', tool_call_name: 'plot_csv' },
    { gap: 700 },
    { type: 'TOOL_RESULT_TEXT_DELTA', reply_id: r, tool_call_id: 'call-plot', delta: 'Rendered chart.png (4 bars)' },
    { type: 'TOOL_RESULT_DATA_DELTA', reply_id: r, tool_call_id: 'call-plot', block_id: 'img-1', data: png, media_type: 'image/png' },
    { type: 'TOOL_RESULT_END', reply_id: r, tool_call_id: 'call-plot', state: 'success' },
    { type: 'MODEL_CALL_START', reply_id: r, model_name: 'qwen-max' },
    { type: 'TEXT_BLOCK_START', reply_id: r, block_id: 'txt-2' },
    ...deltas(text2, 5).map((d) => ({ type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: 'txt-2', delta: d })),
    { type: 'TEXT_BLOCK_END', reply_id: r, block_id: 'txt-2' },
    { type: 'DATA_BLOCK_START', reply_id: r, block_id: 'img-2', media_type: 'image/png' },
    ...deltas(png, 400).map((d) => ({ type: 'DATA_BLOCK_DELTA', reply_id: r, block_id: 'img-2', data: d, media_type: 'image/png' })),
    { type: 'DATA_BLOCK_END', reply_id: r, block_id: 'img-2' },
    { type: 'MODEL_CALL_END', reply_id: r, input_tokens: 1403, output_tokens: 38 },
    { type: 'REPLY_END', reply_id: r, session_id: SESSION },
    { heartbeat: true },
  ];
  return sseStream(conn, items, 7);
}

function piStream(): CaptureRecord[] {
  const body = JSON.stringify({
    model: { id: 'claude-sonnet-4-5', api: 'anthropic-messages', provider: 'anthropic' },
    context: { systemPrompt: 'You are a calculator.', messages: [{ role: 'user', content: 'What is 1+1? Use the tool.', timestamp: 0 }] },
  });
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'tab1:2', transport: 'fetch', frameUrl: 'http://127.0.0.1:8000/', method: 'POST',
    url: 'http://127.0.0.1:8000/api/stream', requestHeaders: [['content-type', 'application/json'], ['authorization', '•••']],
    requestBody: { text: body, size: body.length }, status: 200, statusText: 'OK',
    responseHeaders: [['content-type', 'text/event-stream']], startTime: T0 + 9000, responseTime: T0 + 9220,
  };
  const items: Ev[] = [
    { type: 'start' },
    { type: 'thinking_start', contentIndex: 0 },
    ...deltas('Simple arithmetic, but the user asked for the tool.', 8).map((d) => ({ type: 'thinking_delta', contentIndex: 0, delta: d })),
    { type: 'thinking_end', contentIndex: 0, contentSignature: 'sig-1' },
    { type: 'text_start', contentIndex: 1 },
    ...deltas('Let me calculate that with the tool.', 6).map((d) => ({ type: 'text_delta', contentIndex: 1, delta: d })),
    { type: 'text_end', contentIndex: 1 },
    { type: 'toolcall_start', contentIndex: 2, id: 'toolu_01', toolName: 'calc' },
    ...deltas('{"expression": "1+1"}', 4).map((d) => ({ type: 'toolcall_delta', contentIndex: 2, delta: d })),
    { type: 'toolcall_end', contentIndex: 2 },
    { type: 'done', reason: 'toolUse', usage: { input: 120, output: 41, cacheRead: 0, cacheWrite: 0, totalTokens: 161, cost: { input: 0.00036, output: 0.000615, cacheRead: 0, cacheWrite: 0, total: 0.000975 } } },
  ];
  // pi proxy frames carry no id/created_at: write them verbatim.
  return sseStream(conn, items.map((e) => ({ raw: `data: ${JSON.stringify(e)}\n\n` })), 11);
}

function brokenStream(): CaptureRecord[] {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'tab1:3', transport: 'fetch', frameUrl: 'http://127.0.0.1:8000/', method: 'GET',
    url: 'http://127.0.0.1:8000/sessions/s-broken/stream?agent_id=friday', requestHeaders: [],
    status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']],
    startTime: T0 + 12000, responseTime: T0 + 12030,
  };
  const r = 'reply-b1';
  const SESSION = 's-broken';
  const items: (Ev | { raw: string })[] = [
    { type: 'REPLY_START', reply_id: r, session_id: 's-broken', name: 'Friday' },
    { type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: 'txt-1', delta: 'too early ' },
    { type: 'TEXT_BLOCK_START', reply_id: r, block_id: 'txt-1' },
    { type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: 'txt-1', delta: 'Hello' },
    { type: 'TEXT_BLOCK_DELTA', reply_id: 'reply-other', block_id: 'txt-1', delta: ' from elsewhere' },
    { type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: 'txt-1' },
    { raw: 'data: {"type": "TEXT_BLOCK_DELTA", "reply_id": "reply-b1", "block_id": "txt-1", "delta": " wor\n\n' },
    { type: 'TEXT_BLOCK_DELTA', reply_id: r, block_id: 'txt-1', delta: ' world' },
    { type: 'DATA_BLOCK_START', reply_id: r, block_id: 'img-x', media_type: 'image/png' },
    { type: 'DATA_BLOCK_DELTA', reply_id: r, block_id: 'img-x', data: 'iVBOR-not_base64', media_type: 'image/png' },
    { type: 'REPLY_END', reply_id: r, session_id: SESSION },
  ];
  return sseStream(conn, items, 3);
}

export function sampleCapture(): Capture {
  return {
    header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'replyscope-sample', created: new Date(T0).toISOString(), pageUrl: 'http://127.0.0.1:8000/' },
    records: [...agentscopeSession(), ...piStream(), ...brokenStream()],
  };
}

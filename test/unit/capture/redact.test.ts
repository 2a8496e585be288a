import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { redactCapture, maskText } from '../../../src/core/capture/redact.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import type { Capture, ChunkRecord, ConnectionRecord, MessageRecord, NoticeRecord } from '../../../src/core/capture/model.ts';
import { chunkTexts, readSse } from '../../../src/core/frames/read-body.ts';
import { cut, cutsFor, toRecords, utf8 } from '../frames/helpers.ts';

const conn: ConnectionRecord = {
  kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'https://app/', method: 'POST', url: 'https://api/s?token=abc123',
  requestHeaders: [['content-type', 'application/json'], ['x-user-id', 'alice']],
  requestBody: { text: '{"model":{"id":"gpt-x","api":"openai-completions","provider":"p"},"prompt":"secret plan"}', size: 80 },
  status: 200, responseHeaders: [['content-type', 'text/event-stream'], ['set-cookie', 'sid=1']], startTime: 1, responseTime: 2,
};
const events = [
  { type: 'TEXT_BLOCK_DELTA', reply_id: 'r1', block_id: 'b1', delta: 'My password is hunter2' },
  { type: 'TOOL_CALL_DELTA', reply_id: 'r1', tool_call_id: 't1', delta: '{"path": "/home/al' },
];
const body = events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join('') + ': keep-alive Grüße\n\n';

function capture(cuts: number[] = []): Capture {
  return {
    header: makeHeader('test', { created: '2026-01-01T00:00:00Z' }),
    records: [conn, ...toRecords(cut(utf8(body), cuts), 'c', 10),
      { kind: 'message', conn: 'c', t: 20, type: 'message', data: '{"type":"x","text":"private"}', lastEventId: '' },
      { kind: 'end', conn: 'c', t: 30, state: 'complete' }],
  };
}

const chunksOf = (c: Capture) => c.records.filter((r): r is ChunkRecord => r.kind === 'chunk');

describe('redaction', () => {
  it('masks header values and query values but keeps how to read the body', () => {
    const out = redactCapture(capture(), { headers: true });
    const c = out.records.find((r): r is ConnectionRecord => r.kind === 'connection') as ConnectionRecord;
    expect(c.url).toBe('https://api/s?token=%E2%80%A2%E2%80%A2%E2%80%A2');
    expect(c.requestHeaders).toEqual([['content-type', 'application/json'], ['x-user-id', '•••']]);
    expect(c.responseHeaders).toEqual([['content-type', 'text/event-stream'], ['set-cookie', '•••']]);
    expect(c.requestBody).toEqual(conn.requestBody);
  });

  it('masks request body strings, keeping the model identity analysis needs', () => {
    const c = redactCapture(capture(), { requestBodies: true }).records.find((r) => r.kind === 'connection') as ConnectionRecord;
    expect(JSON.parse(c.requestBody?.text ?? '')).toEqual({ model: { id: 'gpt-x', api: 'openai-completions', provider: 'p' }, prompt: 'xxxxxx xxxx' });
  });

  it('masks JSON string values in the stream, keeping it valid SSE with the same events and ids', () => {
    const out = redactCapture(capture(), { textContent: true });
    const frames = readSse(chunkTexts(chunksOf(out)), { ended: true }).frames;
    const data = frames.filter((f) => f.kind === 'data').map((f) => JSON.parse(f.data));
    expect(data).toEqual([
      { type: 'TEXT_BLOCK_DELTA', reply_id: 'r1', block_id: 'b1', delta: maskText('My password is hunter2') },
      { type: 'TOOL_CALL_DELTA', reply_id: 'r1', tool_call_id: 't1', delta: '{"path": "/xxxx/xx' }, // masked as JSON: keys kept, as in parsed events
    ]);
    expect(frames.find((f) => f.kind === 'comment')?.data).toBe('xxxx-xxxxx xxxxx');
    expect(JSON.stringify(out)).not.toMatch(/hunter2|private|Grüße/);
    expect((out.records.find((r) => r.kind === 'message') as MessageRecord).data).toBe('{"type":"x","text":"xxxxxxx"}');
    expect(out.records[0]).toMatchObject({ kind: 'notice', level: 'info', text: expect.stringMatching(/^Redacted for export: text content/) } satisfies Partial<NoticeRecord>);
  });

  it('property: the redacted stream has the same frames whatever the original chunking, and declared bytes match', () => {
    fc.assert(
      fc.property(cutsFor(utf8(body).length), (cuts) => {
        const out = redactCapture(capture(cuts), { textContent: true });
        const ref = redactCapture(capture(), { textContent: true });
        const read = (c: Capture) => readSse(chunkTexts(chunksOf(c)), { ended: true }).frames.map((f) => [f.kind, f.data]);
        expect(read(out)).toEqual(read(ref));
        for (const ch of chunksOf(out)) expect(ch.bytes).toBe(utf8(ch.text ?? '').length);
        const order = out.records.map((r) => r.kind);
        expect(order.indexOf('end')).toBeGreaterThan(order.lastIndexOf('chunk'));
      }),
      { numRuns: 100 },
    );
  });

  it('returns the capture untouched when nothing is asked', () => {
    const c = capture();
    expect(redactCapture(c, {})).toBe(c);
  });
});

describe('redaction of what an eviction kept derived', () => {
  it('masks the derived messages and the unfinished line, keeping ids and the data: prefix', () => {
    const secret = 'my secret prompt 4242';
    const capture = {
      header: { kind: 'header' as const, format: 'replyscope-capture' as const, version: 1 as const, tool: 't', created: '' },
      records: [
        { kind: 'connection' as const, id: 'c', transport: 'fetch' as const, frameUrl: '', method: 'GET', url: 'http://x/s', requestHeaders: [], startTime: 0 },
        { kind: 'evicted' as const, conn: 'c', t: 1, chunks: 3, messages: 0, bytes: 100, derived: {
          events: 3, carry: `data: {"type":"TEXT_BLOCK_DELTA","delta":"${secret}`, dialect: 'agentscope',
          replies: [{ id: 'r1', name: 'Friday', role: 'assistant', message: { id: 'r1', role: 'assistant', content: [{ type: 'text', id: 'b1', text: secret }] } }],
        } },
      ],
    };
    const out = redactCapture(capture, { headers: false, requestBodies: false, textContent: true });
    const text = JSON.stringify(out.records);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('4242');
    const ev = out.records.find((r) => r.kind === 'evicted') as any;
    expect(ev.derived.carry.startsWith('data: ')).toBe(true);
    expect(ev.derived.replies[0].message.content[0].id).toBe('b1');
    expect(ev.derived.replies[0].message.content[0].type).toBe('text');
  });
});

describe('redaction of streamed tool-call arguments', () => {
  const header = { kind: 'header' as const, format: 'replyscope-capture' as const, version: 1 as const, tool: 't', created: '' };
  const args = '{"city": "Zürich", "units": 1.10, "days": [1, 2], "metric": true, "note": null}';
  const pieces = ['{"ci', 'ty": "Zü', 'rich", "units": 1.', '10, "days": [1, ', '2], "metric": tr', 'ue, "note": nu', 'll}'];
  const capture = (body: string, requestBody?: string): Capture => ({
    header,
    records: [
      { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'POST', url: 'http://x/s', requestHeaders: [], startTime: 0, status: 200,
        responseHeaders: [['content-type', 'text/event-stream']], ...(requestBody ? { requestBody: { text: requestBody, size: requestBody.length } } : {}) },
      { kind: 'chunk', conn: 'c', t: 1, bytes: Buffer.byteLength(body), text: body },
      { kind: 'end', conn: 'c', t: 2, state: 'complete' },
    ],
  });
  const sse = (events: object[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  const analyse = (c: Capture) => analyzeCapture(c)[0];
  const codes = (c: Capture) => analyse(c).diagnostics.map((d) => d.code).sort();

  it('AgentScope: the masked input is still JSON, and the diagnostics are the same (it was "not valid JSON")', () => {
    const e = (type: string, extra: object) => ({ id: 'e', created_at: '2026-01-01T00:00:00', metadata: {}, type, reply_id: 'r', ...extra });
    const body = sse([e('REPLY_START', { session_id: 's', name: 'n' }), e('TOOL_CALL_START', { tool_call_id: 't', tool_call_name: 'weather' }),
      ...pieces.map((delta) => e('TOOL_CALL_DELTA', { tool_call_id: 't', delta })), e('TOOL_CALL_END', { tool_call_id: 't' }), e('REPLY_END', { session_id: 's' })]);
    expect(args).toBe(pieces.join(''));
    const plain = capture(body);
    const masked = redactCapture(plain, { textContent: true });
    expect(JSON.stringify(masked.records)).not.toMatch(/Zürich|Z\\u00fcrich/);
    expect(codes(masked)).toEqual(codes(plain));
    const reply = analyse(masked).replies[0];
    const input = (reply.history.at(reply.history.length - 1) as { content: { type: string; input?: string }[] }).content.find((b) => b.type === 'tool_call')!.input!;
    expect(JSON.parse(input)).toEqual({ city: 'xxxxxx', units: 1.1, days: [1, 2], metric: true, note: null });
  });

  it('pi: toolcall_delta pieces too', () => {
    const request = JSON.stringify({ model: { id: 'm', api: 'openai-completions', provider: 'p' }, context: { messages: [] } });
    const body = sse([{ type: 'start' }, { type: 'toolcall_start', contentIndex: 0, id: 'call_1', toolName: 'weather' },
      ...pieces.map((delta) => ({ type: 'toolcall_delta', contentIndex: 0, delta })), { type: 'toolcall_end', contentIndex: 0 },
      { type: 'done', reason: 'toolUse', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } }]);
    const plain = capture(body, request);
    const masked = redactCapture(plain, { textContent: true });
    expect(codes(masked)).toEqual(codes(plain));
    const reply = analyse(masked).replies[0];
    const call = (reply.history.at(reply.history.length - 1) as { content: { type: string; arguments?: unknown }[] }).content.find((b) => b.type === 'toolCall')!;
    expect(call.arguments).toEqual({ city: 'xxxxxx', units: 1.1, days: [1, 2], metric: true, note: null });
  });
});

// Writing out what holds a reconstructed message with a value nested 100,000 deep: a legacy (camelCase) AgentScope
// stream keeps its free-form values at any depth (agentscope-typescript reads them with JSON.parse), so its replies'
// messages — and the eviction digest that keeps them when the memory cap evicts the stream's head — hold them.
// JSON.stringify and recursive walks of such a message overflowed the stack: the panel's messages export failed, and
// so did writing (capture log, HAR) or redacting a capture whose digest held one. Written whole now (json-text.ts).
import { describe, expect, it } from 'vitest';
import { buildExport } from '../../../panel/store/export.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import { readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { writeHar } from '../../../src/core/capture/har.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';
import type { Capture, ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { redactCapture } from '../../../src/core/capture/redact.ts';

const DEPTH = 100_000;
const deep = (leaf: string) => `${'{"a":'.repeat(DEPTH)}${JSON.stringify(leaf)}${'}'.repeat(DEPTH)}`;
const header = { kind: 'header' as const, format: 'replyscope-capture' as const, version: 1 as const, tool: 't', created: '' };
const conn: ConnectionRecord = { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: 'https://app.example/', method: 'GET',
  url: 'https://api.example/s', requestHeaders: [], startTime: 0, status: 200, responseHeaders: [['content-type', 'text/event-stream']] };
const chunk = (text: string, t: number): ChunkRecord => ({ kind: 'chunk', conn: 'c', t, bytes: Buffer.byteLength(text), text });
const data = (line: string) => `data: ${line}\n\n`;

/** The stream's head (evicted in the digest cases) holds the deep value; the tail goes on with the same reply. */
const head = ['{"type":"RUN_STARTED","replyId":"r","sessionId":"s","name":"n"}',
  '{"type":"TOOL_RESULT_START","replyId":"r","toolCallId":"t","toolCallName":"x"}',
  `{"type":"TOOL_RESULT_END","replyId":"r","toolCallId":"t","state":"success","metadata":${deep('deepsecret')}}`].map(data);
const tail = ['{"type":"TEXT_BLOCK_START","replyId":"r","blockId":"b"}', '{"type":"TEXT_BLOCK_DELTA","replyId":"r","blockId":"b","delta":"top secret"}',
  '{"type":"RUN_FINISHED","replyId":"r"}'].map(data);
const end = { kind: 'end' as const, conn: 'c', t: 9, state: 'complete' as const };

const whole = (): Capture => ({ header, records: [conn, ...[...head, ...tail].map((l, i) => chunk(l, i + 1)), end] });
function evicted(): Capture {
  const digest = new EvictionDigest(conn);
  head.forEach((l, i) => digest.push(chunk(l, i + 1)));
  return { header, records: [conn, { kind: 'evicted', conn: 'c', t: 4, chunks: head.length, messages: 0, bytes: 0, derived: digest.derived() },
    ...tail.map((l, i) => chunk(l, i + 4)), end] };
}

/** A reply's final message as text without white space (the deep value is laid out down to 1000 levels only). */
const finalText = (v: ConnectionView) => {
  const h = v.replies[0].history;
  return JSON.stringify(h.at(h.length - 1), (k, x: unknown) => (k === 'metadata' && x && typeof x === 'object' && 'a' in x ? '<deep>' : x));
};
const squeezed = (text: string) => text.replace(/\s+/g, '');

describe('exports of a message holding a value nested 100,000 deep', () => {
  it('the panel\'s messages export writes it whole', () => {
    const f = buildExport(whole(), { kind: 'messages', redaction: {} });
    const messages = JSON.parse(f.text) as { reply: string }[];
    expect(messages.map((m) => m.reply)).toEqual(['r']);
    expect(squeezed(f.text)).toContain(`"metadata":${deep('deepsecret')}`);
    expect(f.text.startsWith('[\n  {\n    "connection": "c",')).toBe(true); // laid out as before
  });

  it('an eviction digest holding it: written to a capture log and a HAR, both read back to the same replies', () => {
    const capture = evicted();
    const expected = finalText(analyzeCapture(capture)[0]);
    const log = writeCaptureLog(capture);
    expect(squeezed(log)).toContain(deep('deepsecret'));
    expect(finalText(analyzeCapture(readCaptureLog(log))[0])).toBe(expected);
    const har = writeHar(capture);
    expect(finalText(analyzeCapture(loadInput(har, 'x.har'))[0])).toBe(expected);
    // And through the panel's export, which writes in parts.
    expect(buildExport(capture, { kind: 'capture-log', redaction: {} }).text).toBe(log);
  });

  it('an eviction digest holding it, redacted: its strings masked, its structure kept, written whole', () => {
    const capture = evicted();
    const out = redactCapture(capture, { textContent: true });
    const log = writeCaptureLog(out);
    expect(log).not.toMatch(/secret/);
    expect(squeezed(log)).toContain(deep('xxxxxxxxxx'));
    const read = (c: Capture) => analyzeCapture(c)[0].events.map((e) => [e.type, e.valid]);
    expect(read(readCaptureLog(log))).toEqual(read(capture));
    // The panel's redacted export (a notice of its own redaction time aside, the same records).
    const exported = buildExport(capture, { kind: 'capture-log', redaction: { textContent: true } }).text;
    expect(exported).not.toMatch(/secret/);
    expect(readCaptureLog(exported).records.filter((r) => r.kind !== 'notice')).toHaveLength(readCaptureLog(log).records.filter((r) => r.kind !== 'notice').length);
    expect(squeezed(exported)).toContain(deep('xxxxxxxxxx'));
  });
});

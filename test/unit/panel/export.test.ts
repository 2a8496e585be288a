// Export builders over the real core: capture log round trip, connection selection, one reply's events as a
// fixture, reconstructed messages, diagnostics report, and redaction reaching every format.
import { describe, expect, it } from 'vitest';
import { buildExport, selectConnections } from '../../../panel/store/export.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { readCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { loadInput } from '../../../src/core/capture/load-input.ts';

const sample = sampleCapture();
const none = {};

describe('buildExport', () => {
  it('writes a capture log that reads back to the same records', () => {
    const f = buildExport(sample, { kind: 'capture-log', redaction: none });
    expect(f.name).toMatch(/\.replyscope\.ndjson$/);
    expect(readCaptureLog(f.text).records).toEqual(sample.records);
  });

  it('a connection still streaming is written with an "open" end, so the file does not read as live elsewhere', () => {
    const live = { ...sample, records: sample.records.filter((r) => !(r.kind === 'end' && r.conn === 'tab1:2')) };
    expect(analyzeCapture(live).find((c) => c.record.id === 'tab1:2')!.state).toBe('live');
    const f = buildExport(live, { kind: 'capture-log', redaction: none });
    const back = readCaptureLog(f.text);
    expect(back.records.filter((r) => r.kind === 'end' && r.conn === 'tab1:2')).toEqual([expect.objectContaining({ state: 'open' })]);
    expect(analyzeCapture(back).find((c) => c.record.id === 'tab1:2')!.state).toBe('open');
    // Ended where its data did, not at the time of the export (a file's open connection got months of duration).
    const lastT = Math.max(...live.records.filter((r) => r.kind === 'chunk' && r.conn === 'tab1:2').map((r) => (r as { t: number }).t));
    expect(back.records.find((r) => r.kind === 'end' && r.conn === 'tab1:2')).toMatchObject({ t: lastT });
    expect(analyzeCapture(loadInput(buildExport(live, { kind: 'har', redaction: none }).text, 'x.har')).map((c) => c.state)).not.toContain('live');
  });

  it('exports only the selected connections', () => {
    const f = buildExport(sample, { kind: 'capture-log', connections: ['tab1:2'], redaction: none });
    const recs = readCaptureLog(f.text).records;
    expect(new Set(recs.map((r) => (r.kind === 'connection' ? r.id : 'conn' in r ? r.conn : '')))).toEqual(new Set(['tab1:2']));
    expect(recs).toEqual(selectConnections(sample, ['tab1:2']).records);
  });

  it('exports a HAR that imports back to the same streams', () => {
    const f = buildExport(sample, { kind: 'har', redaction: none });
    const back = analyzeCapture(loadInput(f.text, f.name));
    const orig = analyzeCapture(sample);
    expect(back.map((c) => c.events.map((e) => e.rawText))).toEqual(orig.map((c) => c.events.map((e) => e.rawText)));
  });

  it("exports one reply's events, in order, as a JSON fixture", () => {
    const conn = analyzeCapture(sample).find((c) => c.record.id === 'tab1:1')!;
    const reply = conn.replies[0];
    const f = buildExport(sample, { kind: 'reply-events', reply: { connection: 'tab1:1', reply: reply.id }, redaction: none });
    expect(JSON.parse(f.text)).toEqual(reply.eventIndices.map((i) => conn.events[i].raw));
    // (Said when the file is made: the analysis that finds the reply is part of making it, in slices.)
    expect(() => buildExport(sample, { kind: 'reply-events', reply: { connection: 'tab1:1', reply: 'nope' }, redaction: none }).text).toThrow(/nope/);
  });

  it('exports the final message of every reply and a diagnostics report with titles', () => {
    const conns = analyzeCapture(sample);
    const messages = JSON.parse(buildExport(sample, { kind: 'messages', redaction: none }).text);
    expect(messages.map((m: { reply: string }) => m.reply)).toEqual(conns.flatMap((c) => c.replies.map((r) => r.id)));
    const first = conns[0].replies[0];
    expect(messages[0].message).toEqual(JSON.parse(JSON.stringify(first.history.at(first.history.length - 1))));
    const report = JSON.parse(buildExport(sample, { kind: 'diagnostics', redaction: none }).text);
    const broken = report.find((r: { connection: string }) => r.connection === 'tab1:3');
    expect(broken.diagnostics.length).toBe(conns[2].diagnostics.length);
    expect(broken.diagnostics.every((d: { title?: string }) => typeof d.title === 'string')).toBe(true);
  });

  it('redacts text content in derived exports too', () => {
    const plain = buildExport(sample, { kind: 'messages', redaction: none }).text;
    const red = buildExport(sample, { kind: 'messages', redaction: { textContent: true } }).text;
    expect(plain).toContain('Q3 revenue');
    expect(red).not.toContain('Q3 revenue');
    const log = buildExport(sample, { kind: 'capture-log', redaction: { headers: true, requestBodies: true, textContent: true } }).text;
    expect(log).not.toContain('You are a calculator');
    expect(log).not.toContain('EMEA');
  });

  it('a reply\'s events keep every token as it arrived (an integer beyond 2^53 was rounded by a parse and stringify)', () => {
    const ev = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', metadata: {}, reply_id: 'r', ...o })}\n\n`;
    const text = ev({ type: 'REPLY_START', session_id: 's', name: 'n' }).replace('"name":"n"', '"name":"n","trace":1234567890123456789');
    const capture = { header: sample.header, records: [
      { kind: 'connection' as const, id: 'c', transport: 'fetch' as const, frameUrl: '', method: 'GET', url: 'https://a.test/s', requestHeaders: [], startTime: 0, status: 200, responseHeaders: [['content-type', 'text/event-stream']] as [string, string][] },
      { kind: 'chunk' as const, conn: 'c', t: 1, bytes: Buffer.byteLength(text), text },
      { kind: 'end' as const, conn: 'c', t: 2, state: 'complete' as const },
    ] };
    const f = buildExport(capture, { kind: 'reply-events', reply: { connection: 'c', reply: 'r' }, redaction: none });
    expect(f.text).toContain('"trace": 1234567890123456789');
    expect(JSON.parse(f.text)).toHaveLength(1);
  });

  it('the messages export ends a reply as replay does: a pi stream the page aborted ends in the client\'s failed message', () => {
    const request = JSON.stringify({ model: { id: 'm', api: 'openai-completions', provider: 'p' }, context: { messages: [] } });
    const body = ['{"type":"start"}', '{"type":"text_start","contentIndex":0}', '{"type":"text_delta","contentIndex":0,"delta":"Hi"}'].map((d) => `data: ${d}\n\n`).join('');
    const capture = { header: sample.header, records: [
      { kind: 'connection' as const, id: 'p', transport: 'fetch' as const, frameUrl: '', method: 'POST', url: 'https://a.test/api/stream', requestHeaders: [], requestBody: { text: request, size: request.length }, startTime: 0, status: 200, responseHeaders: [['content-type', 'text/event-stream']] as [string, string][] },
      { kind: 'chunk' as const, conn: 'p', t: 1, bytes: Buffer.byteLength(body), text: body },
      { kind: 'end' as const, conn: 'p', t: 2, state: 'aborted' as const },
    ] };
    const [message] = JSON.parse(buildExport(capture, { kind: 'messages', redaction: none }).text);
    expect(message.message).toMatchObject({ stopReason: 'aborted', errorMessage: expect.any(String) });
  });
});

describe('exports of a stream resumed on a new request (Last-Event-ID)', () => {
  const frame = (k: number, o: object) => `id: ${k}\ndata: ${JSON.stringify({ reply_id: 'r1', created_at: `2026-03-01T09:00:0${k}`, ...o })}\n\n`;
  const conn = (id: string, t: number, headers: [string, string][]) => ({ kind: 'connection' as const, id, transport: 'fetch' as const, frameUrl: 'https://app.example/',
    method: 'GET', url: 'https://app.example/stream', requestHeaders: headers, status: 200, responseHeaders: [['content-type', 'text/event-stream']] as [string, string][], startTime: t });
  const chunk = (id: string, t: number, text: string) => ({ kind: 'chunk' as const, conn: id, t, bytes: text.length, text });
  const capture = { header: sample.header, records: [
    conn('d:1', 1000, []),
    chunk('d:1', 1001, frame(0, { type: 'REPLY_START', session_id: 's', name: 'F', role: 'assistant' }) + frame(1, { type: 'TEXT_BLOCK_START', block_id: 'b' })),
    { kind: 'end' as const, conn: 'd:1', t: 1002, state: 'error' as const },
    conn('d:2', 2000, [['last-event-id', '1']]),
    chunk('d:2', 2001, frame(2, { type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'whole' }) + frame(3, { type: 'TEXT_BLOCK_END', block_id: 'b' }) + frame(4, { type: 'REPLY_END', session_id: 's' })),
    { kind: 'end' as const, conn: 'd:2', t: 2002, state: 'complete' as const },
  ] };

  it('the messages mark the reply the resuming connection continued; a HAR export reads back linked', () => {
    const messages = JSON.parse(buildExport(capture, { kind: 'messages', redaction: none }).text);
    expect(messages.map((m: { connection: string; continuesConnection?: string; message: { content: { text?: string }[] } }) => [m.connection, m.continuesConnection, m.message.content[0]?.text]))
      .toEqual([['d:1', undefined, ''], ['d:2', 'd:1', 'whole']]);
    const har = buildExport(capture, { kind: 'har', redaction: { headers: true, textContent: true } });
    expect(analyzeCapture(loadInput(har.text, har.name))[1].resumes).toMatchObject({ conn: 'd:1', eventId: '1', continuing: ['r1'] });
  });
});

describe('a HAR export of several pages', () => {
  const conn = (id: string, t: number, frameUrl: string) => ({ kind: 'connection' as const, id, transport: 'fetch' as const, frameUrl, method: 'GET',
    url: `https://api.example/stream?id=${id}`, requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']] as [string, string][], startTime: t });
  const capture = { header: { ...sample.header, pageUrl: 'https://app.example/next?q=secret#frag' }, records: [
    conn('a', 1000, 'https://app.example/chat?session=secret'), { kind: 'end' as const, conn: 'a', t: 1001, state: 'complete' as const },
    { kind: 'navigation' as const, t: 2000, url: 'https://app.example/next?q=secret#frag' },
    conn('b', 2001, 'https://app.example/next?q=secret#frag'), { kind: 'end' as const, conn: 'b', t: 2002, state: 'complete' as const },
  ] };

  it('names its pages by their URLs, masked as every URL is when headers are redacted', () => {
    const titles = (text: string) => (JSON.parse(text).log.pages as { title: string }[]).map((p) => p.title);
    expect(titles(buildExport(capture, { kind: 'har', redaction: none }).text)).toEqual(['https://app.example/chat?session=secret', 'https://app.example/next?q=secret#frag']);
    const red = buildExport(capture, { kind: 'har', redaction: { headers: true } }).text;
    expect(titles(red)).toEqual(['https://app.example/chat?session=%E2%80%A2%E2%80%A2%E2%80%A2', 'https://app.example/next?q=%E2%80%A2%E2%80%A2%E2%80%A2#%E2%80%A2%E2%80%A2%E2%80%A2']);
    expect(red).not.toContain('secret');
  });
});

// A body Replyscope holds cut must be written cut in HAR 1.2's own terms, so that a HAR reader that ignores our
// `_replyscope` fields does not read it as whole: a request's bodySize more than its postData text, or -1 (not known);
// a response's content.size more than its text. Our own import reads the file back exactly with those fields, and
// without them a request body cut, a response body as the rest kept. The messages listed beside a body whose head was
// evicted begin at its first whole event, as the analysis reads it, and the entry says the first ones were evicted.
import { describe, expect, it } from 'vitest';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { importHar, writeHar, type HarEventSourceMessage } from '../../../src/core/capture/har.ts';
import { harParts } from '../../../src/core/capture/har-parts.ts';
import type { BodyRecord, Capture, ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { recordsToBytes } from '../../../src/core/frames/utf8-chunks.ts';

const T0 = Date.parse('2026-11-29T21:00:00.000Z');
const sse = 'data: {"type":"REPLY_START","reply_id":"r1"}\n\ndata: {"type":"TEXT_BLOCK_DELTA","delta":"Grüße"}\n\n';
const bytesOf = (text: string) => new TextEncoder().encode(text).length;

// pi's proxy request cut by a tool that wrote no size: it starts as JSON and does not parse.
const cutPi = '{"model":{"api":"openai-completions","provider":"openai","id":"gpt-x"},"context":{"messages":[{"role":"user","content":"Grü';

type HarJson = { log: { entries: { request: { bodySize: number; postData?: { text: string } }; response: { content: { size: number; text?: string; comment?: string } }; _replyscope?: unknown }[]; _replyscope?: unknown } };

/** How a HAR reader that knows nothing of `_replyscope` reads a body: its text against the size the HAR gives. */
function plainReading(size: number, text: string | undefined): 'whole' | 'cut' | 'size not known' {
  if (size < 0) return 'size not known';
  return text !== undefined && bytesOf(text) >= size ? 'whole' : 'cut';
}

function stripped(har: HarJson): HarJson {
  const copy = JSON.parse(JSON.stringify(har)) as HarJson;
  delete copy.log._replyscope;
  for (const e of copy.log.entries) delete e._replyscope;
  return copy;
}

function capture(requestBody: BodyRecord | undefined, before: Capture['records'] = []): Capture {
  const conn: ConnectionRecord = {
    kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'POST', url: 'https://proxy.example/api/stream',
    requestHeaders: [['content-type', 'application/json'], ['accept', 'text/event-stream']], ...(requestBody ? { requestBody } : {}),
    status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']], startTime: T0, responseTime: T0 + 40,
  };
  return {
    header: makeHeader('replyscope 0.1.0', { created: new Date(T0).toISOString() }),
    records: [conn, ...before, { kind: 'chunk', conn: 'c1', t: T0 + 100, bytes: bytesOf(sse), text: sse }, { kind: 'end', conn: 'c1', t: T0 + 500, state: 'complete' }],
  };
}

describe('a cut request body in our HAR', () => {
  it('read from a HAR with bodySize -1 (sized by its text), is written with bodySize -1: no reader takes it for whole, ours reads it back cut', () => {
    const browserHar = {
      log: { version: '1.2', creator: { name: 'some tool', version: '1' }, entries: [{
        startedDateTime: new Date(T0).toISOString(), time: 500, timings: { send: 0, wait: 40, receive: 460 }, _resourceType: 'fetch',
        request: { method: 'POST', url: 'https://proxy.example/api/stream', headers: [], bodySize: -1, postData: { mimeType: 'application/json', text: cutPi } },
        response: { status: 200, headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: bytesOf(sse), mimeType: 'text/event-stream', text: sse } },
      }] },
    };
    const held = importHar(browserHar);
    const body = (held.records[0] as ConnectionRecord).requestBody;
    expect(body).toEqual({ text: cutPi, size: bytesOf(cutPi), truncated: true });
    const har = JSON.parse(writeHar(held)) as HarJson;
    const request = har.log.entries[0].request;
    expect(request.postData?.text).toBe(cutPi);
    expect(request.bodySize).toBe(-1);
    expect(plainReading(request.bodySize, request.postData?.text)).not.toBe('whole');
    expect(importHar(har)).toEqual(held); // ours, with `_replyscope`: exact
    // Ours without it (a HAR tool stripped our fields): cut, sized by its text — as held. With bodySize its text's size
    // it was read whole, and a pi proxy request so cut was no longer told by its head.
    expect((importHar(stripped(har)).records[0] as ConnectionRecord).requestBody).toEqual(body);
  });

  it('writes -1 when the size kept says no more than the text (a stream body the tap did not read), the size when it says more', () => {
    const bodySizeOf = (b: BodyRecord) => (JSON.parse(writeHar(capture(b))) as HarJson).log.entries[0].request;
    const unread: BodyRecord = { text: '<ReadableStream body: not captured>', size: 0, truncated: true };
    expect(bodySizeOf(unread).bodySize).toBe(-1);
    // Cut by the tap's cap: the size the page sent, more than the text — a reader takes it for cut (and so does ours).
    const capped: BodyRecord = { text: cutPi, size: 3 * 1024 * 1024, truncated: true };
    const request = bodySizeOf(capped);
    expect(request.bodySize).toBe(3 * 1024 * 1024);
    expect(plainReading(request.bodySize, request.postData?.text)).toBe('cut');
    const har = JSON.parse(writeHar(capture(capped))) as HarJson;
    expect((importHar(stripped(har)).records[0] as ConnectionRecord).requestBody).toEqual(capped);
    // A whole body keeps its size, though its masked text is shorter; one the capture let go has no postData.
    expect(bodySizeOf({ text: '{"q":"•••"}', size: 40 }).bodySize).toBe(40);
    expect(bodySizeOf({ size: 60_000, truncated: true, abridged: true })).toMatchObject({ bodySize: 60_000 });
  });
});

describe('a response body whose head the memory cap evicted, in our HAR', () => {
  const evicted: Capture['records'] = [{ kind: 'evicted', conn: 'c1', t: T0 + 300, chunks: 2, messages: 0, bytes: 70 }];

  it('is written with the whole body\'s size and a comment: no reader takes the rest kept for the whole body', () => {
    const cap = capture(undefined, evicted);
    const text = writeHar(cap);
    const har = JSON.parse(text) as HarJson;
    const content = har.log.entries[0].response.content;
    expect(content.text).toBe(sse);
    expect(content.size).toBe(70 + bytesOf(sse));
    expect(content.comment).toBe('body cut: its first 70 bytes were evicted to keep the capture within its memory cap; text holds the rest');
    expect(plainReading(content.size, content.text)).toBe('cut');
    expect([...harParts(cap)].join('')).toBe(text); // written as it is made, the same
    expect(importHar(har)).toEqual(cap); // ours, with `_replyscope`: exact
    const back = importHar(stripped(har)).records.filter((r): r is ChunkRecord => r.kind === 'chunk');
    expect(new TextDecoder().decode(recordsToBytes(back))).toBe(sse); // ours without it: the rest kept, as before
  });

  it('an eviction after the chunks kept (where a live panel\'s log may hold it) cut none of them, nor does a capture with none', () => {
    const after = capture(undefined);
    after.records.splice(2, 0, ...evicted);
    const content = (JSON.parse(writeHar(after)) as HarJson).log.entries[0].response.content;
    expect(content).toEqual({ size: bytesOf(sse), mimeType: 'text/event-stream', text: sse });
    // Every chunk evicted: no text kept, the body's size still said.
    const all = capture(undefined, evicted);
    all.records.splice(2, 1);
    const none = (JSON.parse(writeHar(all)) as HarJson).log.entries[0].response.content;
    expect(none).toMatchObject({ size: 70, text: '' });
    expect(plainReading(none.size, none.text)).toBe('cut');
  });
});

describe('the messages of a connection whose head the memory cap evicted, in our HAR', () => {
  type Entry = HarJson['log']['entries'][number] & { comment?: string; _eventSourceMessages?: HarEventSourceMessage[]; _webSocketMessages?: { type: string; data: string }[] };
  const entryOf = (cap: Capture) => (JSON.parse(writeHar(cap)) as HarJson).log.entries[0] as Entry;

  // Named events (Anthropic's shape). The chunk evicted ended between a frame's `event:`/`id:` lines and its `data:`
  // line: the text kept begins with the data of an event whose name and id went with it.
  const head = 'event: message_start\ndata: {"type":"message_start"}\n\nevent: content_block_delta\nid: 7\n';
  const kept = [
    'data: {"type":"content_block_delta","delta":{"text":"Grü"}}\n\nevent: content_block_delta\nid: 8\ndata: {"type":"content_block_delta","delta":{"text":"ße"}}\n\nevent: message_stop\n',
    'data: {"type":"message_stop"}\n\n',
  ];
  const cutSse = (): Capture => {
    const cap = capture(undefined, [{ kind: 'evicted', conn: 'c1', t: T0 + 90, chunks: 1, messages: 0, bytes: bytesOf(head) }]);
    const at = cap.records.findIndex((r) => r.kind === 'chunk');
    cap.records.splice(at, 1, ...kept.map((text, k): ChunkRecord => ({ kind: 'chunk', conn: 'c1', t: T0 + 100 * (k + 1), bytes: bytesOf(text), text })));
    return cap;
  };

  it('an SSE body cut mid-frame: _eventSourceMessages begin at its first whole event, as the analysis reads it, and the entry says why', () => {
    const cap = cutSse();
    const text = writeHar(cap);
    const entry = (JSON.parse(text) as HarJson).log.entries[0] as Entry;
    // The rest of the event cut through was the first message, its data under no name and no id: one never sent.
    expect(entry._eventSourceMessages).toEqual([
      { time: (T0 + 100) / 1000, eventName: 'content_block_delta', eventId: '8', data: '{"type":"content_block_delta","delta":{"text":"ße"}}' },
      { time: (T0 + 200) / 1000, eventName: 'message_stop', eventId: '8', data: '{"type":"message_stop"}' },
    ]);
    const frames = [...analyzeCapture(cap)[0].frames].filter((f) => f.kind === 'data').map((f) => [f.event ?? 'message', f.data]);
    expect(entry._eventSourceMessages?.map((m) => [m.eventName, m.data])).toEqual(frames);
    expect(entry.comment).toBe(`messages cut: the body's first ${bytesOf(head)} bytes were evicted to keep the capture within its memory cap; ` +
      '_eventSourceMessages begins at the first whole event of the rest, after its first blank line (the text before it may be the rest of an event the eviction cut through); ' +
      'the last event ID at the cut is not known: an event before the first id: line kept has no eventId');
    expect(entry.response.content.text).toBe(kept.join('')); // the body is the bytes kept, as before
    expect([...harParts(cap)].join('')).toBe(text); // written as it is made, the same
    expect(importHar(JSON.parse(text))).toEqual(cap); // ours, with `_replyscope`: exact
    // Not evicted, or evicted after the chunks kept (where a live panel's log may hold it): read whole, no comment.
    const whole = cutSse();
    whole.records.splice(1, 1);
    const after = cutSse();
    after.records.splice(after.records.length - 1, 0, ...after.records.splice(1, 1));
    for (const cap of [whole, after]) {
      const entry = entryOf(cap);
      expect(entry._eventSourceMessages?.[0]).toMatchObject({ eventName: 'message', eventId: '', data: '{"type":"content_block_delta","delta":{"text":"Grü"}}' });
      expect(entry._eventSourceMessages).toHaveLength(3);
      expect(entry.comment).toBeUndefined();
    }
  });

  it('read back without our fields, the body kept comes back at its messages\' times: the text before the first whole event goes with it', () => {
    const har = JSON.parse(writeHar(cutSse())) as HarJson;
    const back = importHar(stripped(har)).records.filter((r): r is ChunkRecord => r.kind === 'chunk');
    expect(new TextDecoder().decode(recordsToBytes(back))).toBe(kept.join(''));
    // The messages, one fewer than the text's data frames, did not line up with them: the body was one chunk of no
    // time known (a time to first token "—").
    expect(back.map((c) => Math.round(c.t))).toEqual([T0 + 100, T0 + 200]);
    expect(new TextDecoder().decode(recordsToBytes(back.slice(0, 1)))).toBe(kept[0].slice(0, kept[0].indexOf('event: message_stop')));
  });

  const messagesCut = (transport: 'eventsource' | 'websocket', where: 'head' | 'after'): Capture => {
    const cap = capture(undefined);
    const conn = cap.records[0] as ConnectionRecord;
    cap.records[0] = { ...conn, transport, method: 'GET', ...(transport === 'websocket' ? { responseHeaders: [] } : {}) };
    const messages: Capture['records'] = ['{"n":3}', '{"n":4}'].map((data, k) => ({
      kind: 'message', conn: 'c1', t: T0 + 100 * (k + 1), type: transport === 'websocket' && k === 0 ? 'send' : 'message', data, lastEventId: transport === 'eventsource' ? String(k + 3) : '',
    }));
    const evicted: Capture['records'] = [{ kind: 'evicted', conn: 'c1', t: T0 + 90, chunks: 0, messages: 2, bytes: 14 }];
    cap.records.splice(1, 1, ...(where === 'head' ? [...evicted, ...messages] : [...messages, ...evicted]));
    return cap;
  };

  it('an EventSource\'s or a WebSocket\'s evicted messages went whole: the rest are listed as they are, and the entry says the first ones were evicted', () => {
    for (const transport of ['eventsource', 'websocket'] as const) {
      const cap = messagesCut(transport, 'head');
      const text = writeHar(cap);
      const entry = (JSON.parse(text) as HarJson).log.entries[0] as Entry;
      const list = transport === 'websocket' ? '_webSocketMessages' : '_eventSourceMessages';
      expect(entry[list]?.map((m) => m.data)).toEqual(['{"n":3}', '{"n":4}']);
      expect(entry.comment).toBe(`messages cut: the first 2 were evicted to keep the capture within its memory cap; ${list} holds the rest`);
      expect([...harParts(cap)].join('')).toBe(text);
      expect(importHar(JSON.parse(text))).toEqual(cap);
      // Evicted after the messages kept (where a live panel's log may hold it): none of these was.
      expect(entryOf(messagesCut(transport, 'after')).comment).toBeUndefined();
    }
  });
});

describe('a head the panel\'s Clear dropped, the stream still open, in our HAR', () => {
  type Entry = HarJson['log']['entries'][number] & { comment?: string };
  // Was "evicted to keep the capture within its memory cap" of a capture nowhere near its cap.
  const clear = 'dropped by the panel\'s Clear, the stream still open';
  const cap = 'evicted to keep the capture within its memory cap';

  it('says Clear in the body\'s comment and the messages\' — or the cap and Clear, when both dropped some', () => {
    for (const [cleared, words] of [[2, clear], [1, `${cap} and ${clear}`], [0, cap]] as const) {
      const held = capture(undefined, [{ kind: 'evicted', conn: 'c1', t: T0 + 300, chunks: 2, messages: 0, bytes: 70, ...(cleared ? { cleared } : {}) }]);
      const text = writeHar(held);
      const entry = (JSON.parse(text) as HarJson).log.entries[0] as Entry;
      expect(entry.response.content.comment).toBe(`body cut: its first 70 bytes were ${words}; text holds the rest`);
      expect(entry.comment).toMatch(new RegExp(`^messages cut: the body's first 70 bytes were ${words.replace(/[()]/g, '\\$&')}; `));
      expect([...harParts(held)].join('')).toBe(text); // written as it is made, the same
    }
  });

  it('says Clear of a WebSocket\'s messages', () => {
    const held = capture(undefined);
    held.records[0] = { ...(held.records[0] as ConnectionRecord), transport: 'websocket', method: 'GET', responseHeaders: [] };
    held.records.splice(1, 1, { kind: 'evicted', conn: 'c1', t: T0 + 90, chunks: 0, messages: 2, bytes: 14, cleared: 2 },
      { kind: 'message', conn: 'c1', t: T0 + 100, type: 'message', data: '{"n":3}', lastEventId: '' });
    expect(((JSON.parse(writeHar(held)) as HarJson).log.entries[0] as Entry).comment).toBe(`messages cut: the first 2 were ${clear}; _webSocketMessages holds the rest`);
  });
});

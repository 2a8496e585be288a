// A browser's HAR holds the credentials the tap masks as it captures: imported as they were, the viewer showed them
// and an export without Redact wrote them out. The import masks them as the tap does, and says what it masked.
import { describe, expect, it } from 'vitest';
import { makeHeader, readCaptureLog, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { importHar, writeHar } from '../../../src/core/capture/har.ts';
import type { Capture, ConnectionRecord, MessageRecord } from '../../../src/core/capture/model.ts';
import { isPiProxyRequest, piRequestJson } from '../../../src/core/capture/stream-request.ts';
import { maskSecretsInJson } from '../../../src/core/capture/credential-mask.ts';

const sse = 'data: {"type":"REPLY_START","reply_id":"r1"}\n\n';
const piBody = JSON.stringify({
  model: { api: 'openai-completions', provider: 'openai', id: 'gpt-x' },
  context: { messages: [{ role: 'user', content: 'hi' }] },
  options: { apiKey: 'sk-SECRET-BODY', temperature: 0.2 },
});
// A tool that cut the body (its bodySize says more): the cut ends in the secret.
const cutBody = '{"model":{"api":"openai-completions","id":"gpt-x"},"context":{"messages":[]},"options":{"apiKey":"sk-SECRET-CU';

const request = (url: string, headers: [string, string][], body?: string, bodySize?: number) => ({
  method: body === undefined ? 'GET' : 'POST', url, httpVersion: 'http/1.1', headers: headers.map(([name, value]) => ({ name, value })),
  queryString: [], cookies: [], headersSize: -1, bodySize: bodySize ?? (body === undefined ? 0 : new TextEncoder().encode(body).length),
  ...(body === undefined ? {} : { postData: { mimeType: 'application/json', text: body } }),
});
const response = (status: number, mimeType: string, text: string, headers: [string, string][] = []) => ({
  status, statusText: '', httpVersion: 'http/1.1', headers: [['content-type', mimeType], ...headers].map(([name, value]) => ({ name, value })),
  cookies: [], content: { size: text.length, mimeType, text }, redirectURL: '', headersSize: -1, bodySize: -1,
});
const entry = (at: string, req: object, res: object, extra: object = {}) => ({
  pageref: 'page_1', startedDateTime: at, time: 100, cache: {}, timings: { send: 1, wait: 10, receive: 89 }, request: req, response: res, ...extra,
});

/** What Chrome's "Save all as HAR" writes of a page that talks to its agent with its credentials. */
function browserHar() {
  return {
    log: {
      version: '1.2', creator: { name: 'WebInspector', version: '537.36' },
      pages: [{ startedDateTime: '2026-11-29T21:00:00.000Z', id: 'page_1', title: 'https://app.example/chat', pageTimings: {} }],
      entries: [
        // An SSE stream fetched with an API key, a bearer token and a session cookie; the answer sets a cookie.
        entry('2026-11-29T21:00:01.000Z',
          request('https://api.example/v1/stream', [['Authorization', 'Bearer SECRET-AUTH'], ['Cookie', 'sid=SECRET-COOKIE'], ['x-api-key', 'SECRET-KEY'], ['Accept', 'text/event-stream']]),
          response(200, 'text/event-stream', sse, [['Set-Cookie', 'session=SECRET-SETCOOKIE; HttpOnly']]), { _resourceType: 'fetch' }),
        // pi's proxy request, its apiKey in the body, sent to a URL with userinfo: answered 401 (kept: its failure).
        entry('2026-11-29T21:00:02.000Z', request('https://pi:SECRET-USERINFO@proxy.example/api/stream', [['content-type', 'application/json']], piBody),
          response(401, 'application/json', '{"error":"unauthorized"}'), { _resourceType: 'fetch' }),
        // The same request, its postData cut by the tool that wrote the HAR (shorter than its bodySize).
        entry('2026-11-29T21:00:03.000Z', request('https://proxy.example/api/stream', [], cutBody, 4096),
          response(500, 'application/json', '{"error":"boom"}'), { _resourceType: 'fetch' }),
        // A socket whose first message the page sent is its auth message.
        entry('2026-11-29T21:00:04.000Z', request('wss://agent.example/ws', [['Cookie', 'sid=SECRET-WSCOOKIE']]), response(101, 'x-unknown', ''), {
          _resourceType: 'websocket',
          _webSocketMessages: [
            { type: 'send', time: 1795467604, opcode: 1, data: '{"type":"auth","token":"SECRET-WSTOKEN"}' },
            { type: 'receive', time: 1795467604.5, opcode: 1, data: '{"type":"REPLY_START","reply_id":"r2","token":"not the page\'s"}' },
          ],
        }),
        // Not a stream: skipped, and named in the note — without its userinfo.
        entry('2026-11-29T21:00:05.000Z', request('https://me:SECRET-SKIPPED@api.example/agents', [['Authorization', 'Bearer SECRET-SKIPPEDAUTH']]), response(200, 'application/json', '[]')),
      ],
    },
  };
}

const conns = (cap: Capture) => cap.records.filter((r): r is ConnectionRecord => r.kind === 'connection');
const notes = (cap: Capture) => cap.records.flatMap((r) => (r.kind === 'notice' && r.conn === undefined ? [r.text] : []));

describe('HAR import of a browser\'s HAR masks its credentials as the tap does', () => {
  const cap = importHar(browserHar());
  const [stream, pi, cut, socket] = conns(cap);

  it('request and response headers: the values of credential headers, the names kept', () => {
    expect(stream.requestHeaders).toEqual([['Authorization', '•••'], ['Cookie', '•••'], ['x-api-key', '•••'], ['Accept', 'text/event-stream']]);
    expect(stream.responseHeaders).toEqual([['content-type', 'text/event-stream'], ['Set-Cookie', '•••']]);
    expect(socket.requestHeaders).toEqual([['Cookie', '•••']]);
  });

  it('a URL\'s userinfo', () => {
    expect(pi.url).toBe('https://•••@proxy.example/api/stream');
    expect(stream.url).toBe('https://api.example/v1/stream');
  });

  it('a JSON request body: pi\'s options.apiKey, the body still pi\'s request, its size the one sent', () => {
    expect(JSON.parse(pi.requestBody?.text as string)).toEqual({ ...JSON.parse(piBody), options: { apiKey: '•••', temperature: 0.2 } });
    expect(pi.requestBody?.size).toBe(new TextEncoder().encode(piBody).length);
    expect(isPiProxyRequest(pi.requestBody)).toBe(true);
  });

  it('a request body the HAR holds cut: its head, a secret the cut ends masked too', () => {
    expect(cut.requestBody).toEqual({ text: cutBody.replace('sk-SECRET-CU', '•••'), size: 4096, truncated: true });
    expect(isPiProxyRequest(cut.requestBody)).toBe(true);
  });

  it('what the page sent on a socket, masked as a request body is; what it received as it came', () => {
    const messages = cap.records.filter((r): r is MessageRecord => r.kind === 'message' && r.conn === socket.id);
    expect(messages.map((m) => [m.type, m.data])).toEqual([
      ['send', '{"type":"auth","token":"•••"}'],
      ['message', '{"type":"REPLY_START","reply_id":"r2","token":"not the page\'s"}'],
    ]);
  });

  it('one note says what was masked, with no secret in it; the note of skipped entries names a URL without its userinfo', () => {
    const masked = notes(cap).filter((n) => n.startsWith('Credentials masked on import'));
    expect(masked).toEqual([
      'Credentials masked on import, as the extension masks them when it captures: authorization, cookie, x-api-key and ' +
        'set-cookie headers in 2 entries; the userinfo of 2 URLs; apiKey in 2 request bodies; token in 1 WebSocket message sent.',
    ]);
    expect(notes(cap).find((n) => /are not streams/.test(n))).toContain('GET https://•••@api.example/agents (application/json)');
  });

  it('the capture log and the HAR exported from the import hold no secret; read back, they are the capture', () => {
    const log = writeCaptureLog(cap);
    const har = writeHar(cap);
    for (const text of [JSON.stringify(cap.records), log, har]) expect(text).not.toMatch(/SECRET/);
    expect(readCaptureLog(log)).toEqual(cap);
    expect(importHar(JSON.parse(har))).toEqual(cap);
    // Read as a browser's (without our fields), it has nothing left to mask: the same connections, no note of masking.
    const plain = JSON.parse(har);
    delete plain.log._replyscope;
    for (const e of plain.log.entries) delete e._replyscope;
    const again = importHar(plain);
    expect(conns(again).map((c) => [c.url, c.requestHeaders, c.responseHeaders])).toEqual(conns(cap).map((c) => [c.url, c.requestHeaders, c.responseHeaders]));
    expect(notes(again).filter((n) => n.startsWith('Credentials masked'))).toEqual([]);
  });

  it('our own records in a HAR are read exactly (masked when captured), and only a browser\'s entries added to it are masked', () => {
    // A capture an older version imported with a header in clear: its records are what they are, byte for byte.
    const ours: Capture = {
      header: makeHeader('replyscope 0.1.0', { created: '2026-11-29T20:00:00.000Z' }),
      records: [
        { kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'POST', url: 'https://old:pw@api.example/s',
          requestHeaders: [['authorization', 'Bearer OLD']], requestBody: { text: '{"apiKey":"OLD"}', size: 16 }, status: 200,
          responseHeaders: [['content-type', 'text/event-stream']], startTime: Date.parse('2026-11-29T20:00:01.000Z') },
        { kind: 'end', conn: 'c1', t: Date.parse('2026-11-29T20:00:02.000Z'), state: 'complete' },
      ],
    };
    const merged = JSON.parse(writeHar(ours));
    merged.log.entries.push(browserHar().log.entries[0]);
    const back = importHar(merged);
    expect(back.records.slice(0, ours.records.length)).toEqual(ours.records);
    const added = conns(back).at(-1) as ConnectionRecord;
    expect(added.requestHeaders.filter(([k]) => k !== 'Accept').map(([, v]) => v)).toEqual(['•••', '•••', '•••']);
    expect(notes(back)).toContain('Credentials masked on import, as the extension masks them when it captures: authorization, cookie, x-api-key and set-cookie headers in 1 entry.');
  });

  it('the note names each key whose value went: in an array under it, written twice, in a cut head\'s array', () => {
    const stream = (at: string, body: string, bodySize?: number) =>
      entry(at, request('https://api.example/v1/stream', [], body, bodySize), response(200, 'text/event-stream', sse), { _resourceType: 'fetch' });
    const har = { log: { ...browserHar().log, entries: [
      stream('2026-11-29T21:00:01.000Z', '{"credentials":["SECRET-1","SECRET-2"],"q":"hi"}'),
      stream('2026-11-29T21:00:02.000Z', '{"token":"SECRET-3","token":null}'),
      stream('2026-11-29T21:00:03.000Z', '{"q":"hi","client_secret":["SECRET-4","SECR', 4096),
      stream('2026-11-29T21:00:04.000Z', '{"q":"no credential here"}'),
    ] } };
    const cap = importHar(har);
    expect(JSON.stringify(cap)).not.toMatch(/SECRET/);
    expect(notes(cap)).toContain('Credentials masked on import, as the extension masks them when it captures: credentials, token and client_secret in 3 request bodies.');
  });
});

describe('a request body a tool cut without saying so (bodySize -1 or missing: HAR 1.2 allows both)', () => {
  // Not read as cut (nothing says it is more than its text), and no whole JSON: the masking could not parse it, and
  // its secret was imported, shown and exported in clear.
  const cutEntry = (at: string, bodySize: number | undefined) => {
    const req: Record<string, unknown> = request('https://proxy.example/api/stream', [['Accept', 'text/event-stream']], cutBody, bodySize ?? 0);
    if (bodySize === undefined) delete req.bodySize;
    return entry(at, req, response(500, 'application/json', '{"error":"boom"}'), { _resourceType: 'fetch' });
  };
  const har = { log: { ...browserHar().log, entries: [cutEntry('2026-11-29T21:00:01.000Z', -1), cutEntry('2026-11-29T21:00:02.000Z', undefined)] } };
  const cap = importHar(har);

  it('is masked by its head, and the note counts it', () => {
    const bodies = conns(cap).map((c) => c.requestBody);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body?.text).toBe(cutBody.replace('sk-SECRET-CU', '•••'));
    expect(JSON.stringify(cap)).not.toMatch(/SECRET/);
    expect(readCaptureLog(writeCaptureLog(cap)).records.some((r) => JSON.stringify(r).includes('SECRET'))).toBe(false);
    expect(notes(cap)).toContain('Credentials masked on import, as the extension masks them when it captures: apiKey in 2 request bodies.');
  });
});

describe('a masked request body in a HAR read without our fields', () => {
  // The record keeps the size the page sent, its text the masked one ("sk-…" → "•••": shorter); the export writes
  // that size as bodySize, and a reader without `_replyscope` took the shorter postData for a cut body.
  const sent = JSON.stringify({ ...JSON.parse(piBody), options: { apiKey: 'sk-SECRET-A-LONG-ONE-1234567890', temperature: 0.2 } });
  const masked = maskSecretsInJson(sent, JSON);
  const sentBytes = new TextEncoder().encode(sent).length;
  const withBody = (text: string, size: number, mime = 'application/json'): Capture => ({
    header: makeHeader('replyscope 0.1.0', { created: '2026-11-29T20:00:00.000Z' }),
    records: [
      { kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'POST', url: 'https://proxy.example/api/stream',
        requestHeaders: [['content-type', mime]], requestBody: { text, size }, status: 200,
        responseHeaders: [['content-type', 'text/event-stream']], startTime: Date.parse('2026-11-29T20:00:01.000Z') },
      { kind: 'chunk', conn: 'c1', t: Date.parse('2026-11-29T20:00:01.500Z'), bytes: sse.length, text: sse },
      { kind: 'end', conn: 'c1', t: Date.parse('2026-11-29T20:00:02.000Z'), state: 'complete' },
    ],
  });
  const readBack = (cap: Capture) => {
    const har = JSON.parse(writeHar(cap));
    delete har.log._replyscope;
    return conns(importHar(har))[0].requestBody;
  };

  it('is read whole — its size the one sent, not cut, pi\'s request read whole — while a text that only parses as a prefix stays cut', () => {
    expect(masked.length).toBeLessThan(sent.length);
    const body = readBack(withBody(masked, sentBytes));
    expect(body).toEqual({ text: masked, size: sentBytes });
    expect(piRequestJson(body)).toEqual(JSON.parse(masked)); // its context too, not the head's {model}
    // A body cut inside its object never parses: cut. A bare number's prefix parses, and so does an NDJSON body's
    // first line: both stay cut.
    const head = masked.slice(0, 80);
    expect(readBack(withBody(head, sentBytes))).toEqual({ text: head, size: sentBytes, truncated: true });
    expect(readBack(withBody('12', 5))).toEqual({ text: '12', size: 5, truncated: true });
    const line = '{"q":"hi"}\n';
    expect(readBack(withBody(line, 2 * line.length, 'application/x-ndjson'))).toEqual({ text: line, size: 2 * line.length, truncated: true });
  });
});

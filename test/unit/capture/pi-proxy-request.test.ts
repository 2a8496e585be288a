// pi-agent-core's streamProxy asks for its stream by its request body ({model, context, options}, no Accept), so
// Replyscope tells such a connection by that body. The tap keeps only the first 1 MiB of a body, and a long
// conversation's context passes it: the cut text no longer parsed, and the request was not recognised — its error
// answer not recorded, its stream read as no client's. A cut body is told by its head: `model` whole, with a string
// `api`, then `"context": {`. The bodies here are what the real streamProxy sent to a server on 127.0.0.1.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { exportHar } from '../../../src/core/capture/har.ts';
import { importHar } from '../../../src/core/capture/har-import.ts';
import { redactCapture } from '../../../src/core/capture/redact.ts';
import type { BodyRecord, Capture, ConnectionRecord } from '../../../src/core/capture/model.ts';
import { isPiProxyRequest, PI_PROXY_HEAD_MAX, piProxyRequestModel, piRequestJson } from '../../../src/core/capture/stream-request.ts';
import { captureBody, deferBody, isPiProxyRequestBody, REQUEST_BODY_CAP } from '../../../src/extension/tap/request-info.ts';
import { withoutRequestBody } from '../../../src/extension/retirement.ts';
import { longPiContext, realProxyExchange, type ProxyExchange } from '../pi/real-proxy-request.ts';
import { piTestModel } from '../pi/support.ts';

const model = piTestModel({ id: 'model-x', provider: 'provider-y', headers: { 'x-team': 'a' }, compat: { supportsStore: false } });
const denied = { status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'invalid api key' }) };
const cut = (text: string): BodyRecord => ({ text, size: REQUEST_BODY_CAP * 2, truncated: true });

let real: ProxyExchange;
/** The body the tap records of it: the first MiB, cut at a character boundary. */
let recorded: BodyRecord;

beforeAll(async () => {
  real = await realProxyExchange(model, longPiContext(400), denied, { temperature: 0.5, sessionId: 's-1', maxTokens: 100 });
  recorded = captureBody(real.sent) as BodyRecord;
});

describe('the request body the real streamProxy sends', () => {
  it('is {model, context, options} in that order, with no Accept that asks for a stream, and past the cap', () => {
    expect(real.headers.accept).toBe('*/*'); // fetch's default: the body is what tells the request
    expect(real.sent.startsWith('{"model":{"id":"model-x",')).toBe(true);
    expect(real.sent.indexOf('"context":{')).toBeGreaterThan(real.sent.indexOf('"model":{'));
    expect(real.sent.indexOf('"options":{')).toBeGreaterThan(real.sent.indexOf('"context":{'));
    expect(real.sentBytes).toBeGreaterThan(REQUEST_BODY_CAP);
    expect(recorded).toMatchObject({ size: real.sentBytes, truncated: true });
    expect(new TextEncoder().encode(recorded.text).length).toBeLessThanOrEqual(REQUEST_BODY_CAP);
    expect(() => JSON.parse(recorded.text as string)).toThrow(); // the whole-body rule cannot read it
  });

  it('cut at the cap as the tap cuts it, is still told as streamProxy\'s request, with its model', () => {
    expect(isPiProxyRequestBody(recorded)).toBe(true); // the tap's rule, with the JSON.parse taken at install
    expect(isPiProxyRequest(recorded)).toBe(true);
    expect(piProxyRequestModel(recorded)).toEqual(model);
    expect(piRequestJson(recorded)).toEqual({ model });
  });

  it('posted as bytes (a Request, a buffer) and cut by the cap through a character, is kept as text and told alike', async () => {
    // A conversation whose body has a character across the cap: the system prompt (before the messages) padded by
    // as many bytes as the last character's inside byte before the cap lies before it (🙂, ü, —).
    const bodyOf = (context: unknown) => new TextEncoder().encode(JSON.stringify({ model, context, options: {} }));
    const plain = longPiContext(400);
    const before = bodyOf(plain);
    let inside = REQUEST_BODY_CAP;
    while ((before[inside] & 0xc0) !== 0x80) inside--;
    const context = { ...plain, systemPrompt: `${'.'.repeat(REQUEST_BODY_CAP - inside)}${plain.systemPrompt}` };
    const exchange = await realProxyExchange(model, context, denied);
    const bytes = new TextEncoder().encode(exchange.sent);
    expect(Buffer.from(bytes).equals(bodyOf(context))).toBe(true); // what streamProxy sent (options: none given)
    expect(bytes[REQUEST_BODY_CAP] & 0xc0).toBe(0x80); // a continuation byte: the cap cuts a character
    for (const asBytes of [(deferBody(bytes) as () => BodyRecord)(), captureBody(bytes.buffer) as BodyRecord, (await captureBody(new Blob([bytes]))) as BodyRecord]) {
      expect(asBytes).toMatchObject({ size: bytes.length, truncated: true });
      expect(exchange.sent.startsWith(asBytes.text as string)).toBe(true);
      expect(REQUEST_BODY_CAP - new TextEncoder().encode(asBytes.text).length).toBeLessThan(4);
      expect(isPiProxyRequestBody(asBytes)).toBe(true);
    }
    // Bytes that are no UTF-8 before the cut stay bytes.
    const binary = new Uint8Array(REQUEST_BODY_CAP + 10).fill(0xff);
    expect(captureBody(binary)).toMatchObject({ base64: expect.any(String), truncated: true });
  });

  it('the whole body is told as before; a whole body that does not parse is not (only a cut one is read by its head)', () => {
    expect(isPiProxyRequest({ text: real.sent })).toBe(true);
    expect(piProxyRequestModel({ text: real.sent })).toEqual(model);
    expect(isPiProxyRequest({ text: recorded.text })).toBe(false);
  });

  it('is read only up to the context: what is parsed is the model, not the megabyte', () => {
    let parsed = 0;
    const parse = (text: string) => {
      parsed += text.length;
      return JSON.parse(text) as unknown;
    };
    expect(isPiProxyRequest(recorded, parse)).toBe(true);
    expect(parsed).toBe(JSON.stringify(model).length);
  });

  it('every cut: recognised exactly when the context has started', () => {
    const brace = real.sent.indexOf('"context":{') + '"context":'.length;
    for (let n = 0; n <= brace + 300; n++) {
      expect(isPiProxyRequest(cut(real.sent.slice(0, n))), `cut after ${n} characters`).toBe(n > brace);
    }
  });
});

describe('a cut body that is not streamProxy\'s request', () => {
  const head = (s: string) => isPiProxyRequest(cut(s));
  const m = JSON.stringify(model);

  it('other JSON with a "context" key, or the word in a string', () => {
    expect(head('{"context":{"messages":[{"role":"user","content":"hi')).toBe(false); // no model
    expect(head('{"messages":[{"role":"user"}],"context":{"a":')).toBe(false);
    expect(head('{"model":"gpt-4o","context":{"messages":[')).toBe(false); // OpenAI-style: model a string
    expect(head('{"model":{"id":"m"},"context":{"messages":[')).toBe(false); // no api
    expect(head('{"model":{"api":7},"context":{"messages":[')).toBe(false); // api no string
    expect(head('{"model":null,"context":{"messages":[')).toBe(false);
    expect(head(`{"prompt":"${JSON.stringify(`{"model":${m},"context":{`).slice(1, -1)}...`)).toBe(false); // inside a string
    expect(head(`{"note":"the context of it","model":${m},"text":"…`)).toBe(false); // the word, and no context key
    expect(head(`{"model":${m},"contexts":{"a":`)).toBe(false);
    expect(head(`{"model":${m},"Context":{"a":`)).toBe(false);
  });

  it('cut inside the model object, or before the context\'s value', () => {
    for (let n = 1; n < m.length; n++) expect(head(`{"model":${m.slice(0, n)}`)).toBe(false);
    expect(head(`{"model":${m}`)).toBe(false);
    expect(head(`{"model":${m},"context"`)).toBe(false);
    expect(head(`{"model":${m},"context": `)).toBe(false);
  });

  it('arrays: a context that is one, a body that is one', () => {
    expect(head(`{"model":${m},"context":[{"role":"user"`)).toBe(false);
    expect(head(`{"model":${m},"context":"{`)).toBe(false);
    expect(head(`[{"model":${m},"context":{"messages":[`)).toBe(false);
    expect(head(`{"model":[${m}],"context":{"messages":[`)).toBe(false);
  });

  it('a head that is no JSON: the model, or a member before the context, broken', () => {
    expect(head(`{"model":{"api":"a",},"context":{"messages":[`)).toBe(false);
    expect(head(`{"model":{"api":"a"} "context":{"messages":[`)).toBe(false);
    expect(head(`{"model":${m},"options":{"t":01},"context":{"messages":[`)).toBe(false);
    expect(head(`{"model":${m}}`)).toBe(false); // a whole object with no context
    expect(head(`x{"model":${m},"context":{`)).toBe(false);
    expect(head('<ReadableStream body: not captured>')).toBe(false); // what the tap records of a stream body
  });
});

describe('key orders other than streamProxy\'s, in a cut body', () => {
  const head = (s: string) => isPiProxyRequest(cut(s));
  const m = JSON.stringify(model);

  it('members before the model or between it and the context are read (and must be whole JSON); whitespace is JSON\'s', () => {
    expect(head(`{"options":{"temperature":0.5,"headers":{"a":"}"}},"model":${m},"context":{"messages":[`)).toBe(true);
    expect(head(`{"model":${m},"options":{"temperature":0.5},"context":{"messages":[`)).toBe(true);
    expect(head(`{"model":${m},"n":-1.5e3,"ok":true,"s":"\\"\\\\","context":{"messages":[`)).toBe(true);
    expect(head(`\n{ "model" : ${JSON.stringify(model, null, 2)},\r\n\t"context" : {\n  "messages": [`)).toBe(true);
  });

  it('the context before the model is not: the model lies past the whole context, which is what the cap cut', () => {
    // Sorted keys (context, model, options) give this order. A whole body in any order is parsed whole.
    const sorted = JSON.stringify({ context: longPiContext(1), model, options: {} });
    expect(isPiProxyRequest({ text: sorted })).toBe(true);
    expect(head(sorted.slice(0, -20))).toBe(false);
  });

  it('a key written twice: the last before the context counts (JSON.parse keeps the last; streamProxy never writes one twice)', () => {
    expect(head(`{"model":"gpt-4o","model":${m},"context":{"messages":[`)).toBe(true);
    expect(head(`{"model":${m},"model":"gpt-4o","context":{"messages":[`)).toBe(false);
  });

  it('the context must start within the head\'s first 64 KiB', () => {
    const padded = (n: number) => `{"model":${JSON.stringify({ ...model, pad: 'x'.repeat(n) })},"context":{"messages":[`;
    const fits = PI_PROXY_HEAD_MAX - 1 - (padded(0).indexOf('"context":{') + '"context":'.length); // its { the last character read
    expect(head(padded(fits))).toBe(true);
    expect(head(padded(fits + 1))).toBe(false);
  });
});

describe('a HAR whose request text was cut', () => {
  /** The capture the tap records of the real exchange: the cut body, the 401 answer. */
  function capture(): Capture {
    const conn: ConnectionRecord = {
      kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'http://127.0.0.1/app', method: 'POST', url: 'http://127.0.0.1/api/stream',
      requestHeaders: [['content-type', 'application/json']], requestBody: recorded, status: 401, statusText: 'Unauthorized',
      responseHeaders: [['content-type', 'application/json']], startTime: 1_000, responseTime: 1_010,
    };
    return {
      header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' },
      records: [conn, { kind: 'chunk', conn: 'c1', t: 1_020, bytes: denied.body.length, text: denied.body }, { kind: 'end', conn: 'c1', t: 1_030, state: 'complete' }],
    };
  }

  it('is told as streamProxy\'s request by its head when the entry\'s bodySize says the text is cut', () => {
    // A browser's reader of our HAR (no _replyscope): the entry is read like Chrome's — its 401 JSON answer is kept
    // only because the request asked for a stream.
    const har = JSON.parse(JSON.stringify(exportHar(capture()))) as { log: { entries: Record<string, unknown>[]; _replyscope?: unknown } };
    delete har.log._replyscope;
    for (const e of har.log.entries) delete e._replyscope;
    const back = importHar(har);
    const conn = back.records.find((r): r is ConnectionRecord => r.kind === 'connection');
    expect(conn?.requestBody).toEqual({ text: recorded.text, size: real.sentBytes, truncated: true });
    const [view] = analyzeCapture(back);
    expect(view.dialect).toBe('pi-proxy');
    expect(view.diagnostics.find((d) => d.code === 'pi.http-error')?.message).toContain(`"${real.message?.errorMessage}"`);
    // bodySize as large as the text: the HAR says the text is the whole body, and one that does not parse tells nothing.
    (har.log.entries[0].request as { bodySize: number }).bodySize = new TextEncoder().encode(recorded.text).length;
    expect(importHar(har).records.filter((r) => r.kind === 'connection')).toHaveLength(0);
  });

  it('is told so, and read as cut, when the entry\'s bodySize is -1 or missing (HAR 1.2: not known)', () => {
    // A tool that cut the text and wrote no size: the import masked it by its head as a cut one, but did not read it
    // as cut — the 401 to a request that asked for a stream by its body was skipped as "not a stream", and a stream
    // answering it lost the model its client starts from.
    const har = JSON.parse(JSON.stringify(exportHar(capture()))) as { log: { entries: Record<string, unknown>[]; _replyscope?: unknown } };
    delete har.log._replyscope;
    for (const e of har.log.entries) delete e._replyscope;
    const request = har.log.entries[0].request as { bodySize?: number };
    const textBytes = new TextEncoder().encode(recorded.text).length;
    for (const bodySize of [-1, undefined]) {
      if (bodySize === undefined) delete request.bodySize;
      else request.bodySize = bodySize;
      const back = importHar(har);
      const conn = back.records.find((r): r is ConnectionRecord => r.kind === 'connection');
      expect(conn?.requestBody?.text === recorded.text, `bodySize ${bodySize}`).toBe(true);
      expect(conn?.requestBody).toMatchObject({ size: textBytes, truncated: true });
      expect(piRequestJson(conn?.requestBody)).toEqual({ model });
      // Let go for the capture cap, it keeps the model its client reads (retirement.ts), not nothing.
      const stub = withoutRequestBody(conn as ConnectionRecord).requestBody;
      expect(JSON.parse(stub?.text ?? 'null')).toEqual({ model: { api: model.api, provider: model.provider, id: model.id }, context: {} });
      const [view] = analyzeCapture(back);
      expect(view?.dialect).toBe('pi-proxy');
    }
  });

  it('with the size not known, a whole JSON text stays whole, and an NDJSON one is not read as cut', () => {
    const body = (text: string, mimeType: string, bodySize?: number) => {
      const entry = {
        startedDateTime: '2026-11-29T21:00:01.000Z', time: 10, timings: { send: 1, wait: 1, receive: 8 }, _resourceType: 'fetch',
        request: { method: 'POST', url: 'https://proxy.example/api/stream', headers: [{ name: 'Accept', value: 'text/event-stream' }], ...(bodySize === undefined ? {} : { bodySize }), postData: { mimeType, text } },
        response: { status: 500, headers: [{ name: 'content-type', value: 'application/json' }], content: { size: 2, mimeType: 'application/json', text: '{}' } },
      };
      return importHar({ log: { version: '1.2', entries: [entry] } }).records.find((r): r is ConnectionRecord => r.kind === 'connection')?.requestBody;
    };
    const whole = JSON.stringify({ model, context: { messages: [] } });
    expect(body(whole, 'application/json', -1)).toEqual({ text: whole, size: whole.length });
    expect(body(whole, 'application/json')).toEqual({ text: whole, size: whole.length });
    expect(body('{"q":"a"}\n{"q":"b"}\n', 'application/x-ndjson', -1)).toEqual({ text: '{"q":"a"}\n{"q":"b"}\n', size: 20 });
    expect(body('token=abc', 'application/x-www-form-urlencoded', -1)).toEqual({ text: 'token=abc', size: 9 });
  });

  it('redacted first (Export with Redact), it is still told so: the record keeps the whole body\'s size, not its masked head\'s', () => {
    const redacted = redactCapture(capture(), { requestBodies: true });
    const body = redacted.records.find((r): r is ConnectionRecord => r.kind === 'connection')?.requestBody;
    expect(body).toMatchObject({ truncated: true, size: real.sentBytes }); // "Size in bytes of the whole body, even when truncated"
    const har = JSON.parse(JSON.stringify(exportHar(redacted))) as { log: { entries: Record<string, unknown>[]; _replyscope?: unknown } };
    delete har.log._replyscope;
    for (const e of har.log.entries) delete e._replyscope;
    const [view] = analyzeCapture(importHar(har));
    expect(view?.dialect).toBe('pi-proxy');
  });
});


// A pi chat's request body passes the tap's 1 MiB cap once its conversation is long: the record keeps the first MiB
// (`truncated`). Analysis reads two things of that body — that streamProxy sent it (the client, hence the dialect)
// and the model its reply's message starts from (api, provider, id) — and lost both with the parse of the cut text:
// proxy events reconstructed a message without its model, an error answer was a stream of no dialect, pi-ai's
// forwarded events were read as pi-ai's form. Each capture here holds what the REAL streamProxy sent to a server on
// 127.0.0.1 (cut as the tap cuts it) and what that server answered; the analysis must end as that client did.
import { fauxAssistantMessage, fauxText, registerFauxProvider, streamSimple } from '@mariozechner/pi-ai';
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import type { BodyRecord, CaptureRecord, ChunkRecord, ConnectionRecord, EvictionRecord } from '../../../src/core/capture/model.ts';
import { redactCapture } from '../../../src/core/capture/redact.ts';
import { withoutRequestBody } from '../../../src/extension/retirement.ts';
import { captureBody, REQUEST_BODY_CAP } from '../../../src/extension/tap/request-info.ts';
import { longPiContext, realProxyExchange, type ProxyAnswer } from '../pi/real-proxy-request.ts';
import { piTestModel } from '../pi/support.ts';
import { captureOf, cut, sseBody } from './support.ts';

const model = piTestModel({ id: 'model-x', provider: 'provider-y' });
const context = longPiContext(400);
const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
const usage = { input: 5, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 7, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

const noTimestamp = (m: unknown) => {
  const { timestamp: _t, ...rest } = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  return rest;
};

/** The real exchange, and the capture the tap makes of it: the body cut at the cap, the answer in `chunks`. */
async function captured(answer: ProxyAnswer, cuts: number[] = []) {
  const real = await realProxyExchange(model, context, answer);
  const requestBody = captureBody(real.sent) as BodyRecord;
  expect(requestBody.truncated).toBe(true);
  expect(real.sentBytes).toBeGreaterThan(REQUEST_BODY_CAP);
  const records = captureOf(cut(new TextEncoder().encode(answer.body), cuts), { contentType: answer.contentType }).map((r): CaptureRecord =>
    r.kind === 'connection' ? { ...r, method: 'POST', requestHeaders: [['content-type', 'application/json']], requestBody, status: answer.status } : r,
  );
  return { real, records, view: analyzeCapture({ header, records })[0] };
}

const proxyEvents = sseBody([
  { type: 'start' }, { type: 'text_start', contentIndex: 0 }, { type: 'text_delta', contentIndex: 0, delta: 'Der Inhalt: ' },
  { type: 'text_delta', contentIndex: 0, delta: 'Grüße.' }, { type: 'text_end', contentIndex: 0 }, { type: 'done', reason: 'stop', usage },
]);

describe('a pi proxy stream whose request body the cap cut', () => {
  it('proxy events: the pi-proxy dialect, and the message the client ended with, its model from the head', async () => {
    const { real, view } = await captured({ status: 200, contentType: 'text/event-stream', body: proxyEvents });
    expect(real.message).toMatchObject({ api: model.api, provider: 'provider-y', model: 'model-x' });
    expect(view.dialect).toBe('pi-proxy');
    const [reply] = view.replies;
    expect(noTimestamp(reply.history.at(reply.history.length - 1))).toEqual(noTimestamp(real.message));
    expect(view.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('an error answer (no pi event): the pi-proxy dialect, its failure as the client says it', async () => {
    const { real, view } = await captured({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'invalid api key' }) });
    expect(real.message).toMatchObject({ stopReason: 'error', errorMessage: 'Proxy error: invalid api key', model: 'model-x' });
    expect(view.dialect).toBe('pi-proxy');
    expect(view.diagnostics.find((d) => d.code === 'pi.http-error')?.message).toContain(`"${real.message?.errorMessage}"`);
  });

  it('redacted for a bug report (the cut body masked as the start of a JSON text), it still reads as streamProxy\'s', async () => {
    const { records } = await captured({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'invalid api key' }) });
    const redacted = redactCapture({ header, records }, { requestBodies: true }).records;
    const body = redacted.find((r): r is ConnectionRecord => r.kind === 'connection')?.requestBody;
    expect(body).toMatchObject({ truncated: true });
    expect(body?.text).not.toContain('Frage'); // the conversation masked (the model's id, api and provider are kept: structural)
    expect(analyzeCapture({ header, records: redacted })[0].dialect).toBe('pi-proxy');
  });

  it('pi-ai\'s events forwarded unstripped: read as streamProxy reads them (it ignores `partial`)', async () => {
    const faux = registerFauxProvider({ tokenSize: { min: 2, max: 4 } });
    let body = '';
    try {
      faux.setResponses([fauxAssistantMessage([fauxText('Reading it.')])]);
      for await (const ev of streamSimple(faux.getModel(), { messages: [] } as never, {})) body += `data: ${JSON.stringify(ev)}\n\n`;
    } finally {
      faux.unregister();
    }
    const { real, view } = await captured({ status: 200, contentType: 'text/event-stream', body });
    expect(view.dialect).toBe('pi-proxy');
    const [reply] = view.replies;
    expect(noTimestamp(reply.history.at(reply.history.length - 1))).toEqual(noTimestamp(real.message));
    expect(reply.diagnostics.map((d) => d.code)).toContain('pi.partial-ignored');
  });

  it('its head evicted for the memory cap: the client state derived from the start goes on to the same message', async () => {
    const ends = [...proxyEvents.matchAll(/\n\n/g)].map((m) => new TextEncoder().encode(proxyEvents.slice(0, m.index + 2)).length);
    const { real, records } = await captured({ status: 200, contentType: 'text/event-stream', body: proxyEvents }, ends);
    const conn = records[0] as ConnectionRecord;
    const chunks = records.filter((r): r is ChunkRecord => r.kind === 'chunk');
    const digest = new EvictionDigest(conn);
    for (const c of chunks.slice(0, 3)) digest.push(c);
    const evicted: EvictionRecord = { kind: 'evicted', conn: conn.id, t: chunks[2].t, chunks: 3, messages: 0, bytes: chunks.slice(0, 3).reduce((n, c) => n + c.bytes, 0), derived: digest.derived() };
    expect(evicted.derived?.pi).toMatchObject({ derived: true });
    const [view] = analyzeCapture({ header, records: [conn, evicted, ...records.filter((r) => r.kind !== 'connection' && !chunks.slice(0, 3).includes(r as ChunkRecord))] });
    expect(view.dialect).toBe('pi-proxy');
    const [reply] = view.replies;
    expect(reply.continuesEviction).toBe(true);
    expect(noTimestamp(reply.history.at(reply.history.length - 1))).toEqual(noTimestamp(real.message));
  });

  it('let go for the capture cap, its stub keeps the model the head shows (retirement.ts)', async () => {
    const { records } = await captured({ status: 401, contentType: 'application/json', body: JSON.stringify({ error: 'invalid api key' }) });
    const stub = withoutRequestBody(records[0] as Extract<CaptureRecord, { kind: 'connection' }>);
    expect(JSON.parse(stub.requestBody?.text as string)).toEqual({ model: { api: model.api, provider: 'provider-y', id: 'model-x' }, context: {} });
    const [view] = analyzeCapture({ header, records: [stub, ...records.slice(1)] });
    expect(view.dialect).toBe('pi-proxy');
  });
});

// pi's streamProxy posts its whole conversation with every turn ({model, context, options}), so under the capture cap
// its request bodies are let go like any chat's (src/extension/retirement.ts). But analysis reads two things of that
// body: that it is streamProxy's request (the client, hence the dialect: dialect.ts) and the model the reply's
// message starts from (api, provider, id). A stub with no text lost both: an old turn's reply had no model, and an
// error answer to the proxy was no pi stream at all. The stub keeps them.
import { describe, expect, it } from 'vitest';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord, ConnectionRecord, PageRecord } from '../../../src/core/capture/model.ts';
import { redactCapture } from '../../../src/core/capture/redact.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import { TabCapture, toCaptureRecords } from '../../../src/extension/tab-capture.ts';
import { piTestModel } from '../pi/support.ts';

const LIMIT = 256 * 1024;
const header = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
const model = piTestModel({ id: 'model-x', provider: 'provider-y' });
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const sse = (events: unknown[]) => events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');

/** Turn i of a pi chat: the conversation so far posted, a short reply streamed in streamProxy's form. */
function turn(i: number, opts: { status?: number } = {}): PageRecord[] {
  const id = `c${i}`;
  const context = { messages: Array.from({ length: i + 1 }, (_, k) => ({ role: 'user', content: `question ${k} `.padEnd(3000, '.'), timestamp: k })) };
  const body = JSON.stringify({ model, context, options: {} });
  const error = opts.status !== undefined && opts.status >= 400;
  const conn: ConnectionRecord = {
    kind: 'connection', id, transport: 'fetch', frameUrl: 'https://pi.test/', method: 'POST', url: 'https://pi.test/api/stream',
    requestHeaders: [['content-type', 'application/json']], requestBody: { text: body, size: body.length },
    status: opts.status ?? 200, responseHeaders: [['content-type', error ? 'application/json' : 'text/event-stream']], startTime: i,
  };
  const text = error ? JSON.stringify({ error: 'invalid api key' }) : sse([
    { type: 'start' }, { type: 'text_start', contentIndex: 0 }, { type: 'text_delta', contentIndex: 0, delta: `answer ${i}` },
    { type: 'text_end', contentIndex: 0 }, { type: 'done', reason: 'stop', usage },
  ]);
  return [conn, { kind: 'chunk', conn: id, t: i + 0.5, bytes: text.length, text }, { kind: 'end', conn: id, t: i + 0.9, state: 'complete' }];
}

/** A session through the relay's store; the capture as its snapshot and as a watcher fed the live records hold it. */
function session(turns: PageRecord[][]): { snapshot: CaptureRecord[]; watched: CaptureRecord[] } {
  const store = new CaptureStore(LIMIT);
  const watcher = new TabCapture();
  watcher.apply({ type: 'snapshot', docId: 'd', frameId: 0, frameUrl: 'https://pi.test/', isTop: true, siteOrigin: 'https://pi.test', siteEnabled: true, records: [], dropped: 0 });
  turns.forEach((records, i) => watcher.apply({ type: 'records', docId: 'd', records: store.add(records, i + 1).forward }));
  return { snapshot: toCaptureRecords(store.snapshot()), watched: watcher.records() };
}

const letGo = (records: readonly CaptureRecord[]) => records.filter((r): r is ConnectionRecord => r.kind === 'connection' && r.requestBody?.truncated === true);

describe('a pi chat whose request bodies the cap let go', () => {
  it('its old turns still read as streamProxy\'s, each reply starting from the model', () => {
    const { snapshot, watched } = session(Array.from({ length: 60 }, (_, i) => turn(i)));
    for (const records of [snapshot, watched, redactCapture({ header, records: snapshot }, { requestBodies: true }).records]) {
      const gone = letGo(records);
      expect(gone.length).toBeGreaterThan(10);
      const analysed = analyzeCapture({ header, records });
      for (const c of gone) {
        const conn = analysed.find((a) => a.record.id === c.id);
        const reply = conn?.replies.at(-1);
        expect(conn?.dialect).toBe('pi-proxy');
        expect(reply?.history.at(-1)).toMatchObject({ api: model.api, provider: 'provider-y', model: 'model-x', stopReason: 'stop' });
      }
      // The stub: the size, and of the text only what the client reads (the context, ~3 KB a message, went).
      expect(gone[0].requestBody).toMatchObject({ size: expect.any(Number), truncated: true, abridged: true });
      expect(gone[0].requestBody?.text?.length).toBeLessThan(200);
    }
  });

  it('an error answer to streamProxy\'s request is still told as the failure the client met', () => {
    const turns = Array.from({ length: 60 }, (_, i) => turn(i, i === 0 ? { status: 401 } : {}));
    const { snapshot } = session(turns);
    expect(letGo(snapshot).some((c) => c.id === 'c0')).toBe(true);
    const conn = analyzeCapture({ header, records: snapshot }).find((a) => a.record.id === 'c0');
    expect(conn?.dialect).toBe('pi-proxy');
    expect(conn?.diagnostics.find((d) => d.code === 'pi.http-error')?.message).toContain('invalid api key');
  });
});

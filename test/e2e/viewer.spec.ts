// The standalone viewer in Chromium: import files, pick a connection and reply, scrub with keys and the slider, and
// check what the bubble shows at chosen steps against the core's reconstruction computed here in Node.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sampleCapture } from '../../panel/dev/sample-capture.ts';
import { useViewer } from './support/viewer.ts';
import { CaptureAnalyzer, loadInput, writeCaptureLog, writeHar } from '../../panel/core-bridge.ts';
import { prettyJsonText } from '../../panel/lib/partial-json-view.ts';
import type { Capture, CaptureRecord, EndRecord } from '../../src/core/capture/model.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import { buildExport } from '../../panel/store/export.ts';

const viewer = useViewer('viewer');

const sample = sampleCapture();
const sampleLog = writeCaptureLog(sample);

function analyze(capture: Capture): ConnectionView[] {
  const a = new CaptureAnalyzer();
  a.push(capture.records);
  return a.connections();
}

type Block = Record<string, unknown>;
const contentOf = (m: unknown) => ((m as { content?: Block[] }).content ?? []) as Block[];

const openViewer = (): Promise<Page> => viewer.open();

async function importText(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('import-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(text) });
  await expect(page.getByTestId('status')).toContainText(`Imported ${name}`);
}

/** An SSE body of these events, one `data:` frame each. */
const sseOf = (...events: Record<string, unknown>[]) => events.map((o) => `data: ${JSON.stringify(o)}\n\n`).join('');
/** An AgentScope event of reply r1 at second `s`. */
const r1 = (type: string, s: number, extra: Record<string, unknown> = {}) =>
  ({ type, id: `e-${type}`, created_at: `2026-12-01T00:00:0${s}`, reply_id: 'r1', ...extra });

/** A capture log of one SSE connection whose body arrived in one chunk (`before`: records between it and the end). */
function oneStreamLog(body: string, opts: { id?: string; url?: string; requestBody?: string; before?: CaptureRecord[]; end?: Partial<EndRecord> } = {}): string {
  const id = opts.id ?? 'c';
  return writeCaptureLog({
    header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T00:00:00Z' },
    records: [
      {
        kind: 'connection', id, transport: 'fetch', frameUrl: 'http://127.0.0.1/', method: opts.requestBody ? 'POST' : 'GET', url: opts.url ?? 'http://127.0.0.1/stream',
        requestHeaders: [], ...(opts.requestBody ? { requestBody: { text: opts.requestBody, size: opts.requestBody.length } } : {}),
        status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 1, responseTime: 2,
      },
      { kind: 'chunk', conn: id, t: 3, bytes: Buffer.byteLength(body), text: body },
      ...(opts.before ?? []),
      { kind: 'end', conn: id, t: 4, state: 'complete', ...opts.end },
    ],
  });
}

/** Seek with the keyboard only: Home, then Shift+→ (10) and → (1). */
async function gotoStep(page: Page, k: number, total: number): Promise<void> {
  await page.keyboard.press('Home');
  for (let i = 0; i < Math.floor(k / 10); i++) await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < k % 10; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${k + 1} / ${total}\\b`));
}

async function bubbleTexts(page: Page): Promise<string[]> {
  return page.getByTestId('bubble').locator('[data-block-type="text"] .block-text').allTextContents();
}

test('the empty viewer offers a file, and the demo capture on a last line; no page, so no "agent streams" to wait for', async () => {
  const page = await openViewer();
  const empty = page.getByTestId('empty');
  await expect(empty).toHaveAttribute('data-host', 'viewer');
  await expect(empty.locator('strong')).toHaveText('Open or drop a capture');
  await expect(empty).not.toContainText('No agent streams');
  await expect(empty.getByRole('button', { name: 'Open a file…' })).toBeVisible();
  await expect(empty.getByTestId('empty-demo')).toHaveText(/^No capture at hand\? examples\/demo\.replyscope\.ndjson in the Replyscope repository/);
  await page.close();
});

test('import a capture log, scrub a reply with keys and the slider, bubble matches history.at(k)', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  const conn = analyze(sample).find((c) => c.record.id === 'tab1:1')!;
  const reply = conn.replies[0];
  const n = reply.history.length;

  await page.locator('[data-conn="tab1:1"]').click();
  await expect(page.locator(`[data-reply="${reply.id}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${n} / ${n}`));

  // Steps chosen by what their event does: mid text delta, mid tool-call delta (partial JSON), the final step.
  const stepOf = (type: string, nth: number) => reply.eventIndices.findIndex((i) => conn.events[i].type === type && nth-- === 0);
  const textStep = stepOf('TEXT_BLOCK_DELTA', 7);
  const toolStep = stepOf('TOOL_CALL_DELTA', 5);
  for (const k of [textStep, toolStep, n - 1]) {
    await gotoStep(page, k, n);
    const msg = reply.history.at(k);
    const texts = contentOf(msg).filter((b) => b.type === 'text').map((b) => b.text as string);
    expect(await bubbleTexts(page)).toEqual(texts);
  }

  // The tool call as it stood mid-stream: pretty-printed partial JSON of exactly the input received so far.
  await gotoStep(page, toolStep, n);
  const call = contentOf(reply.history.at(toolStep)).find((b) => b.type === 'tool_call')!;
  await expect(page.locator('pre.tool-input')).toHaveText(prettyJsonText(call.input as string).text);
  await expect(page.locator('pre.tool-input')).toHaveAttribute('data-state', 'partial');
  // The characters this event appended are marked.
  const delta = (conn.events[reply.eventIndices[toolStep]].raw as { delta: string }).delta;
  await expect(page.getByTestId('bubble').locator('mark.appended')).toHaveText(delta);

  // Final step: the streamed DATA_BLOCK is an image decoded from the same base64 the core reconstructed.
  await gotoStep(page, n - 1, n);
  const data = contentOf(reply.history.at(n - 1)).find((b) => b.type === 'data')!;
  const source = data.source as { media_type: string; data: string };
  await expect(page.getByTestId('bubble').locator('img').last()).toHaveAttribute('src', `data:${source.media_type};base64,${source.data}`);

  // The slider: focus it and use its keys, then drag to the start.
  const slider = page.getByTestId('step-slider');
  await slider.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${n - 10} / ${n}`));
  const box = (await slider.boundingBox())!;
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step 1 / ${n}`));
  expect(await bubbleTexts(page)).toEqual(contentOf(reply.history.at(0)).filter((b) => b.type === 'text').map((b) => b.text));
  await page.close();
});

test('a heartbeat row is selectable: the event pane says what it is, and the scrubber keeps its step', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.locator('[data-conn="tab1:1"]').click();
  const step = await page.getByTestId('step-pos').textContent();
  await page.locator('.vrow.heartbeat').first().click();
  const detail = page.getByTestId('frame-detail');
  await expect(detail).toContainText('heartbeat');
  await expect(detail.getByTestId('raw-frame')).toHaveText('Empty: a bare ":" line (a keep-alive)');
  await expect(page.getByTestId('step-pos')).toHaveText(step ?? '');
  await page.keyboard.press('Home'); // the user moves the step: the event pane shows the step's event again
  await expect(detail).toHaveCount(0);
  await expect(page.getByTestId('event-detail')).toBeVisible();
  // Hiding heartbeats while one is selected lets go of it (its row is gone): the pane shows the step's event.
  await page.locator('.vrow.heartbeat').first().click();
  await expect(detail).toBeVisible();
  await page.getByLabel('Hide heartbeats').check();
  await expect(detail).toHaveCount(0);
  await expect(page.getByTestId('event-detail')).toBeVisible();
  await page.close();
});
test('a selected heartbeat row stays in view when the filters change the rows around it (the list kept the step\'s event in view)', async () => {
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r1', session_id: 's', name: 'A', ...extra });
  const deltas = Array.from({ length: 400 }, (_, i) => ev('TEXT_BLOCK_DELTA', { block_id: 'b', delta: `w${i} ` }));
  const body = sseOf(ev('REPLY_START'), ev('TEXT_BLOCK_START', { block_id: 'b' })) + ': ping marker\n\n' +
    sseOf(...deltas, ev('TEXT_BLOCK_END', { block_id: 'b' }), ev('REPLY_END'));
  const page = await openViewer();
  await importText(page, 'beat.replyscope.ndjson', oneStreamLog(body));
  await page.locator('[data-conn="c"]').click(); // its reply at its last step: the list shows its last rows
  await expect(page.locator('.vrow[data-event="403"]')).toBeInViewport();
  await page.getByLabel('Search events').fill('ping marker');
  await page.locator('.vrow.heartbeat', { hasText: 'ping marker' }).click();
  await expect(page.getByTestId('frame-detail').getByTestId('raw-frame')).toHaveText('ping marker');
  await page.getByLabel('Search events').fill('');
  const selected = page.locator('.vrow.heartbeat[aria-selected="true"]');
  await expect(selected).toBeInViewport();
  await expect(selected).toContainText('ping marker');
  await page.close();
});

test('a copied frame stays "Copied" while the panes around it re-render; another frame offers Copy again', async () => {
  // A socket's sent message and another message of the app's own: frames, not events (the frame pane shows them).
  const id = 'ws';
  const msg = (t: number, type: string, data: string): CaptureRecord => ({ kind: 'message', conn: id, t, type, data, lastEventId: '' });
  const log = writeCaptureLog({
    header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T00:00:00Z' },
    records: [
      { kind: 'connection', id, transport: 'websocket', frameUrl: 'http://127.0.0.1/', method: 'GET', url: 'ws://127.0.0.1/ws', requestHeaders: [], status: 101, startTime: 1 },
      msg(2, 'send', '{"prompt":"hello"}'),
      msg(3, 'message', JSON.stringify(r1('REPLY_START', 1, { session_id: 's', name: 'A', role: 'assistant' }))),
      msg(4, 'message', '{"type":"typing"}'),
      msg(5, 'message', JSON.stringify(r1('REPLY_END', 2, { session_id: 's' }))),
      { kind: 'end', conn: id, t: 6, state: 'complete' },
    ],
  });
  const page = await openViewer();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: viewer.url });
  await importText(page, 'ws.replyscope.ndjson', log);
  await page.locator(`[data-conn="${id}"]`).click();
  await page.locator('.vrow.heartbeat').first().click();
  const detail = page.getByTestId('frame-detail');
  await expect(detail).toContainText('sent by the page');
  await detail.getByRole('button', { name: 'Copy raw frame' }).click();
  await expect(detail.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('{"prompt":"hello"}');
  // Another view of the message re-renders the step pane and the frame pane in it, the frame unchanged.
  await page.getByRole('tab', { name: 'JSON' }).click();
  await expect(page.getByRole('tab', { name: 'JSON' })).toHaveAttribute('aria-selected', 'true');
  // Past the render and its effects (Preact runs them after the next animation frame, in a task).
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(done))))));
  expect(await detail.locator('button.copy').textContent()).toBe('Copied'); // read once, not polled: it must still say so
  // Another frame: the button offers to copy again.
  await page.locator('.vrow.heartbeat').nth(1).click();
  await expect(detail).toContainText('other message');
  await expect(detail.getByRole('button', { name: 'Copy raw frame' })).toBeVisible();
  await page.close();
});

test('a diagnostic occurrence seeks the scrubber to its event', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  const conn = analyze(sample).find((c) => c.record.id === 'tab1:3')!;
  expect(conn.diagnostics.length).toBeGreaterThan(0);
  await page.locator('[data-conn="tab1:3"]').click();
  await page.locator('[data-tab="diagnostics"]').click();
  const first = page.getByTestId('diag-occurrence').first();
  const index = Number((await first.locator('span').first().textContent())!.slice(1));
  const d = conn.diagnostics.find((x) => x.index === index)!;
  await first.click();
  await expect(page.getByTestId('event-detail')).toContainText(`#${index} `);
  await expect(page.getByTestId('event-detail')).toContainText(d.code);
  const owner = conn.replies.find((r) => r.eventIndices.includes(index));
  if (owner) {
    const k = owner.eventIndices.indexOf(index);
    await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${k + 1} / ${owner.history.length}`));
  }
  await page.close();
});

test('"All connections" diagnostics: the tab counts them all, and each occurrence names its connection as the list does (#4 /path)', async () => {
  const page = await openViewer();
  // The broken stream twice, to one URL: its occurrences read alike but for the connection's number.
  const again = sample.records.flatMap((r): CaptureRecord[] => r.kind === 'connection' ? (r.id === 'tab1:3' ? [{ ...r, id: 'again', startTime: r.startTime + 1 }] : [])
    : 'conn' in r && r.conn === 'tab1:3' ? [{ ...r, conn: 'again' }] : []);
  await importText(page, 'twice.replyscope.ndjson', writeCaptureLog({ header: sample.header, records: [...sample.records, ...again] }));
  const conns = analyze({ header: sample.header, records: [...sample.records, ...again] });
  const total = conns.reduce((n, c) => n + c.diagnostics.length, 0);
  const broken = conns.find((c) => c.record.id === 'tab1:3')!.diagnostics.length;
  await page.locator('[data-conn="tab1:3"]').click();
  await page.locator('[data-tab="diagnostics"]').click();
  await expect(page.locator('[data-tab="diagnostics"]')).toHaveText(`Diagnostics (${broken})`);
  await page.getByRole('checkbox', { name: 'All connections' }).check();
  await expect(page.locator('[data-tab="diagnostics"]')).toHaveText(`Diagnostics (${total})`);
  expect(total).toBe(2 * broken);
  const named = await page.getByTestId('diag-occurrence').locator('.diag-conn').allTextContents();
  expect(named).toHaveLength(total);
  expect(new Set(named)).toEqual(new Set(['#3 /sessions/s-broken/stream?agent_id=friday', '#4 /sessions/s-broken/stream?agent_id=friday']));
  const last = page.getByTestId('diag-occurrence').filter({ has: page.locator('.diag-conn', { hasText: '#4 ' }) }).last();
  await last.click();
  await expect(page.locator('[data-conn="again"]')).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('checkbox', { name: 'All connections' }).uncheck();
  await expect(page.locator('[data-tab="diagnostics"]')).toHaveText(`Diagnostics (${broken})`);
  await page.close();
});

test('"Events of the selected reply" cannot be chosen without a reply, and says why', async () => {
  const page = await openViewer();
  // A stream of one notification: no reply to select.
  await importText(page, 'custom.sse', `data: ${JSON.stringify({ type: 'CUSTOM', name: 'progress', value: {}, created_at: '2026-12-01T09:00:00' })}\n\n`);
  await page.getByRole('button', { name: 'Export…' }).click();
  const choice = page.getByRole('radio', { name: /Events of the selected reply/ });
  await expect(choice).toBeDisabled();
  await expect(page.getByTestId('export-no-reply')).toHaveText(' — select a reply first (in the Replies list)');
  await expect(choice).toHaveAccessibleName(/select a reply first/); // (the hint is part of its label)
  await page.keyboard.press('Escape');
  await page.close();
});

test('export a capture log and import it back with an identical result', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.getByRole('button', { name: 'Export…' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-go').click()]);
  const exported = await new Promise<string>((resolve, reject) => {
    download.createReadStream().then((s) => {
      const parts: Buffer[] = [];
      s.on('data', (b: Buffer) => parts.push(b));
      s.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
      s.on('error', reject);
    }, reject);
  });
  expect(download.suggestedFilename()).toMatch(/\.replyscope\.ndjson$/);
  // Same records, byte for byte in content.
  expect(loadInput(exported, 'x.replyscope.ndjson').records).toEqual(sample.records);

  const again = await openViewer();
  await importText(again, download.suggestedFilename(), exported);
  const table = async (p: Page) => p.getByTestId('connections').innerText();
  expect(await table(again)).toEqual(await table(page));
  for (const id of ['tab1:1', 'tab1:2', 'tab1:3']) {
    await page.locator(`[data-conn="${id}"]`).click();
    await again.locator(`[data-conn="${id}"]`).click();
    expect(await again.getByTestId('bubble').innerText()).toEqual(await page.getByTestId('bubble').innerText());
  }
  await page.close();
  await again.close();
});

test('import a HAR file', async () => {
  const page = await openViewer();
  const har = writeHar(sample);
  await importText(page, 'sample.har', har);
  const conns = analyze(loadInput(har, 'sample.har'));
  await expect(page.locator('[data-conn]')).toHaveCount(conns.length);
  const withReply = conns.find((c) => c.replies.length > 0)!;
  await page.locator(`[data-conn="${withReply.record.id}"]`).click();
  const r = withReply.replies[0];
  const texts = contentOf(r.history.at(r.history.length - 1)).filter((b) => b.type === 'text').map((b) => b.text);
  expect(await bubbleTexts(page)).toEqual(texts);
  await page.close();
});

test('the import\'s notes are shown: skipped HAR entries above the connections, an entry without content on its connection', async () => {
  const page = await openViewer();
  const har = JSON.parse(writeHar(sample));
  // Entries as a browser saves them (without Replyscope's lossless `_replyscope` copy, which an import prefers).
  const { _replyscope: _r, _eventSourceMessages: _m, ...entry } = har.log.entries[0];
  const header = (v: string) => [{ name: 'content-type', value: v }];
  har.log.entries.push(
    { ...entry, request: { ...entry.request, url: 'http://127.0.0.1/index.html' }, response: { ...entry.response, headers: header('text/html'), content: { size: 5, mimeType: 'text/html', text: '<p>x' } } },
    { ...entry, request: { ...entry.request, url: 'http://127.0.0.1/saved-without-content' }, response: { ...entry.response, headers: header('text/event-stream'), content: { size: 0, mimeType: 'text/event-stream' } } },
  );
  await importText(page, 'notes.har', JSON.stringify(har));
  const total = har.log.entries.length;
  await expect(page.getByTestId('page-notices')).toContainText(`1 of ${total} HAR entries are not streams`);
  await page.locator('[data-conn]', { hasText: 'saved-without-content' }).click();
  await expect(page.getByTestId('connection-details')).toContainText('This HAR entry has no response content');
  await page.locator('[data-tab="diagnostics"]').click();
  await expect(page.getByText('capture.notice')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('import-notes.png') });
  await page.close();
});

test('our HAR read without its _replyscope fields, its head evicted: the details and the diagnostics say so', async () => {
  const page = await openViewer();
  // The sample's first stream, its first 10 chunks evicted by the memory cap (where the relay logs it: before the rest).
  const records = [...sample.records];
  const first = records.findIndex((r) => r.kind === 'chunk' && r.conn === 'tab1:1');
  const head = records.filter((r) => r.kind === 'chunk' && r.conn === 'tab1:1').slice(0, 10) as Extract<CaptureRecord, { kind: 'chunk' }>[];
  const bytes = head.reduce((n, c) => n + c.bytes, 0);
  records.splice(first, 0, { kind: 'evicted', conn: 'tab1:1', t: head[9].t, chunks: 10, messages: 0, bytes });
  const har = JSON.parse(writeHar({ ...sample, records: records.filter((r) => !head.includes(r as (typeof head)[number])) }));
  delete har.log._replyscope;
  for (const e of har.log.entries) delete e._replyscope;
  await importText(page, 'stripped.har', JSON.stringify(har));
  await page.locator('[data-conn]').first().click();
  await expect(page.getByTestId('connection-details')).toContainText(`Evictedthe body's first ${(bytes / 1024).toFixed(1)} kB (memory cap)`);
  await page.screenshot({ path: test.info().outputPath('stripped-har-evicted-details.png') });
  await page.locator('[data-tab="diagnostics"]').click();
  await expect(page.getByText(`evicted the body's first ${bytes} bytes before this point (memory cap), without a digest`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('stripped-har-evicted.png') });
  await page.close();
});

test('a browser HAR\'s credentials are masked on import: the note says what was masked, the details show none of them', async () => {
  const page = await openViewer();
  const har = JSON.parse(writeHar(sample));
  const { _replyscope: _r, _eventSourceMessages: _m, ...entry } = har.log.entries[0];
  const body = JSON.stringify({ model: { api: 'openai-completions', id: 'gpt-x' }, context: { messages: [] }, options: { apiKey: 'sk-SECRET-BODY' } });
  const browserHar = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [{
    ...entry,
    request: { ...entry.request, url: 'https://me:SECRET-USERINFO@api.example/stream', headers: [{ name: 'Authorization', value: 'Bearer SECRET-AUTH' }, { name: 'content-type', value: 'application/json' }],
      bodySize: body.length, postData: { mimeType: 'application/json', text: body } },
    response: { ...entry.response, headers: [...entry.response.headers, { name: 'Set-Cookie', value: 'sid=SECRET-COOKIE' }] },
  }] } };
  await importText(page, 'browser.har', JSON.stringify(browserHar));
  await expect(page.getByTestId('page-notices')).toContainText('Credentials masked on import, as the extension masks them when it captures: ' +
    'authorization and set-cookie headers in 1 entry; the userinfo of 1 URL; apiKey in 1 request body.');
  await page.locator('[data-conn]').first().click();
  const details = page.getByTestId('connection-details');
  await expect(details).toContainText('https://•••@api.example/stream');
  await expect(details).toContainText('"apiKey": "•••"');
  await expect(details).not.toContainText('SECRET');
  await page.close();
});

test('a Chrome HAR with a WebSocket entry: its received messages are read as a stream, the reply shown', async () => {
  const page = await openViewer();
  const t0 = Date.parse('2026-11-29T21:00:01.000Z') / 1000;
  const ev = (type: string, k: number, extra: object) => ({ type, id: `e${k}`, created_at: '2026-11-29T21:00:01', reply_id: 'r1', ...extra });
  const events = [
    ev('REPLY_START', 1, { session_id: 's', name: 'Friday' }),
    ev('TEXT_BLOCK_START', 2, { block_id: 'b1' }),
    ev('TEXT_BLOCK_DELTA', 3, { block_id: 'b1', delta: 'Hello over ' }),
    ev('TEXT_BLOCK_DELTA', 4, { block_id: 'b1', delta: 'a socket' }),
    ev('TEXT_BLOCK_END', 5, { block_id: 'b1' }),
    ev('REPLY_END', 6, { session_id: 's' }),
  ];
  const har = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [{
    _resourceType: 'websocket', startedDateTime: '2026-11-29T21:00:00.900Z', time: 2000,
    request: { method: 'GET', url: 'wss://agent.example/ws', httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
    response: { status: 101, statusText: 'Switching Protocols', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: -1, bodySize: -1 },
    cache: {}, timings: { send: 0, wait: 0, receive: 0 },
    _webSocketMessages: [{ type: 'send', time: t0, opcode: 1, data: '{"prompt":"hi"}' }, ...events.map((e, k) => ({ type: 'receive', time: t0 + 0.2 * (k + 1), opcode: 1, data: JSON.stringify(e) }))],
  }] } };
  await importText(page, 'socket.har', JSON.stringify(har));
  const row = page.locator('[data-conn]').first();
  await expect(row).toContainText('agentscope');
  await row.click();
  await expect(page.getByTestId('connection-details')).toContainText('websocket');
  await page.getByText('Friday').first().click();
  await page.keyboard.press('End');
  await expect.poll(() => bubbleTexts(page)).toEqual(['Hello over a socket']);
  await page.screenshot({ path: test.info().outputPath('websocket-har.png') });
  await page.close();
});

test('captured strings never become markup, scripts or unsafe URLs', async () => {
  const page = await openViewer();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=3" width="8" height="8"><rect width="8" height="8"/></svg>').toString('base64');
  const html = Buffer.from('<script>window.__pwned=4</script>').toString('base64');
  const hostile = 'Look: <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [x](javascript:alert(1))';
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify({ reply_id: 'r-x', created_at: '2026-03-01T09:00:00', id: `e${Math.random()}`, ...o })}\n\n`;
  const sse = [
    ev({ type: 'REPLY_START', session_id: 's', name: '<b>Mallory</b>' }),
    ev({ type: 'TEXT_BLOCK_START', block_id: 't' }),
    ev({ type: 'TEXT_BLOCK_DELTA', block_id: 't', delta: hostile }),
    ev({ type: 'TEXT_BLOCK_END', block_id: 't' }),
    ev({ type: 'DATA_BLOCK_START', block_id: 'svg', media_type: 'image/svg+xml' }),
    ev({ type: 'DATA_BLOCK_DELTA', block_id: 'svg', data: svg, media_type: 'image/svg+xml' }),
    ev({ type: 'DATA_BLOCK_END', block_id: 'svg' }),
    ev({ type: 'DATA_BLOCK_START', block_id: 'html', media_type: 'text/html' }),
    ev({ type: 'DATA_BLOCK_DELTA', block_id: 'html', data: html, media_type: 'text/html' }),
    ev({ type: 'DATA_BLOCK_END', block_id: 'html' }),
    ev({ type: 'TOOL_CALL_START', tool_call_id: 'c', tool_call_name: '<img src=x onerror=alert(1)>' }),
    ev({ type: 'TOOL_CALL_END', tool_call_id: 'c' }),
    ev({ type: 'TOOL_RESULT_START', tool_call_id: 'c', tool_call_name: 'x' }),
    ev({ type: 'TOOL_RESULT_DATA_DELTA', tool_call_id: 'c', media_type: 'image/png', url: 'javascript:window.__pwned=5' }),
    ev({ type: 'TOOL_RESULT_DATA_DELTA', tool_call_id: 'c', media_type: 'image/png', url: 'https://example.com/pic.png' }),
    ev({ type: 'TOOL_RESULT_END', tool_call_id: 'c', state: 'success' }),
    ev({ type: 'REPLY_END', session_id: 's' }),
  ].join('');
  await importText(page, 'hostile.sse', sse);
  await page.locator('[data-conn]').first().click();
  await page.keyboard.press('End');
  const bubble = page.getByTestId('bubble');
  await expect(bubble.locator('[data-block-type="text"]')).toContainText(hostile);
  // Every view once, so every renderer has seen the strings.
  for (const tab of ['timeline', 'diagnostics', 'events']) await page.locator(`[data-tab="${tab}"]`).click();
  for (const tab of ['JSON', 'Diff', 'Message']) await page.getByRole('tab', { name: tab }).click();
  const audit = await page.evaluate(() => {
    const all = [...document.querySelectorAll('#app *')];
    return {
      pwned: (window as { __pwned?: unknown }).__pwned,
      handlers: all.flatMap((el) => [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName}@${a.name}`)),
      active: all.filter((el) => ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'FOREIGNOBJECT'].includes(el.tagName.toUpperCase())).length,
      sources: all.flatMap((el) => ['src', 'href', 'xlink:href'].map((a) => el.getAttribute(a)).filter((v): v is string => v !== null)),
    };
  });
  expect(audit.pwned).toBeUndefined();
  expect(audit.handlers).toEqual([]);
  expect(audit.active).toBe(0);
  for (const src of audit.sources) expect(src).toMatch(/^(data:image\/(png|svg\+xml);base64,|#|url\(#)/);
  // The SVG is shown, as an image.
  await expect(bubble.locator(`img[src="data:image/svg+xml;base64,${svg}"]`)).toHaveCount(1);
  // A remote image is fetched only when the user asks for it.
  await expect(bubble.locator('img[src^="https:"]')).toHaveCount(0);
  await bubble.getByRole('button', { name: /Load remote image · https:\/\/example\.com\/pic\.png/ }).click();
  await expect(bubble.locator('img[src="https://example.com/pic.png"]')).toHaveCount(1);
  await page.close();
});

test('100k events: the event list stays virtual and reaches the last row', async () => {
  const page = await openViewer();
  const N = 100_000;
  const lines = ['data: {"type":"REPLY_START","reply_id":"big","session_id":"s","name":"Big","id":"e0","created_at":"2026-03-01T09:00:00"}', 'data: {"type":"TEXT_BLOCK_START","reply_id":"big","block_id":"t","id":"e1","created_at":"2026-03-01T09:00:00"}'];
  for (let i = 2; i < N - 1; i++) lines.push(`data: {"type":"TEXT_BLOCK_DELTA","reply_id":"big","block_id":"t","delta":"w${i} ","id":"e${i}","created_at":"2026-03-01T09:00:00"}`);
  lines.push(`data: {"type":"TEXT_BLOCK_END","reply_id":"big","block_id":"t","id":"e${N - 1}","created_at":"2026-03-01T09:00:00"}`);
  await importText(page, 'big.sse', lines.join('\n\n') + '\n\n');
  await page.locator('[data-conn]').first().click();
  await expect(page.locator('[data-conn]').first()).toContainText(String(N));
  const rows = page.getByTestId('events').locator('[data-event]');
  expect(await rows.count()).toBeLessThan(150);
  await page.getByTestId('events').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.locator(`[data-event="${N - 1}"]`)).toBeVisible();
  expect(await rows.count()).toBeLessThan(150);
  // Seeking stays a checkpointed lookup: jump to the middle with the slider's keys and read the bubble.
  await page.keyboard.press('Home');
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step 1 / ${N}`));
  await page.close();
});

test('import a pi stream as JSON events; the bubble matches the reference output', async () => {
  const fs = await import('node:fs');
  const dir = path.resolve(import.meta.dirname, '../../../shared/conformance/pi');
  const caseText = fs.readFileSync(path.join(dir, 'cases/done_toolUse.json'), 'utf8');
  const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected/done_toolUse.json'), 'utf8')).final;
  const page = await openViewer();
  await importText(page, 'done_toolUse.json', caseText);
  await page.locator('[data-conn]').first().click();
  await page.keyboard.press('End');
  const texts = expected.content.filter((b: Block) => b.type === 'text').map((b: Block) => b.text);
  expect(await bubbleTexts(page)).toEqual(texts);
  const call = expected.content.find((b: Block) => b.type === 'toolCall');
  await expect(page.getByTestId('bubble').locator('[data-block-type="tool_call"]')).toContainText(call.name);
  await expect(page.locator('pre.tool-input')).toHaveText(JSON.stringify(call.arguments, null, 2));
  await expect(page.getByTestId('bubble')).toContainText(expected.stopReason);
  await page.close();
});

test('reply rows say something true: a pi message by its model (not "demo:5#0"), an orphan\'s unknown duration "—" (not "≥ 0 ms")', async () => {
  const fs = await import('node:fs');
  const text = fs.readFileSync(path.resolve(import.meta.dirname, '../../examples/demo.replyscope.ndjson'), 'utf8');
  const conns = analyze(loadInput(text, 'demo.replyscope.ndjson'));
  const page = await openViewer();
  await importText(page, 'demo.replyscope.ndjson', text);
  const pi = conns.find((c) => c.dialect === 'pi-proxy')!;
  await page.locator(`[data-conn="${pi.record.id}"]`).click();
  const row = page.locator(`[data-reply="${pi.replies[0].id}"]`);
  await expect(row.locator('td').first()).toHaveText('claude-sonnet-4-5'); // (one message: no "message 1")
  await expect(row).toHaveAttribute('title', new RegExp(`^claude-sonnet-4-5 · ${pi.replies[0].id}\n`)); // the id stays in reach
  const as = conns.find((c) => c.replies.some((r) => r.orphan && r.durationMs === 0))!;
  const orphan = as.replies.find((r) => r.orphan && r.durationMs === 0)!;
  await page.locator(`[data-conn="${as.record.id}"]`).click();
  const duration = page.locator(`[data-reply="${orphan.id}"]`).getByTestId('reply-duration');
  await expect(duration).toHaveText('—');
  await expect(duration).toHaveAttribute('title', 'The reply never started in this stream: how long it took is not known (its events here came at one time)');
  await page.close();
});

test('timeline: hover shows the event, a click seeks there; play at max speed reaches the end; ] jumps to a diagnostic', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  const conn = analyze(sample).find((c) => c.record.id === 'tab1:1')!;
  const reply = conn.replies[0];
  const n = reply.history.length;
  await page.locator('[data-conn="tab1:1"]').click();
  await page.locator('[data-tab="timeline"]').click();
  const lane = page.locator(`[data-lane="text:${reply.id}:txt-1"] rect`).first();
  const box = (await lane.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator('.tl-tooltip')).toContainText('txt-1');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const detail = page.getByTestId('event-detail');
  await expect(detail).toContainText(/TEXT_BLOCK_(START|DELTA|END)/);
  await expect(detail).toContainText('txt-1');
  const shown = Number((await detail.locator('.kv span').nth(1).textContent())!.match(/#(\d+)/)![1]);
  const k = reply.eventIndices.indexOf(shown);
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${k + 1} / ${n}\\b`));
  // Empty space in the lane, well past the block's end: no event is in reach, so no tooltip and a click seeks nowhere.
  const past = box.x + box.width + 60;
  const plot = (await page.getByRole('img', { name: /^Timeline: / }).boundingBox())!;
  expect(past).toBeLessThan(plot.x + plot.width);
  await page.mouse.move(past, box.y + box.height / 2);
  await expect(page.locator('.tl-tooltip')).toHaveCount(0);
  await page.mouse.click(past, box.y + box.height / 2);
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${k + 1} / ${n}\\b`));

  // Playback at max speed from the first step runs to the last one.
  await page.getByLabel('Playback speed').selectOption('max');
  await page.keyboard.press('Home');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${n} / ${n}\\b`));
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible();

  // Diagnostics navigation in the broken stream.
  const broken = analyze(sample).find((c) => c.record.id === 'tab1:3')!;
  // A step "has a diagnostic" when its event carries one, is invalid, or the step was warned/invalid/error.
  const flagged = (r: (typeof broken.replies)[number], k: number) => {
    const e = broken.events[r.eventIndices[k]];
    return e.diagnostics.length > 0 || !e.valid || !['changed', 'unchanged'].includes(r.stepStatus[k]);
  };
  const br = broken.replies.find((r) => r.eventIndices.some((_, k) => k > 0 && flagged(r, k)))!;
  const expectedStep = br.eventIndices.findIndex((_, k) => k > 0 && flagged(br, k));
  await page.locator('[data-conn="tab1:3"]').click();
  await page.locator(`[data-reply="${br.id}"]`).click();
  await page.keyboard.press('Home');
  await page.keyboard.press(']');
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${expectedStep + 1} / ${br.history.length}\\b`));
  await page.close();
});

test('drag and drop imports a file; the viewer follows the colour scheme', async () => {
  const context = await viewer.browser.newContext({ colorScheme: 'dark', viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${viewer.url}/index.html`);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const text = sampleLog;
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'dropped.replyscope.ndjson'));
    document.querySelector('.app')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  await expect(page.getByTestId('status')).toContainText('Imported dropped.replyscope.ndjson: 3 connections');
  await expect(page.locator('[data-conn]')).toHaveCount(3);
  await context.close();
});

test('several files chosen at once are all imported, and the status names what became of each', async () => {
  const page = await openViewer();
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  const sse = ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a' }) + ev({ type: 'REPLY_END', reply_id: 'r', session_id: 's' });
  await page.getByTestId('import-input').setInputFiles([
    { name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) },
    { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"a": 1}') },
    { name: 'one.sse', mimeType: 'text/event-stream', buffer: Buffer.from(sse) },
  ]);
  const status = page.getByTestId('status');
  await expect(status).toContainText('Imported 2 of 3 files — sample.replyscope.ndjson: 3 connections; could not import broken.json: expected a JSON array');
  await expect(status).not.toContainText('broken.json: broken.json'); // named once
  await expect(status).toContainText('; one.sse: 1 connection');
  await expect(page.locator('[data-conn]')).toHaveCount(4);
  await page.close();
});

test('a file imported again is not added a second time (its rows would be indistinguishable); after Clear it is', async () => {
  const page = await openViewer();
  const status = page.getByTestId('status');
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await expect(page.locator('[data-conn]')).toHaveCount(3);
  await page.getByTestId('import-input').setInputFiles({ name: 'copy.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) });
  await expect(status).toHaveText('copy.ndjson: already shown (as sample.replyscope.ndjson), not imported again — Clear first to reload it');
  await expect(page.locator('[data-conn]')).toHaveCount(3);
  // Another capture: a connection of another id, every time a second later (the same records would be the same streams).
  const other = sampleLog.replaceAll('"tab1:1"', '"tab1:9"').replace(/"(t|startTime|responseTime)":(\d+(?:\.\d+)?)/g, (_, k: string, n: string) => `"${k}":${Number(n) + 1000}`);
  await page.getByTestId('import-input').setInputFiles([
    { name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) },
    { name: 'other.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(other) },
  ]);
  await expect(status).toContainText('Imported 1 of 2 files — sample.replyscope.ndjson: already shown, not imported again');
  await expect(page.locator('[data-conn]')).toHaveCount(6);
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.locator('[data-conn]')).toHaveCount(0);
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await expect(status).toHaveText('Imported sample.replyscope.ndjson: 3 connections');
  await expect(page.locator('[data-conn]')).toHaveCount(3);
  await page.close();
});

test('the HAR of a capture whose log is shown adds no second set of rows; a diagnostics report is refused as one; rows of several files say which', async () => {
  const page = await openViewer();
  const status = page.getByTestId('status');
  const none = { headers: false, requestBodies: false, textContent: false };
  await page.getByTestId('import-input').setInputFiles([
    { name: 'sample.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(sampleLog) },
    { name: 'sample.har', mimeType: 'application/json', buffer: Buffer.from(writeHar(sample)) },
    { name: 'report.json', mimeType: 'application/json', buffer: Buffer.from(buildExport(sample, { kind: 'diagnostics', redaction: none }).text) },
  ]);
  await expect(status).toHaveText('Imported 1 of 3 files — sample.replyscope.ndjson: 3 connections; ' +
    'sample.har: 3 connections already shown (#1–#3, from sample.replyscope.ndjson), not added again; ' +
    'could not import report.json: this is a Replyscope diagnostics report (Export → "Diagnostics report (JSON)"): the diagnostics found in a capture, not the capture — ' +
    'import the capture log (.replyscope.ndjson) or the HAR it was exported from, or a reply\'s events (Export → "Events of the selected reply")');
  await expect(page.locator('[data-conn]')).toHaveCount(3);
  await expect(page.getByTestId('conn-file')).toHaveCount(0); // one file: nothing to tell apart
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  await importText(page, 'one.sse', ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a' }) + ev({ type: 'REPLY_END', reply_id: 'r', session_id: 's' }));
  await expect(page.getByTestId('conn-file')).toHaveText(['sample.replyscope.ndjson', 'sample.replyscope.ndjson', 'sample.replyscope.ndjson', 'one.sse']);
  await expect(page.locator('[data-conn="tab1:1"]')).toHaveAttribute('title', /\nfrom sample\.replyscope\.ndjson$/);
  await page.close();
});

test('a long reply name is cut on its own: the reply id after it stays in view', async () => {
  const page = await openViewer();
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  const name = 'research-assistant-with-a-very-long-configured-name-'.repeat(4);
  await importText(page, 'long-name.sse', ev({ type: 'REPLY_START', reply_id: 'reply-7', session_id: 's', name }) + ev({ type: 'REPLY_END', reply_id: 'reply-7', session_id: 's' }));
  const row = page.locator('[data-reply="reply-7"]');
  const cell = row.locator('td').first();
  const id = cell.locator('.dim', { hasText: 'reply-7' });
  const [c, i] = [await cell.boundingBox(), await id.boundingBox()];
  expect(i!.x + i!.width).toBeLessThanOrEqual(c!.x + c!.width);
  await expect(row).toHaveAttribute('title', new RegExp(`^${name} · reply-7`));
  await page.close();
});

test('a type filter chosen on one connection stays shown on another that has none of it, and the list says why it is empty', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.locator('[data-conn="tab1:1"]').click();
  const type = page.getByRole('combobox', { name: 'Event type' });
  await type.selectOption('TOOL_CALL_DELTA');
  await expect(page.getByTestId('events').locator('.vrow').first()).toContainText('TOOL_CALL_DELTA');
  await page.locator('[data-conn="tab1:2"]').click(); // the pi stream: no such type
  await expect(type).toHaveValue('TOOL_CALL_DELTA');
  await expect(type.locator('option:checked')).toHaveText('TOOL_CALL_DELTA (0)');
  const none = page.getByTestId('events-none-match');
  await expect(none).toHaveText('No events match the type TOOL_CALL_DELTA. Clear the filter');
  await page.getByPlaceholder('Search events').fill('zzz');
  await expect(none).toContainText('No events match the search "zzz" and the type TOOL_CALL_DELTA.');
  await none.getByRole('button', { name: 'Clear the filter' }).click();
  await expect(type).toHaveValue('');
  await expect(page.getByPlaceholder('Search events')).toHaveValue('');
  await expect(none).toHaveCount(0);
  await expect(page.getByTestId('events').locator('.vrow')).not.toHaveCount(0);
  await page.getByPlaceholder('Search events').fill('zzz');
  await page.screenshot({ path: test.info().outputPath('filter-none.png') });
  await page.close();
});

test('a stream whose frames hold no event its client reads says so, not "no events match the filter"', async () => {
  const page = await openViewer();
  // "data:" without the space: the AgentScope client skips every line (sse.client-drops-frame).
  const body = sseOf(r1('REPLY_START', 1, { session_id: 's', name: 'a' }), r1('REPLY_END', 2, { session_id: 's' })).replaceAll('data: ', 'data:');
  await importText(page, 'nospace.replyscope.ndjson', oneStreamLog(body));
  await page.locator('[data-conn="c"]').click();
  await expect(page.getByTestId('events-none-read')).toHaveText("None of this stream's 2 frames is an event its client reads — the Diagnostics tab says why.");
  await expect(page.getByTestId('events-none-match')).toHaveCount(0);
  await page.getByPlaceholder('Search events').fill('zzz'); // a filter set: then it is the filter's doing
  await expect(page.getByTestId('events-none-match')).toContainText('No events match the search "zzz"');
  await page.close();
});

test('a preloaded capture (?load=) says "Loaded" once it is analysed, not while its connection still counts up', async () => {
  const page = await viewer.browser.newPage({ viewport: { width: 1400, height: 860 } });
  const deltas = Array.from({ length: 60_000 }, (_, i) => r1('TEXT_BLOCK_DELTA', 1, { id: `d${i}`, block_id: 'b', delta: `${i} ` }));
  const body = sseOf(r1('REPLY_START', 1, { session_id: 's', name: 'a' }), r1('TEXT_BLOCK_START', 1, { block_id: 'b' }), ...deltas,
    r1('TEXT_BLOCK_END', 2, { block_id: 'b' }), r1('REPLY_END', 2, { session_id: 's' }));
  await page.route('**/big.replyscope.ndjson', (route) => route.fulfill({ body: oneStreamLog(body), contentType: 'application/x-ndjson' }));
  // What the connection row read the moment the status first said "Loaded", caught in the page as it happens.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid="status"]')?.textContent ?? '';
      const w = window as unknown as { rowAtLoaded?: string };
      if (w.rowAtLoaded === undefined && status.includes('Loaded')) w.rowAtLoaded = document.querySelector('[data-conn]')?.textContent ?? '(no row)';
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${viewer.url}/index.html?load=big.replyscope.ndjson`);
  await expect(page.getByTestId('status')).toContainText('Loaded big.replyscope.ndjson', { timeout: 30_000 });
  const row = await page.evaluate(() => (window as unknown as { rowAtLoaded?: string }).rowAtLoaded);
  expect(row).toContain('complete');
  expect(row).toContain('60004');
  await page.close();
});

test('a connection read from a file says "reading…" while it is analysed, never "live" — imported or preloaded', async () => {
  const page = await viewer.browser.newPage({ viewport: { width: 1400, height: 860 } });
  const deltas = Array.from({ length: 60_000 }, (_, i) => r1('TEXT_BLOCK_DELTA', 1, { id: `d${i}`, block_id: 'b', delta: `${i} ` }));
  const body = sseOf(r1('REPLY_START', 1, { session_id: 's', name: 'a' }), r1('TEXT_BLOCK_START', 1, { block_id: 'b' }), ...deltas,
    r1('TEXT_BLOCK_END', 2, { block_id: 'b' }), r1('REPLY_END', 2, { session_id: 's' }));
  const log = oneStreamLog(body);
  await page.route('**/big.replyscope.ndjson', (route) => route.fulfill({ body: log, contentType: 'application/x-ndjson' }));
  // Every state the connection's row showed, caught in the page as it happens.
  await page.addInitScript(() => {
    const w = window as unknown as { states: Record<string, string[]> };
    w.states = {};
    new MutationObserver(() => {
      for (const row of document.querySelectorAll<HTMLElement>('[data-conn]')) {
        const text = row.querySelector('[data-testid="conn-state"]')?.textContent ?? '';
        const seen = (w.states[row.dataset.conn!] ??= []);
        if (seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${viewer.url}/index.html?load=big.replyscope.ndjson`);
  await expect(page.getByTestId('status')).toContainText('Loaded big.replyscope.ndjson', { timeout: 30_000 });
  const states = () => page.evaluate(() => (window as unknown as { states: Record<string, string[]> }).states);
  expect(await states()).toEqual({ c: ['reading…', 'complete'] });
  // Another stream imported next to it (the same records would be the same connection, not added).
  await page.getByTestId('import-input').setInputFiles({ name: 'big2.replyscope.ndjson', mimeType: 'application/octet-stream', buffer: Buffer.from(oneStreamLog(body, { id: 'other', url: 'http://127.0.0.1/other' })) });
  await expect(page.getByTestId('status')).toContainText('Imported big2.replyscope.ndjson', { timeout: 30_000 });
  expect(await states()).toEqual({ c: ['reading…', 'complete'], other: ['reading…', 'complete'] });
  await page.close();
});

test('the first screen of a preloaded capture (?load=) shows its first connection and first reply, as an import does', async () => {
  const page = await viewer.browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.route('**/sample.replyscope.ndjson', (route) => route.fulfill({ body: sampleLog, contentType: 'application/x-ndjson' }));
  await page.goto(`${viewer.url}/index.html?load=sample.replyscope.ndjson`);
  await expect(page.getByTestId('status')).toContainText('Loaded sample.replyscope.ndjson');
  const first = analyze(sample)[0];
  const reply = first.replies[0];
  await expect(page.locator(`[data-conn="${first.record.id}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(`[data-reply="${reply.id}"]`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${reply.history.length} / ${reply.history.length}`));
  await expect(page.getByTestId('bubble')).toBeVisible();
  await page.close();
});

test('in a narrow window every pane keeps room: the event pane does not vanish behind the message pane', async () => {
  const page = await openViewer();
  await page.setViewportSize({ width: 900, height: 600 });
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.locator('[data-conn="tab1:1"]').click();
  const width = async (testId: string) => (await page.getByTestId(testId).boundingBox())?.width ?? 0;
  await expect.poll(() => width('event-detail')).toBeGreaterThan(100);
  expect(await width('bubble')).toBeGreaterThan(200);
  await page.screenshot({ path: test.info().outputPath('narrow.png') });
  // Dragging the divider still works from where it is drawn (not from the size it was given in a wider window).
  const divider = page.getByRole('separator', { name: 'Resize message and event panes' });
  const box = (await divider.boundingBox())!;
  const before = await width('event-detail');
  await page.mouse.move(box.x, box.y + 50);
  await page.mouse.down();
  await page.mouse.move(box.x - 40, box.y + 50, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => width('event-detail')).toBeGreaterThan(before + 30);
  await page.close();
});

test('↑/↓ move through the replies list like the other lists', async () => {
  const page = await openViewer();
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  let sse = '';
  for (const id of ['r1', 'r2', 'r3']) {
    sse += ev({ type: 'REPLY_START', reply_id: id, session_id: 's', name: `agent ${id}` }) + ev({ type: 'REPLY_END', reply_id: id, session_id: 's' });
  }
  await importText(page, 'three.sse', sse);
  await page.locator('[data-conn]').first().click();
  await page.locator('[data-reply="r1"]').click();
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('[data-reply="r2"]')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown'); // stays on the last
  await expect(page.locator('[data-reply="r3"]')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(page.locator('[data-reply="r2"]')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('bubble')).toContainText('agent r2');
  await page.close();
});

test('a filter that hides the selected connection says so, and the count says how many are shown', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.locator('[data-conn="tab1:1"]').click();
  const count = page.locator('.pane-title .count').first();
  await expect(count).toHaveText('3');
  await page.getByPlaceholder('Filter URL').fill('api/stream');
  await expect(page.locator('[data-conn]')).toHaveCount(1);
  await expect(count).toHaveText('1 of 3');
  await expect(page.getByTestId('selection-hidden')).toContainText('The selected connection (/sessions/s-42/stream?agent_id=friday) is hidden by the filter');
  await page.locator('[data-conn="tab1:2"]').click();
  await expect(page.getByTestId('selection-hidden')).toHaveCount(0);
  await page.getByPlaceholder('Filter URL').fill('');
  await expect(count).toHaveText('3');
  await page.close();
});

test('scrubbing a long message brings what the step appended into view', async () => {
  const page = await openViewer();
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  let sse = ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'Friday' });
  for (let b = 0; b < 30; b++) {
    sse += ev({ type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: `b${b}` });
    for (let i = 0; i < 3; i++) sse += ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: `b${b}`, delta: `block ${b} part ${i}: ${'lorem ipsum '.repeat(12)}\n` });
    sse += ev({ type: 'TEXT_BLOCK_END', reply_id: 'r', block_id: `b${b}` });
  }
  sse += ev({ type: 'REPLY_END', reply_id: 'r', session_id: 's' });
  await importText(page, 'tall.sse', sse);
  await page.locator('[data-conn]').first().click();
  const inView = () => page.evaluate(() => {
    const m = document.querySelector('mark.appended');
    const box = m?.closest('.scroll');
    if (!m || !box) return 'no mark';
    const r = m.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return r.top >= b.top - 1 && r.bottom <= b.bottom + 1 ? 'in view' : `out of view (${Math.round(r.top)} vs ${Math.round(b.top)}–${Math.round(b.bottom)})`;
  });
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight'); // the first block's start
  await page.keyboard.press('ArrowRight'); // its first delta: at the top
  await expect.poll(inView).toBe('in view');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft'); // the last block's last delta: far below the top
  await expect.poll(inView).toBe('in view');
  await page.keyboard.press('Home');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight'); // back up to the second block's first delta
  await expect.poll(inView).toBe('in view');
  await page.close();
});

test('copying works where the async clipboard is refused (a DevTools panel iframe without clipboard-write)', async () => {
  const page = await openViewer();
  await page.context().grantPermissions(['clipboard-read'], { origin: viewer.url });
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.locator('[data-conn="tab1:1"]').click();
  const conn = analyze(sample).find((c) => c.record.id === 'tab1:1')!;
  const last = conn.events[conn.replies[0].eventIndices.at(-1)!];
  await page.evaluate(() => {
    Object.defineProperty(navigator.clipboard, 'writeText', {
      value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    });
  });
  const pane = page.getByTestId('event-detail');
  await pane.getByRole('button', { name: 'Copy raw frame' }).click();
  await expect(pane.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(pane.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1); // said aloud, too
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(last.rawText);
  // With no way to copy at all, the button says so.
  await page.evaluate(() => {
    document.execCommand = () => false;
  });
  await pane.getByRole('button', { name: 'Copy parsed event' }).click();
  await expect(pane.getByRole('button', { name: 'Copy failed' })).toBeVisible();
  await page.close();
});

test('a megabyte text is laid out as a bounded window: Show more widens it, Copy all copies every character', async () => {
  const long = Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(25_000)}\n`).join('');
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  const sse =
    ev({ type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'assistant' }) +
    ev({ type: 'TEXT_BLOCK_START', reply_id: 'r', block_id: 'b' }) +
    ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: long }) +
    ev({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r', block_id: 'b', delta: 'THE END' }) +
    ev({ type: 'TEXT_BLOCK_END', reply_id: 'r', block_id: 'b' });
  const page = await openViewer();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: viewer.url });
  await importText(page, 'long.sse', sse);
  await page.locator('[data-conn]').first().click();
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft'); // the step that appended "THE END"
  const text = page.getByTestId('bubble').locator('[data-block-type="text"] .block-text');
  const bar = text.getByTestId('elided');
  await expect(bar).toContainText('characters not shown');
  const hiddenOf = async () => Number((await bar.textContent())!.match(/([\d,]+) characters/)![1].replace(/,/g, ''));
  const whole = long + 'THE END';
  const shown = (await text.textContent())!.replace((await bar.textContent())!, '');
  expect(shown.length + (await hiddenOf())).toBe(whole.length);
  expect(whole.startsWith(shown.slice(0, 100))).toBe(true);
  await expect(text.locator('mark.appended')).toHaveText('THE END'); // the appended tail is still marked
  await bar.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('long-text.png') });
  await text.getByRole('button', { name: 'Show more' }).click();
  await expect.poll(hiddenOf).toBeLessThan(whole.length - 8 * 40_000 + 1);
  await text.getByRole('button', { name: 'Copy all' }).click();
  await expect(text.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(whole);
  // The JSON tab shortens long strings inside the message, and says by how much; Copy JSON copies it whole: the
  // reconstruction at this step, as the core computes it here.
  await page.getByRole('tab', { name: 'JSON' }).click();
  await expect(page.getByTestId('message-json')).toContainText(/… \[[\d,]+ chars\] …/);
  await page.getByRole('button', { name: 'Copy JSON' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  const [reply] = analyze(loadInput(sse, 'long.sse'))[0].replies;
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(JSON.parse(copied)).toEqual(reply.history.at(3));
  expect(copied).toContain(JSON.stringify(whole));
  // The next step: the button offers to copy again (what it copied was another message).
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Copy JSON' })).toBeVisible();
  // The event pane copies the parsed event whole too (its view shortens the megabyte delta).
  await page.keyboard.press('ArrowLeft');
  await page.getByTestId('event-detail').getByRole('button', { name: 'Copy parsed event' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('"delta": "THE END"');
  await page.keyboard.press('ArrowLeft');
  await page.getByTestId('event-detail').getByRole('button', { name: 'Copy parsed event' }).click();
  await expect.poll(async () => JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).delta).toBe(long);
  await page.close();
});

test('a reply of 64 blocks (checkpoints kept as patches): the bubble at any step matches history.at(k)', async () => {
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify({ reply_id: 'r', ...o })}\n\n`;
  let sse = ev({ type: 'REPLY_START', session_id: 's', name: 'assistant' });
  for (let b = 0; b < 64; b++) {
    sse += ev({ type: 'TEXT_BLOCK_START', block_id: `b${b}` });
    for (let d = 0; d < 5; d++) sse += ev({ type: 'TEXT_BLOCK_DELTA', block_id: `b${b}`, delta: `${b}.${d} ` });
    sse += ev({ type: 'TEXT_BLOCK_END', block_id: `b${b}` });
  }
  sse += ev({ type: 'REPLY_END', session_id: 's' });
  const [conn] = analyze(loadInput(new TextEncoder().encode(sse), 'blocks.sse'));
  const reply = conn.replies[0];
  const n = reply.history.length;
  const page = await openViewer();
  await importText(page, 'blocks.sse', sse);
  await page.locator('[data-conn]').first().click();
  // Mid-block steps spread over the reply: reached by ten-step jumps, so most seeks start from a checkpoint.
  for (const k of [37, 161, 250, 333, n - 2]) {
    await gotoStep(page, k, n);
    const texts = contentOf(reply.history.at(k)).filter((b) => b.type === 'text').map((b) => b.text as string);
    expect(texts.length).toBeGreaterThan(k / 7 - 1);
    expect(await bubbleTexts(page)).toEqual(texts);
  }
  await gotoStep(page, 250, n);
  await page.screenshot({ path: test.info().outputPath('many-blocks.png') });
  await page.close();
});

test('a pi stream the page aborted: at the last step a note says the client then failed the message, as replay ends it', async () => {
  const page = await openViewer();
  const model = { id: 'm', api: 'openai-completions', provider: 'p' };
  const body = [{ type: 'start' }, { type: 'text_start', contentIndex: 0 }, { type: 'text_delta', contentIndex: 0, delta: 'The package is call' }]
    .map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
  const log = oneStreamLog(body, { url: 'http://127.0.0.1/api/stream', requestBody: JSON.stringify({ model, context: { messages: [] } }), end: { state: 'aborted', error: 'AbortError: signal is aborted without reason' } });
  await importText(page, 'aborted.replyscope.ndjson', log);
  await expect(page.getByTestId('replies')).toContainText('aborted');
  await page.keyboard.press('End');
  const note = page.getByTestId('after-end');
  await expect(note).toHaveText('After this last event the connection aborted: the client failed the message — stopReason "aborted", errorMessage "Request aborted by user". That is the message the app ends with (replay\'s final).');
  await expect(page.getByTestId('bubble')).toContainText('The package is call');
  await page.keyboard.press('ArrowLeft');
  await expect(note).toHaveCount(0); // an earlier step: the message as it stood then
  await page.close();
});

test('a reply the connection cut off says "unfinished", not "streaming" for good', async () => {
  const page = await openViewer();
  const body = sseOf(r1('REPLY_START', 0, { session_id: 's', name: 'a' }), r1('TEXT_BLOCK_START', 1, { block_id: 'b' }));
  const log = (state: 'aborted' | 'open') => oneStreamLog(body, { url: `http://127.0.0.1/${state}`, end: { state } });
  await importText(page, 'aborted.replyscope.ndjson', log('aborted'));
  const finished = page.locator('[data-reply="r1"] td').nth(1);
  await expect(finished).toHaveText('unfinished');
  await expect(finished).toHaveAttribute('title', 'The connection ended (aborted) before this reply finished');
  await page.getByRole('button', { name: 'Clear' }).click();
  await importText(page, 'open.replyscope.ndjson', log('open')); // saved while it streamed: still "streaming"
  await expect(page.locator('[data-reply="r1"] td').nth(1)).toHaveText('streaming');
  await page.close();
});

test('a reply the network cut off: its last step is flagged, its event shows the end-of-stream diagnostics, the bubble says so', async () => {
  const page = await openViewer();
  const body = sseOf(r1('REPLY_START', 0, { session_id: 's', name: 'a' }), r1('TEXT_BLOCK_START', 1, { block_id: 'b' }),
    r1('TEXT_BLOCK_DELTA', 2, { block_id: 'b', delta: 'The answer is forty' }));
  await importText(page, 'cut.replyscope.ndjson', oneStreamLog(body, { end: { state: 'error', error: 'net::ERR_CONNECTION_RESET' } }));
  await page.locator('[data-reply="r1"]').click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('unfinished')).toHaveText('After this last event the connection ended (error: net::ERR_CONNECTION_RESET) before the reply finished: this is the message the page was left with.');
  const pane = page.getByTestId('event-detail');
  await expect(pane).toContainText('stream.network-error');
  await expect(pane).toContainText('as.reply-not-ended');
  await expect(page.getByText(/^\d+ flagged$/)).not.toHaveText('0 flagged');
  await expect(page.locator('[data-event="2"]')).toContainText('error'); // the row's status
  await page.screenshot({ path: test.info().outputPath('cut-off-reply.png') });
  await page.keyboard.press('Home');
  await expect(page.getByTestId('unfinished')).toHaveCount(0);
  await page.close();
});

test('a preloaded file (?load=) that cannot be read is named once in what the viewer says, as an import names it', async () => {
  const page = await viewer.browser.newPage({ viewport: { width: 1400, height: 860 } });
  await page.route('**/garbage.bin', (route) => route.fulfill({ body: Buffer.from([0xd1, 0x82, 0x5a, 0xa0, 0xd9, 0x66, 0x46, 0x5e, 0x00, 0x01]), contentType: 'application/octet-stream' }));
  await page.goto(`${viewer.url}/index.html?load=garbage.bin`);
  await expect(page.getByTestId('import-error')).toHaveText(/^Could not load garbage\.bin: expected a capture log, a HAR file, JSON events, NDJSON or SSE text; found binary data/);
  await expect(page.getByTestId('status')).toHaveAttribute('title', /^Could not load garbage\.bin: expected/);
  await page.close();
});

test('an import that fails is said whole where the user looks, not only in the toolbar\'s cut status line', async () => {
  const page = await openViewer();
  await page.setViewportSize({ width: 800, height: 600 });
  await page.getByTestId('import-input').setInputFiles({ name: 'garbage.txt', mimeType: 'text/plain', buffer: Buffer.from('this is not a stream\n{"foo": 1}') });
  const error = page.getByTestId('import-error');
  await expect(error).toHaveText(/^Could not import garbage\.txt: expected a capture log, a HAR file, JSON events, NDJSON or SSE text; found text starting "this is not a stream/);
  const box = await error.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(800);
  await page.screenshot({ path: test.info().outputPath('import-error-800.png') });
  await importText(page, 'ok.replyscope.ndjson', oneStreamLog(sseOf(r1('REPLY_START', 0, { session_id: 's', name: 'a' }))));
  await expect(error).toHaveCount(0);
  await page.close();
});

test('a reply that ended in error reads "type: message" under the bubble, not its JSON', async () => {
  const page = await openViewer();
  const body = sseOf(r1('REPLY_START', 0, { session_id: 's', name: 'a' }),
    r1('REPLY_END', 1, { session_id: 's', finished_reason: 'error', error: { type: 'rate_limit', message: 'Too many requests, retry in 20 s' } }));
  await importText(page, 'err.replyscope.ndjson', oneStreamLog(body));
  await page.locator('[data-reply="r1"]').click();
  await page.keyboard.press('End');
  await expect(page.getByTestId('bubble').locator('.error-box')).toHaveText('rate_limit: Too many requests, retry in 20 s');
  await page.close();
});

test('a connection whose only diagnostic is an info note is not counted in warning orange', async () => {
  const page = await openViewer();
  const body = sseOf(r1('REPLY_START', 0, { session_id: 's', name: 'a' }), r1('REPLY_END', 1, { session_id: 's' }));
  const log = (level: 'info' | 'warning') =>
    oneStreamLog(body, { id: level, url: `http://127.0.0.1/${level}`, before: [{ kind: 'notice', conn: level, t: 3, level, text: `a ${level} note` }] });
  await importText(page, 'info.replyscope.ndjson', log('info'));
  await importText(page, 'warning.replyscope.ndjson', log('warning'));
  const diag = (id: string) => page.locator(`[data-conn="${id}"] td`).nth(5);
  await expect(diag('info')).toHaveText('1');
  await expect(diag('info')).toHaveClass(/\bdim\b/);
  await expect(diag('warning')).toHaveClass(/\bwarn\b/);
  await page.close();
});

test('a connection with no events says so in the message pane (not "this event belongs to no reply")', async () => {
  const page = await openViewer();
  await importText(page, 'comments-only.sse', ': keep-alive\n\n: keep-alive\n\n');
  await page.locator('[data-conn]').first().click();
  await expect(page.getByText('No events in this stream: nothing to reconstruct.')).toBeVisible();
  await expect(page.getByText('This event belongs to no reply')).toHaveCount(0);
  await page.close();
});

test('the timeline of several replies says whose each lane is; labels stop before the bars', async () => {
  const page = await openViewer();
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  let n = 0;
  const reply = (r: string, s: number) => [
    ev({ type: 'REPLY_START', id: `e${n++}`, created_at: `2026-12-01T00:00:0${s}`, reply_id: r, session_id: 's', name: `agent-${r}` }),
    // A long tool name (an id as long is shortened, as the table shows it: "a-very…r-r1").
    ev({ type: 'TOOL_CALL_START', id: `e${n++}`, created_at: `2026-12-01T00:00:0${s}`, reply_id: r, tool_call_id: `call-${r}`, tool_call_name: `a_very_long_tool_name_${r}` }),
    ev({ type: 'TOOL_CALL_DELTA', id: `e${n++}`, created_at: `2026-12-01T00:00:0${s + 1}`, reply_id: r, tool_call_id: `call-${r}`, delta: '{}' }),
    ev({ type: 'TOOL_CALL_END', id: `e${n++}`, created_at: `2026-12-01T00:00:0${s + 1}`, reply_id: r, tool_call_id: `call-${r}` }),
    ev({ type: 'REPLY_END', id: `e${n++}`, created_at: `2026-12-01T00:00:0${s + 2}`, reply_id: r, session_id: 's' }),
  ].join('');
  await importText(page, 'two-replies.sse', reply('r1', 1) + reply('r2', 5));
  await page.locator('[data-conn]').first().click();
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const labels = page.getByTestId('timeline').locator('text.lane-label');
  const texts = await labels.allTextContents();
  expect(texts.some((t) => t.startsWith('R1 · '))).toBe(true);
  expect(texts.some((t) => t.startsWith('R2 · '))).toBe(true);
  for (const label of await labels.all()) await expect(label).toHaveAttribute('clip-path', 'url(#labels)');
  // The column grows to the longest label (measured, lib/text-fit.ts): on this panel none is cut, and each one ends
  // before its clip, so before the bars (a fixed 25-character cut showed "R1 · tool call call-r1 · …", the name gone).
  expect(texts.some((t) => t.endsWith('R1 · tool call call-r1 · a_very_long_tool_name_r1'))).toBe(true); // (after its <title>)
  expect(texts.some((t) => t.endsWith('…'))).toBe(false);
  const fit = await page.getByTestId('timeline').evaluate((el) => {
    const clipWidth = Number(el.querySelector('#labels rect')!.getAttribute('width'));
    return [...el.querySelectorAll<SVGTextElement>('text.lane-label')].map((t) => t.getBBox().x + t.getBBox().width <= clipWidth);
  });
  expect(fit.length).toBe(texts.length);
  expect(fit.every(Boolean)).toBe(true);
  // A narrow panel keeps the plot: the column stops at its least width, and a label cut there ends in "…".
  await page.setViewportSize({ width: 760, height: 700 });
  await expect.poll(async () => (await labels.allTextContents()).some((t) => t.endsWith('…'))).toBe(true);
  await page.close();
});

test('searching a word the stream split over deltas finds the delta that completes it', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  await page.locator('[data-conn="tab1:1"]').click();
  await page.getByLabel('Search events').fill('fastest'); // "faste" + "st (+" in the sample
  const rows = page.getByTestId('events').locator('.vrow');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('st (+');
  await page.close();
});

test('the selected connection shows as selected on a striped row too (the stripes do not outrank the selection)', async () => {
  const page = await openViewer();
  await importText(page, 'sample.replyscope.ndjson', sampleLog);
  const rows = page.locator('[data-conn]');
  const bg = (i: number) => rows.nth(i).locator('td').first().evaluate((td) => getComputedStyle(td).backgroundColor);
  await rows.nth(0).click();
  await expect(rows.nth(0)).toHaveAttribute('aria-selected', 'true');
  await page.mouse.move(0, 0); // no hover colour in the way
  const selected = await bg(0);
  const striped = await bg(1); // the second connection: an even row
  expect(striped).not.toBe(selected);
  await rows.nth(1).click();
  await expect(rows.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.mouse.move(0, 0);
  expect(await bg(1)).toBe(selected);
  await page.close();
});

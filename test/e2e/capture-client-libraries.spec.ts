// The client libraries real agent frontends read streams with, in real Chromium with the built extension: each reader
// runs the same way in a browser with the extension and in one without, and must observe the same (events, texts,
// errors, the order of open/end/abort); the capture must hold exactly the bytes the server sent on each connection,
// ended as the page ended it, and the analysis must rebuild the reply (readers: support/client-library-page.ts).
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { analyzeCapture } from '../../src/core/analysis/analyze.ts';
import type { ConnectionView } from '../../src/core/analysis/types.ts';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { captured, connectionsMatching, type CapturedConnection } from './support/capture.ts';
import { DELTAS, REPLY_ID, startClientLibraryServer, type ClientLibraryServer } from './support/client-library-server.ts';
import { launchWithBackgroundTabs, visibility } from './support/background-tabs.ts';
import { CHROMIUM, QUIET_ARGS, launchWithExtension, type ExtensionBrowser } from './support/extension.ts';

let ext: ExtensionBrowser;
let plain: Browser;
let server: ClientLibraryServer;
/** The page with the extension (its capture watched), and the same page in a browser without it. */
let sides: Side[];

interface Side {
  name: 'ext' | 'plain' | 'background-tab';
  page: Page;
  tabId?: number;
}

test.beforeAll(async () => {
  server = await startClientLibraryServer();
  ext = await launchWithExtension();
  plain = await chromium.launch({ executablePath: CHROMIUM, args: QUIET_ARGS });
  const watched = await ext.openWatchedPage(`${server.url}/app`);
  const other = await plain.newPage();
  await other.goto(`${server.url}/app`);
  sides = [{ name: 'ext', ...watched }, { name: 'plain', page: other }];
});
test.afterAll(async () => {
  await ext?.close();
  await plain?.close();
  await server?.close();
});

const REPLY_TEXT = DELTAS.join('');
const runId = (id: string, side: Side): string => `${id}-${side.name}`;
const sseUrl = (id: string, side: Side, query = ''): string => `/sse?id=${runId(id, side)}&${query}`;

function start(side: Side, reader: string, id: string, query = '', cancelAfter = 0): Promise<void> {
  return side.page.evaluate(([r, n, u, c]) => window.clients.start(r, n, u, c), [reader, runId(id, side), sseUrl(id, side, query), cancelAfter] as const);
}

function runState(side: Side, id: string): Promise<{ log: string[]; text: string; ended: boolean }> {
  return side.page.evaluate((n) => {
    const { log, text, ended } = window.clients.runs[n];
    return { log, text, ended };
  }, runId(id, side));
}

async function finished(side: Side, id: string): Promise<string[]> {
  await expect.poll(async () => (await runState(side, id)).ended, { message: `${side.name} run ${id}` }).toBe(true);
  return (await runState(side, id)).log;
}

/** Runs `scenario` on both sides at once; the page logs must be the same (returned: the extension side's). */
async function sameOnBothSides(scenario: (side: Side) => Promise<string[]>): Promise<string[]> {
  const [withExtension, without] = await Promise.all(sides.map(scenario));
  expect(withExtension, 'what the page observes with the extension = without it').toEqual(without);
  return withExtension;
}

/** What the server sent on each connection of a run (the extension side's), as one buffer each. */
const sentOn = (id: string, side = sides[0]): Buffer[] => server.connections(runId(id, side)).map((c) => Buffer.concat(c.sent));

/** The captured connections of run `id` (the extension side's), once `count` of them have ended. */
async function capturedRun(id: string, count: number, side = sides[0], browser: Pick<ExtensionBrowser, 'records'> = ext): Promise<CapturedConnection[]> {
  const tabId = side.tabId as number;
  let found: CapturedConnection[] = [];
  await expect.poll(async () => {
    const records = await browser.records(tabId);
    found = connectionsMatching(records, `id=${runId(id, side)}&`).map((c) => captured(records, c));
    return found.length === count && found.every((c) => c.end !== undefined);
  }, { message: `capture of ${id}` }).toBe(true);
  return found;
}

function analyzed(connections: CapturedConnection[]): ConnectionView[] {
  const records: CaptureRecord[] = connections.flatMap((c) => [c.connection, ...c.records]);
  return analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'e2e', created: '' }, records });
}

/** The text of a reply as the analysis rebuilt it (AgentScope's and pi's messages both hold text blocks). */
function replyText(view: ConnectionView): string {
  const reply = view.replies[0];
  const message = reply.history.at(reply.history.length - 1) as { content: { text?: string }[] };
  return message.content.map((b) => b.text ?? '').join('');
}

/** Each captured connection holds exactly what the server sent on it, and ended as expected. */
function expectExactCapture(connections: CapturedConnection[], id: string, states: string[], side = sides[0]): void {
  const sent = sentOn(id, side);
  expect(connections.map((c) => c.end?.state)).toEqual(states);
  expect(connections.length).toBe(sent.length);
  connections.forEach((c, k) => expect(c.bytes.equals(sent[k]), `connection ${k + 1}: the server's bytes`).toBe(true));
}

test('@microsoft/fetch-event-source reads an AgentScope and a pi reply to the end: same events, exact capture, the reply rebuilt', async () => {
  for (const dialect of ['agentscope', 'pi']) {
    const id = `fes-${dialect}`;
    const log = await sameOnBothSides(async (side) => {
      await start(side, 'fetch-event-source', id, `dialect=${dialect}`);
      return finished(side, id);
    });
    expect(log[0]).toBe('open 200 text/event-stream; charset=utf-8');
    expect(log.slice(-2)).toEqual(['close', 'end']);
    const [conn] = await capturedRun(id, 1);
    expectExactCapture([conn], id, ['complete']);
    expect(conn.connection).toMatchObject({ transport: 'fetch', method: 'POST', requestBody: { text: '{"prompt":"hi"}' } });
    const [view] = analyzed([conn]);
    expect(view.dialect, dialect).toBe(dialect === 'pi' ? 'pi-proxy' : 'agentscope');
    expect(replyText(view)).toBe(REPLY_TEXT);
    expect(view.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  }
});

/** Waits until the page has read everything the server sent on run `id`'s first connection so far. */
async function pageHasAllSent(side: Side, id: string, until: (text: string) => boolean): Promise<void> {
  await expect.poll(async () => until((await runState(side, id)).text), { message: `${side.name} run ${id} read` }).toBe(true);
}

const HELD = 4; // the hide/show runs: the server holds the reply after frames e1–e4 (the reply under way)

/**
 * fetch-event-source (openWhenHidden: false, the default) aborts its request when the document becomes hidden and
 * makes a new one, with the Last-Event-ID it got, once it is visible again. `hide`/`show` do that to the page.
 */
async function hiddenAndShown(side: Side, id: string, hide: () => Promise<void>, show: () => Promise<void>): Promise<string[]> {
  await start(side, 'fetch-event-source', id, `hold=${HELD}`);
  await expect.poll(async () => (await runState(side, id)).log.some((l) => l.startsWith(`event id=e${HELD} `))).toBe(true);
  await hide();
  const [first] = server.connections(runId(id, side));
  await first.closed; // the library's abort reached the server
  await show();
  return finished(side, id);
}

/** Headless Chromium under Playwright never hides a tab (its focus emulation keeps every page visible): the page's
 * document says hidden and fires visibilitychange the way a tab switch does — all the library looks at. */
const emulated = (side: Side) => (state: 'hidden' | 'visible') => () => side.page.evaluate((s) => window.clients.setVisibility(s), state);

/** Two connections, the first aborted, the second resuming it: one reply, rebuilt whole. */
async function expectResumedReply(captures: CapturedConnection[], id: string, side = sides[0]): Promise<ConnectionView[]> {
  const connections = server.connections(runId(id, side));
  expect(connections.map((c) => [c.lastEventId, c.clientClosed])).toEqual([[undefined, true], [`e${HELD}`, false]]);
  expectExactCapture(captures, id, ['aborted', 'complete'], side);
  expect(captures[1].connection.requestHeaders).toContainEqual(['last-event-id', `e${HELD}`]);
  const [first, second] = analyzed(captures);
  expect(second.resumes).toMatchObject({ conn: first.record.id, eventId: `e${HELD}`, events: HELD, continuing: [REPLY_ID] });
  expect(first.resumedBy).toMatchObject([{ conn: second.record.id, eventId: `e${HELD}`, events: HELD }]);
  expect(second.replies[0].continuesConnection).toBe(first.record.id);
  expect(replyText(second)).toBe(REPLY_TEXT);
  expect(second.diagnostics.map((d) => `${d.severity} ${d.code}`)).toEqual(['info stream.resumed']);
  return [first, second];
}

test('@microsoft/fetch-event-source across a hide and show: the page\'s abort and its resumed request, two connections, one reply', async () => {
  const id = 'fes-hidden';
  const log = await sameOnBothSides((side) => hiddenAndShown(side, id, emulated(side)('hidden'), emulated(side)('visible')));
  expect(log.filter((l) => l.startsWith('open'))).toHaveLength(2);
  expect(log.slice(-2)).toEqual(['close', 'end']);
  const [first] = await expectResumedReply(await capturedRun(id, 2), id);

  // The panel: the aborted request is resumed by the next, which continues its reply.
  const tabId = sides[0].tabId as number;
  const number = analyzeCapture({ header: { kind: 'header', format: 'replyscope-capture', version: 1, tool: 'e2e', created: '' }, records: await ext.records(tabId) })
    .findIndex((c) => c.record.id === first.record.id) + 1;
  const panel = await ext.panelPage(tabId);
  const rows = panel.locator('[data-conn]');
  await expect(rows.nth(number - 1)).toContainText(`resumed by #${number + 1}`);
  await expect(rows.nth(number)).toContainText(`resumes #${number} from id "e${HELD}"`);
  await rows.nth(number).click();
  await expect(panel.getByTestId('resumes')).toContainText(`#${number} from id "e${HELD}" (Last-Event-ID) — the page had ${HELD} of its events; reply ${REPLY_ID} continues here`);
  await panel.screenshot({ path: test.info().outputPath('fetch-event-source-hide-show.png') });
  await rows.nth(number - 1).click();
  await expect(panel.getByTestId('resumed-by')).toContainText(`#${number + 1} from id "e${HELD}", after ${HELD} events`);
  await panel.screenshot({ path: test.info().outputPath('fetch-event-source-hidden-aborted.png') });
  await panel.close();
});

test('@microsoft/fetch-event-source in a real background tab: the same as the page hidden by hand, and the same capture', async () => {
  // A tab really switched away from and back (background-tabs.ts: Chromium without Playwright's focus emulation),
  // beside the browser without the extension, whose page is hidden by hand as above: the same log, the same capture.
  const id = 'fes-background';
  const bg = await launchWithBackgroundTabs();
  try {
    const { page, tabId } = await bg.openTab(`${server.url}/app`, { active: true });
    const tab: Side = { name: 'background-tab', page, tabId };
    const [real, byHand] = await Promise.all([
      hiddenAndShown(tab, id, async () => {
        await bg.openTab(`${server.url}/app?other`, { active: true });
        expect(await visibility(page)).toBe('hidden');
      }, () => bg.activate(tabId)),
      hiddenAndShown(sides[1], id, emulated(sides[1])('hidden'), emulated(sides[1])('visible')),
    ]);
    expect(real).toEqual(byHand);
    await expectResumedReply(await capturedRun(id, 2, tab, bg), id, tab);
  } finally {
    await bg.close();
  }
});

test('EventSource polyfills, sse.js over XHR and event-source-polyfill over fetch: the reconnection is linked, both bodies exact, the close ends it', async () => {
  for (const [reader, transport] of [['sse.js', 'xhr'], ['event-source-polyfill', 'fetch']] as const) {
    const id = reader;
    // The first response ends after the reply; the client reconnects 20 ms later with the last id (sse.js: in a
    // Last-Event-ID header; event-source-polyfill: in the query), and the page closes it on the server's `done` event.
    const log = await sameOnBothSides(async (side) => {
      await start(side, reader, id, 'retry=20&then=done');
      return finished(side, id);
    });
    expect(log.filter((l) => l.startsWith('open'))).toHaveLength(2);
    expect(log.slice(-2)).toEqual(['done, closed', 'end']);
    const captures = await capturedRun(id, 2);
    // The page's close(): sse.js aborts its XHR, event-source-polyfill cancels its reader (then aborts): "cancelled".
    expectExactCapture(captures, id, ['complete', 'cancelled']);
    expect(captures.map((c) => c.connection.transport)).toEqual([transport, transport]);
    const [first, second] = analyzed(captures);
    expect(replyText(first)).toBe(REPLY_TEXT);
    expect(second.resumes).toEqual({ conn: first.record.id, eventId: 'e9', ...(transport === 'fetch' ? { query: 'lastEventId' } : {}), frame: 9, events: 9, continuing: [] });
  }
});

test('axios: onDownloadProgress over XHR and a fetch-adapter stream, read to the end and aborted mid-reply', async () => {
  for (const reader of ['axios-xhr', 'axios-fetch-stream']) {
    const id = reader;
    const log = await sameOnBothSides(async (side) => {
      await start(side, reader, id);
      return finished(side, id);
    });
    const [sent] = sentOn(id);
    expect(log).toContain(reader === 'axios-xhr' ? `data ${sent}` : `read ${sent}`);
    const captures = await capturedRun(id, 1);
    expectExactCapture(captures, id, ['complete']);
    expect(captures[0].connection.transport).toBe(reader === 'axios-xhr' ? 'xhr' : 'fetch');
    expect(replyText(analyzed(captures)[0])).toBe(REPLY_TEXT);

    // Stop mid-reply: the page aborts through axios' signal once it has everything the server sent before its hold.
    const stopped = `${reader}-abort`;
    const stopLog = await sameOnBothSides(async (side) => {
      await start(side, reader, stopped, 'hold=3');
      const [conn] = await expect.poll(() => server.connections(runId(stopped, side))).toHaveLength(1).then(() => server.connections(runId(stopped, side)));
      await pageHasAllSent(side, stopped, (text) => conn.sent.length === 4 && text === Buffer.concat(conn.sent).toString());
      await side.page.evaluate((n) => window.clients.runs[n].ctrl.abort(), runId(stopped, side));
      const log = await finished(side, stopped);
      await conn.closed;
      expect(conn.clientClosed).toBe(true);
      return log;
    });
    expect(stopLog.join('\n')).toMatch(reader === 'axios-xhr' ? /rejected CanceledError: canceled code=ERR_CANCELED/ : /read failed CanceledError/);
    const stopCaptures = await capturedRun(stopped, 1);
    expectExactCapture(stopCaptures, stopped, [reader === 'axios-xhr' ? 'cancelled' : 'aborted']);
  }
});

test('EventSourceParserStream behind TextDecoderStream, alone, on both branches of body.tee() and beside a clone\'s text(): same events, exact capture', async () => {
  for (const [reader, dialect] of [['eventsource-parser', 'pi'], ['tee', 'agentscope'], ['clone', 'agentscope']] as const) {
    const id = `${reader}-read`;
    const log = await sameOnBothSides(async (side) => {
      await start(side, reader, id, `dialect=${dialect}`);
      return finished(side, id);
    });
    const [sent] = sentOn(id);
    if (reader === 'tee') expect(log.filter((l) => l.startsWith('a ')).map((l) => l.slice(2))).toEqual(log.filter((l) => l.startsWith('b ')).map((l) => l.slice(2)));
    if (reader === 'clone') expect(log).toContain(`text() ${sent}`);
    const captures = await capturedRun(id, 1);
    expectExactCapture(captures, id, ['complete']);
    expect(replyText(analyzed(captures)[0]), reader).toBe(REPLY_TEXT);
  }
});

test('a parser reader cancelled after three events, alone and on both tee branches: "cancelled", the server sees the close', async () => {
  for (const reader of ['eventsource-parser', 'tee']) {
    const id = `${reader}-cancel`;
    // The server holds the reply after five frames: the page has not got it all when it cancels.
    const log = await sameOnBothSides(async (side) => {
      await start(side, reader, id, 'hold=5', 3);
      const log = await finished(side, id);
      const [conn] = server.connections(runId(id, side));
      await conn.closed;
      expect(conn.clientClosed).toBe(true);
      return log;
    });
    expect(log.filter((l) => l.endsWith('cancelled'))).toHaveLength(reader === 'tee' ? 2 : 1);
    const [conn] = await capturedRun(id, 1);
    expect(conn.end?.state).toBe('cancelled');
    // The page cancelled while the server was held: the capture has what reached the page's decoder, a prefix of what was sent.
    const [sent] = sentOn(id);
    expect(sent.subarray(0, conn.bytes.length).equals(conn.bytes)).toBe(true);
    expect(conn.bytes.toString()).toContain('id: e3\n');
  }
});

test('the Vercel AI SDK\'s parseJsonEventStream and readUIMessageStream: the same message, the stream captured exactly and named', async () => {
  const id = 'ai-sdk';
  const log = await sameOnBothSides(async (side) => {
    await start(side, 'ai-sdk', id, 'dialect=aisdk');
    return finished(side, id);
  });
  expect(log).toContain(`parts ${JSON.stringify([{ type: 'step-start' }, { type: 'text', text: REPLY_TEXT, state: 'done' }])}`);
  const captures = await capturedRun(id, 1);
  expectExactCapture(captures, id, ['complete']);
  const [view] = analyzed(captures);
  expect(view.diagnostics.map((d) => d.code)).toEqual(['stream.unknown-dialect']);
});

// Eviction keeps what was evicted derived: with a small capture cap, a long AgentScope session streams past it, and
// a panel opened only afterwards (so it gets the relay's post-eviction snapshot) still shows the last reply's
// final text exactly as the page read it, and says how many events were evicted before that point. The same session
// over a WebSocket, with the app's own messages and a sent one among the events: they are not counted as events. A
// panel watching all along is handed the kept capture once it outgrows the cap, the selected heartbeat kept selected,
// a selected step found again (the scrubber saying so while the capture is read back, keyboard focus kept on it) — one
// the cut took replaced by the reply's oldest step kept, with a note saying so; what it showed stays shown until the
// kept capture has something to show (never the empty page), keyboard focus kept in the event list, and on a Copy
// button of the message or event pane (waiting on the pane while it reads).
// A cap set in the panel's toolbar (Memory cap…) applies from then on: the relay evicts at it, a lower one at once.
import { bubbleTextBlocks, expectedShown } from './support/bubble.ts';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { launchWithExtension, setCaptureLimit, type ExtensionBrowser } from './support/extension.ts';
import { startServer, writeAndWait, type TestServer } from './support/server.ts';
import type { AddressInfo } from 'node:net';
import { MAX_DERIVED_CHARS } from '../../src/core/analysis/eviction-digest.ts';
import { COMPACT_FACTOR } from '../../src/extension/panel-compaction.ts';
import { WebSocketServer } from 'ws';

let ext: ExtensionBrowser;
let server: TestServer;
let sockets: WebSocketServer;

const LIMIT = 1024 * 1024; // the smallest cap the settings accept
// Two short replies, then one long enough that the cap cuts into its middle.
const REPLIES = [{ id: 'r-short-1', deltas: 300 }, { id: 'r-short-2', deltas: 300 }, { id: 'r-long', deltas: 16_000 }];
// For a panel watching all along: a long reply of ~11 MB, past three times the cap — and long enough that its last
// compaction evicts past MAX_DERIVED_CHARS of its text (~56,000 deltas), so the bubble starts with the digest's marker.
const LONG_SESSION = [{ id: 'r-short-1', deltas: 300 }, { id: 'r-long', deltas: 100_000 }];
// For a heartbeat selected in a live panel: ~3.04 MB of deltas (just under three times the cap); once the page has read
// them, the heartbeat and three more deltas, a chunk of their own; the test selects one of those, then ~0.44 MB more
// take the panel past the bound. Whenever its capture is handed anew — at once, or (a loaded machine) only once the
// stream's end let the relay's digest catch up — the tail chunk is within the newest cap's worth (the relay evicts to
// 90% of it), kept. With ~0.94 MB after it, it was not when the handing waited for the end (the tail evicted within a
// chunk of the first part's, or with its own): the selection went to the reply's oldest step kept.
const BEAT_SESSION = { before: 27_500, after: 4_000 };

function* sessionFrames(replies = REPLIES): Generator<string> {
  const ev = (o: Record<string, unknown>) => `data: ${JSON.stringify(o)}\n\n`;
  for (const { id, deltas } of replies) {
    yield ev({ type: 'REPLY_START', reply_id: id, session_id: 's', name: 'Friday' });
    yield ev({ type: 'TEXT_BLOCK_START', reply_id: id, block_id: `${id}-t` });
    for (let i = 0; i < deltas; i++) yield ev({ type: 'TEXT_BLOCK_DELTA', reply_id: id, block_id: `${id}-t`, delta: `${id}:${i} ünï😀 ` });
    yield ev({ type: 'TEXT_BLOCK_END', reply_id: id, block_id: `${id}-t` });
    yield ev({ type: 'REPLY_END', reply_id: id, session_id: 's' });
  }
}

// The page reads the stream the way the AgentScope web UI does and keeps each reply's text.
const APP = `<!doctype html><title>chat</title><script>
window.__texts = {};
async function run(path = '/session') {
  const r = await fetch(path); const rd = r.body.getReader(); const d = new TextDecoder(); let buf = '';
  for (;;) { const { done, value } = await rd.read(); if (done) break; buf += d.decode(value, { stream: true });
    const lines = buf.split('\\n'); buf = lines.pop();
    for (const l of lines) { if (!l.startsWith('data: ')) continue; const e = JSON.parse(l.slice(6).trim());
      if (e.type === 'TEXT_BLOCK_DELTA') window.__texts[e.reply_id] = (window.__texts[e.reply_id] || '') + e.delta; } }
  document.title = 'done';
}
function runWs(url) {
  const ws = new WebSocket(url);
  ws.onopen = () => ws.send('{"type":"chat","text":"go"}');
  ws.onmessage = (m) => { const e = JSON.parse(m.data);
    if (e.type === 'TEXT_BLOCK_DELTA') window.__texts[e.reply_id] = (window.__texts[e.reply_id] || '') + e.delta; };
  ws.onclose = () => { document.title = 'done'; };
}
</script>`;

/** Lets the held /session-beat stream write its tail: the heartbeat and three deltas (the page read what came before). */
let releaseTail: () => void = () => {};
/** Resolves the held /session-beat stream (the test selected its heartbeat). */
let releaseBeat: () => void = () => {};

test.beforeAll(async () => {
  ext = await launchWithExtension();
  await setCaptureLimit(ext, LIMIT);
  server = await startServer(async (req, res) => {
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(APP);
      return;
    }
    if (req.url === '/session' || req.url === '/session-long') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      // Batches of frames cut at arbitrary byte offsets (mid-line, mid-character), as a network would.
      let pending = Buffer.alloc(0);
      for (const f of sessionFrames(req.url === '/session' ? REPLIES : LONG_SESSION)) {
        pending = Buffer.concat([pending, Buffer.from(f)]);
        if (pending.length > 20_011) {
          await writeAndWait(res, pending.subarray(0, 20_011));
          pending = pending.subarray(20_011);
        }
      }
      await writeAndWait(res, pending);
      res.end();
      return;
    }
    if (req.url === '/session-beat') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      const tailReleased = new Promise<void>((resolve) => (releaseTail = resolve));
      const released = new Promise<void>((resolve) => (releaseBeat = resolve));
      const frames = [...sessionFrames([{ id: 'r-long', deltas: BEAT_SESSION.before + BEAT_SESSION.after }])];
      const at = 2 + BEAT_SESSION.before; // after REPLY_START, TEXT_BLOCK_START and the first deltas
      const write = async (text: string) => {
        for (let i = 0; i < text.length; i += 20_011) await writeAndWait(res, text.slice(i, i + 20_011));
      };
      await write(frames.slice(0, at).join(''));
      await tailReleased;
      await write([': ping marker\n\n', ...frames.slice(at, at + 3)].join(''));
      await released;
      await write(frames.slice(at + 3).join(''));
      res.end();
      return;
    }
    res.writeHead(404).end();
  });
  // The session over a socket: each frame's event one message, a presence message after every 97th.
  sockets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => sockets.once('listening', () => resolve()));
  sockets.on('connection', (ws) => {
    ws.once('message', async () => {
      let i = 0;
      for (const f of sessionFrames()) {
        ws.send(f.slice('data: '.length, -2));
        if (++i % 97 === 0) ws.send(JSON.stringify({ type: 'presence', users: i }));
        if (i % 500 === 0) await new Promise((r) => setImmediate(r));
      }
      ws.close(1000);
    });
  });
});

test.afterAll(async () => {
  releaseBeat(); // (a stream held for a test that failed before it let it go)
  for (const c of sockets?.clients ?? []) c.terminate();
  await new Promise<void>((resolve) => (sockets ? sockets.close(() => resolve()) : resolve()));
  await server?.close();
  await ext?.close();
});


/** The captured chunk bytes a panel holds, and the largest of its chunks. */
function chunkBytes(panel: Page): Promise<{ bytes: number; largest: number }> {
  return panel.evaluate(() => {
    const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; bytes?: number }[] } } } }).replyscopePanel;
    const chunks = store.capture().records.map((r) => (r.kind === 'chunk' ? r.bytes ?? 0 : 0));
    return { bytes: chunks.reduce((n, b) => n + b, 0), largest: chunks.reduce((m, b) => Math.max(m, b), 0) };
  });
}

/** Selects the panel's (only) connection once complete; the number of events its details say were evicted. */
async function evictedEvents(panel: Page): Promise<number> {
  const row = panel.locator('[data-conn]').first();
  await expect(row).toContainText('complete');
  await row.click();
  const evicted = panel.getByText('Evicted', { exact: true }).locator('xpath=following-sibling::*[1]');
  await expect(evicted).toHaveText(/^\d+ oldest events \(memory cap\)$/);
  return Number((await evicted.textContent())?.match(/^\d+/)?.[0]);
}

/**
 * The text a panel shows of a reply whose first `evicted` deltas were evicted: the page's text, except that a derived
 * message keeps only the newest MAX_DERIVED_CHARS of a string, saying how many older characters it left out — so
 * how much a late compaction evicted decides the head of the bubble.
 */
function textAfterEviction(deltas: readonly string[], evicted: number): string {
  const head = deltas.slice(0, evicted).join('');
  const tail = deltas.slice(evicted).join('');
  if (head.length <= MAX_DERIVED_CHARS) return head + tail;
  return `[… ${head.length - MAX_DERIVED_CHARS} older characters evicted …]${head.slice(head.length - MAX_DERIVED_CHARS)}${tail}`;
}

/** The reply's last step: `kept` steps in all, its bubble the text the page read (a long text: head … tail). */
async function expectLastStep(panel: Page, kept: number, text: string): Promise<void> {
  await panel.keyboard.press('End');
  await expect(panel.getByTestId('step-pos')).toHaveText(new RegExp(`^step ${kept} / ${kept}\\b`));
  expect(await bubbleTextBlocks(panel)).toEqual([expectedShown(text)]);
}

/**
 * Runs the session in a fresh app page (`start` starts it), then opens the panel only afterwards — so its analysis
 * starts from the relay's snapshot, whose head was evicted — and checks the long reply continues from its derived
 * message to the text the page read.
 */
async function sessionAfterEviction(start: (app: Page) => Promise<void>): Promise<void> {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  await start(app);
  await expect(app).toHaveTitle('done', { timeout: 60_000 });
  const texts = await app.evaluate(() => (window as unknown as { __texts: Record<string, string> }).__texts);
  expect(texts['r-long'].endsWith(`r-long:${REPLIES[2].deltas - 1} ünï😀 `)).toBe(true);

  const panel = await ext.panelPage(tabId);
  const n = await evictedEvents(panel);
  const shortEvents = REPLIES[0].deltas + 4 + REPLIES[1].deltas + 4;
  expect(n).toBeGreaterThan(shortEvents); // the short replies and the long one's head
  // Only the long reply still has events; its remaining steps continue from the derived message. (Over a socket:
  // had the digest counted the presence messages or the sent one as events, this count would be off.)
  await expectLastStep(panel, REPLIES[2].deltas + 4 - (n - shortEvents), texts['r-long']);
  await panel.close();
  await app.close();
}

test('a panel opened after eviction continues the evicted reply from its derived state', async () => {
  await sessionAfterEviction((app) => app.evaluate(() => void (window as unknown as { run: () => Promise<void> }).run()));
});

test('over a WebSocket too: the app\'s own and the sent messages are no events, before or after the eviction point', async () => {
  const url = `ws://127.0.0.1:${(sockets.address() as AddressInfo).port}/session`;
  await sessionAfterEviction((app) => app.evaluate((u) => (window as unknown as { runWs: (u: string) => void }).runWs(u), url));
});

test('a panel watching all along stays bounded past the cap: it is handed the kept capture and ends on the same bubble', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  const panel = await ext.panelPage(tabId); // watching before the stream starts: every record comes live
  let largest = 0; // the largest chunk the panel was handed: a page reading slowly gets 2 MiB reads from Chromium
  const heldBytes = async () => {
    const held = await panel.evaluate(() => {
      const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string; bytes?: number }[] } } } }).replyscopePanel;
      const chunks = store.capture().records.map((r) => (r.kind === 'chunk' ? r.bytes ?? 0 : 0));
      return { bytes: chunks.reduce((n, b) => n + b, 0), largest: chunks.reduce((m, b) => Math.max(m, b), 0) };
    });
    largest = Math.max(largest, held.largest);
    return held.bytes;
  };
  await app.evaluate(() => void (window as unknown as { run: (p: string) => Promise<void> }).run('/session-long'));
  let most = 0;
  while ((await app.title()) !== 'done') {
    most = Math.max(most, await heldBytes());
    await app.waitForTimeout(50); // sampling what the panel holds while the stream flows
  }
  const texts = await app.evaluate(() => (window as unknown as { __texts: Record<string, string> }).__texts);
  const read = [...sessionFrames(LONG_SESSION)].reduce((n, f) => n + Buffer.byteLength(f), 0);
  expect(texts['r-long'].endsWith(`r-long:${LONG_SESSION[1].deltas - 1} ünï😀 `)).toBe(true);
  expect(read).toBeGreaterThan(4 * LIMIT);

  const n = await evictedEvents(panel);
  const deltas = Array.from({ length: LONG_SESSION[1].deltas }, (_, i) => `r-long:${i} ünï😀 `);
  expect(deltas.join('')).toBe(texts['r-long']);
  // Evicted before the long reply's first delta: the short reply's events, its REPLY_START and TEXT_BLOCK_START.
  const evictedDeltas = Math.max(0, n - (LONG_SESSION[0].deltas + 4) - 2);
  expect(deltas.slice(0, evictedDeltas).join('').length).toBeGreaterThan(MAX_DERIVED_CHARS); // the capped case
  await expectLastStep(panel, LONG_SESSION[0].deltas + 4 + LONG_SESSION[1].deltas + 4 - n, textAfterEviction(deltas, evictedDeltas));
  // The bound panel-compaction.ts keeps: COMPACT_FACTOR times the cap, up to twice that while the relay's digest
  // catches up (under load it lags) — or twice the capture handed anew, the cap plus the newest chunk the relay keeps
  // (capture-store.ts) — plus the batch that crossed it.
  most = Math.max(most, await heldBytes());
  console.log(`eviction: live panel held at most ${most} B of a ${read} B stream (cap ${LIMIT} B, largest chunk ${largest} B); ${n} events evicted`);
  expect(most).toBeLessThanOrEqual(Math.max(2 * COMPACT_FACTOR * LIMIT, 2 * (LIMIT + largest)) + largest);
  expect(await heldBytes()).toBeLessThan(read / 2);
  await panel.screenshot({ path: test.info().outputPath('live-panel-compacted.png') });
  await panel.close();
  await app.close();
});

test('a heartbeat selected in a live panel stays selected when the panel is handed the kept capture', async () => {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  const panel = await ext.panelPage(tabId);
  await app.evaluate(() => void (window as unknown as { run: (p: string) => Promise<void> }).run('/session-beat'));
  await panel.locator('[data-conn]').first().click(); // its reply is followed: the list shows its newest rows
  await beatTail(panel);
  const beat = panel.locator('.vrow.heartbeat', { hasText: 'ping marker' });
  await beat.click();
  const detail = panel.getByTestId('frame-detail');
  await expect(detail.getByTestId('raw-frame')).toHaveText('ping marker');
  const before = Number(await beat.getAttribute('data-frame'));
  // Handed the kept capture: its eviction record comes before its chunks (one evicted live comes after those read).
  const handed = () => panel.evaluate(() => {
    const { store } = (globalThis as unknown as { replyscopePanel: { store: { capture(): { records: { kind: string }[] } } } }).replyscopePanel;
    const kinds = store.capture().records.map((r) => r.kind);
    return kinds.includes('evicted') && kinds.indexOf('evicted') < kinds.indexOf('chunk');
  });
  expect(await handed()).toBe(false);
  releaseBeat();
  await expect(app).toHaveTitle('done', { timeout: 60_000 });
  await expect.poll(handed, { timeout: 30_000 }).toBe(true);
  await expect(panel.getByText('Evicted', { exact: true })).toBeVisible();
  // The same heartbeat, under its index in the kept capture (numbered from the cut) — not whatever frame its old index
  // names there.
  const shown = async () => Number((await detail.getByTestId('frame-number').textContent())?.match(/^(\d+) heartbeat/)?.[1]);
  await expect.poll(shown).toBeLessThan(before);
  const after = await shown();
  await expect(detail.getByTestId('raw-frame')).toHaveText('ping marker');
  // Its row is the one selected, in view: the list reveals it under its new index (and it did not follow the reply's
  // newest rows away from it meanwhile).
  const row = panel.locator('.vrow.heartbeat[aria-selected="true"]');
  await expect(row).toBeInViewport();
  await expect(row).toHaveAttribute('data-frame', String(after));
  await panel.screenshot({ path: test.info().outputPath('live-panel-compacted-heartbeat.png') });
  await panel.close();
  await app.close();
});

/** A panel watching the held /session-beat stream, its reply selected (followed: at its newest step). */
async function watchingBeatSession(): Promise<{ app: Page; panel: Page }> {
  const app = await ext.context.newPage();
  await app.goto(`${server.url}/app`);
  const tabId = await ext.tabIdFor(app);
  const panel = await ext.panelPage(tabId);
  await app.evaluate(() => void (window as unknown as { run: (p: string) => Promise<void> }).run('/session-beat'));
  await panel.locator('[data-conn]').first().click();
  await beatTail(panel);
  return { app, panel };
}

/** Once the panel (following the reply) has read the held stream's first part, its tail is written: a chunk of its own. */
async function beatTail(panel: Page): Promise<void> {
  await expect.poll(async () => (await stepShown(panel)).step).toBe(BEAT_SESSION.before + 2);
  releaseTail();
}

/** What the panel showed, at each change of its document since `watchPanel`. */
interface PanelSeen {
  /** The scrubber's texts, in turn. */
  scrubber: string[];
  /** The panel's empty page ("No agent streams yet…") was shown. */
  emptyPage: boolean;
  /** Every text of an empty pane ("Select a connection.", "Reading the capture up to the selected step…"). */
  emptyPanes: string[];
  /** Where keyboard focus was, in turn: an element's data-testid (its tag name), or "document" when it had none. */
  focus: string[];
}

/** From now on, records what the panel shows at each change of its document (see PanelSeen). */
async function watchPanel(panel: Page): Promise<void> {
  await panel.evaluate(() => {
    const seen: PanelSeen = ((window as unknown as { panelSeen: PanelSeen }).panelSeen = { scrubber: [], emptyPage: false, emptyPanes: [], focus: [] });
    const add = (list: string[], text: string) => {
      if (text !== list.at(-1)) list.push(text);
    };
    const look = () => {
      add(seen.scrubber, document.querySelector('[data-testid="scrubber"]')?.textContent ?? '');
      if (document.querySelector('[data-testid="empty"]')) seen.emptyPage = true;
      for (const pane of document.querySelectorAll('.empty')) if (!seen.emptyPanes.includes(pane.textContent ?? '')) seen.emptyPanes.push(pane.textContent ?? '');
      const at = document.activeElement;
      add(seen.focus, !at || at === document.body ? 'document' : at.getAttribute('data-testid') ?? at.tagName.toLowerCase());
    };
    look();
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

function panelSeen(panel: Page): Promise<PanelSeen> {
  return panel.evaluate(() => (window as unknown as { panelSeen: PanelSeen }).panelSeen);
}

/** The step the scrubber shows, and of how many. */
async function stepShown(panel: Page): Promise<{ step: number; of: number }> {
  const [, step, of] = /^step (\d+) \/ (\d+)/.exec((await panel.getByTestId('step-pos').textContent()) ?? '') ?? [];
  return { step: Number(step), of: Number(of) };
}

test('a step selected in a live panel is found again when the panel is handed the kept capture, and meanwhile the scrubber says it is finding it', async () => {
  const { app, panel } = await watchingBeatSession();
  await expect.poll(async () => (await stepShown(panel)).step).toBe(BEAT_SESSION.before + 2 + 3); // held: all read
  await panel.keyboard.press('ArrowLeft'); // the step before the newest: no longer following
  const old = await stepShown(panel);
  expect(old.step).toBe(BEAT_SESSION.before + 2 + 3 - 1);
  const raw = panel.getByTestId('event-detail').getByTestId('raw-frame');
  const frame = await raw.textContent();
  expect(frame).toContain(`r-long:${BEAT_SESSION.before + 1} `);
  const slider = panel.getByTestId('step-slider');
  await focusedThroughReadBack(app, panel, slider); // the user scrubs with the keys
  // The same event, at its step in the kept capture (numbered from the cut), not followed away from.
  const found = await stepShown(panel);
  expect(found.step).toBeLessThan(old.step);
  await expect(panel.getByTestId('selection-note')).toHaveCount(0);

  // Until then the scrubber said what it was finding: never a step number beside the half-read reply (it showed
  // "step 27504 / 2144", then the old number among the new ones), never the note of a step not found.
  const seen = await panelSeen(panel);
  const texts = seen.scrubber;
  const finding = `Reading the capture back: finding step ${old.step}…`;
  const first = texts.findIndex((t) => t.startsWith(finding));
  expect(first, texts.join('\n')).toBeGreaterThanOrEqual(0);
  const placed = texts.findIndex((t, i) => i > first && !t.startsWith(finding));
  expect(placed, texts.join('\n')).toBeGreaterThan(first);
  for (const t of texts.slice(placed)) expect(t).toMatch(new RegExp(`step ${found.step} / \\d+`));
  // Keyboard focus stayed in the scrubber: on its bar while the slider was gone, then back on the slider (it fell to
  // the document when the finding state took the slider away).
  await expect(slider).toBeFocused();
  expect(seen.focus).toContain('scrubber');
  expect(seen.focus.filter((f) => f !== 'step-slider' && f !== 'scrubber')).toEqual([]);
  // The capture it replaced was shown until the new one had something to show: no empty page or pane in between.
  expect(seen.emptyPage).toBe(false);
  expect(seen.emptyPanes.filter((t) => !t.startsWith('Reading the capture'))).toEqual([]);
  await panel.close();
  await app.close();
});

test('a live panel handed the kept capture shows the one it had until the new one has something to show: never its empty page, keyboard focus kept in the event list', async () => {
  const { app, panel } = await watchingBeatSession();
  await expect.poll(async () => (await stepShown(panel)).step).toBe(BEAT_SESSION.before + 2 + 3); // held: all read
  const list = panel.getByTestId('events');
  await list.locator('.vrow[aria-selected="true"]').click(); // the list has focus: the user walks it with the keys
  await panel.keyboard.press('ArrowUp'); // the event before the newest: no longer following
  await expect(list).toBeFocused();
  const raw = panel.getByTestId('event-detail').getByTestId('raw-frame');
  await expect(raw).toContainText(`r-long:${BEAT_SESSION.before + 1} `);
  const frame = await raw.textContent();
  await watchPanel(panel);
  releaseBeat();
  await expect(app).toHaveTitle('done', { timeout: 60_000 });
  await expect(panel.getByText('Evicted', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(raw).toHaveText(frame!);
  await expect(list.locator('.vrow[aria-selected="true"]')).toBeInViewport();
  // Between the reset and the first refresh of the new capture the panel showed its empty page ("No agent streams
  // yet…"): the event list went with it, and focus fell to the document.
  await expect(list).toBeFocused();
  const seen = await panelSeen(panel);
  expect(seen.emptyPage).toBe(false);
  expect(seen.emptyPanes.filter((t) => !t.startsWith('Reading the capture'))).toEqual([]);
  expect(seen.focus).toEqual(['events']);
  await panel.close();
  await app.close();
});

/** The selection and its connection's event numbering as the panel's store holds them (said when a test fails). */
async function numbering(panel: Page): Promise<unknown> {
  return panel.evaluate(() => {
    interface Conn { record: { id: string }; evictedEvents: number; events: { index: number; rawText?: string }[] }
    interface Rec { kind: string; chunks?: number; messages?: number; derived?: { events: number } }
    const { store } = (globalThis as unknown as { replyscopePanel: { store: {
      connections: { value: Conn[] }; selectedConnId: { value?: string }; selectedEvent: { value?: number }; step: { value: number };
      selectedFrame: { value?: number }; follow: { value: boolean }; capture(): { records: Rec[] };
    } } }).replyscopePanel;
    const conn = store.connections.value.find((c) => c.record.id === store.selectedConnId.value);
    const index = store.selectedEvent.value;
    const event = index === undefined ? undefined : conn?.events.find((e) => e.index === index);
    const records = store.capture().records;
    return {
      step: store.step.value, event: index, frame: store.selectedFrame.value, follow: store.follow.value,
      evictedEvents: conn?.evictedEvents, events: conn?.events.length, firstEvent: conn?.events[0]?.index, text: event?.rawText?.slice(-40),
      records: records.length, evictions: records.filter((r) => r.kind === 'evicted').map((r) => [r.chunks, r.messages, r.derived?.events]),
    };
  });
}

/**
 * Keyboard focus on `control` (the scrubber's slider, a control in the step detail's panes) while the live panel is
 * handed the kept capture, read back slowly: what the panel showed meanwhile. The panel's CPU is slowed: the kept
 * capture (~1 MB) is read back in ~150 ms, before the first refresh that shows any of it; slowed, it takes seconds,
 * refreshed every 250 ms — as a big cap's capture is read back.
 */
async function focusedThroughReadBack(app: Page, panel: Page, control: Locator): Promise<PanelSeen> {
  const raw = panel.getByTestId('event-detail').getByTestId('raw-frame');
  const frame = await raw.textContent();
  const before = await numbering(panel);
  await control.focus();
  await watchPanel(panel);
  const cdp = await panel.context().newCDPSession(panel);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  releaseBeat();
  await expect(app).toHaveTitle('done', { timeout: 60_000 });
  await expect(panel.getByText('Evicted', { exact: true })).toBeVisible({ timeout: 30_000 });
  try {
    await expect(raw).toHaveText(frame!, { timeout: 30_000 });
  } catch (error) {
    // What the panel held then says where the numbering went (the selection, the connection's count of evicted events,
    // the eviction records and their digests): once, the kept capture had been cut past the selected event.
    throw new Error(`${(error as Error).message}\nbefore the read-back: ${JSON.stringify(before)}\nafter it: ${JSON.stringify(await numbering(panel))}`);
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.detach();
  return panelSeen(panel);
}

test('keyboard focus on a Copy button of the event pane stays in the pane while the kept capture is read back, and goes back to that button', async () => {
  const { app, panel } = await watchingBeatSession();
  await expect.poll(async () => (await stepShown(panel)).step).toBe(BEAT_SESSION.before + 2 + 3); // held: all read
  await panel.keyboard.press('ArrowLeft'); // the step before the newest: no longer following
  const copy = panel.getByTestId('event-detail').getByRole('button', { name: 'Copy parsed event' });
  const seen = await focusedThroughReadBack(app, panel, copy);
  // The pane said it was reading (the event was read back), and focus waited on it: it fell to the document with the
  // event pane's controls, and the next Tab started over at the toolbar.
  expect(seen.emptyPanes).toContain('Reading the capture up to the selected event…');
  expect(seen.focus).toEqual(['button', 'event-reading', 'button']);
  await expect(copy).toBeFocused();
  await panel.close();
  await app.close();
});

test('keyboard focus on Copy JSON of the message pane stays in the pane while the kept capture is read back, and goes back to it', async () => {
  const { app, panel } = await watchingBeatSession();
  await expect.poll(async () => (await stepShown(panel)).step).toBe(BEAT_SESSION.before + 2 + 3); // held: all read
  await panel.keyboard.press('ArrowLeft'); // the step before the newest: no longer following
  await panel.getByRole('tab', { name: 'JSON' }).click();
  const copy = panel.getByRole('button', { name: 'Copy JSON' });
  const seen = await focusedThroughReadBack(app, panel, copy);
  expect(seen.emptyPanes).toContain('Reading the capture up to the selected step…');
  expect(seen.focus).not.toContain('document');
  expect(seen.focus.at(-1)).toBe('button');
  await expect(copy).toBeFocused();
  await expect(panel.getByTestId('message-json')).toBeVisible();
  await panel.close();
  await app.close();
});

test('a step selected in a live panel that the kept capture evicted: the reply\'s oldest step kept, and a note saying so', async () => {
  const { app, panel } = await watchingBeatSession();
  await panel.keyboard.press('Home'); // the reply's first step (REPLY_START, event #0): no longer following
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 1 \/ \d+/);
  releaseBeat();
  await expect(app).toHaveTitle('done', { timeout: 60_000 });
  await expect(panel.getByTestId('selection-note')).toHaveText('Event #0 was evicted (memory cap) — showing the reply\'s oldest step kept.', { timeout: 30_000 });
  await expect(panel.getByText('Evicted', { exact: true })).toBeVisible();
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 1 \/ \d+ \(continues after evicted events\)/);
  await expect(panel.getByTestId('event-detail')).toContainText('TEXT_BLOCK_DELTA');
  await panel.screenshot({ path: test.info().outputPath('live-panel-compacted-step-evicted.png') });
  // The user's next move takes the note away.
  await panel.keyboard.press('ArrowRight');
  await expect(panel.getByTestId('step-pos')).toHaveText(/^step 2 \//);
  await expect(panel.getByTestId('selection-note')).toHaveCount(0);
  await panel.close();
  await app.close();
});

test('a cap set in the panel applies to the capture from then on: evicted at the new cap, at once when it is lowered', async () => {
  const MB = 1024 * 1024;
  const storedCap = () => ext.debug(async () => (await chrome.storage.local.get('replyscope.captureLimitBytes'))['replyscope.captureLimitBytes'] as unknown);
  await setCaptureLimit(ext, null); // the default, 64 MB: the ~10 MB session below would keep everything
  try {
    const app = await ext.context.newPage();
    await app.goto(`${server.url}/app`);
    const tabId = await ext.tabIdFor(app);
    const panel = await ext.panelPage(tabId);
    const open = panel.getByTestId('cap-open');
    await expect(open).toHaveAccessibleName('Memory cap (64 MB)…');
    await open.click();
    const dialog = panel.getByTestId('cap-dialog');
    const field = dialog.getByRole('textbox', { name: 'Cap' });
    await expect(dialog.getByTestId('cap-current')).toHaveText('Now: 64 MB (the default).');
    await expect(field).toHaveValue('64');
    await expect(dialog.getByTestId('cap-warning')).toHaveCount(0);

    // Bad input is refused with a reason, nothing stored; the field keeps focus for the next try.
    const bad: [string, RegExp][] = [['abc', /^"abc" is not a number of MB/], ['0.5', /^0\.5 MB is below the smallest cap, 1 MB/], ['1000', /^1000 MB is above the largest cap, 128 MB/]];
    for (const [text, error] of bad) {
      await field.fill(text);
      await dialog.getByTestId('cap-save').click();
      await expect(dialog.getByRole('alert')).toHaveText(error);
      await expect(field).toBeFocused();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      if (text === '1000') await shots(panel, 'error', [[800, 500]]);
    }
    expect(await storedCap()).toBeUndefined();

    // A lower cap says, before it is saved, what it evicts.
    await field.fill('2');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    await expect(dialog.getByTestId('cap-warning')).toHaveText(/^Lower than now \(64 MB\): a tab whose capture holds more than 2 MB evicts its oldest data as soon as you save/);
    await shots(panel, 'lower', [[1600, 900], [800, 500]]);
    await panel.setViewportSize({ width: 1280, height: 720 });
    await panel.emulateMedia({ colorScheme: 'light' });
    await field.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(open).toHaveAccessibleName('Memory cap (2 MB)…');
    expect(await storedCap()).toBe(2 * MB);

    // The session streams ~11 MB with the panel watching: the relay keeps the newest 2 MB (chunks go whole: as much
    // as fits, plus the newest), and the watching panel was handed the kept capture past three times that (its
    // compaction follows the cap too).
    const run = () => app.evaluate(() => void (window as unknown as { run: (p: string) => Promise<void> }).run('/session-long'));
    const read = [...sessionFrames(LONG_SESSION)].reduce((n, f) => n + Buffer.byteLength(f), 0);
    await run();
    await expect(app).toHaveTitle('done', { timeout: 60_000 });
    await expect(panel.locator('[data-conn]').first()).toContainText('complete');
    expect((await chunkBytes(panel)).bytes).toBeLessThan(read);
    /** What the relay keeps: the capture a panel opened now is handed. */
    const relayKeeps = async (connections: number) => {
      const late = await ext.panelPage(tabId);
      await expect(late.locator('[data-conn]')).toHaveCount(connections);
      for (const row of await late.locator('[data-conn]').all()) await expect(row).toContainText('complete');
      const kept = await chunkBytes(late);
      await late.close();
      return kept;
    };
    const at2 = await relayKeeps(1);
    console.log(`cap set in the panel: the relay kept ${at2.bytes} B of a ${read} B stream under 2 MiB (largest kept chunk ${at2.largest} B)`);
    expect(at2.bytes).toBeLessThanOrEqual(2 * MB + at2.largest);

    // Raised: nothing to warn of, and the next session keeps up to the new cap (the two sessions hold 22 MB).
    await open.click();
    await expect(dialog.getByTestId('cap-current')).toHaveText('Now: 2 MB.');
    await field.fill('8');
    await expect(dialog.getByTestId('cap-warning')).toHaveCount(0);
    await dialog.getByTestId('cap-save').click();
    await expect(open).toHaveAccessibleName('Memory cap (8 MB)…');
    await app.evaluate(() => (document.title = 'again'));
    await run();
    await expect(app).toHaveTitle('done', { timeout: 60_000 });
    const at8 = await relayKeeps(2);
    console.log(`raised to 8 MiB: the relay keeps ${at8.bytes} B (largest kept chunk ${at8.largest} B)`);
    expect(at8.bytes).toBeLessThanOrEqual(8 * MB + at8.largest);
    expect(at8.bytes).toBeGreaterThan(2 * MB + Math.max(at2.largest, at8.largest)); // more than the old cap kept

    // Lowered below what the capture holds: the oldest goes at once, and the watching panel — holding more than three
    // times the new cap — is handed what is kept (its compaction follows the cap; one holding less keeps what it shows).
    await open.click();
    await field.fill('1');
    await expect(dialog.getByTestId('cap-warning')).toContainText('Lower than now (8 MB): a tab whose capture holds more than 1 MB evicts its oldest data');
    await dialog.getByTestId('cap-save').click();
    await expect(open).toHaveAccessibleName('Memory cap (1 MB)…');
    await expect.poll(async () => (await chunkBytes(panel)).bytes).toBeLessThanOrEqual(MB + at8.largest);
    const at1 = await relayKeeps(2);
    expect(at1.bytes).toBeLessThanOrEqual(MB + at8.largest);
    expect(at1.bytes).toBeLessThan(at8.bytes);

    // A cap set by hand to no whole 0.01 MB shows rounded ("1.18"): saved unedited it stays as it was, and opening
    // says nothing of a lower cap (1.18 MB is 1,237,320 bytes, below it).
    await setCaptureLimit(ext, 1_240_000);
    await open.click();
    await expect(dialog.getByTestId('cap-current')).toHaveText('Now: 1.18 MB.');
    await expect(field).toHaveValue('1.18');
    await expect(dialog.getByTestId('cap-warning')).toHaveCount(0);
    await dialog.getByTestId('cap-save').click();
    await expect(dialog).toHaveCount(0);
    expect(await storedCap()).toBe(1_240_000);
    await panel.close();
    await app.close();
  } finally {
    await setCaptureLimit(ext, LIMIT); // the cap the other tests of this file run under
  }
});

/** Screenshots of the panel as it is (the cap dialog open), light and dark, at each viewport size. */
async function shots(panel: Page, name: string, sizes: [number, number][]): Promise<void> {
  for (const [width, height] of sizes) {
    await panel.setViewportSize({ width, height });
    for (const colorScheme of ['light', 'dark'] as const) {
      await panel.emulateMedia({ colorScheme });
      await panel.screenshot({ path: test.info().outputPath(`cap-dialog-${name}-${width}x${height}-${colorScheme}.png`) });
    }
  }
}

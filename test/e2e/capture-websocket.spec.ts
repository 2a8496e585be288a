// WebSocket streams in real Chromium with the built extension, against a real WebSocket server (ws) on 127.0.0.1:
// a socket is recorded from its first agent event on (with the four messages before it), a socket that never carries
// one leaves only its note, the include list records one from its opening — and the page gets every message as before.
import { expect, test, type Page } from '@playwright/test';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { CaptureRecord } from '../../src/core/capture/model.ts';
import { blindSpotNotice, webSocketCaptureNotice } from '../../src/core/capture/notices.ts';
import type { AgentServer } from './support/agent-server.ts';
import { captured, connectionsMatching } from './support/capture.ts';
import type { ExtensionBrowser } from './support/extension.ts';
import { appendFrame } from './support/frames.ts';
import { useWatchedAgentPage } from './support/watched-agent-page.ts';

let ext: ExtensionBrowser;
let server: AgentServer;
let page: Page;
let tabId: number;
let wss: WebSocketServer;
let wsUrl: string;
type Sent = { text: string } | { binary: number };
/** What /random/<s> sends (the random test fills it). */
let randomSockets: Sent[][] = [];

useWatchedAgentPage((parts) => ({ ext, server, page, tabId } = parts));

const at = (i: number) => `2026-03-01T09:00:${String(i).padStart(2, '0')}.000000`;
const asEvent = (type: string, extra: Record<string, unknown>, i: number) =>
  JSON.stringify({ id: `e${i}`, created_at: at(i), metadata: {}, type, reply_id: 'r1', ...extra });
/** An AgentScope reply as pydantic writes it, with a non-ASCII delta. */
const AGENTSCOPE_REPLY = [
  asEvent('REPLY_START', { session_id: 's1', name: 'Friday', role: 'assistant' }, 1),
  asEvent('TEXT_BLOCK_START', { block_id: 'b1' }, 2),
  asEvent('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'Over a socket: ' }, 3),
  asEvent('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'héllo 👋' }, 4),
  asEvent('TEXT_BLOCK_END', { block_id: 'b1' }, 5),
  asEvent('REPLY_END', { session_id: 's1' }, 6),
];
const PRESENCE = Array.from({ length: 10 }, (_, i) => JSON.stringify({ type: 'presence', users: i + 1 }));
const PI_PROXY = ['{"type":"start"}', '{"type":"text_start","contentIndex":0}', '{"type":"text_delta","contentIndex":0,"delta":"pi says hi"}',
  '{"type":"text_end","contentIndex":0}', '{"type":"done","reason":"stop"}'];
const HMR = ['{"type":"connected"}', '{"type":"update","updates":[]}', '{"type":"error","err":{"message":"x"}}'];

/** What each path sends on connection, and how it ends. */
const scripts: Record<string, (ws: ServerSocket) => void> = {
  '/agent': (ws) => {
    for (const m of PRESENCE) ws.send(m);
    ws.send(AGENTSCOPE_REPLY[0]);
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    for (const m of AGENTSCOPE_REPLY.slice(1)) ws.send(m);
    ws.close(1000, 'reply done');
  },
  '/pi': (ws) => {
    for (const m of PI_PROXY) ws.send(m);
    setTimeout(() => ws.terminate(), 50); // no closing handshake
  },
  '/chat': (ws) => {
    ws.send(PRESENCE[0]);
    ws.on('message', (data, isBinary) => {
      if (isBinary || !String(data).includes('"chat"')) return;
      for (const m of AGENTSCOPE_REPLY) ws.send(m);
      ws.close(1000);
    });
  },
  '/agent-fails': (ws) => {
    for (const m of AGENTSCOPE_REPLY.slice(0, 3)) ws.send(m);
    ws.close(1011, 'upstream model failed');
  },
  '/agent-stopped': (ws) => {
    for (const m of AGENTSCOPE_REPLY.slice(0, 3)) ws.send(m); // and waits: the page stops it
  },
  '/hmr': (ws) => {
    for (const m of HMR) ws.send(m);
    ws.close(1000);
  },
  '/included-socket': (ws) => {
    for (const m of HMR) ws.send(m);
    ws.close(1000);
  },
};

test.beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wsUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
  wss.on('connection', (ws, req) => {
    const path = new URL(req.url ?? '/', wsUrl).pathname;
    const random = /^\/random\/(\d+)$/.exec(path);
    if (!random) return scripts[path]?.(ws);
    for (const m of randomSockets[Number(random[1])]) ws.send('text' in m ? m.text : Buffer.alloc(m.binary, 7), { binary: 'binary' in m });
    ws.close(1000);
  });
});
test.afterAll(async () => {
  for (const c of wss.clients) c.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
});

interface PageSocket {
  texts: string[];
  binary: number;
  wasClean: boolean;
  code: number;
}

/** Opens a socket in the page the way an app does (onmessage set right after `new`) and resolves when it closes. */
function socketInPage(url: string): Promise<PageSocket> {
  return page.evaluate(
    (url) =>
      new Promise<PageSocket>((resolve) => {
        const ws = new WebSocket(url);
        const out: PageSocket = { texts: [], binary: 0, wasClean: false, code: 0 };
        ws.onmessage = (e) => (typeof e.data === 'string' ? out.texts.push(e.data) : out.binary++);
        ws.onclose = (e) => resolve({ ...out, wasClean: e.wasClean, code: e.code });
      }),
    url,
  );
}

async function socketCapture(path: string): Promise<ReturnType<typeof captured>> {
  let cap: ReturnType<typeof captured> | undefined;
  await expect
    .poll(async () => {
      const records = await ext.records(tabId);
      const conn = connectionsMatching(records, `${wsUrl}${path}`)[0];
      cap = conn && captured(records, conn);
      return cap?.end?.state ?? 'none';
    })
    .not.toBe('none');
  return cap as ReturnType<typeof captured>;
}

const notes = (records: CaptureRecord[]) => records.flatMap((r) => (r.kind === 'notice' ? [r.text] : []));

test('a socket is recorded from its first agent event, with the four messages before it; the page gets every message', async () => {
  const got = await socketInPage(`${wsUrl}/agent?token=t0k3n`);
  expect(got).toEqual({ texts: [...PRESENCE, ...AGENTSCOPE_REPLY], binary: 1, wasClean: true, code: 1000 });
  const cap = await socketCapture('/agent');
  expect(cap.connection).toMatchObject({ transport: 'websocket', method: 'GET', url: `${wsUrl}/agent?token=t0k3n`, status: 101 });
  expect(cap.messages.map((m) => m.data)).toEqual([...PRESENCE.slice(6), ...AGENTSCOPE_REPLY]);
  expect(cap.messages.every((m) => m.type === 'message')).toBe(true);
  expect(notes(cap.records)).toEqual([webSocketCaptureNotice(6, false), '1 binary message on this socket not recorded.']);
  expect(cap.end?.state).toBe('complete');

  // A hot-reload-like socket: its messages reach the page, nothing of it is recorded but the note (checked once
  // the next socket's records, which the tap sends after any of this one's, are in).
  const hmr = await socketInPage(`${wsUrl}/hmr`);
  expect(hmr.texts).toEqual(HMR);

  // The pi proxy form: the bare `start` before the first block event is kept; no closing handshake is an error end.
  const pi = await socketInPage(`${wsUrl}/pi`);
  expect(pi.texts).toEqual(PI_PROXY);
  const piCap = await socketCapture('/pi');
  expect(piCap.messages.map((m) => m.data)).toEqual(PI_PROXY);
  expect(piCap.end).toMatchObject({ state: 'error', error: expect.stringMatching(/without a closing handshake \(code 1006/) });
  expect(notes(piCap.records)).toEqual([webSocketCaptureNotice(0, false)]);
  const records = await ext.records(tabId);
  expect(connectionsMatching(records, `${wsUrl}/hmr`)).toEqual([]);
  expect(notes(records)).toContain(blindSpotNotice('WebSocket', `${wsUrl}/hmr`));


  // The panel reads the socket's reply like any other stream.
  const panel = await ext.panelPage(tabId);
  await panel.locator('[data-conn]', { hasText: '/agent' }).click();
  await expect(panel.getByTestId('bubble').first()).toContainText('Over a socket: héllo 👋');
  // The app's own messages kept from before the reply are "other message" rows, not invalid events.
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'other message' })).toHaveCount(4);
  await expect(panel.locator('[data-conn]', { hasText: '/agent' })).toContainText('agentscope6'); // dialect, then 6 events
  // Above the list, the note of the socket that was not recorded; those of the recorded ones give way to them.
  await expect(panel.getByTestId('page-notices')).toHaveText(blindSpotNotice('WebSocket', `${wsUrl}/hmr`));
  await panel.screenshot({ path: test.info().outputPath('websocket-reply.png') });
  await panel.close();
});

test('a socket the server closes with an error code ends in error (code and reason kept); one the page closes is cancelled', async () => {
  const failed = await socketInPage(`${wsUrl}/agent-fails`);
  expect(failed).toMatchObject({ wasClean: true, code: 1011 });
  expect((await socketCapture('/agent-fails')).end).toMatchObject({ state: 'error', error: 'the server closed the WebSocket with code 1011, upstream model failed' });
  const stopped = await page.evaluate(
    (url) => new Promise<number>((resolve) => {
      const ws = new WebSocket(url);
      let n = 0;
      ws.onmessage = () => ++n === 3 && ws.close(1000, 'stop');
      ws.onclose = (e) => resolve(e.code);
    }),
    `${wsUrl}/agent-stopped`,
  );
  expect(stopped).toBe(1000);
  expect((await socketCapture('/agent-stopped')).end).toMatchObject({ state: 'cancelled', error: 'the page closed the WebSocket (code 1000, stop)' });
  // A normal close by the server stays complete (the first test's /agent).
});

test('what the page sends on a recorded socket is recorded as sent, before the reply it asked for', async () => {
  const CHAT = '{"type":"chat","text":"héllo"}';
  // What the page sends is masked as a request body is: its credentials never reach the capture.
  const AUTH = '{"type":"auth","token":"sk-live-SECRET"}';
  const AUTH_KEPT = '{"type":"auth","token":"•••"}';
  const got = await page.evaluate(
    ({ url, chat, auth }) =>
      new Promise<{ texts: string[]; connecting: string }>((resolve) => {
        const ws = new WebSocket(url);
        const texts: string[] = [];
        let connecting = 'none';
        try {
          ws.send('too early');
        } catch (e) {
          connecting = (e as Error).name; // the browser's own error, and nothing recorded
        }
        ws.onopen = () => {
          ws.send(new Uint8Array([1, 2]));
          ws.send(chat);
          ws.send(auth);
        };
        ws.onmessage = (e) => texts.push(e.data as string);
        ws.onclose = () => {
          ws.send('after close'); // dropped by the browser, not recorded
          resolve({ texts, connecting });
        };
      }),
    { url: `${wsUrl}/chat`, chat: CHAT, auth: AUTH },
  );
  expect(got).toEqual({ texts: [PRESENCE[0], ...AGENTSCOPE_REPLY], connecting: 'InvalidStateError' });
  const cap = await socketCapture('/chat');
  expect(cap.messages.map((m) => [m.type, m.data])).toEqual([
    ['send', CHAT], ['send', AUTH_KEPT], ['message', PRESENCE[0]], ...AGENTSCOPE_REPLY.map((m) => ['message', m]), // sent at open, before any message
  ]);
  expect(notes(cap.records)).toEqual([webSocketCaptureNotice(0, false), '1 binary message on this socket not recorded.']);
  const panel = await ext.panelPage(tabId);
  await panel.locator('[data-conn]', { hasText: '/chat' }).click();
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'sent' })).toHaveCount(2);
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'sent' }).first()).toContainText(CHAT);
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'sent' }).first().locator('span[title]')).toHaveAttribute('title', CHAT);
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'sent' }).nth(1)).toContainText(AUTH_KEPT);
  await expect(panel.getByText('sk-live-SECRET')).toHaveCount(0);
  await expect(panel.locator('[data-conn]', { hasText: '/chat' })).toContainText('agentscope6'); // the presence and the send are no events
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'other message' })).toHaveCount(1);
  // A frame row is selectable: the event pane shows the message, parsed; ↓ walks on to the next row, an event.
  await panel.locator('.vrow.heartbeat', { hasText: 'sent' }).first().click();
  const detail = panel.getByTestId('frame-detail');
  await expect(detail).toContainText('sent by the page');
  await expect(detail.getByTestId('raw-frame')).toHaveText(CHAT);
  await expect(detail).toContainText(JSON.stringify(JSON.parse(CHAT), null, 2).split('\n')[1].trim());
  await expect(panel.locator('.vrow.heartbeat[aria-selected="true"]')).toContainText('sent');
  await panel.screenshot({ path: test.info().outputPath('websocket-sent-selected.png') });
  await panel.keyboard.press('ArrowDown');
  await expect(detail.getByTestId('raw-frame')).toHaveText(AUTH_KEPT);
  await panel.keyboard.press('ArrowDown');
  await expect(detail).toContainText('other message');
  await panel.keyboard.press('ArrowDown');
  await expect(detail).toHaveCount(0);
  await expect(panel.getByTestId('event-detail')).toContainText('REPLY_START');
  await panel.getByLabel('Hide heartbeats').check(); // the presence goes; what the page sent stays
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'other message' })).toHaveCount(0);
  await expect(panel.locator('.vrow.heartbeat', { hasText: 'sent' }).first()).toContainText(CHAT);
  await panel.screenshot({ path: test.info().outputPath('websocket-sent.png') });
  await panel.close();
});

test('a socket opened in a subframe is recorded with its frame', async () => {
  const frame = await appendFrame(page, '/app?socket-frame=1');
  const texts = await frame.evaluate((url) => new Promise<string[]>((resolve) => {
    const ws = new WebSocket(url);
    const got: string[] = [];
    ws.onmessage = (e) => got.push(e.data as string);
    ws.onclose = () => resolve(got);
  }), `${wsUrl}/pi?in-frame`);
  expect(texts).toEqual(PI_PROXY);
  const cap = await socketCapture('/pi?in-frame');
  expect(cap.connection).toMatchObject({ transport: 'websocket', isSubframe: true, frameUrl: `${server.url}/app?socket-frame=1` });
  expect(cap.messages.map((m) => m.data)).toEqual(PI_PROXY);
});

test('a socket on the include list (set in the panel\'s dialog) is recorded from its opening, without the note', async ({}, testInfo) => {
  const stored = () => ext.debug(async () => (await chrome.storage.local.get('replyscope.includeUrls'))['replyscope.includeUrls'] as unknown);
  const panel = await ext.panelPage(tabId);
  try {
    await panel.getByTestId('include-open').click();
    const dialog = panel.getByTestId('include-dialog');
    await dialog.getByRole('textbox').fill('  */included-socket*\n\n/never-matches\n*/included-socket*  ');
    await panel.screenshot({ path: testInfo.outputPath('include-dialog.png') });
    await dialog.getByTestId('include-save').click();
    await expect(dialog).toHaveCount(0);
    await expect(panel.getByTestId('include-open')).toHaveAccessibleName('Include URLs (2)…');
    expect(await stored()).toEqual(['*/included-socket*', '/never-matches']); // trimmed, blank lines and repeats dropped
    // A change made elsewhere (another panel, another window) shows in this one's button at once.
    const store = (list: string[]) => ext.debug(async (_d, l: string[]) => chrome.storage.local.set({ 'replyscope.includeUrls': l }), list);
    await store(['*/included-socket*', '/never-matches', '/elsewhere']);
    await expect(panel.getByTestId('include-open')).toHaveAccessibleName('Include URLs (3)…');
    await store(['*/included-socket*', '/never-matches']);
    await expect(panel.getByTestId('include-open')).toHaveAccessibleName('Include URLs (2)…');
    // Reopened, the dialog shows what is stored; Escape leaves it as it was.
    await panel.getByTestId('include-open').click();
    await expect(dialog.getByRole('textbox')).toHaveValue('*/included-socket*\n/never-matches');
    await panel.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    await page.reload();
    const got = await socketInPage(`${wsUrl}/included-socket`);
    expect(got.texts).toEqual(HMR);
    const cap = await socketCapture('/included-socket');
    expect(cap.messages.map((m) => m.data)).toEqual(HMR);
    expect(notes(cap.records)).toEqual([webSocketCaptureNotice(0, true)]);
    expect(notes(await ext.records(tabId))).not.toContain(blindSpotNotice('WebSocket', `${wsUrl}/included-socket`));
  } finally {
    await panel.getByTestId('include-open').click();
    await panel.getByTestId('include-dialog').getByRole('textbox').fill('');
    await panel.getByTestId('include-save').click();
    await expect.poll(stored).toEqual([]);
    await expect(panel.getByTestId('include-open')).toHaveAccessibleName('Include URLs…');
    await panel.close();
  }
});

/** A small seeded generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * What the capture should hold of a socket that received `sent`, by the rule the README states: nothing until the
 * first agent event; then the (at most four, each at most 64 KiB) text messages just before it — a longer one in
 * between forgets those before it — and every text message from there on. Written from the rule, not from the tap.
 */
function expectedCapture(sent: Sent[], isAgent: (t: string) => boolean): { texts: string[]; skipped: number; binary: number } | undefined {
  let held: string[] = [];
  let skipped = 0;
  let binary = 0;
  let texts: string[] | undefined;
  for (const m of sent) {
    if ('binary' in m) {
      binary++;
      continue;
    }
    if (texts) texts.push(m.text);
    else if (isAgent(m.text)) texts = [...held, m.text];
    else if (m.text.length > 64 * 1024) {
      skipped += held.length + 1;
      held = [];
    } else {
      held.push(m.text);
      if (held.length > 4) {
        held.shift();
        skipped++;
      }
    }
  }
  return texts && { texts, skipped, binary };
}

test('random sockets (seed 7): the page gets every message; the capture holds what the look-back rule says', async () => {
  const rnd = random(7);
  const pick = <T,>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const agentMessages = [...AGENTSCOPE_REPLY, ...PI_PROXY.slice(1, 4)];
  const sockets: Sent[][] = [];
  for (let s = 0; s < 40; s++) {
    const sent: Sent[] = [];
    const n = 1 + Math.floor(rnd() * 14);
    for (let i = 0; i < n; i++) {
      const r = rnd();
      if (r < 0.2) sent.push({ text: pick(agentMessages) });
      else if (r < 0.3) sent.push({ binary: 1 + Math.floor(rnd() * 5) });
      else if (r < 0.45) sent.push({ text: `{"type":"blob","pad":"${'z'.repeat(64 * 1024 - 24 + Math.floor(rnd() * 3) - 1)}"}` }); // 64 KiB ± 1: the look-back's limit
      else if (r < 0.6) sent.push({ text: pick(['ping', '{"type":"start"}', '{"type":"error","err":{}}', ' ', '{"type":"done"}']) });
      else sent.push({ text: JSON.stringify({ type: 'presence', s, i, note: 'ü'.repeat(Math.floor(rnd() * 4)) }) });
    }
    sockets.push(sent);
  }
  randomSockets = sockets;
  for (const [s, sent] of sockets.entries()) {
    const got = await socketInPage(`${wsUrl}/random/${s}?seed=7`);
    expect(got.texts, `socket ${s}`).toEqual(sent.flatMap((m) => ('text' in m ? [m.text] : [])));
    expect(got.binary).toBe(sent.filter((m) => 'binary' in m).length);
  }
  // A last recorded socket: the tap sends its records after all of the above.
  await socketInPage(`${wsUrl}/pi?after-random`);
  await expect.poll(async () => connectionsMatching(await ext.records(tabId), '/pi?after-random').length).toBe(1);
  const records = await ext.records(tabId);
  const isAgent = (t: string) => agentMessages.includes(t);
  let recorded = 0;
  for (const [s, sent] of sockets.entries()) {
    const want = expectedCapture(sent, isAgent);
    const conns = connectionsMatching(records, `/random/${s}?seed=7`);
    expect(conns.length, `socket ${s}`).toBe(want ? 1 : 0);
    if (!want) continue;
    recorded++;
    const cap = captured(records, conns[0]);
    expect(cap.messages.map((m) => m.data), `socket ${s}`).toEqual(want.texts);
    // Binary messages are counted from the socket's opening, before its first event too.
    const expectedNotes = [webSocketCaptureNotice(want.skipped, false)];
    if (want.binary > 0) expectedNotes.push(`${want.binary} binary message${want.binary === 1 ? '' : 's'} on this socket not recorded.`);
    expect(notes(cap.records), `socket ${s}`).toEqual(expectedNotes);
    expect(cap.end?.state).toBe('complete');
  }
  expect(recorded).toBeGreaterThan(8); // the generator does reach both sides
  expect(recorded).toBeLessThan(sockets.length);
});

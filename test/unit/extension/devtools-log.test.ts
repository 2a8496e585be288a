// The DevTools page's log of the streams the tap cannot see (devtools-log.ts), with its surroundings faked: what it
// keeps, what it posts to the tab's panels, and how the panel's end reads it into the tab's capture.
import { describe, expect, it } from 'vitest';
import { DevtoolsLog } from '../../../src/extension/devtools-log.ts';
import { asBackgroundMessage } from '../../../src/extension/devtools-log-link.ts';
import { devtoolsLogToPanelSchema, type DevtoolsLogWire } from '../../../src/extension/messages.ts';
import { parseSettings, SETTINGS_KEYS } from '../../../src/extension/settings.ts';
import { TabCapture } from '../../../src/extension/tab-capture.ts';
import type { PageRecord } from '../../../src/core/capture/model.ts';

const EXT = 'chrome-extension://abc/';
const PAGE = 'https://app.test/chat';
const START = Date.parse('2026-12-02T10:00:00.000Z');

function entry(url: string, { mime = 'text/event-stream', stack = ['blob:https://app.test/w'] } = {}): Record<string, unknown> {
  return {
    startedDateTime: new Date(START).toISOString(), time: 100, timings: { wait: 10, receive: 90 }, _resourceType: 'fetch',
    _initiator: { type: 'script', stack: { callFrames: stack.map((u) => ({ url: u })) } },
    request: { method: 'GET', url, headers: [] },
    response: { status: 200, statusText: 'OK', headers: [], content: { size: 20, mimeType: mime } },
  };
}

function setup(settings: Record<string, unknown> = {}) {
  const posted: DevtoolsLogWire[] = [];
  const asked: string[] = [];
  const log = new DevtoolsLog({ post: (m) => posted.push(m), extensionUrl: EXT, settings: async () => parseSettings(settings), now: () => 42 });
  const finish = (url: string, opts?: Parameters<typeof entry>[1], text = 'data: {"n":1}\n\n') =>
    log.finished(entry(url, opts), async () => {
      asked.push(url);
      return { text };
    });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { log, posted, asked, finish, settle };
}

const urlsIn = (m: DevtoolsLogWire | undefined): string[] =>
  m && 'records' in m ? m.records.flatMap((r) => (r.kind === 'connection' ? [r.url] : [])) : [];

describe('DevtoolsLog', () => {
  it('keeps a finished stream made where the tap cannot look and posts it; asks no body of what is no stream', async () => {
    const { log, posted, asked, finish, settle } = setup();
    const early = finish('https://app.test/a'); // before DevTools told the page: waits for it
    await settle();
    expect(posted).toEqual([]);
    log.navigated(PAGE);
    await early;
    await finish('https://app.test/plain', { mime: 'application/json' });
    await settle();
    expect(asked).toEqual(['https://app.test/a']);
    expect(posted[0]).toMatchObject({ type: 'snapshot', frameUrl: PAGE, siteOrigin: 'https://app.test', siteEnabled: true, records: [] });
    expect(posted[1]).toMatchObject({ type: 'records', docId: (posted[0] as { docId: string }).docId });
    expect(urlsIn(posted[1])).toEqual(['https://app.test/a']);
    expect(posted).toHaveLength(2);
  });

  it('skips a request made through the tap\'s wrappers (the tap\'s script on its initiator stack): the tap has it', async () => {
    const { log, posted, asked, finish, settle } = setup();
    log.navigated(PAGE);
    await finish('https://app.test/page-own', { stack: [`${EXT}src/extension/tap/main-world.js`, PAGE] });
    await settle();
    expect(asked).toEqual([]);
    expect(posted.map((m) => m.type)).toEqual(['snapshot']);
  });

  it('logs nothing for a site switched off, and says so in its snapshot', async () => {
    const { log, posted, finish, settle } = setup({ [SETTINGS_KEYS.disabledSites]: ['https://app.test'] });
    log.navigated(PAGE);
    await finish('https://app.test/a');
    await settle();
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ type: 'snapshot', siteEnabled: false, records: [] });
  });

  it('past the cap the oldest streams go whole, and the snapshot that follows says how many', async () => {
    const big = 'data: ' + 'x'.repeat(700 * 1024) + '\n\n';
    const { log, posted, finish, settle } = setup({ [SETTINGS_KEYS.captureLimitBytes]: 1024 * 1024 });
    log.navigated(PAGE);
    await finish('https://app.test/1', undefined, big);
    await finish('https://app.test/2', undefined, big);
    await settle();
    const last = posted.at(-1)!;
    expect(last.type).toBe('snapshot');
    expect(urlsIn(last)).toEqual(['https://app.test/2']);
    expect((last as { records: PageRecord[] }).records[0]).toMatchObject({ kind: 'notice', t: 42, text: expect.stringContaining('the oldest stream was let go') });
  });

  it('a navigation ends the page\'s document (gone) and starts the next; Clear empties it; junk is counted', async () => {
    const { log, posted, finish, settle } = setup();
    log.navigated(PAGE);
    await finish('https://app.test/a');
    const first = (posted[0] as { docId: string }).docId;
    log.navigated('https://app.test/next');
    await settle();
    expect(posted.slice(2, 4)).toMatchObject([{ type: 'gone', docId: first }, { type: 'snapshot', frameUrl: 'https://app.test/next', records: [] }]);
    expect((posted[3] as { docId: string }).docId).not.toBe(first);
    await finish('https://app.test/b');
    log.receive({ type: 'clear' });
    await settle();
    expect(posted.at(-1)).toMatchObject({ type: 'snapshot', records: [] });
    log.receive({ type: 'want' });
    log.receive({ type: 'records', records: [] });
    await settle();
    expect(posted.at(-1)!.type).toBe('snapshot');
    expect(log.drops.total()).toBe(1);
  });

  it('an unknown time crosses as null and is read back as NaN; the panel\'s capture holds the stream as one document', async () => {
    const { log, posted, finish, settle } = setup();
    log.navigated(PAGE);
    await finish('https://app.test/a');
    await settle();
    const capture = new TabCapture();
    for (const raw of posted) capture.apply(asBackgroundMessage(devtoolsLogToPanelSchema.parse(structuredClone(raw))));
    const chunks = capture.records().filter((r) => r.kind === 'chunk');
    expect(chunks).toHaveLength(1);
    expect(chunks[0].t).toBeNaN();
    expect(capture.records()[0]).toMatchObject({ kind: 'connection', url: 'https://app.test/a', frameUrl: 'blob:https://app.test/w' });
    expect(capture.documents().map((d) => [d.frameId, d.isTop])).toEqual([[-1, false]]);
  });
});

describe('TabCapture with the DevTools log', () => {
  const tapConn: PageRecord = { kind: 'connection', id: 'tok:1', transport: 'fetch', frameUrl: PAGE, method: 'GET', url: 'https://app.test/a', requestHeaders: [], startTime: START + 2 };
  const top = { type: 'snapshot' as const, docId: 'top', frameId: 0, frameUrl: PAGE, isTop: true, siteOrigin: 'https://app.test', siteEnabled: true, dropped: 0 };

  it('leaves out what the tap captured too, and drops the log of a page left (without Preserve log)', async () => {
    const { log, posted, finish, settle } = setup();
    log.navigated(PAGE);
    await finish('https://app.test/a');
    await finish('https://app.test/w');
    await settle();
    const capture = new TabCapture();
    capture.apply({ ...top, records: [tapConn] });
    for (const raw of posted) capture.apply(asBackgroundMessage(devtoolsLogToPanelSchema.parse(raw)));
    const conns = () => capture.records().flatMap((r) => (r.kind === 'connection' ? [r.id.startsWith('devtools-log:') ? `log ${r.url}` : `tap ${r.url}`] : []));
    expect(conns()).toEqual(['tap https://app.test/a', 'log https://app.test/w']);
    posted.length = 0;
    log.navigated('https://app.test/next');
    capture.topNavigated();
    for (const raw of posted) capture.apply(asBackgroundMessage(devtoolsLogToPanelSchema.parse(raw)));
    expect(conns()).toEqual(['tap https://app.test/a']); // (the top document was not told gone here)
  });
});

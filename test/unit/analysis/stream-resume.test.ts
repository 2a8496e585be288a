// A stream resumed on a new connection (a Last-Event-ID request, see stream-resume.ts): the resuming connection starts
// from where the page stood on the earlier one at that id, so the reply it continues reads as one reply — the same
// messages as one connection that carried the events the client processed — and its lifecycle finds nothing the
// page never had.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer, analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import type { ConnectionView } from '../../../src/core/analysis/types.ts';
import type { CaptureRecord, ConnectionRecord, EndRecord } from '../../../src/core/capture/model.ts';
import { importHar } from '../../../src/core/capture/har-import.ts';
import { redactCapture } from '../../../src/core/capture/redact.ts';

const HEADER = { kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '' } as const;
const URL_ = 'http://127.0.0.1:8000/chat/stream';

/** The reply the server streams, one event per frame (event k has the SSE id `e<k>`). */
const EVENTS = (() => {
  const e = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r1', ...extra });
  const list = [
    e('REPLY_START', { session_id: 's', name: 'Friday', role: 'assistant' }),
    e('TEXT_BLOCK_START', { block_id: 'b1' }),
    e('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'Hel' }),
    e('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'lo, ' }),
    e('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'wor' }),
    e('TEXT_BLOCK_DELTA', { block_id: 'b1', delta: 'ld.' }),
    e('TEXT_BLOCK_END', { block_id: 'b1' }),
    e('TOOL_CALL_START', { tool_call_id: 'c1', tool_call_name: 'weather' }),
    e('TOOL_CALL_DELTA', { tool_call_id: 'c1', delta: '{"city": "Paris"}' }),
    e('TOOL_CALL_END', { tool_call_id: 'c1' }),
    e('TOOL_RESULT_START', { tool_call_id: 'c1', tool_call_name: 'weather' }),
    e('TOOL_RESULT_TEXT_DELTA', { tool_call_id: 'c1', delta: 'sunny' }),
    e('TOOL_RESULT_END', { tool_call_id: 'c1', state: 'success' }),
    e('REPLY_END', { session_id: 's' }),
  ];
  // Made 1 ms apart, as the chunks below arrive (made seconds apart and read in a moment, they were a held-back stream).
  return list.map((ev, k) => ({ ...ev, created_at: `2026-03-01T09:00:00.${String(k).padStart(3, '0')}000` }));
})();

const frame = (k: number, withId = true) => `${withId ? `id: e${k}\n` : ''}data: ${JSON.stringify(EVENTS[k])}\n\n`;

interface ConnSpec {
  id: string;
  /** Chunks of body text, one a millisecond from `t`. */
  body: string[];
  t: number;
  lastEventId?: string;
  url?: string;
  end?: EndRecord['state'];
}

function connection(s: ConnSpec): CaptureRecord[] {
  const rec: ConnectionRecord = {
    kind: 'connection', id: s.id, transport: 'fetch', frameUrl: 'http://127.0.0.1:8000/app', method: 'GET', url: s.url ?? URL_,
    requestHeaders: [['accept', 'text/event-stream'], ...(s.lastEventId !== undefined ? [['Last-Event-ID', s.lastEventId] as [string, string]] : [])],
    status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: s.t,
  };
  const out: CaptureRecord[] = [rec];
  s.body.forEach((text, i) => out.push({ kind: 'chunk', conn: s.id, t: s.t + 1 + i, bytes: new TextEncoder().encode(text).length, text }));
  out.push({ kind: 'end', conn: s.id, t: s.t + 1 + s.body.length, state: s.end ?? 'complete', ...(s.end === 'error' ? { error: 'TypeError: network error' } : {}) });
  return out;
}

/** Frames `from`..`to` (exclusive), one chunk each. */
const frames = (from: number, to: number, withId = true) => Array.from({ length: to - from }, (_, i) => frame(from + i, withId));

const analyse = (records: CaptureRecord[]) => analyzeCapture({ header: HEADER, records });
const byId = (conns: ConnectionView[], id: string) => conns.find((c) => c.record.id === id) as ConnectionView;
const finalOf = (c: ConnectionView, reply = 'r1') => {
  const r = c.replies.find((x) => x.id === reply);
  if (!r) throw new Error(`no reply ${reply} on ${c.record.id}`);
  return r.history.at(r.history.length - 1);
};
const codes = (c: ConnectionView) => c.diagnostics.map((d) => `${d.severity} ${d.code}`);

/**
 * The page's reply when one connection had brought it all: the events the client processed on the earlier connection,
 * then the resuming one's, at the same times (the reconstruction stamps blocks with arrival times).
 */
function oneConnection(parts: { body: string[]; t: number }[]): ConnectionView {
  const records: CaptureRecord[] = [];
  const [first, ...rest] = parts;
  records.push(...connection({ id: 'whole:1', body: first.body, t: first.t }).filter((r) => r.kind !== 'end'));
  for (const p of rest) p.body.forEach((text, i) => records.push({ kind: 'chunk', conn: 'whole:1', t: p.t + 1 + i, bytes: text.length, text }));
  records.push({ kind: 'end', conn: 'whole:1', t: 9e9, state: 'complete' });
  return analyse(records)[0];
}

describe('a connection that resumes an earlier stream', () => {
  it('continues the reply begun on the earlier connection: the message the page had, no orphan, no false lifecycle finding', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3' });
    const conns = analyse([...a, ...b]);
    const [first, second] = [byId(conns, 'tab:1'), byId(conns, 'tab:2')];

    expect(second.resumes).toEqual({ eventId: 'e3', conn: 'tab:1', frame: 3, events: 4, continuing: ['r1'] });
    expect(first.resumedBy).toEqual([{ conn: 'tab:2', eventId: 'e3', events: 4, continuing: ['r1'] }]);
    const reply = second.replies[0];
    expect(reply.continuesConnection).toBe('tab:1');
    expect(reply.orphan).toBeUndefined();
    expect(reply.timeToFirstTokenMs).toBeUndefined(); // the first token came on the earlier connection
    // Step 0 starts from the message the earlier connection left ("Hello, " so far) …
    expect(reply.history.initial).toEqual(finalOf(first));
    expect((reply.history.at(0) as { content: { text: string }[] }).content[0].text).toBe('Hello, wor');
    // … and the end is the message one connection carrying every event gives.
    expect(finalOf(second)).toEqual(finalOf(oneConnection([{ body: frames(0, 4), t: 1000 }, { body: frames(4, EVENTS.length), t: 2000 }])));
    expect(codes(second)).toEqual(['info stream.resumed']);
    expect(second.diagnostics[0].message).toBe('resumes the stream of connection tab:1 from id "e3" (its frame 3, after 4 events): reply r1 continues here from where the page had it');
    expect(second.notes).toEqual([]); // (the list and the details say it; a note is for a stream not captured)
    // The earlier connection broke off mid-reply — true — but the page's reply went on: its "never ended" are info.
    const unfinished = first.diagnostics.filter((d) => d.code === 'as.reply-not-ended' || d.code === 'as.block-not-ended');
    expect(unfinished.map((d) => d.severity)).toEqual(['info', 'info']);
    expect(unfinished[0].message).toMatch(/The page's stream goes on: connection tab:2 resumed it from id "e3"\.$/);
    expect(first.replies[0].diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code)).toEqual([]);
    expect(codes(first)).toContain('error stream.network-error'); // the connection did fail
  });

  it('starts from the frame with the id: events the earlier connection read after it were not what the client had', () => {
    // The page resumed from e3 though e4 and e5 arrived (its reader stopped at e3): the server sends them again.
    const a = connection({ id: 'tab:1', body: frames(0, 6), t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3' });
    const conns = analyse([...a, ...b]);
    const second = byId(conns, 'tab:2');
    expect(second.resumes).toMatchObject({ conn: 'tab:1', frame: 3, events: 4 });
    const initial = second.replies[0].history.initial as { content: { text: string }[] };
    expect(initial.content[0].text).toBe('Hello, ');
    expect(codes(second)).toEqual(['info stream.resumed']); // nothing applied twice
    expect(finalOf(second)).toEqual(finalOf(oneConnection([{ body: frames(0, 4), t: 1000 }, { body: frames(4, EVENTS.length), t: 2000 }])));
  });

  it('carries the frames without an id after the one with it: the client processed them with that id still its last', () => {
    const a = connection({ id: 'tab:1', body: [...frames(0, 4), ...frames(4, 6, false)], t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(6, EVENTS.length), t: 2000, lastEventId: 'e3' });
    const second = byId(analyse([...a, ...b]), 'tab:2');
    expect(second.resumes).toMatchObject({ frame: 3, events: 6 });
    expect((second.replies[0].history.initial as { content: { text: string }[] }).content[0].text).toBe('Hello, world.');
  });

  it('an id no captured connection carried: says the stream was not captured, and its replies start mid-way', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e99' });
    const conns = analyse([...a, ...b]);
    const second = byId(conns, 'tab:2');
    expect(second.resumes).toEqual({ eventId: 'e99' });
    expect(byId(conns, 'tab:1').resumedBy).toBeUndefined();
    const info = second.diagnostics.find((d) => d.code === 'stream.resumed-uncaptured');
    expect(info).toMatchObject({ severity: 'info', index: 0,
      message: 'resumes a stream from id "e99" that was not captured: its replies start mid-way (the earlier connection to this URL did not carry that id)' });
    expect(second.replies[0].orphan).toBe(true);
    expect(codes(second)).toContain('warning as.foreign-reply-id'); // still told: the info says why
  });

  it('with nothing earlier to the same URL, says that', () => {
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3' });
    const second = analyse(b)[0];
    expect(second.diagnostics.find((d) => d.code === 'stream.resumed-uncaptured')?.message)
      .toBe('resumes a stream from id "e3" that was not captured: its replies start mid-way (no earlier connection to this URL was captured)');
  });

  it('two resumptions in a row: the third connection continues the second, which continued the first', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 3), t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(3, 8), t: 2000, lastEventId: 'e2', end: 'error' });
    const c = connection({ id: 'tab:3', body: frames(8, EVENTS.length), t: 3000, lastEventId: 'e7' });
    const conns = analyse([...a, ...b, ...c]);
    const third = byId(conns, 'tab:3');
    expect(third.resumes).toMatchObject({ conn: 'tab:2', eventId: 'e7', events: 5, continuing: ['r1'] });
    expect(byId(conns, 'tab:2').resumedBy?.map((r) => r.conn)).toEqual(['tab:3']);
    expect(codes(third)).toEqual(['info stream.resumed']);
    expect(finalOf(third)).toEqual(finalOf(oneConnection([
      { body: frames(0, 3), t: 1000 }, { body: frames(3, 8), t: 2000 }, { body: frames(8, EVENTS.length), t: 3000 },
    ])));
    // The tool call began on the second connection and finishes on the third.
    expect((finalOf(third) as { content: { type: string }[] }).content.map((b) => b.type)).toEqual(['text', 'tool_call', 'tool_result']);
  });

  it('a request to another URL is not linked; one to the same path with another query is', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const other = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3', url: 'http://127.0.0.1:8000/other/stream' });
    expect(byId(analyse([...a, ...other]), 'tab:2').resumes).toEqual({ eventId: 'e3' });
    const retry = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3', url: `${URL_}?retry=1` });
    expect(byId(analyse([...a, ...retry]), 'tab:2').resumes?.conn).toBe('tab:1');
  });

  it('a request of another document (another frame token) or after a navigation is not linked; an EventSource never is', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const reloaded = connection({ id: 'other:1', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3' });
    expect(byId(analyse([...a, ...reloaded]), 'other:1').resumes).toEqual({ eventId: 'e3' });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3' });
    const nav: CaptureRecord = { kind: 'navigation', t: 1500, url: 'http://127.0.0.1:8000/app' };
    expect(byId(analyse([...a, nav, ...b]), 'tab:2').resumes).toEqual({ eventId: 'e3' });
    // An EventSource's reconnections are one connection already (the tap follows them): its Last-Event-ID links nothing.
    const es: CaptureRecord[] = [
      { kind: 'connection', id: 'tab:3', transport: 'eventsource', frameUrl: '', method: 'GET', url: URL_, requestHeaders: [['Last-Event-ID', 'e3']], startTime: 3000 },
      { kind: 'message', conn: 'tab:3', t: 3001, type: 'message', data: JSON.stringify(EVENTS[4]), lastEventId: 'e4' },
    ];
    const conns = analyse([...a, ...b, ...es]);
    expect(byId(conns, 'tab:3').resumes).toBeUndefined();
    expect(byId(conns, 'tab:1').resumedBy?.map((r) => r.conn)).toEqual(['tab:2']);
  });

  it('an id the earlier connection broke off inside: the client never dispatched that frame, the page lost its event', () => {
    // fetch-event-source takes the id as its line arrives: the body broke off after "id: e4\ndata: …\n" (no blank line).
    const a = connection({ id: 'tab:1', body: [...frames(0, 4), frame(4).slice(0, -1)], t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(5, EVENTS.length), t: 2000, lastEventId: 'e4' });
    const conns = analyse([...a, ...b]);
    const first = byId(conns, 'tab:1');
    const second = byId(conns, 'tab:2');
    expect(first.events).toHaveLength(5); // the line reader read e4's data line…
    expect(second.resumes).toMatchObject({ conn: 'tab:1', frame: 4, events: 4, undispatched: true }); // …the page did not
    expect((second.replies[0].history.initial as { content: { text: string }[] }).content[0].text).toBe('Hello, ');
    expect(codes(second)).toEqual(['info stream.resumed', 'warning stream.resume-lost-event']);
    // The server sending that frame again is no loss.
    const again = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e4' });
    expect(codes(byId(analyse([...a, ...again]), 'tab:2'))).toEqual(['info stream.resumed']);
  });

  it('links the same read live, record by record, as read whole', () => {
    const records = [
      ...connection({ id: 'tab:1', body: frames(0, 3), t: 1000, end: 'error' }),
      ...connection({ id: 'tab:2', body: frames(3, 8), t: 2000, lastEventId: 'e2', end: 'error' }),
      ...connection({ id: 'tab:3', body: frames(8, EVENTS.length), t: 3000, lastEventId: 'e7' }),
    ];
    const live = new CaptureAnalyzer();
    for (const r of records) {
      const changed = live.push([r]);
      // A resuming request changes the connection it resumes too (its row says "resumed by"): a live panel redraws it.
      if (r.kind === 'connection' && r.id === 'tab:3') expect(changed).toEqual(['tab:2', 'tab:3']);
    }
    expect(live.connections()[2].resumes?.conn).toBe('tab:2');
    const whole = analyse(records);
    const view = (c: ConnectionView) => ({ resumes: c.resumes, resumedBy: c.resumedBy, diagnostics: c.diagnostics, final: c.replies.map((r) => r.history.at(r.history.length - 1)) });
    expect(live.connections().map(view)).toEqual(whole.map(view));
  });

  it('a redacted export links the same: the Last-Event-ID header and the SSE id lines are kept, the URL query masked alike', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error', url: `${URL_}?session=abc` });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, lastEventId: 'e3', url: `${URL_}?session=abc&retry=1` });
    const redacted = redactCapture({ header: HEADER, records: [...a, ...b] }, { headers: true, requestBodies: true, textContent: true });
    const second = byId(analyzeCapture(redacted), 'tab:2');
    expect(second.resumes).toMatchObject({ conn: 'tab:1', eventId: 'e3', events: 4, continuing: ['r1'] });
    expect(codes(second)).toEqual(['info stream.resumed']);
  });
});

describe('a Last-Event-ID that names an id sent on a frame without data', () => {
  // `id: c4` and a blank line: no event, but the spec's dispatch sets the client's last event ID (Chromium's EventSource
  // too), so a client reconnecting after it sends that id — a server that marks what it has sent so far this way.
  const checkpoint = (id: string) => `id: ${id}\n\n`;

  it('links to the earlier connection: the page stood after the events before that frame', () => {
    const a = connection({ id: 'tab:1', body: [...frames(0, 4, false), checkpoint('c4'), frame(4, false).slice(0, -1)], t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length, false), t: 2000, lastEventId: 'c4' });
    const conns = analyse([...a, ...b]);
    const [first, second] = [byId(conns, 'tab:1'), byId(conns, 'tab:2')];
    expect(second.resumes).toEqual({ eventId: 'c4', conn: 'tab:1', frame: 4, idOnly: true, events: 4, continuing: ['r1'] });
    expect(first.resumedBy).toEqual([{ conn: 'tab:2', eventId: 'c4', events: 4, continuing: ['r1'] }]);
    expect(codes(second)).toEqual(['info stream.resumed']);
    expect(second.diagnostics[0].message)
      .toBe('resumes the stream of connection tab:1 from id "c4" (a frame without data after its frame 3, after 4 events): reply r1 continues here from where the page had it');
    expect(second.replies[0].continuesConnection).toBe('tab:1');
    expect(finalOf(second)).toEqual(finalOf(oneConnection([{ body: frames(0, 4, false), t: 1000 }, { body: frames(4, EVENTS.length, false), t: 2000 }])));
    // The earlier connection reads as it did: the id is no frame, no event, no diagnostic of its own.
    const plain = analyse(connection({ id: 'tab:1', body: [...frames(0, 4, false), frame(4, false).slice(0, -1)], t: 1000, end: 'error' }))[0];
    expect(first.frames.length).toBe(plain.frames.length);
    expect(first.events.map((e) => e.type)).toEqual(plain.events.map((e) => e.type));
    expect(first.frames.idOnlyFrames()).toMatchObject([{ id: 'c4', before: 4 }]);
  });

  it('the id holds until the next one: a frame id before it stops there, and it carries the frames without one after it', () => {
    // e0 · (no id) · id-only "c" · (no id) · e3 …: a client that sent e0 had not got past the id-only frame.
    const body = [frame(0), frame(1, false), checkpoint('c'), frame(2, false), ...frames(3, 6)];
    const a = connection({ id: 'tab:1', body, t: 1000, end: 'error' });
    const fromE0 = byId(analyse([...a, ...connection({ id: 'tab:2', body: frames(2, EVENTS.length), t: 2000, lastEventId: 'e0' })]), 'tab:2');
    expect(fromE0.resumes).toMatchObject({ conn: 'tab:1', frame: 0, events: 2 });
    expect(fromE0.resumes?.idOnly).toBeUndefined();
    const fromC = byId(analyse([...a, ...connection({ id: 'tab:2', body: frames(3, EVENTS.length), t: 2000, lastEventId: 'c' })]), 'tab:2');
    expect(fromC.resumes).toMatchObject({ conn: 'tab:1', frame: 2, idOnly: true, events: 3 });
    expect(codes(fromC)).toEqual(['info stream.resumed']);
    expect((fromC.replies[0].history.initial as { content: { text: string }[] }).content[0].text).toBe('Hel');
  });

  it('at the very start of the body (a server that opens with its cursor)', () => {
    const a = connection({ id: 'tab:1', body: [checkpoint('start'), ...frames(0, 3, false)], t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(0, EVENTS.length, false), t: 2000, lastEventId: 'start' });
    const second = byId(analyse([...a, ...b]), 'tab:2');
    // The client read three events after it, with "start" still its last event ID; the server sends them again.
    expect(second.resumes).toMatchObject({ conn: 'tab:1', frame: 0, idOnly: true, events: 3 });
    expect(second.diagnostics[0].message).toMatch(/from id "start" \(a frame without data at its start, after 3 events\)/);
  });
});

describe('a request that sends the id in its URL\'s query', () => {
  // Clients that cannot send a Last-Event-ID header (a page's own new EventSource, event-source-polyfill) put the id in
  // the query: `?lastEventId=e3` (Mercure reads `lastEventID`, and `Last-Event-ID` of old).
  it('continues the reply begun on the earlier connection to the same path, and says the id came from the query', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, url: `${URL_}?lastEventId=e3` });
    const conns = analyse([...a, ...b]);
    const [first, second] = [byId(conns, 'tab:1'), byId(conns, 'tab:2')];
    expect(second.resumes).toEqual({ eventId: 'e3', query: 'lastEventId', conn: 'tab:1', frame: 3, events: 4, continuing: ['r1'] });
    expect(first.resumedBy).toEqual([{ conn: 'tab:2', eventId: 'e3', events: 4, continuing: ['r1'] }]);
    expect(codes(second)).toEqual(['info stream.resumed']);
    expect(second.diagnostics[0].message)
      .toBe('resumes the stream of connection tab:1 from the query\'s lastEventId "e3" (its frame 3, after 4 events): reply r1 continues here from where the page had it');
    expect(second.replies[0].continuesConnection).toBe('tab:1');
    expect(finalOf(second)).toEqual(finalOf(oneConnection([{ body: frames(0, 4), t: 1000 }, { body: frames(4, EVENTS.length), t: 2000 }])));
  });

  it('reads the spellings clients and servers use, and no vaguer name', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const resumes = (query: string) => byId(analyse([...a, ...connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, url: `${URL_}?${query}` })]), 'tab:2').resumes;
    for (const name of ['lastEventID', 'Last-Event-ID', 'Last-Event-Id', 'last_event_id', 'last-event-id']) {
      expect(resumes(`topic=t&${name}=e3`)).toMatchObject({ eventId: 'e3', query: name, conn: 'tab:1', events: 4 });
    }
    expect(resumes('since=e3')).toBeUndefined();
    expect(resumes('cursor=e3')).toBeUndefined();
    expect(resumes('lastEventId=')).toBeUndefined(); // empty: no id
    expect(resumes('lastEventId=&last_event_id=e3')).toMatchObject({ eventId: 'e3', query: 'last_event_id' }); // the first with a value
  });

  it('a request to another path with the same query parameter is no resume: nothing linked, nothing said', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    for (const url of ['http://127.0.0.1:8000/other/stream?lastEventId=e3', 'http://127.0.0.1:9000/chat/stream?lastEventId=e3']) {
      const conns = analyse([...a, ...connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, url })]);
      const second = byId(conns, 'tab:2');
      expect(second.resumes).toBeUndefined();
      expect(byId(conns, 'tab:1').resumedBy).toBeUndefined();
      expect(second.notes).toEqual([]);
      expect(codes(second).filter((c) => c.includes('stream.resume'))).toEqual([]);
      expect(second.replies[0].orphan).toBe(true); // read on its own, as any request to another endpoint
    }
    // Nor is one with no earlier connection at all (a header would say its stream was not captured; a query alone is
    // no evidence of a resumed stream).
    expect(analyse(connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, url: `${URL_}?lastEventId=e3` }))[0].resumes).toBeUndefined();
  });

  it('to the same path, an id no earlier connection carried reads as not captured, naming the query', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const second = byId(analyse([...a, ...connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, url: `${URL_}?lastEventId=e99` })]), 'tab:2');
    expect(second.resumes).toEqual({ eventId: 'e99', query: 'lastEventId' });
    expect(second.notes).toEqual(['This request resumes a stream from the query\'s lastEventId "e99" that was not captured: its replies start mid-way (the earlier connection to this URL did not carry that id).']);
  });

  it('a Last-Event-ID header wins over the query', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error' });
    const b = connection({ id: 'tab:2', body: frames(3, EVENTS.length), t: 2000, lastEventId: 'e2', url: `${URL_}?lastEventId=e3` });
    expect(byId(analyse([...a, ...b]), 'tab:2').resumes).toEqual({ eventId: 'e2', conn: 'tab:1', frame: 2, events: 3, continuing: ['r1'] });
  });

  it('of two streams on the path, the one whose query is the same but for the id: the cursor is no part of which stream', () => {
    // Two topics of one endpoint whose ids both count alike; the later one carried e3 too.
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error', url: `${URL_}?topic=a` });
    const other = connection({ id: 'tab:2', body: frames(0, 6), t: 1500, url: `${URL_}?topic=b` });
    const b = connection({ id: 'tab:3', body: frames(4, EVENTS.length), t: 2000, url: `${URL_}?topic=a&lastEventId=e3` });
    expect(byId(analyse([...a, ...other, ...b]), 'tab:3').resumes).toMatchObject({ conn: 'tab:1', events: 4 });
  });

  it('a page\'s new EventSource with the id in its URL continues the EventSource it replaced', () => {
    // The messages carry the last event ID each was dispatched with: "e2" from the frame that had it on.
    const es = (id: string, t: number, url: string, msgs: [number, string][]): CaptureRecord[] => [
      { kind: 'connection', id, transport: 'eventsource', frameUrl: '', method: 'GET', url, requestHeaders: [], startTime: t },
      ...msgs.map(([k, lastEventId], i): CaptureRecord => ({ kind: 'message', conn: id, t: t + 1 + i, type: 'message', data: JSON.stringify(EVENTS[k]), lastEventId })),
      { kind: 'end', conn: id, t: t + 100, state: 'cancelled' },
    ];
    const a = es('tab:1', 1000, URL_, [[0, 'e0'], [1, 'e0'], [2, 'e2'], [3, 'e2']]);
    const b = es('tab:2', 2000, `${URL_}?lastEventId=e2`, Array.from({ length: EVENTS.length - 4 }, (_, i): [number, string] => [i + 4, `e${i + 4}`]));
    const conns = analyse([...a, ...b]);
    const second = byId(conns, 'tab:2');
    expect(second.resumes).toEqual({ eventId: 'e2', query: 'lastEventId', conn: 'tab:1', frame: 2, events: 4, continuing: ['r1'] });
    expect(codes(second)).toContain('info stream.resumed');
    expect(codes(second).filter((c) => !c.startsWith('info '))).toEqual([]); // no orphan, no unknown block
    expect((finalOf(second) as { content: { type: string }[] }).content.map((x) => x.type)).toEqual(['text', 'tool_call', 'tool_result']);
    expect(second.replies[0].orphan).toBeUndefined();
  });

  it('a redacted export links the same: the query\'s id is kept like the header, the other query values masked', () => {
    const a = connection({ id: 'tab:1', body: frames(0, 4), t: 1000, end: 'error', url: `${URL_}?session=abc` });
    const b = connection({ id: 'tab:2', body: frames(4, EVENTS.length), t: 2000, url: `${URL_}?session=abc&lastEventId=e3` });
    const redacted = redactCapture({ header: HEADER, records: [...a, ...b] }, { headers: true, requestBodies: true, textContent: true });
    expect(redacted.records.find((r) => r.kind === 'connection' && r.id === 'tab:2')).toMatchObject({ url: `${URL_}?session=%E2%80%A2%E2%80%A2%E2%80%A2&lastEventId=e3` });
    expect(byId(analyzeCapture(redacted), 'tab:2').resumes).toMatchObject({ conn: 'tab:1', eventId: 'e3', query: 'lastEventId', events: 4 });
  });
});

describe('a pi proxy stream resumed', () => {
  it('continues the client state the page had: one message, its text whole, no missing start', () => {
    const request = { model: { id: 'm', api: 'openai-completions', provider: 'p' }, context: { messages: [] } };
    const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const events = [{ type: 'start' }, { type: 'text_start', contentIndex: 0 }, { type: 'text_delta', contentIndex: 0, delta: 'Hel' },
      { type: 'text_delta', contentIndex: 0, delta: 'lo' }, { type: 'text_end', contentIndex: 0 }, { type: 'done', reason: 'stop', usage }];
    const pi = (k: number) => `id: ${k}\ndata: ${JSON.stringify(events[k])}\n\n`;
    const post = (spec: ConnSpec): CaptureRecord[] => connection(spec).map((r) => (r.kind === 'connection'
      ? { ...r, method: 'POST', requestBody: { text: JSON.stringify(request), size: JSON.stringify(request).length } } : r));
    const conns = analyse([
      ...post({ id: 'tab:1', body: [0, 1, 2].map(pi), t: 1000, end: 'error' }),
      ...post({ id: 'tab:2', body: [3, 4, 5].map(pi), t: 2000, lastEventId: '2' }),
    ]);
    const second = byId(conns, 'tab:2');
    expect(second.dialect).toBe('pi-proxy');
    expect(second.resumes).toMatchObject({ conn: 'tab:1', events: 3, continuing: ['tab:1#0'] });
    expect(second.replies[0].continuesConnection).toBe('tab:1');
    const final = finalOf(second, 'tab:2#0') as { content: { text: string }[]; stopReason: string };
    expect(final.content[0].text).toBe('Hello');
    expect(final.stopReason).toBe('stop');
    expect(second.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  });
});

describe('a HAR with a resumed request', () => {
  it('links the entries as the capture would: the request headers carry the Last-Event-ID', () => {
    const entry = (body: string, headers: { name: string; value: string }[]) => ({
      startedDateTime: '2026-03-01T09:00:00.000Z', time: 10, _resourceType: 'fetch',
      request: { method: 'GET', url: URL_, headers: [{ name: 'Accept', value: 'text/event-stream' }, ...headers] },
      response: { status: 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: 'text/event-stream' }], content: { mimeType: 'text/event-stream', text: body } },
      timings: { wait: 1, receive: 9 },
    });
    const har = { log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: [
      entry(frames(0, 4).join(''), []),
      entry(frames(4, EVENTS.length).join(''), [{ name: 'Last-Event-ID', value: 'e3' }]),
    ] } };
    const conns = analyzeCapture(importHar(har));
    const second = byId(conns, 'har:1');
    expect(second.resumes).toMatchObject({ conn: 'har:0', eventId: 'e3', continuing: ['r1'] });
    expect(second.replies[0].continuesConnection).toBe('har:0');
    expect(codes(second)).toEqual(['info stream.resumed']);
  });
});

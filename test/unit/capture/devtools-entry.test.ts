// Reading a finished request from DevTools' network log (a HAR entry as chrome.devtools.network hands it over, its
// body from getContent), and telling the log's copies of the tap's own streams apart.
import { describe, expect, it } from 'vitest';
import {
  DEVTOOLS_LOG_NOTICE, devtoolsEntryRecords, initiatorUrls, TWIN_WINDOW_MS, withoutTapTwins,
} from '../../../src/core/capture/devtools-entry.ts';
import type { CaptureRecord, ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';

const START = Date.parse('2026-12-02T10:00:00.000Z');
const body = 'data: {"type":"REPLY_START","reply_id":"r"}\n\ndata: {"type":"REPLY_END","reply_id":"r"}\n\n';

/** An entry shaped as Chromium 156 hands it over (fields from a real one; the body is not in it). */
function entry(over: { mime?: string; status?: number; url?: string; messages?: { time: number; data: string }[]; initiator?: unknown } = {}): Record<string, unknown> {
  return {
    startedDateTime: new Date(START).toISOString(),
    time: 250,
    timings: { blocked: 3, dns: -1, ssl: -1, connect: -1, send: 1, wait: 50, receive: 196 },
    _resourceType: 'fetch',
    _initiator: over.initiator ?? { type: 'script', stack: { callFrames: [{ url: 'blob:https://app.test/w1', lineNumber: 0 }] } },
    request: {
      method: 'POST', url: over.url ?? 'https://app.test/agent', httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Authorization', value: 'Bearer sk-secret' }, { name: 'Accept', value: 'text/event-stream' }],
      postData: { mimeType: 'application/json', text: '{"q":"hi"}' }, bodySize: 10,
    },
    response: {
      status: over.status ?? 200, statusText: 'OK', headers: [{ name: 'Content-Type', value: over.mime ?? 'text/event-stream' }],
      content: { size: body.length, mimeType: over.mime ?? 'text/event-stream' }, _error: null,
    },
    ...(over.messages ? { _eventSourceMessages: over.messages.map((m) => ({ ...m, eventName: 'message', eventId: '' })) } : {}),
  };
}

const chunksOf = (records: CaptureRecord[]): ChunkRecord[] => records.filter((r): r is ChunkRecord => r.kind === 'chunk');

describe('devtoolsEntryRecords', () => {
  it('reads a finished event stream as the log\'s connection: its body exact, credentials masked, a note, its end', () => {
    const records = devtoolsEntryRecords(entry(), { text: body, encoding: '' }, 'devtools-log:d.1', 'blob:https://app.test/w1');
    const conn = records[0] as ConnectionRecord;
    expect(conn).toMatchObject({ kind: 'connection', id: 'devtools-log:d.1', frameUrl: 'blob:https://app.test/w1', method: 'POST', url: 'https://app.test/agent', status: 200, startTime: START });
    expect(conn.requestHeaders).toEqual([['Authorization', '•••'], ['Accept', 'text/event-stream']]);
    expect(conn.requestBody).toEqual({ text: '{"q":"hi"}', size: 10 });
    expect(records[1]).toEqual({ kind: 'notice', t: START, conn: conn.id, level: 'info', text: DEVTOOLS_LOG_NOTICE });
    expect(chunksOf(records).map((c) => c.text).join('')).toBe(body);
    // No event times: the body's one chunk came at an unknown time (analysis then times the replies by created_at).
    expect(chunksOf(records).map((c) => c.t)).toEqual([Number.NaN]);
    expect(records.at(-1)).toEqual({ kind: 'end', conn: conn.id, t: START + 250, state: 'complete' });
    expect(records.every((r) => r.kind === 'connection' || ('conn' in r && r.conn === conn.id))).toBe(true);
  });

  it('with the event times DevTools kept, each event\'s frame is a chunk at its time', () => {
    const times = [START / 1000 + 0.1, START / 1000 + 0.2];
    const records = devtoolsEntryRecords(entry({ messages: times.map((time) => ({ time, data: '{}' })) }), { text: body }, 'devtools-log:d.2', '');
    expect(chunksOf(records).map((c) => c.t)).toEqual([START + 100, START + 200]);
    expect(chunksOf(records).map((c) => c.text).join('')).toBe(body);
  });

  it('an EventSource\'s dispatched messages, at their times; no word of its body left out (the tap keeps none either)', () => {
    const e = { ...entry({ messages: [{ time: START / 1000 + 0.1, data: '{"a":1}' }] }), _resourceType: 'eventsource' };
    const records = devtoolsEntryRecords(e, { text: body }, 'devtools-log:d.6', '');
    expect(records.filter((r) => r.kind === 'message')).toEqual([{ kind: 'message', conn: 'devtools-log:d.6', t: START + 100, type: 'message', data: '{"a":1}', lastEventId: '' }]);
    expect(records.filter((r) => r.kind === 'notice').map((r) => (r as { text: string }).text)).toEqual([DEVTOOLS_LOG_NOTICE]);
  });

  it('a request that is no stream gives nothing (its body need not be read); a failed stream request is kept', () => {
    expect(devtoolsEntryRecords(entry({ mime: 'application/json' }), {}, 'devtools-log:d.3', '')).toEqual([]);
    expect(devtoolsEntryRecords(null, {}, 'devtools-log:d.3', '')).toEqual([]);
    const failed = devtoolsEntryRecords(entry({ mime: 'application/json', status: 401 }), { text: '{"error":"no"}' }, 'devtools-log:d.4', '');
    expect(failed[0]).toMatchObject({ kind: 'connection', status: 401 });
    expect(failed.at(-1)).toMatchObject({ kind: 'end', state: 'complete' });
  });

  it('a body DevTools did not keep is said so', () => {
    const records = devtoolsEntryRecords(entry(), { text: null }, 'devtools-log:d.5', '');
    expect(chunksOf(records)).toEqual([]);
    expect(records.some((r) => r.kind === 'notice' && r.level === 'warning')).toBe(true);
  });
});

describe('initiatorUrls', () => {
  it('lists the stack\'s script URLs, innermost first, through its async parents, each once', () => {
    const e = { _initiator: { type: 'script', stack: { callFrames: [{ url: '' }, { url: 'a.js' }], parent: { callFrames: [{ url: 'b.js' }, { url: 'a.js' }] } } } };
    expect(initiatorUrls(e)).toEqual(['a.js', 'b.js']);
    expect(initiatorUrls({ _initiator: { type: 'parser', url: 'https://app.test/' } })).toEqual(['https://app.test/']);
    expect(initiatorUrls({})).toEqual([]);
    expect(initiatorUrls(undefined)).toEqual([]);
  });
});

describe('withoutTapTwins', () => {
  const conn = (id: string, url: string, startTime: number): ConnectionRecord => ({ kind: 'connection', id, transport: 'fetch', frameUrl: '', method: 'GET', url, requestHeaders: [], startTime });
  const chunk = (id: string): CaptureRecord => ({ kind: 'chunk', conn: id, t: 1, bytes: 1, text: 'x' });
  const ids = (records: CaptureRecord[]): string[] => records.map((r) => (r.kind === 'connection' ? r.id : `${r.kind}:${(r as { conn?: string }).conn}`));

  it('drops a log connection, with its records, that a tap connection holds: same method and URL, started close by', () => {
    const records = [conn('tok:1', 'https://a/s', 1000), chunk('tok:1'), conn('devtools-log:d.1', 'https://a/s', 1004), chunk('devtools-log:d.1')];
    expect(ids(withoutTapTwins(records))).toEqual(['tok:1', 'chunk:tok:1']);
  });

  it('keeps a log connection of another URL, of another method, or started outside the window', () => {
    const other = { ...conn('devtools-log:d.2', 'https://a/s', 1000), method: 'POST' };
    const records = [conn('tok:1', 'https://a/s', 1000), conn('devtools-log:d.1', 'https://a/t', 1000), other, conn('devtools-log:d.3', 'https://a/s', 1001 + TWIN_WINDOW_MS)];
    expect(ids(withoutTapTwins(records))).toEqual(['tok:1', 'devtools-log:d.1', 'devtools-log:d.2', 'devtools-log:d.3']);
  });

  it('a tap connection answers for one log connection, the nearest: a worker\'s request beside the page\'s own stays', () => {
    const records = [conn('devtools-log:d.1', 'https://a/s', 1300), conn('tok:1', 'https://a/s', 1000), conn('devtools-log:d.2', 'https://a/s', 1002)];
    expect(ids(withoutTapTwins(records))).toEqual(['devtools-log:d.1', 'tok:1']);
  });

  it('with no log connection the records are returned as they are', () => {
    const records = [conn('tok:1', 'https://a/s', 1000)];
    expect(withoutTapTwins(records)).toBe(records);
  });
});

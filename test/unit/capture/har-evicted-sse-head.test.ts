// An SSE body whose head the memory cap evicted, in our HAR's `_eventSourceMessages`: they begin where the text kept
// begins a whole event — at its first byte when the eviction digest says the cut fell between two events, as the
// analysis reads it too — and each carries the last event ID the stream had set, the evicted head's included, or none
// where that is not known (never an empty id the stream did not send).
import { describe, expect, it } from 'vitest';
import { makeHeader } from '../../../src/core/capture/capture-log.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { EvictionDigest } from '../../../src/core/analysis/eviction-digest.ts';
import { importHar, writeHar, type HarEventSourceMessage } from '../../../src/core/capture/har.ts';
import { harParts } from '../../../src/core/capture/har-parts.ts';
import type { Capture, ChunkRecord, ConnectionRecord } from '../../../src/core/capture/model.ts';

const T0 = Date.parse('2026-11-29T21:00:00.000Z');
const conn: ConnectionRecord = {
  kind: 'connection', id: 'c1', transport: 'fetch', frameUrl: 'https://app.example/', method: 'GET', url: 'https://api.example/stream',
  requestHeaders: [['accept', 'text/event-stream']], status: 200, statusText: 'OK', responseHeaders: [['content-type', 'text/event-stream']],
  startTime: T0, responseTime: T0 + 40,
};
const chunk = (text: string, k: number): ChunkRecord => ({ kind: 'chunk', conn: 'c1', t: T0 + 100 * k, bytes: new TextEncoder().encode(text).length, text });

type Entry = { comment?: string; _eventSourceMessages: HarEventSourceMessage[]; _replyscope?: unknown; response: { content: { text?: string } } };
type HarJson = { log: { entries: Entry[]; _replyscope?: unknown } };

/** A capture whose chunk `head` was evicted (with its digest, as the relay makes it, or without: an older log). */
function cut(head: string, kept: string[], digest = true): Capture {
  const evicted = chunk(head, 1);
  const d = new EvictionDigest(conn);
  d.push(evicted);
  return {
    header: makeHeader('replyscope 0.1.0', { created: new Date(T0).toISOString() }),
    records: [conn, { kind: 'evicted', conn: 'c1', t: T0 + 150, chunks: 1, messages: 0, bytes: evicted.bytes, ...(digest ? { derived: d.derived() } : {}) },
      ...kept.map((text, k) => chunk(text, k + 2)), { kind: 'end', conn: 'c1', t: T0 + 900, state: 'complete' }],
  };
}

function entryOf(cap: Capture): Entry {
  const text = writeHar(cap);
  expect([...harParts(cap)].join('')).toBe(text); // written as it is made, the same
  return (JSON.parse(text) as HarJson).log.entries[0];
}

const dataFrames = (cap: Capture) => [...analyzeCapture(cap)[0].frames].filter((f) => f.kind === 'data').map((f) => f.data);

describe('the first event kept of an SSE body whose head was evicted', () => {
  const kept = ['data: {"n":2}\n\n', 'data: {"n":3}\n\n'];

  it('begins exactly at the cut (the digest says no field of an event was pending): listed, as the analysis reads it', () => {
    const cap = cut('id: 1\ndata: {"n":1}\n\n', kept);
    const entry = entryOf(cap);
    expect(entry._eventSourceMessages.map((m) => m.data)).toEqual(['{"n":2}', '{"n":3}']);
    expect(entry._eventSourceMessages.map((m) => m.data)).toEqual(dataFrames(cap));
    expect(entry.comment).toBe('messages cut: the body\'s first 21 bytes were evicted to keep the capture within its memory cap; ' +
      '_eventSourceMessages begins at the first byte of the rest (the eviction cut between two events)');
    // Read back without our fields, the body kept comes back at its messages' times (they line up one to one).
    const har = JSON.parse(writeHar(cap)) as HarJson;
    delete har.log._replyscope;
    delete har.log.entries[0]._replyscope;
    expect(importHar(har).records.filter((r) => r.kind === 'chunk').map((r) => r.t)).toEqual([T0 + 200, T0 + 300]);
  });

  it('is still not listed where part of it may have been evicted: its event: line, or the start of its line', () => {
    // The analysis reads the client's lines, which take no event: line; the message would be listed under no name.
    for (const head of ['data: {"n":1}\n\nevent: delta\n', 'data: {"n":1}\n\ndata: {"n":', 'data: {"n":1}\n\ndata: {"n":1.5}\n']) {
      const entry = entryOf(cut(head, kept));
      expect(entry._eventSourceMessages.map((m) => m.data), head).toEqual(['{"n":3}']);
      expect(entry.comment).toMatch(/_eventSourceMessages begins at the first whole event of the rest, after its first blank line/);
    }
    // Without a digest (an older log) nothing says where the cut fell: read from the first blank line, as before.
    expect(entryOf(cut('id: 1\ndata: {"n":1}\n\n', kept, false))._eventSourceMessages.map((m) => m.data)).toEqual(['{"n":3}']);
  });
});

describe('the eventId of an SSE body\'s messages', () => {
  const ids = (cap: Capture) => entryOf(cap)._eventSourceMessages.map((m) => ('eventId' in m ? m.eventId : 'not known'));

  it('after a cut, the last id the evicted head set (the spec\'s last event ID persists), from the digest', () => {
    expect(ids(cut('id: 1\ndata: {"n":1}\n\n', ['data: {"n":2}\n\n', 'id: 3\ndata: {"n":3}\n\ndata: {"n":4}\n\n']))).toEqual(['1', '3', '3']);
    // An id: line of the event pending at the cut counts too (the event itself is not listed), and so does one the
    // unfinished line completes.
    expect(ids(cut('data: {"n":1}\n\nid: 7\ndata: {"n":', ['1.5}\n\ndata: {"n":2}\n\n']))).toEqual(['7']);
    expect(ids(cut('data: {"n":1}\n\nid: 1', ['2\ndata: {"n":1.5}\n\ndata: {"n":2}\n\n']))).toEqual(['12']);
    // None set: the empty id the stream has.
    expect(ids(cut('data: {"n":1}\n\n', ['data: {"n":2}\n\n']))).toEqual(['']);
  });

  it('without a digest, none until an id: line kept — the last id may have been evicted — and no id: line read from a line cut through', () => {
    expect(ids(cut('id: 1\ndata: {"n":1}\n\n', ['data: {"n":2}\n\ndata: {"n":3}\n\n', 'id: 4\ndata: {"n":4}\n\n'], false))).toEqual(['not known', '4']);
    // A whole id: line of the event cut through sets it; the rest of a line cut through is no line: `id: 9"}` was data.
    expect(ids(cut('data: {"a":"', ['x"}\nid: 5\n\ndata: {"n":2}\n\n'], false))).toEqual(['5']);
    expect(ids(cut('data: {"a":"', ['id: 9"}\n\ndata: {"n":2}\n\n'], false))).toEqual(['not known']);
    const entry = entryOf(cut('id: 1\ndata: {"n":1}\n\n', ['data: {"n":2}\n\n'], false));
    expect(entry.comment).toMatch(/; the last event ID at the cut is not known: an event before the first id: line kept has no eventId$/);
  });

  it('takes an id: line of a frame without data, as EventSource does (it dispatches nothing but sets the last event ID)', () => {
    const cap: Capture = {
      header: makeHeader('replyscope 0.1.0', { created: new Date(T0).toISOString() }),
      records: [conn, chunk('data: {"n":1}\n\nid: 5\n\ndata: {"n":2}\n\n', 1), { kind: 'end', conn: 'c1', t: T0 + 900, state: 'complete' }],
    };
    expect(ids(cap)).toEqual(['', '5']);
  });
});

// The capture's notices reach the user: a connection's as a note and a diagnostic on it, the others (what the page
// opened that cannot be captured, import notes) in the analyzer's own list — none of them were shown before.
import { describe, expect, it } from 'vitest';
import { CaptureAnalyzer } from '../../../src/core/analysis/analyze.ts';
import type { CaptureRecord, ConnectionRecord, PageRecord } from '../../../src/core/capture/model.ts';
import { blindSpotNotice, EVENTSOURCE_PARTIAL_NOTICE } from '../../../src/core/capture/notices.ts';
import { diagnosticDoc } from '../../../src/core/diagnostics/catalog.ts';
import { captureOf, sseBody } from './support.ts';

const conn = (id: string, transport: ConnectionRecord['transport']): ConnectionRecord => ({
  kind: 'connection', id, transport, frameUrl: 'http://127.0.0.1/app', method: 'GET', url: `http://127.0.0.1/${id}`, requestHeaders: [], startTime: 1,
});

describe('capture notices', () => {
  it('a connection\'s notice is a note and a capture.notice diagnostic at the event it came after', () => {
    const records = captureOf([new TextEncoder().encode(sseBody([{ type: 'start' }, { type: 'text_start', contentIndex: 0 }]))], { id: 'f1' });
    const end = records.pop() as PageRecord;
    records.push({ kind: 'notice', t: 5, conn: 'f1', level: 'warning', text: 'XHR responseType "json": body not captured.' }, end);
    const a = new CaptureAnalyzer();
    a.push(records);
    const view = a.connection('f1');
    expect(view?.notes).toEqual(['XHR responseType "json": body not captured.']);
    expect(view?.diagnostics.filter((d) => d.code === 'capture.notice')).toEqual([
      { code: 'capture.notice', severity: 'warning', index: 1, message: 'XHR responseType "json": body not captured.' },
    ]);
    expect(diagnosticDoc('capture.notice')?.title).toBeTruthy();
    expect(a.notices()).toEqual([]);
  });

  it('a notice on a connection with no events yet sits at index 0, and a built view learns of a later notice', () => {
    const a = new CaptureAnalyzer();
    a.push([conn('x1', 'xhr')]);
    expect(a.connection('x1')?.notes).toEqual([]);
    a.push([{ kind: 'notice', t: 2, conn: 'x1', level: 'info', text: 'first' }]);
    expect(a.connection('x1')?.diagnostics.map((d) => [d.code, d.index, d.severity])).toEqual([['capture.notice', 0, 'info']]);
  });

  it('the tap\'s EventSource note is not told twice (the transport already says it)', () => {
    const a = new CaptureAnalyzer();
    a.push([conn('e1', 'eventsource'), { kind: 'notice', t: 2, conn: 'e1', level: 'info', text: EVENTSOURCE_PARTIAL_NOTICE }]);
    const view = a.connection('e1');
    expect(view?.notes).toHaveLength(1);
    expect(view?.diagnostics.map((d) => d.code)).toEqual(['stream.eventsource-partial-view']);
    // The same text on another transport is not the transport's note: it is shown.
    a.push([conn('f2', 'fetch'), { kind: 'notice', t: 3, conn: 'f2', level: 'info', text: EVENTSOURCE_PARTIAL_NOTICE }]);
    expect(a.connection('f2')?.notes).toEqual([EVENTSOURCE_PARTIAL_NOTICE]);
  });

  it('notices of no connection are kept in order, bounded; those of an unknown connection are dropped', () => {
    const a = new CaptureAnalyzer();
    const ws = blindSpotNotice('WebSocket', 'wss://agent.example/ws');
    a.push([
      { kind: 'notice', t: 1, level: 'info', text: ws },
      { kind: 'notice', t: 2, conn: 'gone', level: 'info', text: 'of a connection never seen' },
      { kind: 'notice', t: 3, level: 'info', text: blindSpotNotice('Worker', `blob:http://127.0.0.1/${'x'.repeat(300)}`) },
    ]);
    expect(a.notices().map((n) => n.text)).toEqual([ws, expect.stringMatching(/^This page started a Worker \(blob:http:\/\/127\.0\.0\.1\/x+…\)\. Requests made inside workers/)]);
    expect(a.notices()[1].text.length).toBeLessThan(400);
    expect(ws).toBe('This page opened a WebSocket (wss://agent.example/ws). It is recorded once it carries an AgentScope or pi event ' +
      '(from the start if its URL is in the include list); until then nothing of it is captured.');
    // A socket's query (often a token) and fragment are left out: the note is shown whether or not the socket is recorded.
    expect(blindSpotNotice('WebSocket', 'wss://agent.example/ws?token=s3cret#x')).toContain('(wss://agent.example/ws?…). It is');
    expect(blindSpotNotice('Worker', 'https://app.example/w.js#frag')).toContain('(https://app.example/w.js#…)');
    // A worker's finished streams come from DevTools' log where the build has it; without it (Firefox) none is promised.
    expect(blindSpotNotice('Worker', 'https://app.example/w.js')).toContain("with DevTools open, a worker's stream shows once it finished");
    expect(blindSpotNotice('Worker', 'https://app.example/w.js', undefined, false)).toBe(
      'This page started a Worker (https://app.example/w.js). Requests made inside workers are not captured: an agent stream read there is not shown here.');
    // A subframe's note names the frame (without its query either).
    expect(blindSpotNotice('WebSocket', 'wss://a.example/s', 'https://widget.example/chat?user=1')).toMatch(/^The frame https:\/\/widget\.example\/chat\?… opened a WebSocket \(wss:\/\/a\.example\/s\)\. /);
    a.push(Array.from({ length: 200 }, (_, i) => ({ kind: 'notice' as const, t: 10 + i, level: 'info' as const, text: `n${i}` })));
    expect(a.notices()).toHaveLength(100);
  });

  it('the note on a socket the tap went on to record is not shown (its connection is); the others are', () => {
    const a = new CaptureAnalyzer();
    const socket = (id: string, url: string, frameUrl?: string): ConnectionRecord => ({
      ...conn(id, 'websocket'), url, ...(frameUrl ? { frameUrl, isSubframe: true } : {}), status: 101,
    });
    const recorded = 'ws://127.0.0.1:8/agent?token=1';
    const inFrame = 'ws://127.0.0.1:8/in-frame';
    const frame = 'http://127.0.0.1/widget?x=1';
    const notes = [
      blindSpotNotice('WebSocket', recorded),
      blindSpotNotice('WebSocket', 'ws://127.0.0.1:8/hmr'),
      blindSpotNotice('WebSocket', inFrame, frame),
      blindSpotNotice('WebSocket', inFrame), // the same address opened by the top page, which was not recorded
    ];
    a.push(notes.map((text, i) => ({ kind: 'notice' as const, t: i, level: 'info' as const, text })));
    expect(a.notices().map((n) => n.text)).toEqual(notes);
    a.push([socket('w1', recorded), socket('w2', inFrame, frame)]);
    expect(a.notices().map((n) => n.text)).toEqual([notes[1], notes[3]]);
  });
});

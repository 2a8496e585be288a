// Pure store helpers: id remapping on import, partial JSON display, event-row building with heartbeats.
import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import type { ConnectionView, EventView, FrameView } from '../../../src/core/analysis/types.ts';
import { remapConnectionIds } from '../../../panel/store/import-merge.ts';
import fc from 'fast-check';
import { prettyJsonText, reindentJson } from '../../../panel/lib/partial-json-view.ts';
import { eventRows, filterConnections } from '../../../panel/store/filters.ts';
import { DiagnosticSteps, diagnosticSteps, MAX_PLAY_FRAMES, nextIn, nextPlayStep } from '../../../panel/store/steps.ts';
import { eventDiagnostics } from '../../../panel/store/lookups.ts';
import { CaptureAnalyzer } from '../../../panel/core-bridge.ts';
import { FrameList } from '../../../src/core/frames/frame-list.ts';

describe('remapConnectionIds', () => {
  const recs: CaptureRecord[] = [
    { kind: 'connection', id: 'a', transport: 'import', frameUrl: '', method: 'GET', url: 'u', requestHeaders: [], startTime: 0 },
    { kind: 'chunk', conn: 'a', t: 1, bytes: 1, text: 'x' },
    { kind: 'notice', t: 2, level: 'info', text: 'hi' },
    { kind: 'end', conn: 'a', t: 3, state: 'complete' },
  ];
  it('leaves records alone when nothing clashes', () => {
    expect(remapConnectionIds(recs, new Set(['b']))).toEqual(recs);
  });
  it('renames a clashing id on every record that refers to it', () => {
    const out = remapConnectionIds(recs, new Set(['a', 'a~2']));
    expect(out.map((r) => (r.kind === 'connection' ? r.id : 'conn' in r ? r.conn : undefined))).toEqual(['a~3', 'a~3', undefined, 'a~3']);
  });
});

describe('prettyJsonText', () => {
  it('pretty-prints complete JSON', () => expect(prettyJsonText('{"a":[1,2]}')).toEqual({ text: '{\n  "a": [\n    1,\n    2\n  ]\n}', state: 'complete' }));
  it('reads streaming JSON partially', () => {
    const p = prettyJsonText('{"path": "reports/q3.csv", "columns": ["reg');
    expect(p.state).toBe('partial');
    expect(JSON.parse(p.text)).toEqual({ path: 'reports/q3.csv', columns: ['reg'] });
  });
  it('shows non-JSON as is', () => expect(prettyJsonText('not json')).toEqual({ text: 'not json', state: 'invalid' }));
  it('says empty for nothing', () => expect(prettyJsonText('  ').state).toBe('empty'));
  it('keeps complete input as the model wrote it: number literals, escapes, repeated keys', () => {
    const raw = '{"order_id":1234567890123456789,"price":1.10,"e":1E2,"name":"caf\\u00e9","a":1,"a":2,"s":"q\\"uote, [x]: {y}"}';
    expect(prettyJsonText(raw)).toEqual({
      state: 'complete',
      text: '{\n  "order_id": 1234567890123456789,\n  "price": 1.10,\n  "e": 1E2,\n  "name": "caf\\u00e9",\n  "a": 1,\n  "a": 2,\n  "s": "q\\"uote, [x]: {y}"\n}',
    });
  });
  it('shows input nested too deep to lay out as it is', () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;
    expect(prettyJsonText(deep)).toEqual({ text: deep, state: 'unformatted' });
  });
});

describe('reindentJson', () => {
  it('lays JSON out exactly as JSON.stringify(JSON.parse(text), null, 2) when printing again changes no token', () => {
    fc.assert(fc.property(fc.jsonValue(), fc.constantFrom('', ' ', '\n', ' \t\r\n '), (v, ws) => {
      // The canonical text, then whitespace between every pair of tokens (strings kept whole).
      const canonical = JSON.stringify(v);
      const spaced = canonical.replace(/("(?:[^"\\]|\\.)*")|([{}[\],:])/g, (m, str) => (str ? str : `${ws}${m}${ws}`));
      expect(reindentJson(`${ws}${spaced}${ws}`)).toBe(JSON.stringify(v, null, 2));
    }), { numRuns: 1000 });
  });
});

function conn(frames: FrameView[], events: Partial<EventView>[], extra: Partial<ConnectionView> = {}): ConnectionView {
  return {
    record: { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'GET', url: 'http://x/stream', requestHeaders: [], startTime: 0 },
    state: 'complete', dialect: 'agentscope', bytes: 0, frames: FrameList.from(frames), replies: [], diagnostics: [], evictedEvents: 0, notes: [],
    events: events.map((e, i) => ({ index: i, frameIndex: i, t: NaN, type: 'T', raw: {}, rawText: '', valid: true, issues: [], extras: [], preview: '', diagnostics: [], ...e })),
    ...extra,
  };
}

describe('eventRows', () => {
  const frames: FrameView[] = [
    { index: 0, t: 0, kind: 'comment', data: '', heartbeat: true },
    { index: 1, t: 1, kind: 'data', data: '{}', heartbeat: false },
    { index: 2, t: 2, kind: 'comment', data: 'ping', heartbeat: true },
    { index: 3, t: 3, kind: 'data', data: '{}', heartbeat: false },
    { index: 4, t: 4, kind: 'comment', data: '', heartbeat: true },
  ];
  const c = conn(frames, [{ frameIndex: 1, type: 'TEXT_BLOCK_DELTA', preview: 'Hello' }, { frameIndex: 3, type: 'REPLY_END' }]);
  it('interleaves heartbeats in wire order', () => {
    expect(eventRows(c, '', new Set(), false).map((r) => (r.kind === 'event' ? r.event.type : `hb${r.frameIndex}`))).toEqual([
      'hb0', 'TEXT_BLOCK_DELTA', 'hb2', 'REPLY_END', 'hb4',
    ]);
  });
  it('hides heartbeats on request and while searching', () => {
    expect(eventRows(c, '', new Set(), true)).toHaveLength(2);
    expect(eventRows(c, 'hello', new Set(), false).map((r) => r.kind)).toEqual(['event']);
    expect(eventRows(c, '', new Set(['REPLY_END']), false).map((r) => (r.kind === 'event' ? r.event.index : -1))).toEqual([1]);
  });
  it('filters connections by URL and errors', () => {
    const bad = conn([], [], { state: 'error' });
    expect(filterConnections([c, bad], 'STREAM', false)).toHaveLength(2);
    expect(filterConnections([c, bad], '', true)).toEqual([bad]);
    expect(filterConnections([c], 'nope', false)).toEqual([]);
  });
});

describe('nextIn', () => {
  it('finds the next and previous diagnostic step', () => {
    expect(nextIn([2, 5, 9], 5, 1)).toBe(9);
    expect(nextIn([2, 5, 9], 5, -1)).toBe(2);
    expect(nextIn([2, 5, 9], 9, 1)).toBeUndefined();
  });
});

describe('nextPlayStep', () => {
  const visits = (length: number, speed: 1 | 4 | 'max') => {
    const seen = [0];
    while (seen[seen.length - 1] < length - 1) seen.push(nextPlayStep(seen[seen.length - 1], length, speed));
    return seen;
  };

  it('plays every step of a short reply, at any speed', () => {
    for (const speed of [1, 4, 'max'] as const) expect(visits(300, speed)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('at max, plays a long reply in about MAX_PLAY_FRAMES frames and always shows the last step', () => {
    for (const length of [601, 10_000, 123_457]) {
      const seen = visits(length, 'max');
      expect(seen.length - 1).toBeLessThanOrEqual(MAX_PLAY_FRAMES);
      expect(seen.length - 1).toBeGreaterThanOrEqual(MAX_PLAY_FRAMES / 2);
      expect(seen.at(-1)).toBe(length - 1);
    }
    expect(visits(10_000, 1)).toHaveLength(10_000); // recorded speed skips nothing
  });
});

describe('connectionDuration', () => {
  const view = (frames: number[], events: number[], end?: number) => ({
    record: { startTime: 1000 },
    frames: FrameList.from(frames.map((t) => ({ t, kind: 'data' as const, data: '', heartbeat: false }))),
    events: events.map((t) => ({ t })),
    ...(end !== undefined ? { end: { t: end } } : {}),
  }) as unknown as ConnectionView;

  it('runs to the end record, else to the last thing that arrived — a heartbeat after the last event too', async () => {
    const { connectionDuration } = await import('../../../panel/components/ConnectionList.tsx');
    expect(connectionDuration(view([1100, 1200, 1900], [1100, 1200]))).toBe(900);
    expect(connectionDuration(view([1100, 1200], [1100, 1200], 2500))).toBe(1500);
    expect(connectionDuration(view([], []))).toBeUndefined();
    expect(connectionDuration(view([Number.NaN], [Number.NaN]))).toBeUndefined(); // an import without times
  });
});

// A reply the network cut off: its end-of-stream diagnostics (the network error, the reply and block never ended)
// belong to the connection, not to an event view, so the scrubber said "0 flagged" and the event pane showed none
// of what the Diagnostics tab listed at that very event.
describe('the connection\'s diagnostics at an event', () => {
  const ev = (o: object) => `data: ${JSON.stringify({ id: 'e', created_at: '2026-01-01T00:00:00', reply_id: 'r', ...o })}\n\n`;
  const text = ev({ type: 'REPLY_START', session_id: 's', name: 'n' }) + ev({ type: 'TEXT_BLOCK_START', block_id: 'b' }) + ev({ type: 'TEXT_BLOCK_DELTA', block_id: 'b', delta: 'The answer is' });
  const records: CaptureRecord[] = [
    { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'POST', url: 'https://a.test/s', requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/event-stream']], startTime: 0 },
    { kind: 'chunk', conn: 'c', t: 1, bytes: Buffer.byteLength(text), text },
    { kind: 'end', conn: 'c', t: 2, state: 'error', error: 'net::ERR_CONNECTION_RESET' },
  ];
  const analyzer = new CaptureAnalyzer();
  analyzer.push(records);
  const conn = analyzer.connections()[0];
  const reply = conn.replies[0];
  const last = conn.events[2];

  it('are told at their event: in the event pane, the row status and the flagged steps', () => {
    const atLast = conn.diagnostics.filter((d) => d.index === 2).map((d) => d.code);
    expect(atLast).toEqual(expect.arrayContaining(['stream.network-error', 'as.reply-not-ended']));
    expect(last.diagnostics.map((d) => d.code)).not.toContain('stream.network-error'); // the event view's own list
    expect(eventDiagnostics(conn, last).map((d) => d.code)).toEqual(expect.arrayContaining(atLast));
    expect(diagnosticSteps(conn, reply)).toContain(2);
    expect(new DiagnosticSteps().of(conn, reply)).toEqual(diagnosticSteps(conn, reply));
    // Nothing twice: an event's own diagnostics are not among the connection's extra ones.
    const all = [...conn.events].flatMap((e) => eventDiagnostics(conn, e));
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(conn.diagnostics.filter((d) => d.index < conn.events.length).length);
  });
});

// What concerns the connection as a whole (Diagnostic.ofConnection: an HTTP error, no known dialect) has index 0 —
// told at event 0 it flagged the first event, in the list, the pane and the scrubber, as if that event were at fault.
describe('the connection\'s own diagnostics', () => {
  const text = 'data: {"hello": 1}\n\ndata: {"hello": 2}\n\n';
  const records: CaptureRecord[] = [
    { kind: 'connection', id: 'c', transport: 'fetch', frameUrl: '', method: 'GET', url: 'https://a.test/s', requestHeaders: [], status: 503, responseHeaders: [['content-type', 'text/event-stream']], startTime: 0 },
    { kind: 'chunk', conn: 'c', t: 1, bytes: Buffer.byteLength(text), text },
    { kind: 'end', conn: 'c', t: 2, state: 'complete' },
  ];
  const analyzer = new CaptureAnalyzer();
  analyzer.push(records);
  const conn = analyzer.connections()[0];

  it('are no event\'s', () => {
    const own = conn.diagnostics.filter((d) => d.ofConnection).map((d) => d.code);
    expect(own).toEqual(expect.arrayContaining(['stream.http-error', 'stream.unknown-dialect']));
    expect(conn.events.length).toBe(2);
    expect(eventDiagnostics(conn, conn.events[0]).filter((d) => d.ofConnection)).toEqual([]);
  });
});

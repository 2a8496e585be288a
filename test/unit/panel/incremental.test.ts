// The live panel's incremental derivations against their from-scratch references, on real captures fed to the real
// analyzer in random slices (random chunk boundaries too, so events are often seen before their frame completes):
// event-list rows, type counts, diagnostic steps; plus the binary searches that replaced linear scans.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CaptureAnalyzer } from '../../../panel/core-bridge.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { EventRowIndex, TypeCounter, type RowFilter, type RowsSnapshot } from '../../../panel/store/event-rows.ts';
import { eventRows, eventTypeCounts, type EventRow } from '../../../panel/store/filters.ts';
import { DiagnosticSteps, diagnosticSteps, nextIn } from '../../../panel/store/steps.ts';
import { frameByIndex, indexInSorted, replyOfEvent } from '../../../panel/store/lookups.ts';
import { splitChunk } from '../../../panel/store/chunk-pieces.ts';
import type { CaptureRecord, ChunkRecord } from '../../../src/core/capture/model.ts';

const sample = sampleCapture();

/** A recorded WebSocket: the page's sent prompt, the app's own messages (presence, a ping) and a pi reply. */
const socketRecords: CaptureRecord[] = [
  {
    kind: 'connection', id: 'ws:1', transport: 'websocket', frameUrl: 'http://127.0.0.1/app', method: 'GET',
    url: 'ws://127.0.0.1/agent', requestHeaders: [], status: 101, startTime: 1,
  },
  ...[
    ['send', '{"type":"prompt","text":"weather in Paris?"}'],
    ['message', '{"type":"presence","users":2}'],
    ['message', '{"type":"start"}'],
    ['message', '{"type":"text_start","contentIndex":0}'],
    ['message', 'ping'],
    ['message', '{"type":"text_delta","contentIndex":0,"delta":"Sunny"}'],
    ['send', '{"type":"ack"}'],
    ['message', '{"type":"text_end","contentIndex":0}'],
    ['message', '{"type":"done","reason":"stop"}'],
  ].map(([type, data], i): CaptureRecord => ({ kind: 'message', conn: 'ws:1', t: 10 + i, type, data, lastEventId: '' })),
];
const records = [...sample.records, ...socketRecords];

/** Re-cut every chunk's text at the given fractions (code-point boundaries), keeping order and arrival times. */
function recut(records: CaptureRecord[], cuts: number[]): CaptureRecord[] {
  const out: CaptureRecord[] = [];
  let c = 0;
  for (const r of records) {
    if (r.kind !== 'chunk' || r.text === undefined) {
      out.push(r);
      continue;
    }
    const cps = [...r.text];
    const at = Math.floor(cuts[c++ % cuts.length] * cps.length);
    for (const text of [cps.slice(0, at).join(''), cps.slice(at).join('')]) {
      if (text) out.push({ ...r, text, bytes: Buffer.byteLength(text) } satisfies ChunkRecord);
    }
  }
  return out;
}

function slices<T>(items: T[], sizes: number[]): T[][] {
  const out: T[][] = [];
  for (let i = 0, s = 0; i < items.length; s++) {
    const n = sizes[s % sizes.length];
    out.push(items.slice(i, i + n));
    i += n;
  }
  return out;
}

const rowsOf = (snap: RowsSnapshot) => Array.from({ length: snap.count }, (_, i) => snap.at(i) as EventRow);
const key = (r: EventRow) => (r.kind === 'event' ? `e${r.event.index}` : `h${r.frameIndex}`);

const FILTERS: RowFilter[] = [
  { text: '', types: new Set(), hideHeartbeats: false },
  { text: '', types: new Set(), hideHeartbeats: true },
  { text: 'delta', types: new Set(), hideHeartbeats: false },
  { text: '', types: new Set(['TEXT_BLOCK_DELTA', 'REPLY_END']), hideHeartbeats: false },
  { text: 'PING', types: new Set(), hideHeartbeats: false },
  { text: 'type', types: new Set(), hideHeartbeats: true },
  { text: 'Fastest', types: new Set(), hideHeartbeats: false }, // split across two deltas of the sample ("faste" + "st (+")
];

describe('incremental derivations equal their references under random slicing', () => {
  it('event rows, row positions, type counts and diagnostic steps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...FILTERS),
        (cuts, sizes, filter) => {
          const analyzer = new CaptureAnalyzer();
          const rows = new Map<string, EventRowIndex>();
          const types = new Map<string, TypeCounter>();
          const steps = new DiagnosticSteps();
          for (const part of slices(recut(records, cuts), sizes)) {
            analyzer.push(part);
            for (const conn of analyzer.connections()) {
              const id = conn.record.id;
              if (!rows.has(id)) rows.set(id, new EventRowIndex());
              if (!types.has(id)) types.set(id, new TypeCounter());
              const snap = rows.get(id)!.update(conn, filter);
              const ref = eventRows(conn, filter.text, filter.types, filter.hideHeartbeats);
              // Mid-stream, heartbeats may sit differently around events whose frame is incomplete; events never do.
              const events = (rs: EventRow[]) => rs.filter((r) => r.kind === 'event').map(key);
              expect(events(rowsOf(snap))).toEqual(events(ref));
              for (const [i, r] of rowsOf(snap).entries()) if (r.kind === 'event') expect(snap.rowOfEvent(r.event.index)).toBe(i);
              expect(types.get(id)!.update(conn)).toEqual(eventTypeCounts(conn));
              for (const reply of conn.replies) expect(steps.of(conn, reply)).toEqual(diagnosticSteps(conn, reply));
            }
          }
          // Once everything arrived, the rows are exactly the reference, heartbeats included.
          for (const conn of analyzer.connections()) {
            const snap = rows.get(conn.record.id)!.update(conn, filter);
            expect(rowsOf(snap).map(key)).toEqual(eventRows(conn, filter.text, filter.types, filter.hideHeartbeats).map(key));
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the sample has what the property needs: heartbeats, diagnostics, several replies', () => {
    const a = new CaptureAnalyzer();
    a.push(sample.records);
    const conns = a.connections();
    expect(conns.some((c) => c.frames.toArray().some((f) => f.heartbeat))).toBe(true);
    expect(conns.some((c) => c.replies.some((r) => diagnosticSteps(c, r).length > 0))).toBe(true);
    expect(conns.reduce((n, c) => n + c.replies.length, 0)).toBeGreaterThan(2);
  });

  it('frame rows: "Hide heartbeats" keeps what the page sent; a search finds frame rows by their text; a type filter hides them', () => {
    const a = new CaptureAnalyzer();
    a.push(socketRecords);
    const conn = a.connections()[0];
    const beats = (filter: RowFilter) => rowsOf(new EventRowIndex().update(conn, filter))
      .flatMap((r) => (r.kind === 'heartbeat' ? [r.data] : []));
    expect(beats(FILTERS[0])).toEqual(['{"type":"prompt","text":"weather in Paris?"}', '{"type":"presence","users":2}', 'ping', '{"type":"ack"}']);
    expect(beats(FILTERS[1])).toEqual(['{"type":"prompt","text":"weather in Paris?"}', '{"type":"ack"}']);
    expect(beats({ text: 'paris', types: new Set(), hideHeartbeats: false })).toEqual(['{"type":"prompt","text":"weather in Paris?"}']);
    expect(beats({ text: 'presence', types: new Set(), hideHeartbeats: true })).toEqual([]);
    expect(beats({ text: 'presence', types: new Set(), hideHeartbeats: false })).toEqual(['{"type":"presence","users":2}']);
    expect(beats({ text: '', types: new Set(['text_delta']), hideHeartbeats: false })).toEqual([]);
    // The reference agrees.
    expect(eventRows(conn, '', new Set(), true).flatMap((r) => (r.kind === 'heartbeat' ? [r.data] : []))).toEqual(beats(FILTERS[1]));
  });

  it('rebuilds when the filter changes and filters out rows for rowOfEvent', () => {
    const a = new CaptureAnalyzer();
    a.push(sample.records);
    const conn = a.connections().find((c) => c.record.id === 'tab1:1')!;
    const index = new EventRowIndex();
    const all = index.update(conn, FILTERS[0]);
    const ends = index.update(conn, FILTERS[3]);
    expect(ends.count).toBeLessThan(all.count);
    const hidden = conn.events.find((e) => !FILTERS[3].types.has(e.type))!;
    expect(ends.rowOfEvent(hidden.index)).toBe(-1);
    expect(all.rowOfEvent(hidden.index)).toBeGreaterThanOrEqual(0);
  });
});

describe('lookups without scans', () => {
  it('nextIn and indexInSorted agree with linear scans', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (xs, from) => {
        const sorted = [...xs].sort((a, b) => a - b);
        expect(nextIn(sorted, from, 1)).toBe(sorted.find((k) => k > from));
        expect(nextIn(sorted, from, -1)).toBe([...sorted].reverse().find((k) => k < from));
        expect(indexInSorted(sorted, from)).toBe(sorted.indexOf(from));
      }),
    );
  });

  it('replyOfEvent and frameByIndex find what a scan finds', () => {
    const a = new CaptureAnalyzer();
    a.push(sample.records);
    for (const conn of a.connections()) {
      for (const e of conn.events) {
        const owner = conn.replies.find((r) => r.eventIndices.includes(e.index));
        const got = replyOfEvent(conn, e.index);
        expect(got?.reply.id).toBe(owner?.id);
        if (owner) expect(got?.step).toBe(owner.eventIndices.indexOf(e.index));
        expect(frameByIndex(conn, e.frameIndex)).toEqual(conn.frames.toArray().find((f) => f.index === e.frameIndex));
      }
    }
  });

  it('frameByIndex gives the same object for a frame while it is unchanged (the panel keys on it), a new one once its client note is set', () => {
    // The frame pane parses a frame once per frame object and its Copy button resets when the object changes: a new
    // object per lookup reset "Copied" on every render (a live stream's flush, a tab click) and parsed again each time.
    const a = new CaptureAnalyzer();
    a.push(sample.records);
    const conn = a.connections().find((c) => c.frames.toArray().some((f) => f.heartbeat))!;
    const beat = conn.frames.toArray().find((f) => f.heartbeat)!;
    const first = frameByIndex(conn, beat.index);
    expect(first).toEqual(beat);
    expect(frameByIndex(conn, beat.index)).toBe(first);
    frameByIndex(conn, 0); // another lookup in between
    expect(frameByIndex(conn, beat.index)).toBe(first);
    conn.frames.setClientNote(beat.index, 'client: dropped');
    const noted = frameByIndex(conn, beat.index);
    expect(noted).not.toBe(first);
    expect(noted?.clientNote).toBe('client: dropped');
    expect(frameByIndex(conn, beat.index)).toBe(noted);
    // No frame at an index that is none.
    for (const i of [-1, conn.frames.length, 0.5, Number.NaN]) expect(frameByIndex(conn, i)).toBeUndefined();
  });
});

describe('splitChunk (huge chunks are analysed in pieces)', () => {
  it('pieces rejoin to the text, keep surrogate pairs whole, add up to the bytes, and analyse like the whole', () => {
    const chunks = sample.records.filter((r): r is ChunkRecord => r.kind === 'chunk' && r.text !== undefined);
    const body = chunks.filter((c) => c.conn === 'tab1:1').map((c) => c.text).join('') + 'data: {"note":"🙂🙂🙂"}\n\n';
    const whole: ChunkRecord = { kind: 'chunk', conn: 'tab1:1', t: chunks[0].t, bytes: Buffer.byteLength(body), text: body };
    const head = sample.records.filter((r) => r.kind === 'connection' && r.id === 'tab1:1');
    const reference = new CaptureAnalyzer();
    reference.push([...head, whole]);
    const ref = reference.connections()[0];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (size) => {
        const pieces = splitChunk(whole, size);
        expect(pieces.map((p) => p.text).join('')).toBe(body);
        expect(pieces.reduce((n, p) => n + p.bytes, 0)).toBe(whole.bytes);
        for (const p of pieces) expect(p.text).not.toMatch(/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/); // no half of a pair at a cut
        const a = new CaptureAnalyzer();
        a.push([...head, ...pieces]);
        const got = a.connections()[0];
        expect(got.events.map((e) => [e.type, e.rawText, e.frameIndex])).toEqual(ref.events.map((e) => [e.type, e.rawText, e.frameIndex]));
        expect(got.bytes).toBe(ref.bytes);
      }),
      { numRuns: 30 },
    );
  });
});

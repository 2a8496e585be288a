// The panel store over the real analyzer: live records coalesced per flush, selection and follow mode surviving
// live updates, pause holding records (never dropping them), import next to existing data, clear.
import { describe, expect, it, vi } from 'vitest';
import { CaptureAnalyzer } from '../../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { createPanelStore, SLICE_RECORDS } from '../../../panel/store/store.ts';
import { scrubberKey } from '../../../panel/components/Scrubber.tsx';
import { remapConnectionIds } from '../../../panel/store/import-merge.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { CaptureStore } from '../../../src/extension/relay/capture-store.ts';
import { toCaptureRecords } from '../../../src/extension/tab-capture.ts';
import { captureOf, cut, sseBody } from '../analysis/support.ts';

/**
 * A store whose flushes run only when the test says so (the browser uses rAF). Its clock advances `tick` ms per
 * reading: 0 = analysis never exhausts a flush's time budget (one flush does everything).
 */
function manualStore(tick = 0, sliceMs = 10) {
  const queued: (() => void)[] = [];
  /** Callbacks for "the task after the frame a refresh rendered": run when the test says (see `rendered`). */
  const afterRender: (() => void)[] = [];
  let clock = 0;
  const store = createPanelStore({ schedule: (f) => queued.push(f), sliceMs, now: () => (clock += tick), afterRender: (f) => afterRender.push(f) });
  const flush = () => {
    while (queued.length) queued.shift()!();
  };
  /** The frame was rendered, which took `ms`. */
  const rendered = (ms: number) => {
    clock += ms;
    while (afterRender.length) afterRender.shift()!();
  };
  return { store, flush, queued, advance: (ms: number) => (clock += ms), rendered };
}

const sample = sampleCapture();
const ofConn = (id: string) => sample.records.filter((r) => (r.kind === 'connection' ? r.id === id : 'conn' in r && r.conn === id));

/** A store that has the first half of the sample's first stream, selected (following its reply); `rest` is the other half. */
function halfStreamed() {
  const m = manualStore();
  const recs = ofConn('tab1:1');
  const half = Math.floor(recs.length / 2);
  m.store.ingest(recs.slice(0, half));
  m.flush();
  m.store.selectConnection('tab1:1');
  return { ...m, rest: recs.slice(half) };
}

/** Connection `c`, open: a reply's start and text block, a CUSTOM notification (#2, of no reply), `deltas` deltas; a chunk per event. */
function replyWithCustom(deltas: number): CaptureRecord[] {
  const ev = (type: string, extra: Record<string, unknown> = {}) => ({ type, reply_id: 'r', created_at: '2026-12-01T09:00:00', ...extra });
  const events = [
    ev('REPLY_START', { session_id: 's', name: 'a' }),
    ev('TEXT_BLOCK_START', { block_id: 't' }),
    { type: 'CUSTOM', name: 'progress', value: {}, created_at: '2026-12-01T09:00:00' },
    ...Array.from({ length: deltas }, (_, i) => ev('TEXT_BLOCK_DELTA', { block_id: 't', delta: `w${i} ` })),
  ];
  return captureOf(events.map((e) => new TextEncoder().encode(sseBody([e]))), { id: 'c', state: 'open' });
}

/** Six replies of 300 text deltas each. */
function sixReplies(): unknown[] {
  const events: unknown[] = [];
  for (let r = 0; r < 6; r++) {
    events.push({ type: 'REPLY_START', reply_id: `r${r}`, session_id: 's', name: 'Friday' });
    events.push({ type: 'TEXT_BLOCK_START', reply_id: `r${r}`, block_id: `b${r}` });
    for (let i = 0; i < 300; i++) events.push({ type: 'TEXT_BLOCK_DELTA', reply_id: `r${r}`, block_id: `b${r}`, delta: `w${r}.${i} ` });
    events.push({ type: 'TEXT_BLOCK_END', reply_id: `r${r}`, block_id: `b${r}` });
    events.push({ type: 'REPLY_END', reply_id: `r${r}`, session_id: 's' });
  }
  return events;
}

/**
 * Six replies of 300 deltas as 200 chunks (connection `a`), and the snapshot of a relay store with a small cap that
 * read them: it starts in the middle of the stream (its eviction digested), numbering events and steps from there.
 */
function sixRepliesThroughRelay(): { records: CaptureRecord[]; compacted: CaptureRecord[] } {
  const events = sixReplies();
  const body = new TextEncoder().encode(sseBody(events));
  const records = captureOf(cut(body, Array.from({ length: 200 }, (_, i) => Math.floor((i * body.length) / 200))), { id: 'a', state: 'complete' });
  const relay = new CaptureStore(48 * 1024);
  records.forEach((r, i) => relay.add([r], i));
  return { records, compacted: toCaptureRecords(relay.snapshot()) };
}

describe('panel store', () => {
  it('coalesces many ingests into one flush', () => {
    const { store, flush, queued } = manualStore();
    for (const r of ofConn('tab1:1')) store.ingest([r]);
    expect(queued).toHaveLength(1);
    const rev = store.revision.value;
    flush();
    expect(store.revision.value).toBe(rev + 1);
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:1']);
    expect(store.capture().records).toHaveLength(ofConn('tab1:1').length);
  });

  it('keeps the selection and follows the newest step while a reply streams', () => {
    const { store, flush, rest } = halfStreamed();
    const reply = store.selectedReply.value!;
    const before = reply.history.length;
    expect(store.step.value).toBe(before - 1);
    store.ingest(rest);
    flush();
    const grown = store.selectedReply.value!;
    expect(grown.id).toBe(reply.id);
    expect(grown.history.length).toBeGreaterThan(before);
    expect(store.step.value).toBe(grown.history.length - 1);
    expect(store.selectedEvent.value).toBe(grown.eventIndices[grown.history.length - 1]);
  });

  it('stops following when the user scrubs back, and seeks clamp to the history', () => {
    const { store, flush } = manualStore();
    const recs = ofConn('tab1:1');
    store.ingest(recs.slice(0, 30));
    flush();
    store.selectConnection('tab1:1');
    store.seek(2);
    store.ingest(recs.slice(30));
    flush();
    expect(store.step.value).toBe(2);
    store.seek(-5);
    expect(store.step.value).toBe(0);
    store.seek(1e9);
    expect(store.step.value).toBe(store.selectedReply.value!.history.length - 1);
  });

  it('an event of no reply the user selects (a CUSTOM) stays selected while the reply streams on', () => {
    const { store, flush } = manualStore();
    const records = replyWithCustom(20); // a chunk per event
    store.ingest(records.slice(0, 8));
    flush();
    store.selectConnection('c');
    expect(store.follow.value).toBe(true);
    store.selectEvent(2); // the timeline table's "First event of custom progress", a click on its mark or its row
    expect(store.selectedEvent.value).toBe(2);
    store.ingest(records.slice(8));
    flush();
    // Following the reply moved the selection to its newest step, away from what the user chose.
    expect(store.selectedEvent.value).toBe(2);
    expect(store.follow.value).toBe(false);
  });

  it('an event of no reply (a CUSTOM) leaves the selected reply — End goes back to it and follows it again', () => {
    const { store, flush } = manualStore();
    const records = replyWithCustom(6);
    store.ingest(records.slice(0, 6));
    flush();
    store.selectConnection('c');
    expect(store.selectedReplyId.value).toBe('r');
    store.playing.value = true;
    store.selectEvent(2);
    // No reply's step stands beside it: the scrubber and the reply list showed reply r at its last step.
    expect(store.selectedEvent.value).toBe(2);
    expect(store.selectedReplyId.value).toBeUndefined();
    expect(store.selectedReply.value).toBeUndefined();
    expect(store.playing.value).toBe(false);
    expect(store.replyLeft.value).toBe('r');
    store.ingest(records.slice(6));
    flush();
    expect(store.selectedEvent.value).toBe(2); // the reply streamed on; the notification stays selected
    const key = (k: string) => scrubberKey(store, { key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false } as KeyboardEvent);
    expect(key('ArrowLeft')).toBe(false); // no reply to step through
    expect(key('End')).toBe(true);
    const reply = store.selectedReply.value!;
    expect(reply.id).toBe('r');
    expect(store.step.value).toBe(reply.history.length - 1);
    expect(store.follow.value).toBe(true);
    expect(store.replyLeft.value).toBeUndefined();
    // An event of the reply selects it again by itself.
    store.selectEvent(2);
    store.selectEvent(reply.eventIndices[1]);
    expect(store.selectedReplyId.value).toBe('r');
    expect(store.replyLeft.value).toBeUndefined();
  });

  it('with nothing selected, the first connection and its first reply get selected (the viewer\'s file, a reload\'s capture)', () => {
    const { store, flush } = manualStore();
    store.reset(sample.header, sample.records);
    flush();
    const first = store.connections.value[0];
    expect(store.selectedConnId.value).toBe(first.record.id);
    const reply = first.replies[0];
    expect(store.selectedReplyId.value).toBe(reply.id);
    expect(store.step.value).toBe(reply.history.length - 1);
    // A reload: the new capture's connections are new ones — the one selected is gone, the first new one is selected.
    const renamed = remapConnectionIds(ofConn('tab1:2'), new Set(['tab1:2']));
    store.reset(sample.header, renamed);
    flush();
    expect(store.selectedConnId.value).toBe('tab1:2~2');
    expect(store.selectedReply.value?.id).toBe(store.connections.value[0].replies[0].id);
  });

  it('never over the user\'s selection; a live first stream gets its first reply once it comes, unless the user chose an event first', () => {
    const { store, flush } = manualStore();
    store.ingest(ofConn('tab1:1'));
    flush();
    store.selectConnection(undefined); // (the user's Clear leaves nothing selected too)
    store.ingest(ofConn('tab1:2'));
    flush();
    expect(store.selectedConnId.value).toBe('tab1:1'); // nothing was selected: the first one shown
    store.selectConnection('tab1:2');
    store.ingest(ofConn('tab1:3'));
    flush();
    expect(store.selectedConnId.value).toBe('tab1:2');

    // A live stream: its connection record first, its events later.
    const live = manualStore();
    const recs = ofConn('tab1:1');
    live.store.ingest(recs.slice(0, 1));
    live.flush();
    expect(live.store.selectedConnId.value).toBe('tab1:1');
    expect(live.store.selectedReplyId.value).toBeUndefined();
    live.store.ingest(recs.slice(1, 20));
    live.flush();
    const reply = live.store.selectedReply.value!;
    expect(reply).toBeDefined();
    expect(live.store.follow.value).toBe(true);
    live.store.ingest(recs.slice(20));
    live.flush();
    expect(live.store.step.value).toBe(live.store.selectedReply.value!.history.length - 1); // followed as it streams

    // The user chose an event of no reply before the first reply came: it stays.
    const chose = manualStore();
    const events = [
      { type: 'CUSTOM', name: 'progress', value: {}, created_at: '2026-12-01T09:00:00' }, // #0, of no reply
      { type: 'REPLY_START', reply_id: 'r', session_id: 's', name: 'a', created_at: '2026-12-01T09:00:00' },
    ];
    const two = captureOf(events.map((e) => new TextEncoder().encode(sseBody([e]))), { id: 'c', state: 'open' });
    const at = two.findIndex((r) => r.kind === 'chunk') + 1; // the connection and its first event
    chose.store.ingest(two.slice(0, at));
    chose.flush();
    expect(chose.store.selectedConnId.value).toBe('c');
    chose.store.selectEvent(0);
    chose.store.ingest(two.slice(at));
    chose.flush();
    expect(chose.store.selectedEvent.value).toBe(0);
    expect(chose.store.selectedReplyId.value).toBeUndefined();
  });

  it('holds records while paused and applies all of them on resume', () => {
    const { store, flush } = manualStore();
    store.setPaused(true);
    store.ingest(ofConn('tab1:2'));
    flush();
    expect(store.connections.value).toEqual([]);
    expect(store.held.value).toBe(ofConn('tab1:2').length);
    store.setPaused(false);
    flush();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:2']);
    expect(store.held.value).toBe(0);
  });

  it('a capture that replaces the paused view (navigation, a compacted live capture) waits for resume; Clear does not', () => {
    const { store, flush } = manualStore();
    store.ingest(ofConn('tab1:1'));
    flush();
    store.selectConnection('tab1:1');
    store.setPaused(true);
    const view = store.connections.value;
    store.reset(sample.header, ofConn('tab1:2'));
    store.ingest(ofConn('tab1:3'));
    flush();
    expect(store.connections.value).toBe(view); // the paused view is as the user froze it
    expect(store.selectedConnection.value?.record.id).toBe('tab1:1');
    expect(store.held.value).toBe(ofConn('tab1:2').length + ofConn('tab1:3').length);
    store.reset(sample.header, ofConn('tab1:3')); // a later capture replaces the one waiting
    expect(store.held.value).toBe(ofConn('tab1:3').length);
    store.setPaused(false);
    flush();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:3']);
    expect(store.capture().records).toEqual(ofConn('tab1:3'));
    expect(store.held.value).toBe(0);
    store.setPaused(true);
    store.reset(sample.header, ofConn('tab1:1'));
    store.clear(); // the user's Clear applies at once, paused or not, and drops what waited
    flush();
    expect(store.connections.value).toEqual([]);
    store.setPaused(false);
    flush();
    expect(store.connections.value).toEqual([]);
  });

  it('imports next to existing data, renaming clashing connection ids', async () => {
    const { store, flush } = manualStore();
    store.ingest(ofConn('tab1:3'));
    flush();
    // Another request to the same URL under the same id (a second capture's "tab1:3"): the same records but its start.
    const another = ofConn('tab1:3').map((r) => (r.kind === 'connection' ? { ...r, startTime: r.startTime + 1 } : r)) as CaptureRecord[];
    await store.importCapture({ header: sample.header, records: another });
    flush();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:3', 'tab1:3~2']);
    const [a, b] = store.connections.value;
    expect(b.events.map((e) => e.rawText)).toEqual(a.events.map((e) => e.rawText));
  });

  it('a selected frame (no event) stays while a followed reply streams, and goes with the next move of the user', () => {
    const { store, flush, rest } = halfStreamed();
    const beat = store.selectedConnection.value!.frames.toArray().find((f) => f.heartbeat)!;
    expect(beat).toBeDefined();
    store.selectFrame(beat.index);
    expect(store.selectedFrame.value).toBe(beat.index);
    const step = store.step.value;
    store.ingest(rest);
    flush(); // following the reply moves the step, not the user's selection
    expect(store.step.value).toBeGreaterThan(step);
    expect(store.selectedFrame.value).toBe(beat.index);
    store.seek(0); // the user scrubs
    expect(store.selectedFrame.value).toBeUndefined();
    store.selectFrame(beat.index);
    store.selectEvent(store.selectedReply.value!.eventIndices[1]);
    expect(store.selectedFrame.value).toBeUndefined();
    store.selectFrame(beat.index);
    store.selectConnection('tab1:1');
    expect(store.selectedFrame.value).toBeUndefined();
    store.selectFrame(1e9); // no such frame: nothing selected
    expect(store.selectedFrame.value).toBeUndefined();
  });

  it('selecting an event of a reply moves the scrubber there; clear empties everything', () => {
    const { store, flush } = manualStore();
    store.ingest(sample.records);
    flush();
    store.selectConnection('tab1:1');
    const reply = store.selectedReply.value!;
    store.selectEvent(reply.eventIndices[5]);
    expect(store.step.value).toBe(5);
    store.clear();
    flush();
    expect(store.connections.value).toEqual([]);
    expect(store.selectedConnection.value).toBeUndefined();
    expect(store.capture().records).toEqual([]);
  });

  it('works off a big batch in bounded slices, with progress, to the same result as one pass', () => {
    // Each clock reading advances 1 ms and a flush may spend 3 ms: a few slices per flush, many flushes.
    const { store, queued } = manualStore(1, 3);
    const many = Array.from({ length: 6 }, (_, i) => sample.records.map((r) => renameConn(r, `~${i}`))).flat();
    store.ingest(many);
    const progress: number[] = [];
    let flushes = 0;
    while (queued.length) {
      queued.shift()!();
      flushes++;
      if (store.backlog.value) progress.push(store.backlog.value.done);
    }
    expect(flushes).toBeGreaterThanOrEqual(Math.ceil(many.length / (3 * SLICE_RECORDS)));
    const steps = progress.map((d, i) => d - (progress[i - 1] ?? 0));
    expect(steps.every((n) => n >= SLICE_RECORDS && n <= 3 * SLICE_RECORDS)).toBe(true);
    expect(progress.length).toBe(flushes - 1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.every((d) => d < many.length)).toBe(true);
    expect(store.backlog.value).toBeUndefined();
    expect(store.capture().records).toEqual(many);
    const once = manualStore();
    once.store.ingest(many);
    once.flush();
    const shape = (s: typeof store) => s.connections.value.map((c) => [c.record.id, c.events.length, c.replies.length, c.diagnostics.length]);
    expect(shape(store)).toEqual(shape(once.store));
  });

  it('a big file read in slices gets its first connection selected once it is all read, not mid-way (its reply followed through the rest)', () => {
    const { store, queued } = manualStore(1, 3);
    const many = Array.from({ length: 6 }, (_, i) => sample.records.map((r) => renameConn(r, `~${i}`))).flat();
    store.ingest(many);
    let during = 0;
    while (queued.length) {
      queued.shift()!();
      if (store.backlog.value) {
        during++;
        expect(store.selectedConnId.value).toBeUndefined();
      }
    }
    expect(during).toBeGreaterThan(1);
    const first = store.connections.value[0];
    expect(store.selectedConnId.value).toBe(first.record.id);
    expect(store.selectedReplyId.value).toBe(first.replies[0].id);
  });

  it('records queued during a backlog are analysed after it, in order; whenIdle waits for all of it', async () => {
    const { store, queued } = manualStore(1, 1); // one slice per flush
    const first = sample.records.map((r) => renameConn(r, '~a'));
    const second = sample.records.map((r) => renameConn(r, '~b'));
    store.ingest(first);
    let idle = false;
    void store.whenIdle().then(() => (idle = true));
    queued.shift()!();
    expect(store.backlog.value).toBeDefined();
    store.ingest(second);
    while (queued.length) queued.shift()!();
    await Promise.resolve();
    expect(idle).toBe(true);
    expect(store.capture().records).toEqual([...first, ...second]);
    expect(store.connections.value.map((c) => c.record.id)).toEqual([...new Set([...first, ...second].flatMap((r) => (r.kind === 'connection' ? [r.id] : [])))]);
  });

  it('spaces view refreshes by what the last one cost, and still publishes everything', async () => {
    // The fake clock moves 1 ms per reading, and rebuilding the views "costs" 50 ms: the next refresh may come
    // 150 ms later, about 30 one-record flushes on.
    const { store, queued, advance } = manualStore(1, 1000);
    const build = CaptureAnalyzer.prototype.connections;
    const spy = vi.spyOn(CaptureAnalyzer.prototype, 'connections').mockImplementation(function (this: CaptureAnalyzer) {
      advance(50);
      return build.call(this);
    });
    const recs = ofConn('tab1:1');
    let flushes = 0;
    const revs = new Set<number>();
    for (const r of recs) {
      store.ingest([r]); // one record per frame, one flush per frame
      queued.shift()?.();
      flushes++;
      revs.add(store.revision.value);
    }
    expect(revs.size).toBeLessThan(flushes / 10);
    expect(revs.size).toBeGreaterThan(1);
    let idle = false;
    void store.whenIdle().then(() => (idle = true));
    while (queued.length) queued.shift()!();
    await Promise.resolve();
    expect(idle).toBe(true);
    spy.mockRestore();
    const once = manualStore();
    once.store.ingest(recs);
    once.flush();
    expect(store.connections.value[0].events.map((e) => e.rawText)).toEqual(once.store.connections.value[0].events.map((e) => e.rawText));
  });

  it('counts the render in the cost of a refresh: one that took 60 ms to render is followed by none for 180 ms', () => {
    const { store, queued, advance, rendered } = manualStore(0, 1000);
    const recs = ofConn('tab1:1');
    store.ingest([recs[0]]);
    queued.shift()!();
    const first = store.revision.value;
    rendered(60); // style, layout and paint of that refresh: 60 ms
    const revs: number[] = [];
    for (const r of recs.slice(1, 20)) {
      advance(10); // a record every 10 ms, one flush each
      store.ingest([r]);
      queued.shift()?.();
      revs.push(store.revision.value);
    }
    // The 180 ms gap counts from the refresh: records until then wait (≈ 12 flushes), then one refresh publishes them.
    const firstAgain = revs.findIndex((v) => v !== first);
    expect(firstAgain).toBeGreaterThanOrEqual(10);
    expect(firstAgain).toBeLessThanOrEqual(12);
    // Without render costs (a cheap frame), refreshes follow the records closely.
    const cheap = manualStore(0, 1000);
    cheap.store.ingest([recs[0]]);
    cheap.queued.shift()!();
    cheap.rendered(1);
    cheap.advance(10);
    cheap.store.ingest([recs[1]]);
    cheap.queued.shift()!();
    expect(cheap.store.revision.value).toBeGreaterThan(first);
  });

  it('a reset in the middle of a backlog drops the rest of the old capture', () => {
    const { store, queued } = manualStore(1, 1);
    store.ingest(sample.records);
    queued.shift()!();
    expect(store.backlog.value).toBeDefined();
    store.reset(sample.header, ofConn('tab1:2'));
    while (queued.length) queued.shift()!();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:2']);
    expect(store.capture().records).toEqual(ofConn('tab1:2'));
  });

  it('a capture replaced by one with an evicted head (a compacted live panel) keeps the user on the same event', () => {
    // Six replies through a relay store with a small cap: its snapshot starts in the middle of the stream, and numbers
    // events and steps from there.
    const { records, compacted } = sixRepliesThroughRelay();

    const { store, flush } = manualStore();
    store.ingest(records);
    flush();
    store.selectConnection('a');
    store.selectReply('r4'); // a reply the cut goes through (the newest ~450 events are kept)
    store.seek(290); // the user scrubs back: no longer following
    const before = { event: store.selectedEventView.value!, message: store.selectedReply.value!.history.at(290) };
    store.reset(undefined, compacted);
    flush();
    const conn = store.selectedConnection.value!;
    expect(conn.evictedEvents).toBeGreaterThan(0);
    expect(store.selectedEventView.value?.rawText).toBe(before.event.rawText);
    expect(store.selectedEventView.value?.index).toBe(before.event.index - conn.evictedEvents);
    expect(store.step.value).toBeLessThan(290); // the reply's steps are numbered from the cut too
    expect(store.selectedReply.value!.history.at(store.step.value)).toEqual(before.message);
    expect(store.follow.value).toBe(false);

    // An event that the new capture no longer has: the selection goes to where its reply now starts.
    store.reset(undefined, records);
    flush();
    store.selectReply('r4');
    store.seek(1);
    store.reset(undefined, compacted);
    flush();
    expect(store.step.value).toBe(store.selectedReply.value!.history.evictedBefore);
    expect(store.selectedEventView.value?.replyId).toBe('r4');

    // Worked off in slices, with other connections read first: the selection waits for its connection.
    const sliced = manualStore(1, 1);
    sliced.store.ingest(records);
    sliced.flush();
    sliced.store.selectConnection('a');
    sliced.store.selectReply('r4');
    sliced.store.seek(290);
    const other = Array.from({ length: 20 }, (_, i) => sample.records.map((r) => renameConn(r, `-${i}`))).flat();
    sliced.store.reset(undefined, [...other, ...compacted]);
    sliced.flush();
    expect(sliced.store.selectedEventView.value?.rawText).toBe(before.event.rawText);
  });

  it('an eviction without its digest (a compaction forced past its bound) selects no event rather than another', () => {
    // Compaction waits for the relay's digest only up to twice its threshold (panel-compaction.ts): the capture it then
    // hands over has an eviction record without `derived` — the one the tab keeps while the digest lags (tab-capture.ts
    // drops a stale one). Its `evictedEvents` counts chunks, and its events are numbered from the first frame after the
    // cut: from the stream's start, they cannot be counted. Later the same capture comes again, digested.
    const { records, compacted: digested } = sixRepliesThroughRelay();
    const undigested = digested.map((r) => (r.kind === 'evicted' ? { ...r, derived: undefined } : r));

    const { store, flush } = manualStore();
    const whole = () => {
      store.reset(undefined, records);
      flush();
      store.selectConnection('a');
    };
    const selected = () => ({ reply: store.selectedReplyId.value, event: store.selectedEventView.value?.rawText });
    store.ingest(records);
    flush();
    // Counted in chunks (fewer than the events they held): an evicted event landed on a kept one of another reply; a
    // kept one fell past the kept events, leaving its reply selected at a step it no longer has.
    for (const [reply, step] of [['r1', 100], ['r4', 290]] as const) {
      whole();
      store.selectReply(reply); // the user scrubs back: no longer following
      store.seek(step);
      const event = store.selectedEventView.value!.rawText;
      store.reset(undefined, undigested);
      flush();
      expect(store.selectedConnection.value!.evictedRecordsOnly).toBe(true);
      expect(store.selectedConnection.value!.events.some((e) => e.rawText === event)).toBe(reply !== 'r1');
      expect(selected()).toEqual({ reply: undefined, event: undefined });
    }

    // An event selected in that capture (numbered from the first frame after the cut): the same capture again (the
    // same cut) numbers it the same; digested, it cannot be told where it is.
    store.selectReply('r5');
    store.seek(100);
    const event = selected();
    store.reset(undefined, undigested);
    flush();
    expect(selected()).toEqual(event);
    store.reset(undefined, digested);
    flush();
    expect(store.selectedConnection.value!.evictedRecordsOnly).toBeUndefined();
    expect(selected()).toEqual({ reply: undefined, event: undefined });

    // The same cut read in slices, a refresh after each, one of them between the connection's record and its eviction
    // record (a snapshot puts it right after): there the connection looked uncut, and the selection was dropped.
    const sliced = manualStore(300, 1);
    sliced.store.ingest(undigested);
    sliced.flush();
    sliced.store.selectConnection('a');
    sliced.store.selectReply('r5');
    sliced.store.seek(100);
    const slicedEvent = sliced.store.selectedEventView.value!.rawText;
    const replaced = sliced.store.selectedConnection.value;
    const other = sample.records.map((r) => renameConn(r, '-x'));
    const before = other.slice(0, other.length - ((other.length + 1) % SLICE_RECORDS)); // the slice ends with 'a'
    sliced.store.reset(undefined, [...before, ...undigested]);
    const seen = new Set<string>();
    while (sliced.queued.length) {
      sliced.queued.shift()!();
      const conn = sliced.store.selectedConnection.value;
      seen.add(conn === replaced ? 'replaced' : !conn ? 'unread' : conn.evictedRecordsOnly ? 'cut' : 'uncut');
    }
    // (The capture it replaced stays shown until the connection's first frames are read: after its eviction record.)
    expect([...seen]).toEqual(['replaced', 'cut']);
    expect(sliced.store.selectedReplyId.value).toBe('r5');
    expect(sliced.store.selectedEventView.value?.rawText).toBe(slicedEvent);
  });

  it('a capture replaced again while still being read (an undigested compaction, then the digested one) keeps the first selection', () => {
    // panel-compaction.ts hands the undigested capture, then the same one digested about a second later, while a big
    // snapshot takes seconds to read: the second reset comes while the first one's selection is not placed back yet.
    const { records, compacted: digested } = sixRepliesThroughRelay();
    const undigested = digested.map((r) => (r.kind === 'evicted' ? { ...r, derived: undefined } : r));
    const other = Array.from({ length: 20 }, (_, i) => sample.records.map((r) => renameConn(r, `-${i}`))).flat();
    const sliced = manualStore(300, 1);
    const { store } = sliced;
    const flushes = (n: number) => {
      for (let i = 0; i < n && sliced.queued.length; i++) sliced.queued.shift()!();
    };
    store.ingest(records);
    sliced.flush();
    store.selectConnection('a');
    store.selectReply('r4');
    store.seek(290); // the user scrubs back: no longer following
    const event = store.selectedEventView.value!.rawText;

    // The selected connection not read yet when the second capture comes: its selection was lost, and the old
    // capture's event index stayed selected, naming another event of the new one. (Now the capture it replaced is
    // still shown, as the user left it.)
    const replaced = store.selectedConnection.value;
    store.reset(undefined, [...other, ...undigested]);
    flushes(3);
    expect(store.selectedConnection.value).toBe(replaced);
    expect(store.selectedEventView.value?.rawText).toBe(event);
    store.reset(undefined, [...other, ...digested]);
    sliced.flush();
    expect(store.selectedReplyId.value).toBe('r4');
    expect(store.selectedEventView.value?.rawText).toBe(event);
    expect(store.follow.value).toBe(false);

    // Its connection and eviction analysed, not yet the selected event (nor published: no refresh placed the anchor):
    // the anchor taken from that view counted the old index from the undigested cut (recordsCut), which the digested
    // capture has not — the selection was dropped. (The views saw it, unpublished; now they show the capture replaced.)
    const unrefreshed = manualStore(1, 1);
    unrefreshed.store.ingest(records);
    unrefreshed.flush();
    unrefreshed.store.selectConnection('a');
    unrefreshed.store.selectReply('r4');
    unrefreshed.store.seek(290);
    unrefreshed.store.reset(undefined, undigested);
    unrefreshed.queued.shift()!();
    expect(unrefreshed.store.selectedConnection.value?.evictedRecordsOnly).toBeUndefined();
    unrefreshed.store.reset(undefined, digested);
    unrefreshed.flush();
    expect(unrefreshed.store.selectedEventView.value?.rawText).toBe(event);

    // A followed reply still follows through both.
    store.selectReply('r5');
    store.reset(undefined, [...other, ...undigested]);
    flushes(3);
    store.reset(undefined, [...other, ...digested]);
    sliced.flush();
    expect(store.selectedReplyId.value).toBe('r5');
    expect(store.follow.value).toBe(true);
    expect(store.step.value).toBe(store.selectedReply.value!.history.length - 1);
  });

  it('a capture replaced by one with an evicted head keeps a selected frame (a heartbeat) on the same frame, or selects none when the cut took it', () => {
    // Heartbeats in threes every 25 events, each chunk cut between a run's first heartbeat and its second: wherever the
    // relay's cut falls, the kept capture starts with two heartbeats before its first event, and the one before them went.
    const events = sixReplies();
    const chunks: string[] = [];
    for (let i = 0; i < events.length; i += 25) {
      chunks.push(`: ping ${i}b\n\n: ping ${i}c\n\n${sseBody(events.slice(i, i + 25))}: ping ${i + 25}a\n\n`);
    }
    const enc = new TextEncoder();
    const records = captureOf(chunks.map((c) => enc.encode(c)), { id: 'a', state: 'complete' });
    const relay = new CaptureStore(48 * 1024);
    records.forEach((r, i) => relay.add([r], i));
    const compacted = toCaptureRecords(relay.snapshot());
    const keptAnalyzer = new CaptureAnalyzer();
    keptAnalyzer.push(compacted);
    const kept = keptAnalyzer.connection('a')!;
    expect(kept.evictedEvents).toBeGreaterThan(0);
    /** Frame index of the heartbeat that says `data` in the kept capture (-1: evicted), and in the whole one. */
    const keptIndex = (data: string) => kept.frames.toArray().findIndex((f) => f.data === data);
    const wholeIndex = (data: string) => store.selectedConnection.value!.frames.toArray().findIndex((f) => f.data === data);
    const keptBeats = kept.frames.filter((f) => f.heartbeat).map((f) => f.data);
    expect(keptIndex(keptBeats[0])).toBeLessThan(kept.events[0].frameIndex); // before the first kept event: counted from the next

    const { store, flush } = manualStore();
    const select = (data: string) => {
      store.selectFrame(wholeIndex(data));
      expect(frameData()).toBe(data);
    };
    const frameData = () => {
      const i = store.selectedFrame.value;
      return i === undefined ? undefined : store.selectedConnection.value!.frames.data(i);
    };
    const compact = () => {
      store.reset(undefined, compacted);
      flush();
    };
    const whole = () => {
      store.reset(undefined, records);
      flush();
      store.selectConnection('a');
    };
    store.ingest(records);
    flush();
    store.selectConnection('a');

    // A followed reply: it keeps following, and the frame stays selected.
    store.selectReply('r5');
    const middle = keptBeats[Math.floor(keptBeats.length / 2)];
    select(middle);
    compact();
    expect(store.selectedFrame.value).toBe(keptIndex(middle));
    expect(frameData()).toBe(middle);
    expect(store.follow.value).toBe(true);
    expect(store.step.value).toBe(store.selectedReply.value!.history.length - 1);

    // The user scrubbed back (the event is anchored too): both come back.
    whole();
    store.selectReply('r4');
    store.seek(290);
    const event = store.selectedEventView.value!.rawText;
    select(keptBeats[3]);
    compact();
    expect(store.selectedEventView.value?.rawText).toBe(event);
    expect(frameData()).toBe(keptBeats[3]);

    // Before the first kept event (the event before it was evicted): counted back from the event after it.
    whole();
    select(keptBeats[1]);
    compact();
    expect(store.selectedFrame.value).toBe(keptIndex(keptBeats[1]));

    // The heartbeat just before the cut, and one long before: evicted, so no frame is selected.
    for (const gone of [`: ping ${Number(/\d+/.exec(keptBeats[0])![0])}a`.slice(2), 'ping 25a']) {
      whole();
      select(gone);
      expect(keptIndex(gone)).toBe(-1);
      compact();
      expect(store.selectedFrame.value).toBeUndefined();
    }

    // Back from the compacted capture to the whole one (no eviction there): the same frame again.
    select(keptBeats[5]);
    store.reset(undefined, records);
    flush();
    expect(frameData()).toBe(keptBeats[5]);

    // Worked off in slices (a refresh after each), other connections read first: the frame waits for its connection,
    // and for the selected event, read later (selecting it clears a selected frame); no other frame is shown meanwhile.
    const sliced = manualStore(300, 1);
    sliced.store.ingest(records);
    sliced.flush();
    sliced.store.selectConnection('a');
    sliced.store.selectReply('r5');
    sliced.store.seek(sliced.store.selectedReply.value!.history.length - 10);
    const late = sliced.store.selectedEventView.value!.rawText;
    const early = keptBeats[1];
    sliced.store.selectFrame(sliced.store.selectedConnection.value!.frames.toArray().findIndex((f) => f.data === early));
    const other = Array.from({ length: 20 }, (_, i) => sample.records.map((r) => renameConn(r, `-${i}`))).flat();
    sliced.store.reset(undefined, [...other, ...compacted]);
    const shown: (string | undefined)[] = [];
    while (sliced.queued.length) {
      sliced.queued.shift()!();
      const i = sliced.store.selectedFrame.value;
      const data = i === undefined ? undefined : sliced.store.selectedConnection.value?.frames.data(i);
      if (data !== shown.at(-1) || shown.length === 0) shown.push(data);
    }
    expect(sliced.store.selectedEventView.value?.rawText).toBe(late);
    // (First in the capture it replaced, shown until the connection is read.)
    expect(shown).toEqual([early, undefined, early]);
    expect(sliced.store.selectedFrame.value).toBe(keptIndex(early));
  });

  it('while a replaced capture is read back, the selection is being placed: no step of the old numbering is shown as the selection', () => {
    const { records, compacted } = sixRepliesThroughRelay();
    const other = Array.from({ length: 20 }, (_, i) => sample.records.map((r) => renameConn(r, `-${i}`))).flat();
    const sliced = manualStore(300, 1);
    const { store } = sliced;
    store.ingest(records);
    sliced.flush();
    store.selectConnection('a');
    store.selectReply('r4');
    store.seek(290); // the user scrubs back: no longer following
    const event = store.selectedEvent.value!;
    const rawText = store.selectedEventView.value!.rawText;
    store.playing.value = true; // played on from the old step, it moved the step in the new numbering, dropping the anchor
    const replaced = store.selectedConnection.value;
    store.reset(undefined, [...other, ...compacted]);
    // What the scrubber says, refresh by refresh: the capture it replaced, as the user left it, until the connection
    // is read; then the step the user had, being found (the old step number, beside the half-read reply, named another
    // step of the new numbering or none); then that step.
    const finding = `finding ${JSON.stringify({ event, step: 290 })}`;
    const seen: string[] = [];
    for (;;) {
      const p = store.placing.value;
      const phase = store.selectedConnection.value === replaced ? 'replaced' : p ? `finding ${JSON.stringify(p)}` : 'found';
      if (phase !== seen.at(-1)) seen.push(phase);
      if (phase === 'replaced') {
        expect({ step: store.step.value, event: store.selectedEvent.value, playing: store.playing.value }).toEqual({ step: 290, event, playing: true });
      } else if (phase === finding) {
        expect(store.selectedEvent.value).toBeUndefined();
        expect(store.playing.value).toBe(false);
      }
      if (phase === 'found' || !sliced.queued.length) break;
      sliced.queued.shift()!();
    }
    expect(seen).toEqual(['replaced', finding, 'found']);
    expect(store.selectedEventView.value?.rawText).toBe(rawText);
    expect(store.selectionNote.value).toBeUndefined();
    sliced.flush();

    // An event of no reply (a CUSTOM) is found as an event, not a step. (Read in slices: the connection's first event
    // ends the first one, the CUSTOM is in the next.)
    const custom = manualStore(300, 1);
    custom.store.ingest(replyWithCustom(5));
    custom.flush();
    custom.store.selectConnection('c');
    custom.store.selectEvent(2);
    const first = replyWithCustom(5).slice(0, 2); // the connection and its first event
    custom.store.reset(undefined, [...ofConn('tab1:1').slice(0, SLICE_RECORDS - first.length), ...replyWithCustom(5)]);
    custom.queued.shift()!();
    expect(custom.store.placing.value).toEqual({ event: 2 });
    custom.flush();
    expect(custom.store.placing.value).toBeUndefined();
    expect(custom.store.selectedEventView.value?.type).toBe('CUSTOM');

    // A followed reply follows: nothing to find.
    store.selectReply('r5');
    store.reset(undefined, compacted);
    expect(store.placing.value).toBeUndefined();
    sliced.flush();

    // A capture with nothing in it yet (a new page's, before its first record): nothing will be read back, nothing is
    // being found — the connections that come are a new page's, and the first of them is selected.
    store.selectReply('r4');
    store.seek(10);
    store.reset(undefined, []);
    expect(store.placing.value).toBeUndefined();
    store.ingest(sample.records);
    sliced.flush();
    expect(store.selectedConnId.value).toBe(sample.records.find((r) => r.kind === 'connection')!.id);
  });

  it('a replacing capture is shown once it has something to show: until then the views keep the one it replaced, never an empty one', () => {
    const { records, compacted } = sixRepliesThroughRelay();
    const { store, flush } = manualStore();
    store.ingest(records);
    flush();
    store.selectConnection('a');
    store.selectReply('r4');
    store.seek(290); // the user scrubs back: no longer following
    const views = () => ({
      connections: store.connections.value, navigations: store.navigations.value, notices: store.notices.value,
      conn: store.selectedConnection.value, reply: store.selectedReply.value, step: store.step.value,
      event: store.selectedEventView.value, frame: store.selectedFrame.value, rows: store.eventRows.value, placing: store.placing.value,
    });
    const before = views();
    const rawText = before.event!.rawText;

    // Between the reset and the refresh that shows the new capture (up to 250 ms): the views saw an empty capture —
    // the panel's empty page, the lists that had keyboard focus gone with it.
    store.reset(undefined, compacted);
    for (const [k, v] of Object.entries(views())) expect(v, k).toBe(before[k as keyof typeof before]);
    flush();
    expect(store.selectedConnection.value!.evictedEvents).toBeGreaterThan(0);
    expect(store.selectedEventView.value?.rawText).toBe(rawText);
    expect(store.placing.value).toBeUndefined();

    // Read in slices, other connections first: the one it replaced stays shown, refresh after refresh, until the
    // selected connection's first frames are read — then the step is found. A move the user makes in it meanwhile is
    // the one found.
    const sliced = manualStore(300, 1);
    sliced.store.ingest(records);
    sliced.flush();
    sliced.store.selectConnection('a');
    sliced.store.selectReply('r4');
    sliced.store.seek(290);
    const other = Array.from({ length: 20 }, (_, i) => sample.records.map((r) => renameConn(r, `-${i}`))).flat();
    sliced.store.reset(undefined, [...other, ...compacted]);
    sliced.store.seek(100);
    const moved = sliced.store.selectedEventView.value!.rawText;
    const replaced = sliced.store.selectedConnection.value;
    let refreshes = 0;
    while (sliced.queued.length && sliced.store.selectedConnection.value === replaced) {
      expect(sliced.store.connections.value.map((c) => c.record.id)).toEqual(['a']);
      expect(sliced.store.selectedEventView.value?.rawText).toBe(moved);
      sliced.queued.shift()!();
      refreshes++;
    }
    expect(refreshes).toBeGreaterThanOrEqual(Math.floor(other.length / SLICE_RECORDS)); // a refresh per slice of the others
    expect(sliced.store.backlog.value).toBeDefined(); // (shown before all of it is read)
    sliced.flush();
    expect(sliced.store.step.value).toBeLessThan(100);
    expect(sliced.store.selectedEventView.value?.rawText).toBe(moved);

    // A new page's capture (none of its connections is the selected one): the page before stays shown until all of
    // it is read, then its first connection is selected, as on opening.
    const page = ofConn('tab1:2').map((r) => renameConn(r, '-next'));
    const pageBefore = sliced.store.connections.value;
    sliced.store.reset(undefined, [...other, ...page]);
    while (sliced.queued.length) {
      expect(sliced.store.connections.value).toBe(pageBefore);
      sliced.queued.shift()!();
      if (sliced.store.backlog.value === undefined) break;
    }
    expect(sliced.store.connections.value).toHaveLength(other.filter((r) => r.kind === 'connection').length + 1);
    expect(sliced.store.selectedConnId.value).toBe(sliced.store.connections.value[0].record.id);

    // Nothing to show — the user's Clear, a new page's capture before its first record: shown at once, empty.
    store.reset(undefined, []);
    expect(store.connections.value).toEqual([]);
    expect(store.selectedConnection.value).toBeUndefined();
    store.ingest(records);
    flush();
    store.selectConnection('a');
    store.clear();
    expect(store.connections.value).toEqual([]);
    expect(store.selectedConnection.value).toBeUndefined();
  });

  it('a replaced capture that no longer holds the selected event lands on its reply\'s nearest step kept, or on none, and says so', () => {
    const { records, compacted } = sixRepliesThroughRelay();
    const { store, flush } = manualStore();
    /** The whole capture, `reply` selected at `step` (not following); the event selected. */
    const at = (reply: string, step: number) => {
      store.reset(undefined, records);
      flush();
      store.selectConnection('a');
      store.selectReply(reply);
      store.seek(step);
      return store.selectedEvent.value!;
    };
    const replaced = (recs: CaptureRecord[]) => {
      store.reset(undefined, recs);
      flush();
    };
    /** The stream's first `chunks` chunks, the connection still open. */
    const upTo = (chunks: number) => records.slice(0, 1 + chunks);
    const selection = () => ({ reply: store.selectedReplyId.value, step: store.step.value, event: store.selectedEvent.value, follow: store.follow.value, note: store.selectionNote.value });

    // The cut took it: the reply's oldest step kept (as before), and the note says why.
    let event = at('r4', 1);
    replaced(compacted);
    let reply = store.selectedReply.value!;
    expect(selection()).toEqual({
      reply: 'r4', step: reply.history.evictedBefore, event: reply.eventIndices[reply.history.evictedBefore], follow: false,
      note: `Event #${event} was evicted (memory cap) — showing the reply's oldest step kept.`,
    });

    // The same cut made by Clear with the stream still open (its eviction record counts them as `cleared`): the note
    // says Clear, not the memory cap the capture never reached.
    const cleared = compacted.map((r) => (r.kind === 'evicted' ? { ...r, cleared: r.chunks + r.messages } : r));
    event = at('r4', 1);
    replaced(cleared);
    expect(store.selectionNote.value).toBe(`Event #${event} was evicted (Clear, the stream still open) — showing the reply's oldest step kept.`);

    // The capture ends before it (it was not re-sent that far): the reply's latest step there, not followed — it stayed
    // selected at no step, the scrubber showing "step 201 / 150".
    event = at('r5', 200);
    replaced(upTo(185));
    reply = store.selectedReply.value!;
    expect(reply.history.length).toBeLessThan(200);
    expect(selection()).toEqual({
      reply: 'r5', step: reply.history.length - 1, event: reply.eventIndices[reply.history.length - 1], follow: false,
      note: `Event #${event} is no longer in the capture — showing the reply's latest step kept.`,
    });
    // Until the user's next move.
    store.seek(3);
    expect(store.selectionNote.value).toBeUndefined();

    // Its reply is gone too (evicted whole; not in the capture at all): nothing is selected, rather than a reply at no step.
    event = at('r1', 100);
    replaced(compacted);
    expect(selection()).toMatchObject({ reply: undefined, event: undefined, note: `Event #${event} and its reply were evicted (memory cap) — nothing is selected.` });
    event = at('r5', 200);
    replaced(upTo(160));
    expect(store.selectedConnection.value!.replies.map((r) => r.id)).not.toContain('r5');
    expect(selection()).toMatchObject({ reply: undefined, event: undefined, note: `Event #${event} and its reply are no longer in the capture — nothing is selected.` });

    // An event of no reply (a CUSTOM) the capture ends before.
    const custom = manualStore();
    custom.store.ingest(replyWithCustom(5));
    custom.flush();
    custom.store.selectConnection('c');
    custom.store.selectEvent(2);
    custom.store.reset(undefined, replyWithCustom(5).slice(0, 3)); // the connection and its first two events
    custom.flush();
    expect(custom.store.selectedEvent.value).toBeUndefined();
    expect(custom.store.selectionNote.value).toBe('Event #2 is no longer in the capture — nothing is selected.');

    // An eviction without its digest cannot be counted: nothing is selected (as before), and the note says why.
    event = at('r4', 290);
    replaced(compacted.map((r) => (r.kind === 'evicted' ? { ...r, derived: undefined } : r)));
    expect(selection()).toMatchObject({ reply: undefined, event: undefined, note: `Event #${event} cannot be found in this capture: its eviction counted chunks or messages, not events — nothing is selected.` });
    // The next capture's read-back starts afresh (the note goes once it is shown: until then, what it says is shown).
    store.reset(undefined, records);
    expect(store.selectionNote.value).toBeDefined();
    flush();
    expect(store.selectionNote.value).toBeUndefined();
  });
});

function renameConn(r: CaptureRecord, suffix: string): CaptureRecord {
  if (r.kind === 'connection') return { ...r, id: r.id + suffix };
  return 'conn' in r ? { ...r, conn: r.conn + suffix } : r;
}

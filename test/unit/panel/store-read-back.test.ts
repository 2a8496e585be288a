// A capture read back (the source's capture sent anew: a service worker's restart, a navigation, the memory cap's
// compaction) next to what the panel holds of its own and of what goes on meanwhile: imported files stay with their
// labels and their place, live records that arrive during the read-back are all shown, in order, and an export made
// meanwhile writes what is shown.
import { describe, expect, it } from 'vitest';
import type { CaptureHeader, CaptureRecord } from '../../../src/core/capture/model.ts';
import { createPanelStore } from '../../../panel/store/store.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';

/** A store whose flushes run when the test says; its clock advances `tick` ms per reading (0: one flush reads all). */
function manualStore(tick = 0, sliceMs = 10) {
  const queued: (() => void)[] = [];
  let clock = 0;
  const store = createPanelStore({ schedule: (f) => queued.push(f), sliceMs, now: () => (clock += tick), afterRender: () => {} });
  /** One flush: a slice, then a refresh when one is due. */
  const step = () => queued.shift()?.();
  const flush = () => {
    while (queued.length) step();
  };
  return { store, flush, step, queued };
}

const sample = sampleCapture();
const ofConn = (id: string) => sample.records.filter((r) => (r.kind === 'connection' ? r.id === id : 'conn' in r && r.conn === id));
const renamed = (recs: CaptureRecord[], id: string): CaptureRecord[] =>
  recs.map((r) => (r.kind === 'connection' ? { ...r, id } : 'conn' in r && r.conn !== undefined ? { ...r, conn: id } : r));
const ids = (store: ReturnType<typeof createPanelStore>) => store.connections.value.map((c) => c.record.id);
const header = (pageUrl: string): CaptureHeader => ({ kind: 'header', format: 'replyscope-capture', version: 1, tool: 't', created: '2026-12-01T00:00:00Z', pageUrl });

/** The raw texts of connection `id`'s events. */
const eventsOf = (store: ReturnType<typeof createPanelStore>, id: string) => store.connections.value.find((c) => c.record.id === id)?.events.map((e) => e.rawText);
/** A store that read `recs` alone. */
function alone(recs: CaptureRecord[]) {
  const { store, flush } = manualStore();
  store.ingest(recs);
  flush();
  return store;
}

/**
 * A live connection `live:<n>` (the sample's first stream under another id), and an imported file's `file:<n>` (its
 * second stream, or its third: an import of the same records under another id is no new connection, import-dedup.ts).
 */
const live = (n: number) => renamed(ofConn('tab1:1'), `live:${n}`);
const file = (n: 1 | 2) => renamed(ofConn(n === 1 ? 'tab1:2' : 'tab1:3'), `file:${n}`);

describe('imported files across a read-back', () => {
  it('an imported file stays through a read-back of the live capture, with its label and its place among the rows', async () => {
    const { store, flush } = manualStore();
    store.reset(header('http://a/'), live(1));
    flush();
    const note: CaptureRecord = { kind: 'notice', t: 1, level: 'info', text: 'Recorded from the demo' };
    await store.importCapture({ header: sample.header, records: [note, ...file(1)] }, 'a.replyscope.ndjson');
    store.importedFiles.set('fingerprint-a', 'a.replyscope.ndjson'); // (as app.tsx does once it is imported)
    store.ingest(live(2)); // live, after the import
    flush();
    expect(ids(store)).toEqual(['live:1', 'file:1', 'live:2']);

    // The source sends its capture anew (a restarted service worker): its own records, none of the file's.
    store.reset(header('http://a/'), [...live(1), ...live(2)]);
    flush();
    expect(ids(store)).toEqual(['live:1', 'file:1', 'live:2']);
    expect(store.connectionFiles.get('file:1')).toBe('a.replyscope.ndjson');
    expect(store.notices.value.map((n) => n.text)).toEqual(['Recorded from the demo']);
    expect(store.importedFiles.get('fingerprint-a')).toBe('a.replyscope.ndjson');
    expect(eventsOf(store, 'file:1')).toEqual(eventsOf(alone(file(1)), 'file:1')); // read whole, as imported

    // A new page's capture (no connection of the page before): the file is still there, before the new page's rows.
    store.reset(header('http://b/'), live(3));
    flush();
    expect(ids(store)).toEqual(['file:1', 'live:3']);
    expect(store.connectionFiles.get('file:1')).toBe('a.replyscope.ndjson');

    // The user's Clear drops it with the rest.
    store.clear();
    flush();
    expect(ids(store)).toEqual([]);
    expect(store.connectionFiles.size).toBe(0);
    expect(store.importedFiles.size).toBe(0);
    store.reset(header('http://b/'), live(3));
    flush();
    expect(ids(store)).toEqual(['live:3']);
  });

  it('a connection of the capture read back under an imported connection\'s id: the imported one is renamed, its label with it', async () => {
    const { store, flush } = manualStore();
    await store.importCapture({ header: sample.header, records: file(1) }, 'a.replyscope.ndjson');
    flush();
    // (the viewer's preloaded file, read after the user imported one: both from the same tab's ids)
    store.reset(header('http://a/'), renamed(ofConn('tab1:3'), 'file:1'), { file: 'preloaded.ndjson' });
    flush();
    expect(ids(store)).toEqual(['file:1~2', 'file:1']);
    expect(store.connectionFiles.get('file:1~2')).toBe('a.replyscope.ndjson');
    expect(store.connectionFiles.get('file:1')).toBe('preloaded.ndjson');
    expect(eventsOf(store, 'file:1~2')).toEqual(eventsOf(alone(file(1)), 'file:1'));
  });

  it('a file imported while paused, after a capture replaced the paused view, keeps its label on resume', async () => {
    const { store, flush } = manualStore();
    store.reset(header('http://a/'), live(1));
    flush();
    await store.importCapture({ header: sample.header, records: file(1) }, 'a.replyscope.ndjson');
    flush();
    store.setPaused(true);
    store.reset(header('http://a/'), [...live(1), ...live(2)]); // held for resume
    await store.importCapture({ header: sample.header, records: file(2) }, 'b.replyscope.ndjson');
    flush();
    expect(ids(store)).toEqual(['live:1', 'file:1']); // the paused view, as the user froze it
    store.setPaused(false);
    flush();
    expect(store.connectionFiles.get('file:2')).toBe('b.replyscope.ndjson');
    expect(store.connectionFiles.get('file:1')).toBe('a.replyscope.ndjson');
    expect(ids(store)).toEqual(['live:1', 'file:1', 'live:2', 'file:2']);
  });
});

describe('live records during a read-back', () => {
  it('are all shown once the read-back is, in the order they came; none is shown out of turn before it', () => {
    // Read in slices (a refresh between them): the capture it replaced stays shown meanwhile.
    const m = manualStore(300, 1);
    const { store } = m;
    const whole = ofConn('tab1:1');
    const half = Math.floor(whole.length / 2);
    store.ingest(whole.slice(0, half));
    m.flush();
    store.selectConnection('tab1:1');
    const others = Array.from({ length: 10 }, (_, i) => live(100 + i)).flat();
    store.reset(header('http://a/'), [...others, ...whole.slice(0, half)]);
    const before = store.connections.value;
    let shownAt: number | undefined;
    let flushes = 0;
    while (m.queued.length) {
      // The rest of the stream arrives live, a record per frame, while the capture is read back.
      const r = whole[half + flushes];
      if (r) store.ingest([r]);
      m.step();
      flushes++;
      if (shownAt === undefined && store.connections.value !== before) shownAt = flushes;
      if (shownAt === undefined) expect(store.connections.value).toBe(before);
    }
    expect(shownAt).toBeDefined();
    const once = manualStore();
    once.store.ingest([...others, ...whole]);
    once.flush();
    const shape = (s: typeof store) => s.connections.value.map((c) => [c.record.id, c.state, c.events.map((e) => e.rawText)]);
    expect(shape(store)).toEqual(shape(once.store));
    expect(store.capture().records).toEqual([...others, ...whole]);
  });

  it('the rows shown stay listed when the capture read back is shown: it is shown once it has read each of them it holds', () => {
    // The selected stream first, then ten more, the last one still streaming: read in slices, the capture was shown
    // once the selected one's first frames were read — the list went from 11 rows to 1, growing back slice by slice,
    // the live stream's row and its updates gone meanwhile.
    const m = manualStore(300, 1);
    const { store } = m;
    const streaming = live(109);
    const head = streaming.slice(0, 20);
    const all = [...ofConn('tab1:2'), ...Array.from({ length: 9 }, (_, i) => live(100 + i)).flat(), ...head];
    store.ingest(all);
    m.flush();
    store.selectConnection('tab1:2');
    const listed = ids(store);
    expect(listed).toHaveLength(11);
    store.reset(header('http://a/'), all);
    const before = store.connections.value;
    let i = 20;
    while (m.queued.length) {
      if (i < streaming.length) store.ingest([streaming[i++]]);
      m.step();
      if (store.connections.value !== before) expect(ids(store)).toEqual(listed);
    }
    expect(store.connections.value).not.toBe(before);
    store.ingest(streaming.slice(i));
    m.flush();
    expect(eventsOf(store, 'live:109')).toEqual(eventsOf(alone(streaming), 'live:109'));
  });

  it('paused in the middle of a read-back: what came meanwhile is all shown on resume, in order', () => {
    const m = manualStore(300, 1);
    const { store } = m;
    const whole = ofConn('tab1:1');
    store.ingest(whole.slice(0, 10));
    m.flush();
    store.selectConnection('tab1:1');
    const others = Array.from({ length: 10 }, (_, i) => live(100 + i)).flat();
    store.reset(header('http://a/'), [...others, ...whole.slice(0, 10)]);
    m.step();
    store.setPaused(true);
    store.ingest(whole.slice(10, 20));
    m.flush();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:1']); // (the capture it replaced, frozen)
    // A capture that replaces it while paused, and what comes after that: held for resume.
    store.reset(header('http://a/'), [...others, ...whole.slice(0, 20)]);
    store.ingest(whole.slice(20));
    store.setPaused(false);
    m.flush();
    const once = manualStore();
    once.store.ingest([...others, ...whole]);
    once.flush();
    const shape = (s: typeof store) => s.connections.value.map((c) => [c.record.id, c.state, c.events.map((e) => e.rawText)]);
    expect(shape(store)).toEqual(shape(once.store));
  });
});

describe('an export during a read-back', () => {
  it('writes the capture shown, not the one still being read; once that one is shown, that one', () => {
    const m = manualStore(300, 1);
    const { store } = m;
    const before = header('http://a/');
    store.reset(before, ofConn('tab1:1'));
    m.flush();
    store.selectConnection('tab1:1');
    const shownRecords = store.capture().records;
    expect(shownRecords).toEqual(ofConn('tab1:1'));
    // A new capture whose selected connection comes last: the one before stays shown while the others are read.
    const others = Array.from({ length: 10 }, (_, i) => live(100 + i)).flat();
    const after = header('http://b/');
    const next = [...others, ...ofConn('tab1:1').slice(0, 5)];
    store.reset(after, next);
    m.step();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:1']); // (still the one before)
    expect(store.capture()).toEqual({ header: before, records: shownRecords });
    m.flush();
    expect(store.connections.value.length).toBe(11);
    expect(store.capture()).toEqual({ header: after, records: next });
  });
});

// A capture read back (the source's capture sent anew: a service worker's restart, a navigation, the memory cap's
// compaction) next to what the panel holds of its own: imported files stay with their labels and their place.
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

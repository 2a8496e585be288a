// Importing what is shown already under another name — the capture log and the HAR of one capture, the viewer's file
// imported again: its connections are recognised by their records and not added twice; the rest is added.
import { describe, expect, it } from 'vitest';
import { loadInput, writeCaptureLog, writeHar } from '../../../panel/core-bridge.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { createPanelStore } from '../../../panel/store/store.ts';
import { withoutShown } from '../../../panel/store/import-dedup.ts';

const sample = sampleCapture();
/** With a note of no connection, shown above the list (the demo's "Recorded from Replyscope's demo agent…"). */
const noted = { header: sample.header, records: [{ kind: 'notice', t: 1, level: 'info', text: 'Recorded from the demo' } as CaptureRecord, ...sample.records] };
const log = loadInput(writeCaptureLog(noted), 'sample.replyscope.ndjson');
const har = loadInput(writeHar(noted), 'sample.har');
const ids = (recs: readonly CaptureRecord[]) => recs.flatMap((r) => (r.kind === 'connection' ? [r.id] : []));

/**
 * Analyses what is queued only when the test says (flushNow): a scheduler that flushed at once flushed again, on the
 * stack, as long as a refresh was not due — past the stack's size on a slow run.
 */
const quietStore = () => createPanelStore({ schedule: () => {}, afterRender: () => {} });

describe('an import of what is shown already', () => {
  it('the HAR of a capture whose log is shown adds nothing: each connection is known as the shown one', async () => {
    const store = quietStore();
    expect((await store.importCapture(log, 'sample.replyscope.ndjson')).known.size).toBe(0);
    store.flushNow();
    const shown = store.connections.value.length;
    const notices = store.notices.value.length;
    const { known } = await store.importCapture(har, 'sample.har');
    store.flushNow();
    expect([...known]).toEqual(ids(log.records).map((id) => [id, id]));
    expect(store.connections.value).toHaveLength(shown);
    expect(notices).toBe(1);
    expect(store.notices.value).toHaveLength(1); // the file's note is not shown twice
    expect(new Set(store.connections.value.map((c) => store.connectionFiles.get(c.record.id)))).toEqual(new Set(['sample.replyscope.ndjson']));
  });

  it('a connection whose records differ is added (renamed where its id is taken); an identical one under another id is known', async () => {
    const [first, second, third] = ids(sample.records);
    const renamed = sample.records.map((r): CaptureRecord => (r.kind === 'connection' && r.id === first ? { ...r, id: 'other' } : 'conn' in r && r.conn === first ? { ...r, conn: 'other' } : r));
    // The second connection's first chunk one character apart.
    const at = renamed.findIndex((r) => r.kind === 'chunk' && r.conn === second);
    const edited = renamed.map((r, i) => (i === at && r.kind === 'chunk' && r.text ? { ...r, text: `x${r.text.slice(1)}` } : r));
    const { records, known } = await withoutShown(sample.records, edited);
    expect([...known]).toEqual([['other', first], [third, third]]);
    expect(ids(records)).toEqual([second]);
    const store = quietStore();
    await store.importCapture(sample, 'a.replyscope.ndjson');
    await store.importCapture({ header: sample.header, records: edited }, 'b.replyscope.ndjson');
    store.flushNow();
    expect(store.connectionFiles.get(`${second}~2`)).toBe('b.replyscope.ndjson');
    expect(store.connections.value).toHaveLength(ids(sample.records).length + 1);
  });

  it('key order does not matter: a record written by another writer with its keys in another order is the same', async () => {
    const reordered = sample.records.map((r) => Object.fromEntries(Object.entries(r).reverse()) as CaptureRecord);
    expect((await withoutShown(sample.records, reordered)).records).toEqual([]);
  });
});

/** The records of connection `id` (its connection record, chunks, end), under `as`. */
const connRecords = (id: string, as = id): CaptureRecord[] =>
  sample.records.flatMap((r): CaptureRecord[] => (r.kind === 'connection' && r.id === id ? [{ ...r, id: as }] : 'conn' in r && r.conn === id ? [{ ...r, conn: as }] : []));

describe('an import while the capture changes', () => {
  it('while paused, after a capture replaced the paused view: compared with that capture, which resume shows', async () => {
    const [first, second, third] = ids(sample.records);
    const store = quietStore();
    store.reset(sample.header, connRecords(first)); // the old capture
    store.flushNow();
    store.setPaused(true);
    store.reset(sample.header, [...connRecords(second), ...connRecords(third)]); // held back until resume
    // The file: a copy of a connection only the old capture had, and one of the capture that replaced it.
    const { known } = await store.importCapture({ header: sample.header, records: [...connRecords(first, 'a'), ...connRecords(second, 'b')] }, 'x.ndjson');
    expect([...known]).toEqual([['b', second]]);
    store.setPaused(false);
    store.flushNow();
    expect(store.connections.value.map((c) => c.record.id)).toEqual([second, third, 'a']);
  });
});

describe('an import next to a live capture', () => {
  it('names the connections it added, not live ones that arrived while it was compared (an id of theirs taken: renamed)', async () => {
    const [first, second, third] = ids(sample.records);
    const store = quietStore();
    store.ingest(connRecords(first));
    store.flushNow();
    const importing = store.importCapture({ header: sample.header, records: [...connRecords(first, 'a'), ...connRecords(second, 'b')] }, 'x.ndjson');
    store.ingest(connRecords(third, 'b')); // live, before the comparison is over; under the id the file's new connection has
    const { added, known } = await importing;
    expect(added).toEqual(['b~2']);
    expect([...known]).toEqual([['a', first]]);
    store.flushNow();
    expect(store.connections.value.map((c) => c.record.id)).toEqual([first, 'b', 'b~2']);
  });
});

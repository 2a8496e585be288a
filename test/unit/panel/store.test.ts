// The panel store over the real analyzer: live records coalesced per flush, selection and follow mode surviving
// live updates, pause holding records (never dropping them), import next to existing data, clear.
import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { createPanelStore } from '../../../panel/store/store.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';

/** A store whose flushes run only when the test says so (the browser uses rAF). */
function manualStore() {
  const queued: (() => void)[] = [];
  const store = createPanelStore({ schedule: (f) => queued.push(f) });
  const flush = () => {
    while (queued.length) queued.shift()!();
  };
  return { store, flush, queued };
}

const sample = sampleCapture();
const ofConn = (id: string) => sample.records.filter((r) => (r.kind === 'connection' ? r.id === id : 'conn' in r && r.conn === id));

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
    const { store, flush } = manualStore();
    const recs = ofConn('tab1:1');
    const half = Math.floor(recs.length / 2);
    store.ingest(recs.slice(0, half));
    flush();
    store.selectConnection('tab1:1');
    const reply = store.selectedReply.value!;
    const before = reply.history.length;
    expect(store.step.value).toBe(before - 1);
    store.ingest(recs.slice(half));
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

  it('imports next to existing data, renaming clashing connection ids', () => {
    const { store, flush } = manualStore();
    store.ingest(ofConn('tab1:3'));
    flush();
    store.importCapture({ header: sample.header, records: ofConn('tab1:3') as CaptureRecord[] });
    flush();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['tab1:3', 'tab1:3~2']);
    const [a, b] = store.connections.value;
    expect(b.events.map((e) => e.rawText)).toEqual(a.events.map((e) => e.rawText));
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
});

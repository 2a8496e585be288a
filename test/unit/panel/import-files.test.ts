// The import's status line (app.tsx importFiles) counts the file's own connections: a live capture goes on while a
// file is read and compared, and what arrives meanwhile is not the file's.
import { effect } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { writeCaptureLog } from '../../../panel/core-bridge.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { importFiles } from '../../../panel/app.tsx';
import { createPanelStore } from '../../../panel/store/store.ts';

const sample = sampleCapture();
const [first, second, third] = sample.records.flatMap((r) => (r.kind === 'connection' ? [r.id] : []));
/** The records of connection `id` (its connection record, chunks, end), under `as`. */
const connRecords = (id: string, as = id): CaptureRecord[] =>
  sample.records.flatMap((r): CaptureRecord[] => (r.kind === 'connection' && r.id === id ? [{ ...r, id: as }] : 'conn' in r && r.conn === id ? [{ ...r, conn: as }] : []));

describe('importing a file next to a live capture', () => {
  it('says how many connections the file added, not counting live ones that arrived meanwhile', async () => {
    const store = createPanelStore({ schedule: (f) => setTimeout(f, 0), afterRender: () => {} });
    store.ingest(connRecords(first));
    store.flushNow();
    const name = 'x.replyscope.ndjson';
    const file = new File([writeCaptureLog({ header: sample.header, records: [...connRecords(first, 'a'), ...connRecords(second, 'b')] })], name);
    let live = false;
    const stop = effect(() => {
      if (live || !store.status.value?.text.startsWith(`Importing ${name}`)) return;
      live = true;
      store.ingest(connRecords(third)); // a live connection, while the file is compared with what is shown
    });
    await importFiles(store, [file]);
    stop();
    expect(live).toBe(true);
    expect(store.connections.value.map((c) => c.record.id)).toEqual([first, third, 'b']);
    expect(store.status.value?.text).toBe(`Imported ${name}: 1 connection; 1 connection already shown (#1, captured here), not added again`);
  });
});

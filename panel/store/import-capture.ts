// An imported capture added to the store's, one import after another: compared with what is shown already (the same
// records read twice add nothing), its connection ids made distinct, then handed to the store, which queues them as
// live records are and keeps them as its own (imported-records.ts). Apart from the rest of the store: an import
// reaches it only through the records it holds, the header and `add` — how an import is read and compared can change
// here alone.
import type { Signal } from '@preact/signals';
import type { Capture, CaptureHeader, CaptureRecord } from '../../src/core/capture/model.ts';
import { remapConnectionIds } from './import-merge.ts';
import { withoutShown, type ShownAlready } from './import-dedup.ts';

export interface ImportDeps {
  /**
   * The records an import joins: the store's, or while paused those of a capture held back for resume (a reset
   * replaces the list: an import compared with an older one is compared again).
   */
  records: () => CaptureRecord[];
  header: Signal<CaptureHeader | undefined>;
  /** Adds an import's records, read from `file`: queued for the analyzer as live ones are, labelled with the file. */
  add: (recs: CaptureRecord[], file: string | undefined) => void;
  /** The comparison's slice budget (ms) and its clock (StoreOptions `sliceMs`, `now`). */
  sliceMs: number;
  now: () => number;
}

/** What an import did: its connections added (by their id in the store, renamed where it clashed), and those not. */
export interface Imported {
  /**
   * The connections it added, by their id in the store: only its own — a live capture goes on meanwhile, so what
   * the store shows beyond what it showed before an import is not all the import's.
   */
  added: string[];
  /** Its connections shown already, not added again: their id in the file → the shown connection's. */
  known: Map<string, string>;
}

export function createImports({ records, header, add, sliceMs, now }: ImportDeps) {
  /** The imports under way, one after another: each is compared with what those before it added. */
  let importing: Promise<unknown> = Promise.resolve();

  /**
   * Add an imported capture next to what is there (connection ids that clash are renamed, nothing replaced), read
   * from `file`. Its connections shown already (the same records: the log and the HAR of one capture) are not added
   * again (`known`). The comparison is made in slices
   * (import-dedup.ts); `onCompared`: the share of it made, as the thread is given back.
   */
  function importCapture(capture: Capture, file?: string, onCompared?: (share: number) => void): Promise<Imported> {
    const done = importing.then(() => importNext(capture, file, onCompared));
    importing = done.catch(() => {});
    return done;
  }

  async function importNext(capture: Capture, file: string | undefined, onCompared?: (share: number) => void): Promise<Imported> {
    let compared: CaptureRecord[];
    let result: ShownAlready;
    do {
      compared = records();
      result = await withoutShown(compared, capture.records, { sliceMs, now, onProgress: onCompared });
    } while (compared !== records()); // replaced meanwhile (Clear, a capture replacing this one): compared with it again
    const { records: fresh, known } = result;
    const ids = new Set<string>();
    for (const r of records()) if (r.kind === 'connection') ids.add(r.id);
    const recs = remapConnectionIds(fresh, ids);
    if (!header.value) header.value = capture.header;
    add(recs, file);
    return { added: recs.flatMap((r) => (r.kind === 'connection' ? [r.id] : [])), known };
  }

  return { importCapture };
}

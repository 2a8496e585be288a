// The comparison of an import with what is shown (import-dedup.ts) made in slices: the same connections skipped and
// kept as when every record was written out as JSON and compared at once — near-duplicates too, a copy of a large
// connection but for one late chunk — told apart mostly without JSON, and the thread given back between slices.
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';
import { generateCapture } from '../../../bench/capture-gen.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { loadInput, writeCaptureLog, writeHar } from '../../../panel/core-bridge.ts';
import { withoutShown } from '../../../panel/store/import-dedup.ts';
import { createPanelStore } from '../../../panel/store/store.ts';
import { captureArb } from '../capture/arbitraries.ts';

afterEach(() => vi.restoreAllMocks());

const connOf = (r: CaptureRecord) => (r.kind === 'connection' ? r.id : 'conn' in r ? r.conn : undefined);
const ids = (recs: readonly CaptureRecord[]) => recs.flatMap((r) => (r.kind === 'connection' ? [r.id] : []));

/** One large connection ('bench:1', ~5,600 records): its connection record, its chunks, its end. */
const generated = generateCapture({ events: 20_000, seed: 5 }).records;
const nan = 10; // a chunk whose time is NaN where it is shown: a log writes it as null
const shownBig = generated.map((r, i) => (i === nan ? { ...r, t: Number.NaN } : r));
const note = (text: string): CaptureRecord => ({ kind: 'notice', t: 1, level: 'info', text });
const shown = [note('Recorded from the demo'), ...shownBig];

/** The large connection as a file holds it under `id`: read back from a log (the NaN a null), `edit`ed. */
function copy(id: string, edit: (r: CaptureRecord, i: number) => CaptureRecord | undefined = (r) => r): CaptureRecord[] {
  return generated.flatMap((r, i) => {
    const read = (i === nan ? { ...r, t: null } : r) as CaptureRecord;
    const renamed = (read.kind === 'connection' ? { ...read, id } : 'conn' in read ? { ...read, conn: id } : read) as CaptureRecord;
    const out = edit(renamed, i);
    return out ? [out] : [];
  });
}

/** A chunk's text with its first character changed: as long as it was. */
const oneCharOff = (r: CaptureRecord): CaptureRecord =>
  r.kind === 'chunk' && r.text ? { ...r, text: `${r.text[0] === 'x' ? 'y' : 'x'}${r.text.slice(1)}` } : r;

const last = generated.length - 1; // the end record
const lastChunk = last - 1;
const lateChunk = last - 3;

/** Near-duplicates first: each is compared with the shown connection (a connection shown is taken by one copy only). */
const incoming: CaptureRecord[] = [
  note('Recorded from the demo'),
  note('Another note'),
  ...copy('late', (r, i) => (i === lateChunk ? oneCharOff(r) : r)),
  ...copy('last', (r, i) => (i === lastChunk ? oneCharOff(r) : r)),
  ...copy('shorter', (r, i) => (i === lastChunk ? undefined : r)),
  // Written by another writer: keys in another order, an end with an `error` of no value.
  ...copy('copy', (r) => Object.fromEntries(Object.entries(r.kind === 'end' ? { ...r, error: undefined } : r).reverse()) as CaptureRecord),
  ...copy('again'), // the same as the shown one, which `copy` is already
];

/** What the comparison said when it wrote every record out as JSON and compared them at once (before it was sliced). */
function comparedAtOnce(shown: readonly CaptureRecord[], incoming: readonly CaptureRecord[]): { records: CaptureRecord[]; known: [string, string][] } {
  const content = (r: CaptureRecord) => {
    const { id: _id, conn: _conn, ...rest } = r as CaptureRecord & { id?: string; conn?: string };
    return JSON.stringify(rest, (_k, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
  };
  const of = (recs: readonly CaptureRecord[], id: string) => recs.filter((r) => connOf(r) === id).map(content);
  const loose = new Set(shown.filter((r) => connOf(r) === undefined).map(content));
  const taken = new Set<string>();
  const known: [string, string][] = [];
  for (const r of incoming) {
    if (r.kind !== 'connection') continue;
    const mine = of(incoming, r.id);
    const same = (theirs: string[]) => theirs.length === mine.length && theirs.every((c, i) => c === mine[i]);
    const match = shown.find((s) => s.kind === 'connection' && !taken.has(s.id) && content(s) === content(r) && same(of(shown, s.id)));
    if (match?.kind !== 'connection') continue;
    taken.add(match.id);
    known.push([r.id, match.id]);
  }
  const skipped = new Set(known.map(([id]) => id));
  return { records: incoming.filter((r) => (connOf(r) !== undefined ? !skipped.has(connOf(r)!) : !loose.has(content(r)))), known };
}

/**
 * Edits of a record that change its JSON — a text, a time, a field or the text left out — or do not: keys in another
 * order, a NaN time read back as null, a key of no value.
 */
type Edit = 'text' | 'time' | 'nan' | 'reorder' | 'no value' | 'drop' | 'no text' | 'less';
function edited(r: CaptureRecord, edit: Edit): CaptureRecord | undefined {
  const t = (r as { t?: number | null }).t;
  switch (edit) {
    case 'text': return r.kind === 'chunk' && r.text ? oneCharOff(r) : r.kind === 'message' ? { ...r, data: `${r.data}x` } : r;
    case 'time': return typeof t === 'number' ? ({ ...r, t: t + 1 } as CaptureRecord) : r;
    case 'nan': return t === undefined ? r : ({ ...r, t: Number.isNaN(t) ? null : Number.NaN } as unknown as CaptureRecord);
    case 'reorder': return Object.fromEntries(Object.entries(r).reverse()) as CaptureRecord;
    case 'no value': return { ...r, error: undefined } as CaptureRecord;
    case 'drop': return undefined;
    case 'no text': {
      const { text: _text, data: _data, ...rest } = r as CaptureRecord & { text?: string; data?: string };
      return rest as CaptureRecord;
    }
    case 'less': {
      const key = Object.keys(r).filter((k) => !['kind', 'id', 'conn', 'text', 'base64', 'data'].includes(k)).at(-1);
      return key === undefined ? r : (Object.fromEntries(Object.entries(r).filter(([k]) => k !== key)) as CaptureRecord);
    }
  }
}

describe('an import compared with what is shown, in slices', () => {
  it('property: skips and keeps what comparing every record as JSON at once did', async () => {
    const edits = fc.array(fc.tuple(fc.nat(), fc.constantFrom<Edit>('text', 'time', 'nan', 'reorder', 'no value', 'drop', 'no text', 'less')), { maxLength: 4 });
    await fc.assert(fc.asyncProperty(captureArb, edits, edits, async ({ records: shownRecs }, first, second) => {
      // The capture read back under other ids, edited; then once more (a second copy finds the shown one taken).
      const copyOf = (suffix: string, changes: [number, Edit][]) => shownRecs.flatMap((r, i) => {
        const renamed = (r.kind === 'connection' ? { ...r, id: r.id + suffix } : 'conn' in r ? { ...r, conn: r.conn + suffix } : r) as CaptureRecord;
        const out = changes.filter(([at]) => at % shownRecs.length === i).reduce<CaptureRecord | undefined>((rec, [, e]) => rec && edited(rec, e), renamed);
        return out ? [out] : [];
      });
      const mixed = [...copyOf("'", first), ...copyOf("''", second)];
      const { records, known } = await withoutShown(shownRecs, mixed, { sliceMs: 0 });
      const atOnce = comparedAtOnce(shownRecs, mixed);
      expect({ records, known: [...known] }).toEqual(atOnce);
    }), { numRuns: 200 });
  });

  it('skips and keeps what comparing every record at once did: one late chunk, the last, one chunk fewer apart are kept; a copy is known; a second copy is kept', async () => {
    expect(generated[lateChunk].kind).toBe('chunk');
    expect(generated[lastChunk].kind).toBe('chunk');
    const { records, known } = await withoutShown(shown, incoming);
    expect([...known]).toEqual([['copy', 'bench:1']]);
    expect(ids(records)).toEqual(['late', 'last', 'shorter', 'again']);
    expect(records).toEqual(incoming.filter((r) => (connOf(r) === undefined ? r === incoming[1] : connOf(r) !== 'copy')));
  });

  it('tells a large copy and its near-duplicates from the shown connection mostly without writing JSON', async () => {
    const stringify = vi.spyOn(JSON, 'stringify');
    await withoutShown(shown, incoming);
    // Each record written out as JSON, to the first that differs: ~35,000 calls. What is left (23): the connection and
    // note records, and the chunk whose time is NaN (not told by its value) in each candidate that gets that far.
    expect(generated.length).toBeGreaterThan(5000);
    expect(stringify.mock.calls.length).toBeLessThan(40);
  });

  it('gives the thread back between slices of a large candidate, saying how far it has come', async () => {
    let clock = 0;
    const shares: number[] = [];
    let givenBack = 0;
    const { known } = await withoutShown(shown, copy('copy'), {
      now: () => clock++, // every look at the clock a millisecond later
      sliceMs: 50,
      giveBack: async () => {
        givenBack++;
      },
      onProgress: (share) => shares.push(share),
    });
    expect([...known]).toEqual([['copy', 'bench:1']]);
    expect(givenBack).toBeGreaterThan(20);
    expect(shares.length).toBeGreaterThan(20);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares.at(-1)).toBeLessThan(1);

    // With the page's own giveBack: a timer due meanwhile runs before the comparison is over.
    let ticked = false;
    setTimeout(() => (ticked = true), 0);
    await withoutShown(shown, copy('copy'), { sliceMs: 0 });
    expect(ticked).toBe(true);
  });
});

describe('the store importing while it compares', () => {
  const sample = sampleCapture();
  /** Analyses what is queued when the test says (flushNow): one that flushed at once flushed again, on the stack, until a refresh was due. */
  const quietStore = () => createPanelStore({ schedule: () => {}, afterRender: () => {} });

  it('two imports at once: the second is compared with what the first added (the HAR of the log adds nothing)', async () => {
    const store = quietStore();
    const log = store.importCapture(loadInput(writeCaptureLog(sample), 'a.ndjson'), 'a.ndjson');
    const har = store.importCapture(loadInput(writeHar(sample), 'a.har'), 'a.har');
    expect((await log).known.size).toBe(0);
    expect([...(await har).known.values()]).toEqual(ids(sample.records));
    store.flushNow();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(ids(sample.records));
  });

  it('a capture cleared while an import is compared with it: the import is compared again, with nothing, and added', async () => {
    let clock = 0;
    const store = createPanelStore({ schedule: (f) => f(), afterRender: () => {}, now: () => clock++, sliceMs: 50 });
    await store.importCapture({ header: sample.header, records: shownBig }, 'a.ndjson');
    store.flushNow();
    let cleared = false;
    const { known } = await store.importCapture({ header: sample.header, records: copy('copy') }, 'b.ndjson', () => {
      if (!cleared) store.clear(); // between two slices of the comparison
      cleared = true;
    });
    expect(cleared).toBe(true);
    expect(known.size).toBe(0);
    store.flushNow();
    expect(store.connections.value.map((c) => c.record.id)).toEqual(['copy']);
  });
});

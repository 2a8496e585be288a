// The import worker's protocol, its two sides run in one thread: every message structured-cloned as postMessage
// clones it, and checked as each side checks it. The capture, the fingerprint and the errors are those of the reading
// on the page's thread (readFileHere); the records come back in bounded batches; what the check refuses fails the read.
import { describe, expect, it } from 'vitest';
import { readFileHere } from '../../../panel/store/import-read.ts';
import { importReadService } from '../../../panel/store/import-worker-serve.ts';
import { readInWorker, READ_HERE, type ImportWorker } from '../../../panel/store/import-worker-client.ts';
import {
  BATCH_CHARS, BATCH_RECORDS, importWorkerToPanelSchema, recordBatches, type ImportWorkerToPanel,
} from '../../../panel/store/import-worker-messages.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { generateCapture } from '../../../bench/capture-gen.ts';
import { makeHeader, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { writeHar } from '../../../src/core/capture/har.ts';
import { InputError } from '../../../src/core/capture/load-input.ts';
import type { CaptureRecord } from '../../../src/core/capture/model.ts';

const never = () => false;
const encode = (text: string) => new TextEncoder().encode(text);

/**
 * A worker whose other side is the import worker's service, in this thread. `posted`: what the service posted, as it
 * posted it; `tamper` may change a message on its way to the panel.
 */
function workerInThread(tamper: (m: ImportWorkerToPanel) => unknown = (m) => m) {
  const listeners = new Map<string, ((event: Event) => void)[]>();
  const posted: ImportWorkerToPanel[] = [];
  let terminated = false;
  const dispatch = (type: string, event: Event) => setTimeout(() => {
    if (!terminated) for (const l of listeners.get(type) ?? []) l(event);
  });
  const service = importReadService((m) => {
    posted.push(m);
    dispatch('message', new MessageEvent('message', { data: structuredClone(tamper(m)) }));
  });
  const worker: ImportWorker = {
    postMessage: (m) => setTimeout(() => !terminated && service(structuredClone(m))),
    addEventListener: (type, l) => listeners.set(type, [...(listeners.get(type) ?? []), l]),
    terminate: () => void (terminated = true),
  };
  return { worker, posted, terminated: () => terminated, fail: () => dispatch('error', new Event('error')) };
}

function bigLog(events: number) {
  const g = generateCapture({ events, seed: 11 });
  return encode(writeCaptureLog({ header: makeHeader('t', { created: '2026-03-01T00:00:00.000Z' }), records: g.records }));
}

describe('the import worker', () => {
  it('reads a capture log as the page’s thread reads it; the records come back in order, in batches of about BATCH_CHARS', async () => {
    const bytes = bigLog(40_000);
    const file = new Blob([bytes]);
    const { worker, posted, terminated } = workerInThread();
    const shares: number[] = [];
    const read = await readInWorker(worker, file, 'big.replyscope.ndjson', never, (s) => shares.push(s));
    expect(read).toEqual(await readFileHere(file, 'big.replyscope.ndjson', never, () => {}));
    expect(terminated()).toBe(true);

    const batches = posted.filter((m) => m.type === 'records').map((m) => m.records);
    expect(batches.length).toBeGreaterThan(3);
    for (const batch of batches.slice(0, -1)) {
      expect(batch.length).toBeLessThanOrEqual(BATCH_RECORDS);
      const chars = batch.reduce((n, r) => n + (r.kind === 'chunk' ? (r.text ?? r.base64 ?? '').length : 0), 0);
      expect(chars).toBeLessThan(BATCH_CHARS + Math.max(...batch.map((r) => (r.kind === 'chunk' ? (r.text ?? '').length : 0))));
      expect(chars).toBeGreaterThan(BATCH_CHARS / 2);
    }
    expect(shares.length).toBeGreaterThan(2); // a share after each 4 MiB slice
    expect(shares.at(-1)).toBe(1);
    expect(posted.map((m) => m.type).at(-1)).toBe('read'); // after every batch
  });

  it('asks whether a file read whole is shown before it parses it; a HAR read in the worker is the HAR read here', async () => {
    const har = encode(writeHar(sampleCapture()));
    const skipped = workerInThread();
    const asked: string[] = [];
    const out = await readInWorker(skipped.worker, new Blob([har]), 'a.har', (f) => (asked.push(f), true), () => {});
    expect(out).toEqual({ fingerprint: asked[0], alreadyShown: true });
    expect(skipped.posted.map((m) => m.type)).toEqual(['fingerprint', 'already-shown']); // no records: not parsed

    const { worker, posted } = workerInThread();
    expect(await readInWorker(worker, new Blob([har]), 'a.har', never, () => {})).toEqual(await readFileHere(new Blob([har]), 'a.har', never, () => {}));
    expect(posted[0]).toEqual({ type: 'fingerprint', fingerprint: asked[0] });
  });

  it('passes the records as their reader made them: a time not known (NaN); a browser HAR\'s status of 200.5 read as none, with its note', async () => {
    const sse = encode('data: {"type":"REPLY_START","reply_id":"r"}\n\n');
    const read = await readInWorker(workerInThread().worker, new Blob([sse]), 'a.sse', never, () => {});
    if (read === READ_HERE || !('capture' in read)) throw new Error('not read');
    expect(read.capture.records.find((r) => r.kind === 'chunk')).toMatchObject({ t: Number.NaN });
    expect(read).toEqual(await readFileHere(new Blob([sse]), 'a.sse', never, () => {}));

    const entry = {
      startedDateTime: '2026-03-01T09:00:00.000Z', time: 1, timings: {},
      request: { method: 'POST', url: 'https://a.example/s', headers: [], bodySize: 100.5, postData: { mimeType: 'application/json', text: '{"a":1' } },
      response: { status: 200.5, statusText: 'OK', headers: [{ name: 'content-type', value: 'text/event-stream' }], content: { size: 10, mimeType: 'text/event-stream', text: 'data: {}\n\n' } },
    };
    const har = new Blob([JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [entry] } })]);
    const here = await readFileHere(har, 'b.har', never, () => {});
    if (!('capture' in here)) throw new Error('not read');
    expect(here.capture.records[0]).not.toHaveProperty('status');
    expect(here.capture.records).toContainEqual(expect.objectContaining({ kind: 'notice', text: expect.stringMatching(/^This HAR entry's response status 200\.5 is no HTTP status/) }));
    expect(await readInWorker(workerInThread().worker, har, 'b.har', never, () => {})).toEqual(here);
  });

  it('throws the error the reading throws here: an InputError with its message and line', async () => {
    const log = encode(writeCaptureLog(sampleCapture()));
    const cut = new Blob([log.subarray(0, 40), new Uint8Array([0x0a]), log.subarray(40)]);
    const here = await readFileHere(cut, 'bad.ndjson', never, () => {}).catch((e: unknown) => e);
    const there = await readInWorker(workerInThread().worker, cut, 'bad.ndjson', never, () => {}).catch((e: unknown) => e);
    expect(there).toBeInstanceOf(InputError);
    expect(there).toEqual(here);
    expect((there as InputError).message).toMatch(/^bad\.ndjson: capture log line 1: not JSON/);
    expect((there as InputError).line).toBe((here as InputError).line);

    const notJson = new Blob([encode('{"log": {"entries": [}')]);
    expect(await readInWorker(workerInThread().worker, notJson, 'a.har', never, () => {}).catch((e: Error) => e.message))
      .toBe(await readFileHere(notJson, 'a.har', never, () => {}).catch((e: Error) => e.message));
  });

  it('refuses a message that fails the check, and fails the read with it', async () => {
    const bad = workerInThread((m) => (m.type === 'records' ? { ...m, records: [{ ...m.records[0], kind: 'bytes' }] } : m));
    await expect(readInWorker(bad.worker, new Blob([encode(writeCaptureLog(sampleCapture()))]), 'a.ndjson', never, () => {}))
      .rejects.toThrow(/^a\.ndjson: could not read the input: the import worker's message was refused/);
    expect(bad.terminated()).toBe(true);
    expect(importWorkerToPanelSchema.safeParse({ type: 'progress', share: 2 }).success).toBe(false);
    expect(importWorkerToPanelSchema.safeParse({ type: 'records', records: new Array(BATCH_RECORDS + 1).fill(sampleCapture().records[0]) }).success).toBe(false);

    const posted: ImportWorkerToPanel[] = [];
    importReadService((m) => posted.push(m))({ type: 'read', file: 'not a file', name: 'x' });
    expect(posted).toEqual([{ type: 'failed', name: 'Error', message: expect.stringMatching(/^the import worker refused a message/) }]);
  });

  it('a record structured clone cannot copy (a digest nested 20,000 deep, which JSON.parse reads) is read on the page’s thread', async () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const log = new Blob([[
      '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-03-01T00:00:00.000Z"}',
      '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.example/s","requestHeaders":[],"startTime":1}',
      `{"kind":"evicted","conn":"c","t":2,"chunks":1,"messages":0,"bytes":10,"derived":{"events":1,"carry":"","replies":[{"id":"r","name":"n","role":"assistant","message":${deep}}]}}`,
      '{"kind":"end","conn":"c","t":3,"state":"complete"}',
    ].join('\n')]);
    expect(await readFileHere(log, 'deep.ndjson', never, () => {})).toHaveProperty('capture');
    const { worker, posted, terminated } = workerInThread();
    expect(await readInWorker(worker, log, 'deep.ndjson', never, () => {})).toBe(READ_HERE);
    expect(posted.at(-1)).toEqual({ type: 'read-here', why: expect.stringMatching(/^RangeError/) });
    expect(terminated()).toBe(true);
  });

  it('a worker that fails before it says anything is unavailable (the panel reads the file itself); an abort terminates it', async () => {
    const dead = workerInThread();
    dead.worker.postMessage = () => {}; // never loaded: it reads nothing
    const unavailable = readInWorker(dead.worker, new Blob([encode('data: x\n\n')]), 'a.sse', never, () => {});
    dead.fail();
    expect(await unavailable).toBe(READ_HERE);

    const stopped = workerInThread();
    const abort = new AbortController();
    const reading = readInWorker(stopped.worker, new Blob([bigLog(10_000)]), 'a.ndjson', never, () => abort.abort(), abort.signal);
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    expect(stopped.terminated()).toBe(true);
  });
});

describe('recordBatches', () => {
  const chunk = (chars: number): CaptureRecord => ({ kind: 'chunk', conn: 'c', t: 0, bytes: chars, text: 'x'.repeat(chars) });
  it('cuts at about BATCH_CHARS characters and at BATCH_RECORDS records; a larger record is a batch of its own', () => {
    const sizes = (records: CaptureRecord[]) => [...recordBatches(records)].map((b) => b.length);
    expect(sizes([chunk(10), chunk(BATCH_CHARS * 3), chunk(10), chunk(10)])).toEqual([2, 2]);
    expect(sizes([chunk(BATCH_CHARS * 3)])).toEqual([1]);
    expect(sizes(Array.from({ length: BATCH_RECORDS * 2 + 1 }, () => chunk(1)))).toEqual([BATCH_RECORDS, BATCH_RECORDS, 1]);
    expect(sizes([])).toEqual([]);
  });
});

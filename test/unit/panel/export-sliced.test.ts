// The export written in slices (export-writer.ts: redaction, analysis and the HAR made as the file is written, the
// thread given back between slices) must be byte for byte the file the synchronous serializers make — writeCaptureLog,
// writeHar (exportHar's object), redactCapture, analyzeCapture — on generated captures: multi-byte text, bytes that
// are not UTF-8, evictions, navigations, EventSource and WebSocket connections, a connection still open.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { buildExport, selectConnections, withOpenEnds, type ExportKind } from '../../../panel/store/export.ts';
import { ExportCancelled, saveToFile, writeExportBlob, type ExportStatus } from '../../../panel/store/export-writer.ts';
import { makeHeader, writeCaptureLog } from '../../../src/core/capture/capture-log.ts';
import { writeHar } from '../../../src/core/capture/har.ts';
import { redactCapture, type RedactOptions } from '../../../src/core/capture/redact.ts';
import { analyzeCapture } from '../../../src/core/analysis/analyze.ts';
import { diagnosticDoc } from '../../../src/core/diagnostics/catalog.ts';
import type { Capture, CaptureRecord } from '../../../src/core/capture/model.ts';
import { sampleCapture } from '../../../panel/dev/sample-capture.ts';
import { generateCapture } from '../../../bench/capture-gen.ts';
import { captureArb } from '../capture/arbitraries.ts';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);
beforeEach(() => vi.useFakeTimers({ now: NOW, toFake: ['Date'] })); // the redaction notice's time
afterEach(() => vi.useRealTimers());

/** What the file held when it was made at once, by the serializers the panel used before. */
function madeAtOnce(source: Capture, kind: ExportKind, redaction: RedactOptions, connections?: string[]): string {
  let capture = withOpenEnds(selectConnections(source, connections));
  if (redaction.headers || redaction.requestBodies || redaction.textContent) capture = redactCapture(capture, redaction, NOW);
  if (kind === 'capture-log') return writeCaptureLog(capture);
  if (kind === 'har') return writeHar(capture);
  const conns = analyzeCapture(capture);
  const out = kind === 'messages'
    ? conns.flatMap((c) => c.replies.map((r) => {
      const message = r.afterEnd ? r.afterEnd.message : r.history.length ? r.history.at(r.history.length - 1) : undefined;
      return { connection: c.record.id, url: c.record.url, reply: r.id, dialect: r.dialect, message };
    }))
    : conns.map((c) => ({ connection: c.record.id, url: c.record.url, dialect: c.dialect, diagnostics: c.diagnostics.map((d) => ({ ...d, title: diagnosticDoc(d.code)?.title })) }));
  return JSON.stringify(out, null, 2) + '\n';
}

async function writtenInSlices(source: Capture, kind: ExportKind, redaction: RedactOptions, connections?: string[], sliceMs = 0): Promise<string> {
  const blob = await writeExportBlob(buildExport(source, { kind, redaction, connections }), { sliceMs });
  return blob.text();
}

const redactions: RedactOptions[] = [{}, { headers: true }, { headers: true, requestBodies: true, textContent: true }];

describe('an export written in slices', () => {
  it('property: is the file made at once, in every format, redacted or not', async () => {
    await fc.assert(fc.asyncProperty(captureArb, fc.constantFrom<ExportKind>('capture-log', 'har', 'messages', 'diagnostics'), fc.constantFrom(...redactions), async (capture, kind, redaction) => {
      expect(await writtenInSlices(capture, kind, redaction)).toBe(madeAtOnce(capture, kind, redaction));
    }), { numRuns: 100 });
  });

  it('the sample session (AgentScope, pi, a broken stream, an image) in every format; one connection of it', async () => {
    const sample = sampleCapture();
    for (const kind of ['capture-log', 'har', 'messages', 'diagnostics'] as const) {
      for (const redaction of redactions) expect(await writtenInSlices(sample, kind, redaction)).toBe(madeAtOnce(sample, kind, redaction));
    }
    const one = sample.records.flatMap((r) => (r.kind === 'connection' ? [r.id] : [])).slice(1, 2);
    expect(await writtenInSlices(sample, 'har', {}, one)).toBe(madeAtOnce(sample, 'har', {}, one));
  });

  it('a generated session with an eviction and a page boundary: the same bytes, written in many slices', async () => {
    const g = generateCapture({ events: 30_000, seed: 11 });
    const id = (g.records[0] as { id: string }).id;
    const records: CaptureRecord[] = [
      { kind: 'navigation', t: 1, url: 'https://app.example/chat?session=1' },
      ...g.records.slice(0, 2),
      { kind: 'evicted', conn: id, t: 2, chunks: 40, messages: 0, bytes: 81_920 },
      ...g.records.slice(2).filter((r) => r.kind !== 'end'), // still streaming: exported with an "open" end
    ];
    const capture: Capture = { header: makeHeader('bench', { created: '2026-03-01T00:00:00.000Z' }), records };
    for (const kind of ['capture-log', 'har'] as const) {
      const statuses: ExportStatus[] = [];
      const blob = await writeExportBlob(buildExport(capture, { kind, redaction: {} }), { sliceMs: 1, onProgress: (s) => statuses.push(s) });
      expect(await blob.text()).toBe(madeAtOnce(capture, kind, {}));
      // It gave the thread back many times, its progress moving forward to the end.
      expect(statuses.length).toBeGreaterThan(5);
      const writing = statuses.filter((s) => s.phase === 'write' && s.total > 0);
      expect(writing.map((s) => s.done / s.total)).toEqual(writing.map((s) => s.done / s.total).sort((a, b) => a - b));
      expect(statuses.at(-1)).toMatchObject({ phase: 'write', bytes: blob.size });
      expect(statuses.at(-1)!.done).toBe(statuses.at(-1)!.total);
    }
  });

  it('stops when cancelled: no file, ExportCancelled', async () => {
    const g = generateCapture({ events: 20_000, seed: 3 });
    const capture: Capture = { header: makeHeader('bench'), records: g.records };
    const abort = new AbortController();
    let slices = 0;
    const writing = writeExportBlob(buildExport(capture, { kind: 'har', redaction: { textContent: true } }), {
      sliceMs: 1,
      signal: abort.signal,
      onProgress: () => {
        if (++slices === 3) abort.abort();
      },
    });
    await expect(writing).rejects.toBeInstanceOf(ExportCancelled);
    expect(slices).toBe(3);
  });

  it('written straight to a chosen file: the same bytes; cancelled, the file is aborted, never closed', async () => {
    const g = generateCapture({ events: 20_000, seed: 9 });
    const capture: Capture = { header: makeHeader('bench', { created: '2026-03-01T00:00:00.000Z' }), records: g.records };
    const chosen = () => {
      const chunks: Uint8Array[] = [];
      const file = { chunks, closed: false, aborted: false };
      const handle = {
        createWritable: async () => ({
          write: async (chunk: Uint8Array) => void chunks.push(chunk),
          close: async () => void (file.closed = true),
          abort: async () => void (file.aborted = true),
        }),
      } as unknown as FileSystemFileHandle;
      return { file, handle };
    };
    const done = chosen();
    await saveToFile(buildExport(capture, { kind: 'har', redaction: {} }), done.handle, { sliceMs: 1 });
    expect(done.file).toMatchObject({ closed: true, aborted: false });
    expect(Buffer.concat(done.file.chunks).toString('utf8')).toBe(madeAtOnce(capture, 'har', {}));
    // Pieces whose UTF-8 is longer than the writer's buffer (a 3 Mi character body of 3-byte characters).
    const wide = chosen();
    const text = '数'.repeat(3 << 20);
    const big: Capture = { header: capture.header, records: [
      { kind: 'connection', id: 'w', transport: 'fetch', frameUrl: '', method: 'GET', url: 'https://x.example/w', requestHeaders: [], status: 200, responseHeaders: [['content-type', 'text/plain']], startTime: 1 },
      { kind: 'chunk', conn: 'w', t: 2, bytes: 3 * text.length, text },
    ] };
    await saveToFile(buildExport(big, { kind: 'capture-log', redaction: {} }), wide.handle, {});
    expect(Buffer.concat(wide.file.chunks).toString('utf8')).toBe(madeAtOnce(big, 'capture-log', {}));
    const stopped = chosen();
    const abort = new AbortController();
    await expect(saveToFile(buildExport(capture, { kind: 'har', redaction: {} }), stopped.handle, { sliceMs: 1, signal: abort.signal, onProgress: () => abort.abort() }))
      .rejects.toBeInstanceOf(ExportCancelled);
    expect(stopped.file).toMatchObject({ closed: false, aborted: true });
  });
});

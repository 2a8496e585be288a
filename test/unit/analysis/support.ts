// Builds real captures for analysis tests: an SSE body cut into byte chunks, recorded as the tap records them.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CaptureRecord, ConnectionRecord, PageRecord } from '../../../src/core/capture/model.ts';
import { Utf8ChunkEncoder } from '../../../src/core/frames/utf8-chunks.ts';

export const CONFORMANCE = path.resolve(import.meta.dirname, '../../../../shared/conformance');

export function loadCases(dir: 'agentscope' | 'pi'): { name: string; input: any; expected: any }[] {
  const casesDir = path.join(CONFORMANCE, dir, 'cases');
  return readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort().map((f) => ({
    name: f.replace(/\.json$/, ''),
    input: JSON.parse(readFileSync(path.join(casesDir, f), 'utf8')),
    expected: JSON.parse(readFileSync(path.join(CONFORMANCE, dir, 'expected', f), 'utf8')),
  }));
}

/** Cuts `bytes` at the given cut points (positions are taken modulo the length, duplicates ignored). */
export function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => (bytes.length ? c % bytes.length : 0)))].filter((c) => c > 0).sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out.filter((c) => c.length > 0);
}

export function sseBody(events: unknown[]): string {
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
}

/** The records the tap would produce for one fetch whose body arrived in `chunks`. */
export function captureOf(chunks: Uint8Array[], opts: { id?: string; contentType?: string; requestBody?: unknown; state?: 'complete' | 'aborted' | 'error' | 'open' } = {}): PageRecord[] {
  const id = opts.id ?? 'c1';
  const body = opts.requestBody === undefined ? undefined : JSON.stringify(opts.requestBody);
  const conn: ConnectionRecord = {
    kind: 'connection', id, transport: 'fetch', frameUrl: 'http://127.0.0.1/app', method: body ? 'POST' : 'GET',
    url: 'http://127.0.0.1/stream', requestHeaders: [],
    ...(body ? { requestBody: { text: body, size: body.length } } : {}),
    status: 200, responseHeaders: [['content-type', opts.contentType ?? 'text/event-stream']], startTime: 1_000,
  };
  const records: PageRecord[] = [conn];
  const enc = new Utf8ChunkEncoder();
  chunks.forEach((c, i) => records.push({ kind: 'chunk', conn: id, t: 1_000 + i, ...enc.push(c) }));
  const tail = enc.flush();
  if (tail) records.push({ kind: 'chunk', conn: id, t: 1_000 + chunks.length, ...tail });
  if (opts.state !== 'open') records.push({ kind: 'end', conn: id, t: 2_000 + chunks.length, state: opts.state ?? 'complete' });
  return records;
}

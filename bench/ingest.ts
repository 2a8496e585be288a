// Figure "ingest": the whole analysis pipeline (chunk records → SSE frames and client lines → JSON → zod/compiled
// validation → lifecycle diagnostics → append_event → checkpointed histories → connection view) against the least
// any reader must do with the same records (decode the chunks, split the text on frame boundaries, JSON.parse each
// data frame). Both run on the same records in the same process, alternated; the figure is baseline / pipeline.
import type { CaptureRecord } from '../src/core/capture/model.ts';
import type { Core } from './core.ts';
import { alternate, median, spread } from './stats.ts';

type Analyzer = InstanceType<Core['CaptureAnalyzer']>;

/** Decode + split on blank lines + JSON.parse of `data: ` frames. Returns the number of events (so nothing is dead code). */
export function baselineIngest(core: Core, records: readonly CaptureRecord[]): number {
  const decoder = new core.PageTextDecoder();
  let buffer = '';
  let events = 0;
  let sink: unknown;
  for (const r of records) {
    if (r.kind !== 'chunk') continue;
    buffer += decoder.push(r);
    let from = 0;
    for (let end = buffer.indexOf('\n\n', from); end !== -1; end = buffer.indexOf('\n\n', from)) {
      if (buffer.startsWith('data: ', from)) {
        sink = JSON.parse(buffer.slice(from + 6, end));
        events++;
      }
      from = end + 2;
    }
    buffer = buffer.slice(from);
  }
  if (sink === undefined && events > 0) throw new Error('unreachable');
  return events;
}

/** The pipeline as the panel runs it: push every record, then build the connection views. */
export function pipelineIngest(core: Core, records: readonly CaptureRecord[]): Analyzer {
  const analyzer = new core.CaptureAnalyzer();
  analyzer.push(records);
  analyzer.connections();
  return analyzer;
}

export interface IngestResult {
  ratio: number;
  ratios: number[];
  baselineMs: number;
  pipelineMs: number;
  eventsPerSecond: number;
}

export function measureIngest(core: Core, records: readonly CaptureRecord[], events: number, runs: number): IngestResult {
  // Sanity: both readings see every event (a faster pipeline that drops events would be no result).
  const seen = baselineIngest(core, records);
  const got = pipelineIngest(core, records).connections()[0]?.events.length ?? 0;
  if (seen !== events || got !== events) throw new Error(`event count mismatch: generated ${events}, baseline ${seen}, pipeline ${got}`);
  const t = alternate(runs, () => void baselineIngest(core, records), () => void pipelineIngest(core, records));
  const ratios = t.a.map((a, i) => a / t.b[i]);
  const pipelineMs = median(t.b);
  return { ratio: median(ratios), ratios, baselineMs: median(t.a), pipelineMs, eventsPerSecond: events / (pipelineMs / 1000) };
}

export { spread };

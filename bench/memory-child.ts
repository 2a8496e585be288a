// Child process of the memory figure (needs --expose-gc): generates the capture, measures the heap the records take,
// ingests them, and measures what the analysis retains on top. Prints one JSON line on stdout.
import { generateCapture } from './capture-gen.ts';
import { loadCore } from './core.ts';
import { pipelineIngest } from './ingest.ts';
import { heapAfterGc } from './stats.ts';

const events = Number(process.argv[2]);
const longReplyEvents = Number(process.argv[3] ?? 0);
if (!Number.isFinite(events) || events <= 0) throw new Error('usage: memory-child.ts EVENTS [LONG_REPLY_EVENTS]');
const core = await loadCore();
const empty = heapAfterGc();
const capture = generateCapture({ events, longReplyEvents });
const withRecords = heapAfterGc();
const analyzer = pipelineIngest(core, capture.records);
const withAnalysis = heapAfterGc();
// Keep both alive until after the last measurement.
if (analyzer.connections().length !== 1 || capture.records.length === 0) throw new Error('unexpected capture');
console.log(JSON.stringify({
  events: capture.events,
  bodyBytes: capture.bodyBytes,
  recordsHeap: withRecords - empty,
  analysisHeap: withAnalysis - withRecords,
}));

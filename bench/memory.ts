// Figure "memory": the heap the analysis retains after ingesting the capture (views, histories with checkpoints,
// diagnostics), measured after full GCs in a fresh child process, over the capture's body size. The records
// themselves (the capture, i.e. the input) are measured separately and reported, not counted in the ratio.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export interface MemoryResult {
  ratio: number;
  analysisHeap: number;
  recordsHeap: number;
  bodyBytes: number;
  events: number;
}

export function measureMemory(events: number, longReplyEvents: number): MemoryResult {
  const child = path.join(import.meta.dirname, 'memory-child.ts');
  const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', '--import', 'tsx', child, String(events), String(longReplyEvents)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  const r = JSON.parse(out.trim().split('\n').pop() as string) as Omit<MemoryResult, 'ratio'>;
  return { ...r, ratio: r.analysisHeap / r.bodyBytes };
}

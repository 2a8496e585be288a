// Worker thread of the fuzz harness: runs cases [from, to) of a seed and reports each one's start and result, so the
// main thread can time every stream and terminate this worker when one hangs (a synchronous loop cannot be timed
// from inside). The case for (seed, index) is always the same, so any report reproduces with `--case seed:index`.
import { parentPort, workerData } from 'node:worker_threads';
import { generateCase } from './case-seed.ts';
import { runFuzzCase } from './protocol-case.ts';

export interface WorkerTask {
  seed: number;
  from: number;
  to: number;
  /** Self-test of hang detection: spin forever on this case index. */
  injectHang?: number;
}

export type WorkerMessage =
  | { kind: 'start'; index: number }
  | { kind: 'done'; index: number; ms: number; report: Awaited<ReturnType<typeof runFuzzCase>> }
  | { kind: 'finished' };

const task = workerData as WorkerTask;
const port = parentPort;
if (!port) throw new Error('worker.ts must run as a worker thread');

for (let index = task.from; index < task.to; index++) {
  port.postMessage({ kind: 'start', index } satisfies WorkerMessage);
  const started = performance.now();
  if (index === task.injectHang) for (;;);
  const report = await runFuzzCase(generateCase(task.seed, index));
  port.postMessage({ kind: 'done', index, ms: performance.now() - started, report } satisfies WorkerMessage);
}
port.postMessage({ kind: 'finished' } satisfies WorkerMessage);

// `npm run fuzz` — the protocol fuzz harness. Generates AgentScope and pi streams (valid, hostile, random bytes),
// sends them as chunked SSE bytes through the whole analysis pipeline and the CLI commands, and checks the
// invariants of protocol-case.ts. Every stream is timed from the main thread; one that runs longer than --timeout
// is a hang: its worker is terminated and the run continues with the next case.
//
//   npm run fuzz -- [--runs N] [--seconds S] [--seed N] [--timeout MS] [--json FILE]
//   npm run fuzz -- --case SEED:INDEX          re-run one case in-process and print everything about it
//   npm run fuzz -- --runs 20 --inject-hang 5 --timeout 2000   self-test: case 5 spins forever and must be reported
//
// Defaults: 10,000 runs, seed 1, 20 s per stream. Exit 0 only when every run passed.
import { writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { generateCase } from './case-seed.ts';
import type { CaseReport } from './protocol-case.ts';
import { FuzzSummary } from './summary.ts';
import type { WorkerMessage, WorkerTask } from './worker.ts';

interface Options {
  runs: number;
  seconds: number;
  seed: number;
  timeoutMs: number;
  json?: string;
  injectHang?: number;
  single?: { seed: number; index: number };
}

function parseOptions(argv: string[]): Options {
  const o: Options = { runs: 10_000, seconds: Infinity, seed: 1, timeoutMs: 20_000 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    const num = (): number => {
      const n = Number(value);
      if (value === undefined || !Number.isFinite(n) || n < 0) throw new Error(`${flag} needs a non-negative number, got ${JSON.stringify(value)}`);
      i++;
      return n;
    };
    if (flag === '--runs') o.runs = Math.floor(num());
    else if (flag === '--seconds') o.seconds = num();
    else if (flag === '--seed') o.seed = Math.floor(num());
    else if (flag === '--timeout') o.timeoutMs = num();
    else if (flag === '--inject-hang') o.injectHang = Math.floor(num());
    else if (flag === '--json') {
      if (!value) throw new Error('--json needs a file name');
      o.json = value;
      i++;
    } else if (flag === '--case') {
      const m = /^(-?\d+):(\d+)$/.exec(value ?? '');
      if (!m) throw new Error('--case needs SEED:INDEX, e.g. --case 1:4711');
      o.single = { seed: Number(m[1]), index: Number(m[2]) };
      i++;
    } else throw new Error(`unknown option ${flag} (options: --runs N --seconds S --seed N --timeout MS --json FILE --case SEED:INDEX --inject-hang INDEX)`);
  }
  return o;
}

/** Prints the case, then runs it in a worker like the full run does (same stack size, so the same outcome). */
async function runOne(seed: number, index: number): Promise<void> {
  const c = generateCase(seed, index);
  console.log(JSON.stringify(c, (_k, v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : typeof v === 'string' && v.length > 500 ? `${v.slice(0, 500)}…(${v.length} chars)` : v), 1));
  const task: WorkerTask = { seed, from: index, to: index + 1 };
  const report = await new Promise<CaseReport & { ms: number }>((resolve, reject) => {
    const worker = new Worker(WORKER_BOOT, { eval: true, workerData: task });
    worker.on('message', (m: WorkerMessage) => {
      if (m.kind === 'done') resolve({ ...(m.report as CaseReport), ms: Math.round(m.ms) });
    });
    worker.on('error', reject);
  });
  console.log(JSON.stringify(report, null, 1));
  process.exitCode = report.problems.length ? 1 : 0;
}

// The tsx loader registered by `node --import tsx` does not reach worker threads: the worker registers it itself.
const WORKER_BOOT = `
  import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./worker.ts', import.meta.url).href)}); });
`;

/** Runs cases [0, runs) in one worker at a time (the machine is shared), restarting after a hang or a crash. */
async function runAll(o: Options): Promise<FuzzSummary> {
  const summary = new FuzzSummary(o.seed, o.timeoutMs);
  const deadline = performance.now() + o.seconds * 1000;
  let next = 0;
  while (next < o.runs && performance.now() < deadline) {
    next = await new Promise<number>((resolve) => {
      const task: WorkerTask = { seed: o.seed, from: next, to: o.runs, ...(o.injectHang !== undefined ? { injectHang: o.injectHang } : {}) };
      const worker = new Worker(WORKER_BOOT, { eval: true, workerData: task });
      let current = next;
      let startedAny = false;
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const finish = (resume: number) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        resolve(resume);
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.kind === 'start') {
          current = m.index;
          startedAny = true;
          if (performance.now() >= deadline) return finish(o.runs); // time budget spent: stop before this case
          timer = setTimeout(() => {
            summary.hang(current);
            finish(current + 1);
          }, o.timeoutMs);
        } else if (m.kind === 'done') {
          clearTimeout(timer);
          summary.add(m.index, m.report as CaseReport, m.ms);
          if (summary.runs % 1000 === 0) console.error(`… ${summary.runs} streams, ${summary.failedRuns} failing`);
        } else finish(o.runs);
      });
      worker.on('error', (err) => {
        if (!startedAny) throw new Error(`the fuzz worker failed to start: ${(err as Error).stack ?? String(err)}`);
        summary.workerCrash(current, err);
        finish(current + 1);
      });
      worker.on('exit', (code) => {
        if (settled) return;
        summary.workerCrash(current, new Error(`worker exited with code ${code} (out of memory?)`));
        finish(current + 1);
      });
    });
  }
  return summary;
}

const options = parseOptions(process.argv.slice(2));
if (options.single) await runOne(options.single.seed, options.single.index);
else {
  const summary = await runAll(options);
  const out = summary.toJSON();
  console.log(summary.text());
  if (options.json) writeFileSync(options.json, JSON.stringify(out, null, 2));
  process.exitCode = summary.failedRuns > 0 ? 1 : 0;
}

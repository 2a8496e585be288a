// `npm run bench:instructions [-- --events=N]`: the ingest figure counted in machine instructions instead of time —
// a development probe, not a budget. On this kind of shared VM two runs of the same build differ by ±3% in time, so a
// change worth 1–2% cannot be seen in the timed figure; executed instructions are the same from one run to the next
// (±0.1% here) when V8 runs single-threaded and without randomness (`--predictable`). They do not see what time also
// pays for — page faults, cache misses, GC threads running beside the main one — so a change must still show in time;
// but they tell which way a small change goes.
//
// Each count runs in its own process under valgrind (cachegrind without its cache model): the capture generated, then
// 1 or 3 runs of the baseline or the pipeline. The difference between 3 runs and 1 is two warm runs, with startup,
// generation and the first run's compilation left out. Needs valgrind (`apt-get install -y valgrind`).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateCapture } from './capture-gen.ts';
import { loadCore } from './core.ts';
import { baselineIngest, pipelineIngest } from './ingest.ts';

type Mode = 'baseline' | 'pipeline';

function option(name: string, fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const n = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} needs a positive integer`);
  return n;
}

/** In the measured process: generate the capture, then run `mode` `runs` times. */
async function child(mode: Mode, runs: number, events: number): Promise<void> {
  const core = await loadCore();
  const capture = generateCapture({ events, longReplyEvents: Math.round(events / 10) });
  for (let i = 0; i < runs; i++) {
    if (mode === 'baseline') baselineIngest(core, capture.records);
    else pipelineIngest(core, capture.records);
  }
}

/** Instructions executed by a child process (valgrind's "I refs"). */
function count(mode: Mode, runs: number, events: number): Promise<number> {
  const args = ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable',
    '--import', 'tsx', fileURLToPath(import.meta.url), '--child', `--mode=${mode}`, `--runs=${runs}`, `--events=${events}`];
  return new Promise((resolve, reject) => {
    const p = spawn('valgrind', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', (e) => reject(new Error(`valgrind could not start (${e.message}); install it: apt-get install -y valgrind`)));
    p.on('close', (code) => {
      const m = /I\s+refs:\s+([\d,]+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`valgrind ${mode} ×${runs} failed (exit ${code}):\n${err.slice(-2000)}`));
      else resolve(Number(m[1].replaceAll(',', '')));
    });
  });
}

async function main(): Promise<void> {
  const events = option('events', 100_000);
  if (process.argv.includes('--child')) {
    const mode = process.argv.find((a) => a.startsWith('--mode='))?.slice(7) as Mode;
    return child(mode, option('runs', 1), events);
  }
  process.stderr.write(`counting instructions (valgrind, node --predictable) on a ${events.toLocaleString('en')}-event capture, four processes two at a time…\n`);
  const [b1, b3] = await Promise.all([count('baseline', 1, events), count('baseline', 3, events)]);
  const [p1, p3] = await Promise.all([count('pipeline', 1, events), count('pipeline', 3, events)]);
  const baseline = (b3 - b1) / 2;
  const pipeline = (p3 - p1) / 2;
  const rows = [
    ['split + JSON.parse (baseline)', baseline],
    ['pipeline', pipeline],
  ] as const;
  for (const [name, n] of rows) process.stdout.write(`${name.padEnd(32)} ${(n / 1e6).toFixed(1).padStart(9)} M instructions per run  ${(n / events).toFixed(0).padStart(6)} per event\n`);
  process.stdout.write(`${'ratio (baseline / pipeline)'.padEnd(32)} ${(baseline / pipeline).toFixed(3).padStart(9)}\n`);
}

await main();

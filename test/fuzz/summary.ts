// Figures of a fuzz run: how many streams of each family, how many bytes/events/chunks went through, which
// mutations were tried, and every distinct problem with the first case that showed it (to re-run with --case).
import type { CaseReport } from './protocol-case.ts';

interface ProblemGroup {
  count: number;
  first: string;
  example: string;
}

export class FuzzSummary {
  runs = 0;
  failedRuns = 0;
  hangs: number[] = [];
  crashes: { index: number; error: string }[] = [];
  readonly families = new Map<string, number>();
  readonly ops = new Map<string, number>();
  readonly problems = new Map<string, ProblemGroup>();
  bytes = 0;
  maxBytes = 0;
  events = 0;
  chunks = 0;
  diagnostics = 0;
  slowestMs = 0;
  slowestIndex = -1;
  totalMs = 0;
  private readonly started = Date.now();

  constructor(readonly seed: number, readonly timeoutMs: number) {}

  add(index: number, r: CaseReport, ms: number): void {
    this.runs++;
    this.families.set(r.family, (this.families.get(r.family) ?? 0) + 1);
    for (const op of r.ops) this.ops.set(op, (this.ops.get(op) ?? 0) + 1);
    this.bytes += r.bytes;
    this.maxBytes = Math.max(this.maxBytes, r.bytes);
    this.events += r.events;
    this.chunks += r.chunks;
    this.diagnostics += r.diagnostics;
    this.totalMs += ms;
    if (ms > this.slowestMs) {
      this.slowestMs = ms;
      this.slowestIndex = index;
    }
    if (r.problems.length) this.failedRuns++;
    for (const p of r.problems) {
      // Group by the problem's shape (numbers and quoted values vary between cases).
      const key = `${r.family}: ${p.replace(/\d+/g, 'N').replace(/"[^"]*"/g, '"…"').slice(0, 140)}`;
      const g = this.problems.get(key);
      if (g) g.count++;
      else this.problems.set(key, { count: 1, first: `--case ${this.seed}:${index}`, example: p.slice(0, 600) });
    }
  }

  hang(index: number): void {
    this.runs++;
    this.failedRuns++;
    this.hangs.push(index);
  }

  workerCrash(index: number, err: unknown): void {
    this.runs++;
    this.failedRuns++;
    this.crashes.push({ index, error: String((err as Error)?.stack ?? err).slice(0, 600) });
  }

  toJSON() {
    return {
      seed: this.seed,
      runs: this.runs,
      failedRuns: this.failedRuns,
      wallSeconds: Math.round((Date.now() - this.started) / 100) / 10,
      perStreamTimeoutMs: this.timeoutMs,
      families: Object.fromEntries(this.families),
      mutations: Object.fromEntries([...this.ops].sort((a, b) => b[1] - a[1])),
      bytes: this.bytes,
      maxStreamBytes: this.maxBytes,
      events: this.events,
      chunks: this.chunks,
      diagnostics: this.diagnostics,
      meanMsPerStream: this.runs ? Math.round((this.totalMs / this.runs) * 10) / 10 : 0,
      slowest: { ms: Math.round(this.slowestMs), case: `--case ${this.seed}:${this.slowestIndex}` },
      hangs: this.hangs.map((i) => `--case ${this.seed}:${i}`),
      workerCrashes: this.crashes,
      problems: [...this.problems].map(([key, g]) => ({ key, ...g })),
    };
  }

  text(): string {
    const j = this.toJSON();
    const lines = [
      `protocol fuzz, seed ${j.seed}: ${j.runs} streams in ${j.wallSeconds} s (${j.meanMsPerStream} ms each, slowest ${j.slowest.ms} ms ${j.slowest.case})`,
      `  families: ${Object.entries(j.families).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `  ${(j.bytes / 1e6).toFixed(1)} MB in ${j.chunks} chunks (largest stream ${(j.maxStreamBytes / 1e6).toFixed(1)} MB), ${j.events} events, ${j.diagnostics} diagnostics`,
      `  mutations: ${Object.entries(j.mutations).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `  hangs (> ${j.perStreamTimeoutMs} ms): ${j.hangs.length ? j.hangs.join(' ') : 0}; worker crashes: ${j.workerCrashes.length}`,
      `  failing streams: ${j.failedRuns}`,
    ];
    for (const p of j.problems) lines.push(`  ${String(p.count).padStart(5)} × ${p.key}\n          e.g. ${p.first}: ${p.example}`);
    for (const c of j.workerCrashes) lines.push(`  worker crash at --case ${j.seed}:${c.index}: ${c.error}`);
    return lines.join('\n');
  }
}

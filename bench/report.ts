// One benchmark figure as printed (table row) and as emitted with --json (one object per line).
import os from 'node:os';

export interface Figure {
  figure: string;
  value: number;
  budget: number;
  unit: 'ratio' | 'ms' | 'fps';
  /** 'min' = value must be at least budget; 'max' = at most. */
  direction: 'min' | 'max';
  pass: boolean;
  /** Baseline measured in the same run, spread of the repeated runs, and anything else worth a line. */
  baseline?: string;
  spread?: string;
  detail?: Record<string, number | string | boolean>;
  /** Set when the figure could not be measured (pass is then false). */
  skipped?: string;
}

export function figure(f: Omit<Figure, 'pass'>): Figure {
  const pass = f.skipped === undefined && Number.isFinite(f.value) && (f.direction === 'min' ? f.value >= f.budget : f.value <= f.budget);
  return { ...f, pass };
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return v.toFixed(0);
  if (Math.abs(v) >= 10) return v.toFixed(1);
  return v.toFixed(3);
}

export function table(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.figure,
    f.skipped ? 'n/a' : `${fmt(f.value)} ${f.unit}`,
    `${f.direction === 'min' ? '≥' : '≤'} ${fmt(f.budget)} ${f.unit}`,
    f.skipped ? 'SKIP' : f.pass ? 'pass' : 'FAIL',
    f.spread ?? '',
    f.skipped ?? f.baseline ?? '',
  ]);
  const head = ['figure', 'value', 'budget', 'result', 'spread', 'baseline / note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The machine a run was measured on (the figures' header). */
export function machine(): string {
  const cpus = os.cpus();
  return `${cpus[0]?.model ?? 'unknown CPU'} ×${cpus.length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `${os.platform()} ${os.release()}, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join('/')}`;
}

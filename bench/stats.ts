// Small statistics and timing helpers shared by the figures.

export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

/** "min–max" of a set of values, for the spread column. */
export function spread(values: readonly number[], digits = 2): string {
  if (values.length === 0) return '';
  return `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
}

/** Wall time of `f` in ms (high-resolution). */
export function time(f: () => void): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

/** Collect garbage when the process runs with --expose-gc (keeps one run's garbage out of the next run's time). */
export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Heap in use after a few full GCs (weak references and finalisers settle); needs node --expose-gc. */
export function heapAfterGc(): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('heap measurements need node --expose-gc');
  for (let i = 0; i < 3; i++) collect();
  // Typed arrays keep their bytes outside the JS heap (the frame list's columns): counted too.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/**
 * Run A and B alternately `runs` times (A first, then B first, and so on, so drift and warm-up hit both equally);
 * returns the times of each.
 */
export function alternate(runs: number, a: () => void, b: () => void): { a: number[]; b: number[] } {
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < runs; i++) {
    const order: ['a' | 'b', () => void][] = i % 2 === 0 ? [['a', a], ['b', b]] : [['b', b], ['a', a]];
    for (const [k, f] of order) {
      gc();
      out[k].push(time(f));
    }
  }
  return out;
}

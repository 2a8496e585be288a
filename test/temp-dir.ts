// Temporary directories for the tests, unit and e2e alike: each made under the system's temp dir and removed by what
// made it. Runs had left thousands of them in /tmp (~1,700 `rs-cli-*` alone: a test made one and nothing removed it).
// The runners' wrappers tie the removal to what made the directory — test/unit/temp-dir.ts to a vitest test or file,
// test/e2e/support/temp-dir.ts to a Playwright spec file — and `withTempDir` to a block of code. One still there when
// the process exits (a hook that threw before it got to its removal) is removed then, as a last resort.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The directories made and not yet removed, for the exit hook. Kept on globalThis: a runner may evaluate this module
 * once per test file in one process, and each copy would add an exit listener of its own.
 */
const REGISTRY = Symbol.for('replyscope.test.tempDirs');
type Registry = Set<string>;

function registry(): Registry {
  const g = globalThis as { [REGISTRY]?: Registry };
  if (!g[REGISTRY]) {
    const dirs: Registry = new Set();
    g[REGISTRY] = dirs;
    process.once('exit', () => {
      for (const dir of dirs) {
        try {
          remove(dir);
        } catch {
          // (a browser still writing into it: the run's own result matters more than this directory)
        }
      }
    });
  }
  return g[REGISTRY];
}

function remove(dir: string): void {
  // Retries: a browser's helper processes may still be writing into its profile for a moment after it closed.
  rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
}

/** A new empty directory `<tmpdir>/<prefix>XXXXXX`. Whoever calls this removes it with removeTempDir. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  registry().add(dir);
  return dir;
}

/** Removes `dir` and all it holds (nothing when it is already gone). */
export function removeTempDir(dir: string): void {
  remove(dir);
  registry().delete(dir);
}

/** Runs `fn` with a new temporary directory, removed once `fn` is done, whether it returned or threw. */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = makeTempDir(prefix);
  try {
    return await fn(dir);
  } finally {
    removeTempDir(dir);
  }
}

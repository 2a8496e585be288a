// Temporary directories for vitest tests, removed when the test (tempDir) or the file's tests (useTempDir) are done —
// passed, failed or timed out. Use these, not a bare mkdtempSync: see test/temp-dir.ts.
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { makeTempDir, removeTempDir } from '../temp-dir.ts';

/** A new directory for the running test; call it in a test or a beforeEach. Removed once the test has finished. */
export function tempDir(prefix: string): string {
  let dir: string | undefined;
  // Registered first: outside a test onTestFinished throws, and then nothing was made that nobody would remove.
  onTestFinished(() => {
    if (dir) removeTempDir(dir);
  });
  dir = makeTempDir(prefix);
  return dir;
}

/**
 * One directory for the tests of a file (or of the describe it is called in): made before them, removed after them.
 * Call it where hooks are registered — not inside a beforeAll, where vitest takes an afterAll and never runs it — and
 * read the returned function inside tests and hooks. Called before the file's own hooks, the directory is there in its
 * beforeAll and still there in its afterAll (vitest runs after-hooks in reverse order).
 */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(() => {
    dir = makeTempDir(prefix);
  });
  afterAll(() => {
    if (dir) removeTempDir(dir);
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error(`the ${prefix} temp dir is used outside its tests`);
    return dir;
  };
}

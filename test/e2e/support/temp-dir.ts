// Temporary directories for e2e specs (see test/temp-dir.ts), never a bare mkdtemp: a spec file's (useTempDir), made
// before its tests and removed after them, or a block's (withTempDir). The browser profiles the support launches with
// are removed by its close() (extension.ts, cdp-chromium.ts).
import { test } from '@playwright/test';
import { makeTempDir, removeTempDir, withTempDir } from '../../temp-dir.ts';

export { makeTempDir, removeTempDir, withTempDir };

/**
 * One directory for the tests of a spec file (or of the describe it is called in): made in a beforeAll, removed in an
 * afterAll of its own — which Playwright runs even when another afterAll failed (a server's close that rethrew its
 * handler's error). Playwright runs afterAll hooks in the order they were registered: call this before the beforeAll
 * that fills the directory, and let no later afterAll need it (a static server serving it may still be closed then).
 * Read the returned function inside tests and hooks.
 */
export function useTempDir(prefix: string): () => string {
  let dir: string | undefined;
  test.beforeAll(() => {
    dir = makeTempDir(prefix);
  });
  test.afterAll(() => {
    if (dir) removeTempDir(dir);
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error(`the ${prefix} temp dir is used outside its tests`);
    return dir;
  };
}

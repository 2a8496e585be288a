// The core as the benchmarks run it: bundled with esbuild into one ES module, as vite bundles it into the panel.
// Why not run it through tsx like the tests: tsx compiles with esbuild's `keepNames`, which wraps every closure the
// hot path creates in a naming helper (measured: ~10% of ingest time) — a cost the shipped panel does not have.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export type Core = typeof import('./core-entry.ts');

let loaded: Promise<Core> | undefined;

export function loadCore(): Promise<Core> {
  loaded ??= (async () => {
    const outDir = path.join(import.meta.dirname, '.cache');
    mkdirSync(outDir, { recursive: true });
    const outfile = path.join(outDir, `core-${process.pid}.mjs`);
    await build({
      entryPoints: [path.join(import.meta.dirname, 'core-entry.ts')],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      outfile,
      logLevel: 'error',
      mainFields: ['module', 'main'],
    });
    try {
      return (await import(pathToFileURL(outfile).href)) as Core;
    } finally {
      rmSync(outfile, { force: true }); // loaded; the file is not needed any more
    }
  })();
  return loaded;
}

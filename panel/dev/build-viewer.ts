// Build the panel app as a standalone static viewer (no extension) into `outDir`, for the viewer e2e tests and the
// screenshots. The extension build (vite.config.ts, owned by the extension) builds the same entry into dist/panel/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import preact from '@preact/preset-vite';

const panelDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildViewer(outDir: string): Promise<string> {
  await build({
    configFile: false,
    root: panelDir,
    base: './',
    logLevel: 'warn',
    plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: false, reportCompressedSize: false },
  });
  return path.join(outDir, 'index.html');
}

// Builds the extension with crxjs: `vite build` → dist/ (Chromium), `vite build --mode firefox` → dist-firefox/.
// The MAIN-world tap and the relay are built as standalone classic IIFEs: crxjs would otherwise wrap them in an async
// module loader, and the tap would be installed after the page's first script.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { crx, type ManifestV3Export } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import manifest from './manifest.json' with { type: 'json' };
import { firefoxManifest } from './scripts/build-firefox-manifest.ts';

const root = import.meta.dirname;

export default defineConfig(({ mode }) => {
  const firefox = mode === 'firefox';
  // Pages not named in the manifest: the panel (written separately; included once it exists).
  const pages: Record<string, string> = {};
  if (existsSync(resolve(root, 'panel/index.html'))) pages.panel = resolve(root, 'panel/index.html');
  return {
    plugins: [
      preact(),
      crx({
        manifest: (firefox ? firefoxManifest(manifest) : manifest) as ManifestV3Export,
        browser: firefox ? 'firefox' : 'chrome',
        contentScripts: { standaloneFiles: ['src/extension/tap/main-world.ts', 'src/extension/relay.ts'] },
      }),
    ],
    build: {
      outDir: firefox ? 'dist-firefox' : 'dist',
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: { input: pages },
    },
  };
});

// Bundles the demo page script (src/demo/page/main.ts) for the browser with vite's programmatic build().
// The page uses the REAL `streamProxy` of @mariozechner/pi-agent-core. Its module imports two helpers from the
// `@mariozechner/pi-ai` root entry, which also re-exports every provider SDK (Node-only code: AWS, Google auth…).
// The plugin below resolves that one import to a module that re-exports just those two helpers from their own
// files inside the installed pi-ai, so the bundle holds pi's actual code and nothing Node-only.

import { build, type Plugin } from 'vite';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_BUNDLE_DIR, PAGE_SOURCE_DIR } from './paths.ts';

const PI_AI_SHIM = '\0replyscope-demo:pi-ai-browser';

function piAiBrowserSubset(): Plugin {
  // The installed pi-ai root entry: <pkg>/dist/index.js; the helpers live next to it in dist/utils/.
  const piAiDist = dirname(fileURLToPath(import.meta.resolve('@mariozechner/pi-ai')));
  return {
    name: 'replyscope-demo-pi-ai-subset',
    enforce: 'pre',
    resolveId(id) {
      return id === '@mariozechner/pi-ai' ? PI_AI_SHIM : null;
    },
    load(id) {
      if (id !== PI_AI_SHIM) return null;
      const file = (name: string) => JSON.stringify(join(piAiDist, 'utils', name));
      return `export { EventStream } from ${file('event-stream.js')};\nexport { parseStreamingJson } from ${file('json-parse.js')};\n`;
    },
  };
}

/** Builds dist-demo/demo.js (ES module). Resolves with the output directory; rejects with vite's error. */
export async function bundlePage(outDir = DEFAULT_BUNDLE_DIR): Promise<string> {
  await build({
    configFile: false,
    root: PAGE_SOURCE_DIR,
    logLevel: 'warn',
    plugins: [piAiBrowserSubset()],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      sourcemap: true,
      lib: { entry: join(PAGE_SOURCE_DIR, 'main.ts'), formats: ['es'], fileName: () => 'demo.js' },
    },
  });
  return outDir;
}

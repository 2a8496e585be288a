// Writes examples/demo.replyscope.ndjson: a capture recorded from the demo agent (every scenario, the broken ones
// too), so the CLI has a file to try right after a clone: `npx replyscope validate examples/demo.replyscope.ndjson`.
// Run again after changing the demo: `node --import tsx scripts/write-example.ts`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordDemoCapture } from '../src/demo/record-capture.ts';
import { writeCaptureLog } from '../src/core/capture/capture-log.ts';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../examples/demo.replyscope.ndjson');
writeFileSync(out, writeCaptureLog(await recordDemoCapture()));
console.log(`wrote ${out}`);

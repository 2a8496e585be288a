// Where the demo's files live on disk (Node only).

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
export const PAGE_SOURCE_DIR = join(HERE, 'page');
export const REPO_ROOT = resolve(HERE, '../..');
/** The demo page bundle (built at demo start; not committed). */
export const DEFAULT_BUNDLE_DIR = join(REPO_ROOT, 'dist-demo');

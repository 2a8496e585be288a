// `npm run viewer` — the Replyscope panel as a standalone viewer (no extension), served from the built extension
// (dist/panel/index.html) on 127.0.0.1, with a capture preloaded through the panel's `?load=` parameter: the demo
// agent's recorded session by default, or a file you name.
//
//   npm run viewer [-- FILE] [--port N] [--build]
//     FILE     a capture log, HAR, NDJSON/JSON events or raw SSE text to open instead of the demo sample; a relative
//              path is taken from the directory `npm run` was started in (npm runs the script in the repository's)
//     --port   default 8766 (0 = any free port)
//     --build  run `npm run build` first (also done automatically when dist/panel is missing)

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { listenOrFallback, portWasAsked } from '../src/demo/port-fallback.ts';
import { recordDemoCapture } from '../src/demo/record-capture.ts';
import { writeCaptureLog, CAPTURE_LOG_EXTENSION } from '../src/core/capture/capture-log.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPO_ROOT, 'dist');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.map': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};

export interface ViewerOptions {
  /** The file to preload, as an absolute path. */
  file?: string;
  port: number;
  build: boolean;
  /** --help (or -h) was given: the usage is printed, and nothing is started. */
  help?: boolean;
}

const USAGE = `usage: npm run viewer -- [FILE] [--port N] [--build]
  FILE      a capture log, HAR, JSON/NDJSON events or raw SSE text to preload instead of the demo's capture (a
            relative path is taken from the directory you ran npm in)
  --port N  the port on 127.0.0.1 (default 8766, or PORT=N; 0: any free port) — the default taken, a free one; a port
            you name that is taken fails
  --build   run npm run build first (done anyway when dist/panel is missing)`;

/**
 * The command line. `npm run viewer` runs this script in the repository, wherever it was started: a relative FILE
 * is taken from where it was started (npm's INIT_CWD) — `npm run viewer -- capture.har` in another directory said
 * "cannot read capture.har: ENOENT".
 */
export function parseViewerArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ViewerOptions {
  const opts: ViewerOptions = { port: env.PORT === undefined ? 8766 : portOf('PORT', env.PORT), build: false };
  let file: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = portOf('--port', argv[++i]);
    else if (a.startsWith('--port=')) opts.port = portOf('--port', a.slice(7));
    else if (a === '--build') opts.build = true;
    else if (a === '--help' || a === '-h') opts.help = true;
    else if (a.startsWith('-')) throw new Error(`unknown option ${a} (usage: npm run viewer -- [FILE] [--port N] [--build]; --help says more)`);
    else if (file !== undefined) throw new Error('only one file can be preloaded; open more from the viewer (Import…)');
    else file = a;
  }
  if (file !== undefined) opts.file = path.resolve(env.INIT_CWD ?? process.cwd(), file);
  return opts;
}

/**
 * A port named by `name` (--port, PORT). Number('') is 0: an empty value ("--port=", a CI variable that came out empty)
 * took any free port, and PORT=abc was told as "--port must be an integer".
 */
function portOf(name: string, text: string | undefined): number {
  const port = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be an integer 0–65535 (got ${text === undefined ? 'nothing' : JSON.stringify(text)})`);
  return port;
}

/** FILE's bytes, or an error that says what is wrong with it in words (not "ENOENT: …, open '…'"). */
async function readPreload(file: string): Promise<Buffer> {
  return readFile(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new Error(`no such file: ${file}`);
    if (err.code === 'EISDIR') throw new Error(`${file} is a directory, not a file`);
    throw new Error(`cannot read ${file}: ${err.message}`);
  });
}

async function main(): Promise<void> {
  const opts = parseViewerArgs(process.argv.slice(2));
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  // The one preloaded file, served under a name that keeps its extension (the viewer sniffs by name and content).
  let preload: { route: string; body: Buffer | string };
  if (opts.file) {
    const body = await readPreload(opts.file);
    preload = { route: `/preload/${encodeURIComponent(path.basename(opts.file))}`, body };
  } else {
    preload = { route: `/preload/replyscope-demo${CAPTURE_LOG_EXTENSION}`, body: writeCaptureLog(await recordDemoCapture()) };
  }
  // After FILE is read: a file that cannot be read is said at once, not after a build of half a minute.
  if (opts.build || !existsSync(path.join(DIST, 'panel', 'index.html'))) {
    console.log('Building (npm run build)…');
    const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }

  const server = createServer((req, res) => {
    serve(req, res, preload).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`viewer: ${err.message}`);
    });
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  await listenOrFallback(opts.port, portWasAsked(process.argv.slice(2)), listen);
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/panel/index.html?load=${encodeURIComponent(preload.route)}`;
  console.log(`Replyscope viewer: ${url}`);
  console.log(`(${opts.file ? `preloading ${opts.file}` : 'preloading a capture recorded from the demo agent'}; Ctrl-C stops)`);
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function serve(req: IncomingMessage, res: ServerResponse, preload: { route: string; body: Buffer | string }): Promise<void> {
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://viewer.invalid').pathname);
  if (pathname === '/favicon.ico') {
    res.writeHead(204).end();
    return;
  }
  if (pathname === '/') {
    res.writeHead(302, { Location: `/panel/index.html?load=${encodeURIComponent(preload.route)}` }).end();
    return;
  }
  if (pathname === decodeURIComponent(preload.route)) {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' }).end(preload.body);
    return;
  }
  // Static files of the built extension; never outside dist/.
  const file = path.resolve(DIST, '.' + pathname);
  if (!file.startsWith(DIST + path.sep) || !existsSync(file)) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(`npm run viewer failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}

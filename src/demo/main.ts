// `npm run demo` — bundles the demo page, then serves the demo agent on 127.0.0.1 until Ctrl-C.
//   --port N / PORT=N   port (default 8765; 0 = any free port)
//   --fast              no realistic pauses (tests, quick looks)
//   --heartbeat MS      heartbeat comment interval on session streams (default 30000, as the AgentScope service)

import { pathToFileURL } from 'node:url';
import { bundlePage } from './bundle-page.ts';
import { listenOrFallback, portWasAsked } from './port-fallback.ts';
import { startDemoServer, type DemoServer } from './server.ts';

export interface DemoCliOptions {
  port: number;
  fast: boolean;
  heartbeatMs: number;
  /** --help (or -h) was given: the usage is printed, and nothing is started. */
  help?: boolean;
}

export const DEFAULT_DEMO_PORT = 8765;

/** What `npm run demo -- --help` prints (on stdout, exit 0: asked for, it is no failure). */
export const DEMO_USAGE = `usage: npm run demo -- [--port N] [--fast] [--heartbeat MS]
  --port N        the port on 127.0.0.1 (default ${DEFAULT_DEMO_PORT}, or PORT=N; 0: any free port) — the default taken,
                  a free one; a port you name that is taken fails
  --fast          no realistic pauses between events
  --heartbeat MS  a ":" comment on an idle session stream every MS ms (default 30000, as the AgentScope service)`;

export function parseDemoArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): DemoCliOptions {
  // An empty PORT is refused as an empty --port is, not taken for no PORT: portWasAsked counts it as asking, so the
  // default port it stood for failed when taken instead of moving to a free one.
  const opts: DemoCliOptions = { port: env.PORT !== undefined ? toInt('PORT', env.PORT) : DEFAULT_DEMO_PORT, fast: false, heartbeatMs: 30_000 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--port') opts.port = toInt('--port', value());
    else if (flag === '--fast') opts.fast = true;
    else if (flag === '--heartbeat') opts.heartbeatMs = toInt('--heartbeat', value());
    else if (flag === '--help' || flag === '-h') opts.help = true;
    else fail(`unknown option ${arg} (try --help)`);
  }
  if (opts.port > 65535) fail(`--port ${opts.port} is out of range`);
  return opts;
}

function toInt(name: string, text: string): number {
  // Number('') is 0: "--port=" (a CI variable that came out empty) took any free port, as --port 0 asks.
  const n = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isInteger(n) || n < 0) fail(`${name} must be a non-negative integer, got "${text}"`);
  return n;
}

function fail(message: string): never {
  throw new Error(message);
}

/** Bundles the page and starts the server; used by `npm run demo` and by scripts/start.ts. */
export async function launchDemo(opts: DemoCliOptions): Promise<DemoServer> {
  const bundleDir = await bundlePage();
  return startDemoServer({ port: opts.port, fast: opts.fast, heartbeatMs: opts.heartbeatMs, bundleDir });
}

async function main(): Promise<void> {
  let opts: DemoCliOptions;
  try {
    opts = parseDemoArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  if (opts.help) {
    console.log(DEMO_USAGE);
    return;
  }
  const server = await listenOrFallback(opts.port, portWasAsked(process.argv.slice(2)), (port) => launchDemo({ ...opts, port }));
  console.log(`Replyscope demo agent: ${server.url}/${opts.fast ? '  (fast mode)' : ''}`);
  console.log('Open it in a browser with the Replyscope extension, then DevTools → Replyscope tab. Ctrl-C stops.');
  const stop = () => {
    server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error('demo failed to start:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

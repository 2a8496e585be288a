// `npm start` — one command to see Replyscope working: build the extension (dist/), start the demo agent, and open
// Chromium with the extension loaded, the demo page open and DevTools open. Ctrl-C stops everything.
//
//   npm start [-- --port N] [--fast] [--no-build] [-- <extra Chromium flags>]
//
// Without a display it says so in one line, prints the demo URL and the extension path, and keeps serving.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_USAGE, launchDemo, parseDemoArgs } from '../src/demo/main.ts';
import { listenOrFallback, portWasAsked } from '../src/demo/port-fallback.ts';
import { chromiumArgs, findChromium, seedProfile } from '../src/demo/launch-chromium.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPO_ROOT, 'dist');

interface StartOptions {
  demoArgs: string[];
  build: boolean;
  chromeArgs: string[];
}

const USAGE = `usage: npm start -- [--port N] [--fast] [--heartbeat MS] [--no-build] [-- CHROMIUM FLAGS…]
  builds the extension (--no-build: uses the dist/ there is), starts the demo agent and opens Chromium with it loaded
  and DevTools open, until Ctrl-C; the demo agent's options, as npm run demo takes them:
${DEMO_USAGE.split('\n').slice(1).join('\n')}`;

function parseStartArgs(argv: string[]): StartOptions {
  const split = argv.indexOf('--');
  const own = split < 0 ? argv : argv.slice(0, split);
  const chromeArgs = split < 0 ? [] : argv.slice(split + 1);
  const build = !own.includes('--no-build');
  return { demoArgs: own.filter((a) => a !== '--no-build'), build, chromeArgs };
}

function buildExtension(): void {
  console.log('Building the extension (npm run build)…');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
  if (!existsSync(path.join(DIST, 'manifest.json'))) throw new Error(`the build produced no ${path.join(DIST, 'manifest.json')}`);
}

async function main(): Promise<void> {
  const opts = parseStartArgs(process.argv.slice(2));
  const demoOpts = parseDemoArgs(opts.demoArgs);
  if (demoOpts.help) {
    console.log(USAGE);
    return;
  }
  if (opts.build) buildExtension();
  else if (!existsSync(path.join(DIST, 'manifest.json'))) throw new Error('--no-build, but dist/ holds no built extension');

  const server = await listenOrFallback(demoOpts.port, portWasAsked(opts.demoArgs), (port) => launchDemo({ ...demoOpts, port }));
  const demoUrl = `${server.url}/`;
  let browser: ChildProcess | undefined;
  let profile: string | undefined;

  let stopping = false;
  const stop = async (code: number) => {
    stopping = true;
    if (browser?.pid) {
      // Chromium runs in its own process group: its helpers (zygote, crashpad, GPU) go with it, and the profile is
      // removed only once none of them is left to write into it (removing earlier raced with their last writes).
      const group = browser.pid;
      const exited = browser.exitCode === null ? new Promise((r) => browser!.once('exit', r)) : Promise.resolve();
      signalGroup(group, 'SIGTERM');
      await exited;
      if (!(await groupGone(group, 5000))) {
        signalGroup(group, 'SIGKILL');
        await groupGone(group, 2000);
      }
    }
    if (profile) {
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch (err) {
        console.error(`Could not remove the temporary profile ${profile}: ${(err as Error).message}`);
      }
    }
    await server.close();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
  process.once('SIGHUP', () => void stop(0)); // the terminal went away

  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.log(`No display ($DISPLAY and $WAYLAND_DISPLAY are unset), so no browser: open ${demoUrl} in Chromium with the unpacked extension from ${DIST} loaded (chrome://extensions → Developer mode → Load unpacked). Serving until Ctrl-C.`);
    return;
  }

  const chrome = findChromium();
  if (!chrome) {
    console.log(`No Chromium found (set CHROME_PATH). Demo: ${demoUrl} — load the unpacked extension from ${DIST} by hand. Serving until Ctrl-C.`);
    return;
  }
  if (chrome.warning) console.log(chrome.warning);
  profile = mkdtempSync(path.join(tmpdir(), 'replyscope-start-'));
  try {
    seedProfile(profile, DIST);
  } catch (err) {
    rmSync(profile, { recursive: true, force: true }); // no browser wrote into it yet; the run ends on this error
    throw err;
  }
  const args = [...chromiumArgs(profile, DIST), ...opts.chromeArgs, demoUrl];
  browser = spawn(chrome.path, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  // Chromium is chatty on stderr; keep the tail to explain an early failure, show nothing otherwise.
  let stderrTail = '';
  browser.stderr?.on('data', (d: Buffer) => (stderrTail = (stderrTail + d.toString()).slice(-4000)));
  browser.once('error', (err) => console.error(`Could not start ${chrome.path}: ${err.message}`));
  browser.once('exit', (code, signal) => {
    if (stopping) return;
    if (code !== 0 && signal === null) console.error(`Chromium exited with code ${code}:\n${stderrTail.trim().split('\n').slice(-8).join('\n')}`);
    else console.log(`Browser closed. The demo is still at ${demoUrl} — Ctrl-C stops it.`);
  });
  console.log(`Replyscope demo: ${demoUrl}  (Chromium: ${chrome.path}, extension: ${DIST})`);
  console.log('DevTools is open on the demo tab — choose the Replyscope tab, then send a message. Ctrl-C stops everything.');
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already gone
  }
}

/** Polls until no process of the group is left (true) or `ms` passed (false). */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return true;
    }
  }
  return false;
}

main().catch((err: unknown) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});

// `npm start` as a user runs it (scripts/start.ts with --no-build: the suite builds dist/ before e2e): headless it
// prints the one-line notice and serves the demo; under Xvfb it opens Chromium with the extension, the demo page
// and DevTools. Ctrl-C (SIGINT to the process group, as a terminal sends it) stops everything.

import { test, expect } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { distDir, repoRoot } from './support/extension.ts';
import { withTempDir } from './support/temp-dir.ts';
import { unpackedExtensionId } from '../../src/demo/launch-chromium.ts';

/** Starts `cmd` in its own process group and collects its output. */
function startGroup(cmd: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(cmd, args, { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Ctrl-C: SIGINT to the whole process group we started. */
function interrupt(child: ChildProcess): void {
  if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGINT');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const startScript = ['--import', 'tsx', path.join('scripts', 'start.ts'), '--no-build', '--port', '0', '--fast'];

test('npm start without a display: one-line notice, demo served, Ctrl-C exits cleanly', async () => {
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const run = startGroup(process.execPath, startScript, env);
  try {
    await expect.poll(run.output, { timeout: 30_000 }).toContain('No display');
    const notice = run.output().split('\n').filter((l) => l.includes('No display'));
    expect(notice).toHaveLength(1);
    expect(notice[0]).toContain(distDir());
    const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(notice[0])![0];
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Replyscope tab');
  } finally {
    interrupt(run.child);
  }
  expect(await run.exited).toBe(0);
});

const hasXvfb = spawnSync('sh', ['-c', 'command -v xvfb-run']).status === 0;

test('npm start under Xvfb: Chromium with the extension, the demo page and DevTools', async () => {
  test.skip(!hasXvfb, 'xvfb-run is not installed');
  const debugPort = await freePort();
  // A private TMPDIR, to check the temporary Chromium profile is removed on Ctrl-C.
  await withTempDir('replyscope-start-test-', async (tmp) => {
    const run = startGroup('xvfb-run', ['-a', process.execPath, ...startScript, '--', `--remote-debugging-port=${debugPort}`], { ...process.env, TMPDIR: tmp });
    try {
      await expect.poll(run.output, { timeout: 30_000 }).toContain('Replyscope demo: http');
      const demoUrl = /Replyscope demo: (http:\/\/\S+)/.exec(run.output())![1];
      const extensionId = unpackedExtensionId(distDir());
      type Target = { type: string; url: string };
      const targets = async (): Promise<Target[]> => {
        try {
          return (await (await fetch(`http://127.0.0.1:${debugPort}/json/list`)).json()) as Target[];
        } catch {
          return []; // Chromium not listening yet
        }
      };
      await expect.poll(async () => {
        const t = await targets();
        return {
          demoPage: t.some((x) => x.type === 'page' && x.url === demoUrl),
          devtools: t.some((x) => x.type === 'page' && x.url.startsWith('devtools://devtools/')),
          extension: t.some((x) => x.url.startsWith(`chrome-extension://${extensionId}/`)),
        };
      }, { timeout: 30_000 }).toEqual({ demoPage: true, devtools: true, extension: true });
    } finally {
      interrupt(run.child);
    }
    await run.exited;
    // Everything started for the run is gone: no Chromium left on that debugging port, no profile left behind.
    await expect.poll(async () => fetch(`http://127.0.0.1:${debugPort}/json/version`).then(() => 'up', () => 'down')).toBe('down');
    expect(readdirSync(tmp).filter((f) => f.startsWith('replyscope-start-'))).toEqual([]);
    expect(run.output()).not.toMatch(/Error|failed|Could not/);
  });
});

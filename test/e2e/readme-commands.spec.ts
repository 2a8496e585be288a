// The README's commands must not rot: `npm run viewer` serves the standalone viewer with the demo capture preloaded,
// and `npm run build:firefox` produces a Firefox build that `web-ext lint` accepts with 0 errors.
import { expect, test, chromium } from '@playwright/test';
import { spawn, execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM, repoRoot } from './support/extension.ts';

const run = promisify(execFile);

test('npm run viewer: the standalone viewer opens with the demo capture preloaded', async () => {
  const child = spawn('npm', ['run', 'viewer', '--silent', '--', '--port', '0'], { cwd: repoRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await expect.poll(() => output, { timeout: 30_000 }).toMatch(/Replyscope viewer: http/);
    const url = /Replyscope viewer: (http\S+)/.exec(output)![1];
    const page = await browser.newPage();
    await page.goto(url);
    // The preloaded demo session shows up as connections with replies; no extension is involved.
    await expect(page.locator('body')).toContainText('/sessions/');
    await expect(page.locator('body')).toContainText('agentscope');
  } finally {
    await browser.close();
    process.kill(-child.pid!, 'SIGINT');
  }
  await new Promise((resolve) => child.once('exit', resolve));
});

test('npm run build:firefox builds a Firefox extension that web-ext lint accepts', async () => {
  test.setTimeout(180_000);
  await run('npm', ['run', 'build:firefox', '--silent'], { cwd: repoRoot, maxBuffer: 16 << 20 });
  const lint = await run('npx', ['web-ext', 'lint', '--source-dir', path.join(repoRoot, 'dist-firefox'), '--no-input', '--output', 'json'],
    { cwd: repoRoot, maxBuffer: 16 << 20 }).catch((e) => e);
  const report = JSON.parse(lint.stdout);
  expect(report.errors, JSON.stringify(report.errors, null, 1)).toEqual([]);
  expect(report.summary.errors).toBe(0);
});

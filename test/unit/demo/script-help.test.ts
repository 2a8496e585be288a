// `--help` of the three local servers' scripts: the usage on standard output and exit 0, nothing started. The demo
// printed its one usage line as an error (stderr, exit 2), the viewer refused it as an unknown option (exit 1), and
// `npm start -- --help` failed with the demo's usage line ("npm start failed: usage: npm run demo -- …").
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from '../../../src/demo/main.ts';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../..');

const script = (file: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', path.join(REPO, file), ...args], { cwd: REPO, timeout: 30_000 })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }));

describe('--help', () => {
  it('npm run demo -- --help: the options, said on stdout, exit 0', async () => {
    expect(parseDemoArgs(['--help'], {})).toMatchObject({ help: true });
    const out = await script('src/demo/main.ts', '--help');
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toMatch(/^usage: npm run demo -- \[--port N\] \[--fast\] \[--heartbeat MS\]\n {2}--port N /);
  });

  it('npm run viewer -- --help (or -h): the options, said on stdout, exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const out = await script('scripts/viewer.ts', flag);
      expect(out, flag).toMatchObject({ code: 0, stderr: '' });
      expect(out.stdout, flag).toMatch(/^usage: npm run viewer -- \[FILE\] \[--port N\] \[--build\]\n {2}FILE /);
    }
  });

  it('npm start -- --help: its own usage (not the demo\'s as an error), exit 0, nothing built', async () => {
    const out = await script('scripts/start.ts', '--help');
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toMatch(/^usage: npm start -- \[--port N\] \[--fast\] \[--heartbeat MS\] \[--no-build\]/);
    expect(out.stdout).not.toContain('Building');
  });
});

// `npm run viewer`'s command line. npm runs the script in the repository whatever directory it was started in, so
// the FILE a user names from elsewhere is taken from there (INIT_CWD), and one it cannot read is said in words.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseViewerArgs } from '../../../scripts/viewer.ts';
import { tempDir } from '../temp-dir.ts';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../../..');
const VIEWER = path.join(REPO, 'scripts/viewer.ts');

/** `npm run viewer -- ...args` as npm runs it: in the repository, with INIT_CWD where it was started. */
const viewer = (initCwd: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', VIEWER, ...args], { cwd: REPO, env: { ...process.env, INIT_CWD: initCwd } })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }));

describe('npm run viewer -- FILE', () => {
  it('takes a relative FILE from the directory npm run was started in, not the repository', () => {
    expect(parseViewerArgs(['captures/a.har'], { INIT_CWD: '/home/u/app' }).file).toBe('/home/u/app/captures/a.har');
    expect(parseViewerArgs(['/tmp/a.har', '--port', '0'], { INIT_CWD: '/home/u/app' })).toEqual({ file: '/tmp/a.har', port: 0, build: false });
    // Run without npm (node --import tsx scripts/viewer.ts): from the working directory.
    expect(parseViewerArgs(['a.har'], {}).file).toBe(path.resolve('a.har'));
    expect(parseViewerArgs([], {}).file).toBeUndefined();
  });

  it('a port that is no port is refused, named by where it came from — an empty one is not 0 (any port)', () => {
    expect(() => parseViewerArgs(['--port='], {})).toThrow('--port must be an integer 0–65535 (got "")');
    expect(() => parseViewerArgs(['--port'], {})).toThrow('--port must be an integer 0–65535 (got nothing)');
    expect(() => parseViewerArgs([], { PORT: 'abc' })).toThrow('PORT must be an integer 0–65535 (got "abc")');
    expect(() => parseViewerArgs([], { PORT: '' })).toThrow('PORT must be an integer 0–65535 (got "")');
    expect(parseViewerArgs(['--port=0'], { PORT: '9000' }).port).toBe(0);
    expect(parseViewerArgs([], { PORT: '9000' }).port).toBe(9000);
  });

  it('a FILE it cannot read is said in words, with the path it looked at', async () => {
    const dir = tempDir('rs-viewer-args-');
    mkdirSync(path.join(dir, 'captures'));
    const missing = await viewer(dir, 'nope.ndjson', '--port', '0');
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`npm run viewer failed: no such file: ${path.join(dir, 'nope.ndjson')}`);
    const folder = await viewer(dir, 'captures', '--port', '0');
    expect(folder.stderr.trim()).toBe(`npm run viewer failed: ${path.join(dir, 'captures')} is a directory, not a file`);
  });
});

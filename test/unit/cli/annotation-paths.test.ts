import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../temp-dir.ts';

// GitHub puts an annotation on a file only by its path from the repository's checkout (GITHUB_WORKSPACE): FILE as the
// step gave it — from a `working-directory:`, as "./x", or absolute — put every annotation on no file.
const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');
const BODY = `data: ${JSON.stringify({ type: 'TEXT_BLOCK_DELTA', reply_id: 'r1', block_id: 'b1', delta: 'Hi' })}\n\n`;

async function fileOf(cwd: string, file: string, workspace?: string): Promise<string | undefined> {
  const env = { ...process.env };
  delete env.GITHUB_WORKSPACE;
  if (workspace !== undefined) env.GITHUB_WORKSPACE = workspace;
  const { stdout } = await run(process.execPath, [BIN, 'validate', '--github', '--fail-on', 'never', file], { cwd, env });
  const files = new Set(stdout.split('\n').filter((l) => l.startsWith('::')).map((l) => /file=([^,]*),/.exec(l)?.[1]));
  expect(files.size).toBe(1);
  return [...files][0];
}

describe('the file an annotation names', () => {
  it('is the path from GITHUB_WORKSPACE, whatever directory the step ran in and however FILE was written', async () => {
    const repo = tempDir('rs-ws-');
    const app = path.join(repo, 'app');
    mkdirSync(path.join(app, 'captures'), { recursive: true });
    writeFileSync(path.join(app, 'captures', 'x.sse'), BODY);
    expect(await fileOf(app, 'captures/x.sse', repo)).toBe('app/captures/x.sse'); // working-directory: app
    expect(await fileOf(app, './captures/../captures/x.sse', repo)).toBe('app/captures/x.sse');
    expect(await fileOf(tmpdir(), path.join(app, 'captures', 'x.sse'), repo)).toBe('app/captures/x.sse'); // absolute
    // Outside a workflow: from the working directory; outside the checkout: as given (no file of the repo to show it on).
    expect(await fileOf(app, './captures/x.sse')).toBe('captures/x.sse');
    const outside = path.join(repo, 'elsewhere.sse');
    writeFileSync(outside, BODY);
    expect(await fileOf(repo, outside, app)).toBe(outside);
  });
});

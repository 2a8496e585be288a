import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.ts';

// The notes of no connection — the input's own (a log cut short after its connections ended, HAR entries that are no
// stream) and "nothing to check" — as validate's outputs tell them and as they decide its exit code.
const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.test/stream","requestHeaders":[],"startTime":1}';
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const body = `data: ${JSON.stringify({ type: 'start' })}\n\ndata: ${JSON.stringify({ type: 'done', reason: 'stop', usage })}\n\n`;
const chunk = JSON.stringify({ kind: 'chunk', conn: 'c', t: 2, bytes: Buffer.byteLength(body), text: body });
const end = '{"kind":"end","conn":"c","t":3,"state":"complete"}';
// Cut short on the line after the connection's end: the note is the file's, a warning.
const cut = `${header}\n${conn}\n${chunk}\n${end}\n${chunk.slice(0, 30)}`;

const validate = (text: string, ...args: string[]) => runCli(['validate', 'capture.replyscope.ndjson', ...args], () => new TextEncoder().encode(text));
type Entry = { connection: string | null; code: string; severity: string; message: string };

describe('validate: the input\'s notes', () => {
  it('a log cut short is a warning wherever the cut falls: --json, the summary, --fail-on warning and --github', async () => {
    const text = await validate(cut, '--fail-on', 'warning');
    expect(text.stdout.split('\n')[0]).toMatch(/^note \(warning, line 5\): The capture log ends in the middle of line 5 .*cut short/);
    expect(text.stdout).toMatch(/^0 errors, 1 warning, 0 info$/m);
    expect(text.exitCode).toBe(1); // was 0: the same cut inside the connection failed the run, this one passed it
    const json = JSON.parse((await validate(cut, '--json')).stdout) as Entry[];
    expect(json).toEqual([expect.objectContaining({ connection: null, code: 'capture.notice', severity: 'warning' })]);
    const github = (await validate(cut, '--github')).stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(github).toEqual([expect.stringMatching(/^::warning file=capture\.replyscope\.ndjson,line=5,title=replyscope capture\.notice::The capture log ends/)]);
  });

  it('--json says there is nothing to check, as the text report does (it printed [] as for a clean file)', async () => {
    const json = JSON.parse((await validate(header, '--json')).stdout) as Entry[];
    expect(json).toEqual([{ file: 'capture.replyscope.ndjson', connection: null, url: null, code: 'capture.notice', severity: 'info', index: 0, message: 'the input holds no stream' }]);
    expect((await validate(header)).exitCode).toBe(0);
    expect((await validate(header, '--fail-on', 'info')).exitCode).toBe(1);
  });

  it('a capture log whose bytes are not all UTF-8: a warning on the line, naming the byte (they were mended into U+FFFD in silence)', async () => {
    // The connection's URL saved as Latin-1 ("á" one byte, 0xE1).
    const [before, after] = conn.split('/stream');
    const bad = Uint8Array.from([...Buffer.from(`${header}\n${before}/`), 0xe1, ...Buffer.from(`stream${after}\n${chunk}\n${end}\n`)]);
    const run = (...args: string[]) => runCli(['validate', 'capture.replyscope.ndjson', ...args], () => bad);
    const text = await run('--fail-on', 'warning');
    expect(text.stdout).toMatch(/^ {2}warning capture\.notice +the connection, line 2: Capture log line 2 holds bytes that are not UTF-8 \(the first: 0xE1, byte \d+ of the line, file offset \d+\): they were read as U\+FFFD/m);
    expect(text.exitCode).toBe(1);
    const json = JSON.parse((await run('--json')).stdout) as (Entry & { line?: number })[];
    expect(json).toContainEqual(expect.objectContaining({ connection: 'c', code: 'capture.notice', severity: 'warning', line: 2, message: expect.stringMatching(/^Capture log line 2 holds bytes that are not UTF-8/) }));
  });

  it('--ignore capture.notice leaves the notes out of every output and counts them, as it does any diagnostic', async () => {
    const json = await validate(cut, '--json', '--ignore', 'capture.notice', '--fail-on', 'warning');
    expect([JSON.parse(json.stdout), json.exitCode]).toEqual([[], 0]);
    const text = await validate(cut, '--ignore', 'capture.*');
    expect(text.stdout).not.toMatch(/^note/m);
    expect(text.stdout).toMatch(/^0 errors, 0 warnings, 0 info \(1 ignored\)$/m);
  });
});

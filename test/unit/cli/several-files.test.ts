import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { worstExit } from '../../../src/cli/validate-files.ts';
import { useTempDir } from '../temp-dir.ts';
import { BIN, cli, mkfifo, type Run } from './run-cli-process.ts';

// `replyscope validate captures/*.replyscope.ndjson` in CI: validate took one FILE ('unexpected argument … (one FILE
// only)'). Real processes on real files: a clean capture log, one with error diagnostics, a broken one, a missing path.

/** The CLI with `input` on its standard input. */
function piped(input: string, ...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

const header = '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"2026-01-01T00:00:00Z"}';
const conn = '{"kind":"connection","id":"c","transport":"fetch","frameUrl":"","method":"GET","url":"https://a.test/stream","requestHeaders":[],"startTime":1}';
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const body = `data: ${JSON.stringify({ type: 'start' })}\n\ndata: ${JSON.stringify({ type: 'done', reason: 'stop', usage })}\n\n`;
const CLEAN = `${header}\n${conn}\n${JSON.stringify({ kind: 'chunk', conn: 'c', t: 2, bytes: Buffer.byteLength(body), text: body })}\n{"kind":"end","conn":"c","t":3,"state":"complete"}\n`;

const dir = useTempDir('rs-several-');
let clean: string;
let failing: string; // error diagnostics: exit 1 alone
let broken: string; // exit 2 alone
let missing: string;
beforeAll(() => {
  clean = path.join(dir(), 'clean.replyscope.ndjson');
  writeFileSync(clean, CLEAN);
  failing = path.join(dir(), 'demo.replyscope.ndjson');
  copyFileSync(path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson'), failing);
  broken = path.join(dir(), 'broken.replyscope.ndjson');
  writeFileSync(broken, `${header}\n{"kind":"chunk","conn":"nope","t":1,"bytes":1,"text":"x"}\n`);
  missing = path.join(dir(), 'missing.replyscope.ndjson');
});

type Entry = { file: string | null; connection: string | null; code: string; severity: string; message: string; line?: number };

describe('validate FILE…', () => {
  it('--json: one array of every file\'s entries, each naming its file; the worst exit code; each failure on stderr', async () => {
    const out = await cli('validate', '--json', clean, failing, broken, missing);
    expect(out.code).toBe(2);
    const entries = JSON.parse(out.stdout) as Entry[];
    // In the order of the arguments; the clean file has nothing to say.
    expect([...new Set(entries.map((e) => e.file))]).toEqual([failing, broken, missing]);
    const of = (file: string) => entries.filter((e) => e.file === file);
    expect(of(failing).some((e) => e.severity === 'error' && e.connection !== null)).toBe(true);
    expect(of(broken)).toEqual([{ file: broken, connection: null, url: null, code: 'input.unreadable', severity: 'error', index: 0, line: 2,
      message: `${broken}: capture log line 2: chunk record for connection "nope", which no earlier line declares` }]);
    expect(of(missing)).toEqual([{ file: missing, connection: null, url: null, code: 'input.unreadable', severity: 'error', index: 0, message: `no such file: ${missing}` }]);
    expect(out.stderr).toBe(`replyscope: ${of(broken)[0].message}\nreplyscope: no such file: ${missing}\n`);
    // Each file's entries as it alone gives them (with "file").
    const alone = JSON.parse((await cli('validate', '--json', failing)).stdout) as Entry[];
    expect(of(failing)).toEqual(alone);
  });

  it('the exit code is the worst file\'s: 2 (unreadable) over 1 (failed --fail-on) over 4 (cut) over 0', async () => {
    const fifo = path.join(dir(), 'nobody.fifo');
    await mkfifo(fifo);
    const runs = await Promise.all([
      cli('validate', clean, clean),
      cli('validate', clean, failing),
      cli('validate', failing, clean, missing),
      cli('validate', '--timeout', '0.3', clean, fifo),
      cli('validate', '--timeout', '0.3', fifo, failing),
      cli('validate', '--timeout', '0.3', fifo, broken),
      cli('validate', '--fail-on', 'never', clean, failing),
    ]);
    expect(runs.map((r) => r.code)).toEqual([0, 1, 2, 4, 1, 2, 0]);
    // The totals tell an input nothing arrived on from a file that could not be read.
    expect(runs[3].stdout).toMatch(/\n2 files: 0 errors, 0 warnings, 0 info; 1 input cut by --timeout\n$/);
    expect(runs[5].stdout).toMatch(/\n2 files: 0 errors, 0 warnings, 0 info; 1 file could not be read; 1 input cut by --timeout\n$/);
    expect([worstExit(4, 1), worstExit(1, 4), worstExit(2, 1), worstExit(1, 2), worstExit(0, 4), worstExit(3, 2)]).toEqual([1, 1, 2, 2, 4, 3]);
  });

  it('the text report: each file\'s under a "==> FILE <==" line, then the totals; one file\'s as it was', async () => {
    const out = await cli('validate', clean, missing, clean);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe([
      `==> ${clean} <==`, 'GET https://a.test/stream — pi-proxy, 2 events, 1 reply', '0 errors, 0 warnings, 0 info', '',
      `==> ${missing} <==`, `error (input.unreadable): no such file: ${missing}`, '',
      `==> ${clean} <==`, 'GET https://a.test/stream — pi-proxy, 2 events, 1 reply', '0 errors, 0 warnings, 0 info', '',
      '3 files: 0 errors, 0 warnings, 0 info; 1 file could not be read', '',
    ].join('\n'));
    expect(out.stderr).toBe(`replyscope: no such file: ${missing}\n`);
    const one = await cli('validate', clean);
    expect(one).toEqual({ code: 0, stdout: 'GET https://a.test/stream — pi-proxy, 2 events, 1 reply\n0 errors, 0 warnings, 0 info\n', stderr: '' });
    const failed = await cli('validate', failing, clean);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/\n\n2 files: \d+ errors, \d+ warnings, \d+ info\n$/);
  });

  it('a reader that stops early (| head -1) does not turn a failing run into a passing one: the files after it are still checked', async () => {
    // The clean file's section comes, the reader closes the pipe, then the failing capture arrives on standard input:
    // its section meets a closed pipe. The exit code is the run's worst (1), not the 0 a pipe closed early gave.
    const child = spawn(process.execPath, [BIN, 'validate', '--timeout', '15s', clean, '-']);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.stdout.destroy();
    child.stdin.on('error', () => {}); // (the process gone already: the checks below say why)
    child.stdin.end(readFileSync(failing));
    expect(await closed).toBe(1);
    expect(stderr).toBe('');
  });

  it('the text report is written file by file: each section as soon as its file is checked, not all at the end', async () => {
    // Standard input last, still open: the sections before it (and the message of the file it cannot read) come while
    // it waits there — a run over many captures, or over a stream still arriving, showed nothing until the end.
    const child = spawn(process.execPath, [BIN, 'validate', '--timeout', '15s', clean, missing, '-']);
    let stdout = '';
    let stderr = '';
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const shown = new Promise<void>((resolve) => {
      const check = () => {
        if (stdout.includes(`error (input.unreadable): no such file: ${missing}\n`) && stderr.includes('no such file')) resolve();
      };
      child.stdout.on('data', (d: Buffer) => ((stdout += d), check()));
      child.stderr.on('data', (d: Buffer) => ((stderr += d), check()));
    });
    await Promise.race([shown, closed]);
    const beforeStdin = stdout;
    child.stdin.on('error', () => {}); // (the process gone already: the checks below say why)
    child.stdin.end(CLEAN);
    expect(await closed).toBe(2);
    expect(beforeStdin).toBe([
      `==> ${clean} <==`, 'GET https://a.test/stream — pi-proxy, 2 events, 1 reply', '0 errors, 0 warnings, 0 info', '',
      `==> ${missing} <==`, `error (input.unreadable): no such file: ${missing}`, '', '',
    ].join('\n'));
    expect(stdout).toBe(`${beforeStdin}${[
      '==> stdin <==', 'GET https://a.test/stream — pi-proxy, 2 events, 1 reply', '0 errors, 0 warnings, 0 info', '',
      '3 files: 0 errors, 0 warnings, 0 info; 1 file could not be read', '',
    ].join('\n')}`);
    expect(stderr).toBe(`replyscope: no such file: ${missing}\n`);
  });

  it('--github: each file\'s annotations name it, an unreadable one is an error annotation', async () => {
    const out = await cli('validate', '--github', failing, missing);
    expect(out.code).toBe(2);
    const annotations = out.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations.length).toBeGreaterThan(1);
    expect(annotations.slice(0, -1).every((a) => a.includes(` file=${failing},`))).toBe(true);
    expect(annotations.at(-1)).toBe(`::error file=${missing},title=replyscope input::no such file: ${missing}`);
  });

  it('"-" is standard input, at most once; in --json its "file" is "-"', async () => {
    const out = await piped('data: {"type":"start"}\n\n', 'validate', '--json', clean, '-'); // a pi stream that never ends: exit 1
    expect(out.code).toBe(1);
    const entries = JSON.parse(out.stdout) as Entry[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.file === '-')).toBe(true);
    const text = await piped(CLEAN, 'validate', '-', clean);
    expect(text.stdout.split('\n')[0]).toBe('==> stdin <==');
    const twice = await cli('validate', '--json', '-', clean, '-');
    expect(twice.code).toBe(2);
    expect(JSON.parse(twice.stdout)).toEqual([expect.objectContaining({ file: null, code: 'cli.usage', message: '"-" (standard input) is given twice: it can be read once' })]);
  });

  it('--timeout bounds each file\'s read on its own', async () => {
    const fifos = [path.join(dir(), 'quiet-1.fifo'), path.join(dir(), 'quiet-2.fifo')];
    for (const f of fifos) await mkfifo(f);
    const started = performance.now();
    const out = await cli('validate', '--json', '--timeout', '600ms', ...fifos);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1200); // each waited its 600 ms
    expect(out.code).toBe(4);
    expect(JSON.parse(out.stdout)).toEqual(fifos.map((f) => expect.objectContaining({ file: f, code: 'input.timeout', message: `nothing arrived on ${f} within --timeout 600ms` })));
  });

  it('replay and conformance read one FILE, and say so', async () => {
    const [replay, conformance] = await Promise.all([cli('replay', clean, failing), cli('conformance', clean, failing, broken, missing)]);
    expect(replay).toMatchObject({ code: 2, stdout: '' });
    expect(replay.stderr).toBe(`replyscope: replay reads one FILE (got 2: "${clean}", "${failing}"): its output is one capture's connections, by their ids in it — run it once per file (validate takes several)\n`);
    expect(conformance.code).toBe(2);
    expect(conformance.stderr).toMatch(/^replyscope: conformance runs one CASE\.json \(got 4: .*, …\): its output is that case's object — run it once per case\n$/);
  });

  it('a pattern the shell matched to no file is said to be one: the shell passed it as it is', async () => {
    // The README's `validate captures/*.replyscope.ndjson`, in a directory with no such captures.
    const pattern = path.join(dir(), 'captures', '*.replyscope.ndjson');
    const out = await cli('validate', pattern, clean);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe(`replyscope: no such file: ${pattern} (a pattern that matched no file: the shell passes one as it is)\n`);
    // A path without a pattern is only missing.
    expect((await cli('validate', missing)).stderr).toBe(`replyscope: no such file: ${missing}\n`);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { outputOf, runCli } from '../../../src/cli/commands.ts';
import { failureOutput } from '../../../src/cli/run-errors.ts';
import { useTempDir } from '../temp-dir.ts';
import { BIN, cli, mkfifo } from './run-cli-process.ts';

// A CI step that parses `validate --json`'s stdout got an empty stdout for input the CLI could not read, and failed
// with a parse error of its own instead of the reason. Real processes, real files.

const dir = useTempDir('rs-run-errors-');
const at = (name: string) => path.join(dir(), name);
beforeAll(() => {
  mkdirSync(at('a-directory'));
  writeFileSync(at('empty.replyscope.ndjson'), '');
  writeFileSync(at('binary.replyscope.ndjson'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00])); // gzip, not unpacked
  writeFileSync(at('prose.txt'), 'Dear CI, this is no capture.\n');
  writeFileSync(at('broken.replyscope.ndjson'), '{"kind":"header","format":"replyscope-capture","version":1,"tool":"t","created":"x"}\n' +
    '{"kind":"chunk","conn":"nope","t":1,"bytes":1,"text":"x"}\n');
  writeFileSync(at('big.replyscope.ndjson'), '');
  truncateSync(at('big.replyscope.ndjson'), 600 * 2 ** 20); // sparse: refused by its size, never read
  writeFileSync(at('unreadable.replyscope.ndjson'), '{}');
  chmodSync(at('unreadable.replyscope.ndjson'), 0o000);
  writeFileSync(at('a-file'), 'x');
});

const UNREADABLE: [string, string, RegExp][] = [
  ['a missing file', 'missing.replyscope.ndjson', /^no such file: /],
  ['a directory', 'a-directory', / is a directory, not a file$/],
  ['a path through a file', 'a-file/child', /^cannot read .*: ENOTDIR$/],
  ['an empty file', 'empty.replyscope.ndjson', /: the input is empty /],
  ['a compressed file', 'binary.replyscope.ndjson', /: the file is gzip-compressed: decompress it first/],
  ['no capture log nor HAR', 'prose.txt', /: expected a capture log, a HAR file, JSON events, NDJSON or SSE text; found text /],
  ['a broken capture log', 'broken.replyscope.ndjson', /capture log line 2: chunk record for connection "nope"/],
  ['a file past 512 MiB', 'big.replyscope.ndjson', / is 600 MiB: more than one input can hold \(512 MiB/],
];

describe('validate --json prints JSON for input it cannot read', () => {
  for (const [what, name, message] of UNREADABLE) {
    it(`${what}: one entry, code input.unreadable, still exit 2 with the message on stderr`, async () => {
      const out = await cli('validate', '--json', at(name));
      expect(out.code).toBe(2);
      const entries = JSON.parse(out.stdout);
      expect(entries).toEqual([{ file: at(name), connection: null, url: null, code: 'input.unreadable', severity: 'error', index: 0, message: expect.stringMatching(message),
        ...(name.startsWith('broken') ? { line: 2 } : {}) }]);
      expect(out.stderr).toBe(`replyscope: ${entries[0].message}\n`);
    });
  }

  // Root reads a file whatever its mode: as root (CI), the CLI is run as `nobody` for this one — where nobody can run it
  // at all (a checkout inside a directory only root may enter cannot be: then this is skipped, and says why).
  it('a file it may not read: "permission denied", not a bare EACCES', async (ctx) => {
    const asRoot = process.getuid?.() === 0;
    if (asRoot && spawnSync(process.execPath, [BIN, '--version'], { uid: 65534, gid: 65534 }).status !== 0) ctx.skip('the CLI cannot run as nobody from this checkout');
    const out = await cli(...(asRoot ? [{ uid: 65534, gid: 65534 }] : []), 'validate', '--json', at('unreadable.replyscope.ndjson'));
    expect(out.code).toBe(2);
    expect(JSON.parse(out.stdout)).toMatchObject([{ code: 'input.unreadable', message: expect.stringMatching(/^cannot read .*: permission denied \(EACCES\)$/) }]);
  });

  it('--github: each is an error annotation on the file', async () => {
    const runs = await Promise.all(UNREADABLE.map(([, name]) => cli('validate', '--github', at(name))));
    for (const [i, [what, name]] of UNREADABLE.entries()) {
      const out = runs[i];
      expect(out.code, what).toBe(2);
      expect(out.stdout, what).toMatch(new RegExp(`^::error file=${at(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(,line=2)?,title=replyscope input::.+\n$`));
    }
  });

  it('input cut by --timeout before anything arrived is code input.timeout, exit 4', async () => {
    const fifo = at('nobody.fifo');
    await mkfifo(fifo);
    const out = await cli('validate', '--json', '--timeout', '0.3', fifo);
    expect(out.code).toBe(4);
    expect(JSON.parse(out.stdout)).toEqual([{ file: fifo, connection: null, url: null, code: 'input.timeout', severity: 'error', index: 0, message: `nothing arrived on ${fifo} within --timeout 0.3s` }]);
  });

  it('a valid file\'s --json is as it was: the array of its notes and diagnostics', async () => {
    const file = at('ok.sse');
    writeFileSync(file, 'data: {"type":"start"}\n\ndata: {"type":"done","reason":"stop"}\n\n');
    const out = await cli('validate', '--json', file);
    expect(out.code).toBe(0);
    expect(Array.isArray(JSON.parse(out.stdout))).toBe(true);
    expect(out.stderr).toBe('');
  });
});

// replay has no --json (its stdout is the replies' JSON): what it says of input it cannot read, as README's CLI says.
describe('replay: input it cannot read is one line on stderr and exit 2, stdout empty', () => {
  it('the message validate --json puts in the input\'s entry, for each input it cannot read', async () => {
    const runs = await Promise.all(UNREADABLE.map(([, name]) => Promise.all([cli('replay', at(name)), cli('validate', '--json', at(name))])));
    for (const [i, [what]] of UNREADABLE.entries()) {
      const [replay, validate] = runs[i];
      expect(replay, what).toEqual({ code: 2, stdout: '', stderr: `replyscope: ${JSON.parse(validate.stdout)[0].message}\n` });
    }
  });

  it('input cut by --timeout before anything arrived: exit 4; --json is no option of replay (exit 2)', async () => {
    const fifo = at('nobody-replay.fifo');
    await mkfifo(fifo);
    expect(await cli('replay', '--timeout', '0.3', fifo)).toEqual({ code: 4, stdout: '', stderr: `replyscope: nothing arrived on ${fifo} within --timeout 0.3s\n` });
    expect(await cli('replay', '--json', at('prose.txt'))).toEqual({ code: 2, stdout: '', stderr: 'replyscope: unknown option --json for replay (--help for usage)\n' });
  });
});

describe('validate --json prints JSON for a usage error too, --github an annotation', () => {
  it('an unknown option, a bad value, a missing FILE: code cli.usage, exit 2', async () => {
    const cases = [['--json'], ['--json', '--frob', 'x.sse'], ['--fail-on', 'bogus', '--json', 'x.sse'], ['--json', '--ignore', 'nope', 'x.sse'], ['--json', '--github', 'x.sse']];
    const runs = await Promise.all(cases.map((args) => cli('validate', ...args)));
    for (const [i, args] of cases.entries()) {
      const out = runs[i];
      expect(out.code, args.join(' ')).toBe(2);
      const entries = JSON.parse(out.stdout);
      expect(entries).toEqual([{ file: null, connection: null, url: null, code: 'cli.usage', severity: 'error', index: 0, message: expect.any(String) }]);
      expect(out.stderr).toBe(`replyscope: ${entries[0].message}\n`);
    }
    const github = await cli('validate', '--github', '--fail-on', 'bogus', 'x.sse');
    expect(github).toEqual({ code: 2, stdout: '::error title=replyscope usage::--fail-on takes error, warning, info or never (got "bogus")\n',
      stderr: 'replyscope: --fail-on takes error, warning, info or never (got "bogus")\n' });
    // "--json" as an option's value asks for no JSON; without --json or --github, stdout stays empty.
    for (const args of [['--ignore', '--json', 'x.sse'], ['--frob', 'x.sse']]) expect((await cli('validate', ...args)).stdout, args.join(' ')).toBe('');
  });

  it('an internal error is code cli.internal with --json (main.ts prints what failureOutput makes, exit 3)', () => {
    expect(JSON.parse(failureOutput(outputOf(['validate', '--json', 'x.sse']), true, 'internal error: boom')!)).toEqual([
      { file: null, connection: null, url: null, code: 'cli.internal', severity: 'error', index: 0, message: 'internal error: boom' }]);
    expect(failureOutput(outputOf(['validate', '--github', 'x.sse']), true, 'internal error: boom')).toBe('::error title=replyscope internal error::internal error: boom');
    // Only validate has these outputs; after "--", "--json" is a FILE.
    for (const args of [['replay', '--json', 'x'], ['validate', '--', '--json'], ['validate', 'x.sse']]) expect(outputOf(args), args.join(' ')).toBeUndefined();
  });

  it('codes lists the run\'s own failures; --ignore refuses them (ignoring would pass input never checked)', async () => {
    const codes = (await runCli(['codes'], () => new Uint8Array())).stdout;
    for (const code of ['input.unreadable', 'cli.usage', 'cli.internal']) expect(codes).toMatch(new RegExp(`^${code.replace('.', '\\.')} +error +`, 'm'));
    const never = () => {
      throw new Error('no file should be read');
    };
    await expect(runCli(['validate', '--ignore', 'input.unreadable', 'x.sse'], never)).rejects.toThrow('--ignore: input.unreadable says that the run failed');
    await expect(runCli(['validate', '--ignore', 'cli.*', 'x.sse'], never)).rejects.toThrow('--ignore: the codes that start with "cli." say that the run failed');
    // input.* still covers input.timeout, which can be ignored.
    const sse = new TextEncoder().encode('data: {"type":"start"}\n\ndata: {"type":"done","reason":"stop"}\n\n');
    expect((await runCli(['validate', '--ignore', 'input.*', 'x.sse'], () => sse)).exitCode).toBe(0);
  });
});

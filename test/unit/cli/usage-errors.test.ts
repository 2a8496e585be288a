import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../../../src/cli/commands.ts';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');

// Options given wrong, as they are in a CI script: the message names what went wrong, not a symptom of it.
const never = () => {
  throw new Error('no file should be read');
};

describe('usage errors say what the arguments were read as', () => {
  it('an option that took the FILE as its value says so, not only "missing FILE"', async () => {
    await expect(runCli(['validate', '--fail-on', 'capture.replyscope.ndjson'], never))
      .rejects.toThrow('validate: missing FILE (--fail-on took "capture.replyscope.ndjson" as its value; --help for usage)');
    await expect(runCli(['replay', '--reply', 'capture.har'], never)).rejects.toThrow('replay: missing FILE (--reply took "capture.har" as its value;');
    await expect(runCli(['validate'], never)).rejects.toThrow(/^validate: missing FILE \(--help for usage\)$/);
    await expect(runCli(['validate', '--fail-on', 'warning'], never)).rejects.toThrow(/^validate: missing FILE \(--help for usage\)$/);
  });

  it('an option before the command is named as an option, not as an unknown command', async () => {
    await expect(runCli(['--fail-on', 'warning', 'validate', 'x'], never))
      .rejects.toThrow('the command comes first: codes, conformance, replay or validate, then its options (got the option "--fail-on"');
    await expect(runCli(['valdate', 'x'], never)).rejects.toThrow('unknown command "valdate"');
  });

  it('a capture log given to conformance names the commands that read it (it said only where JSON.parse stopped)', async () => {
    const log = readFileSync(path.resolve(import.meta.dirname, '../../../examples/demo.replyscope.ndjson'));
    await expect(runCli(['conformance', 'demo.replyscope.ndjson'], () => log)).rejects.toThrow(
      'demo.replyscope.ndjson is a capture log, not a conformance case: "replyscope validate demo.replyscope.ndjson" checks it');
    await expect(runCli(['conformance', 'x.json'], () => new TextEncoder().encode('{"a":1} x'))).rejects.toThrow(/^x\.json is not JSON: /);
  });

  it('no command: the usage on stderr as it is (it read "replyscope: usage: …"); every note on stderr is its own "replyscope:" line', async () => {
    const none = await run(process.execPath, [BIN]).then(() => null, (e) => e);
    expect(none?.code).toBe(2);
    expect(none.stderr).toMatch(/^usage: replyscope <command> \[options\] FILE\n/);
    // Two notes of replay (a pi body without its request, a reply that never settled): the second read as the first's tail.
    const child = execFile(process.execPath, [BIN, 'replay', '-']);
    const closed = new Promise<string>((resolve) => {
      let stderr = '';
      child.stderr?.on('data', (d) => (stderr += d));
      child.on('close', () => resolve(stderr));
    });
    child.stdin?.end('data: {"type":"start"}\n\n');
    const notes = (await closed).split('\n').filter(Boolean);
    expect(notes).toHaveLength(2);
    for (const n of notes) expect(n).toMatch(/^replyscope: note: /);
  });
});

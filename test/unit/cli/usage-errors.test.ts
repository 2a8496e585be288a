import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../../../src/cli/commands.ts';

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
});

// The real `replyscope` binary run as a child process, for the tests that check what a CI step sees of it: its
// exit code, stdout and stderr, whatever they are.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export const BIN = path.resolve(import.meta.dirname, '../../../bin/replyscope.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `replyscope ...args` to its end (stdout up to 64 MiB); a first argument `{uid, gid}` runs it as that user. */
export const cli = (...args: (string | { uid: number; gid: number })[]): Promise<Run> => {
  const user = typeof args[0] === 'object' ? args.shift() as { uid: number; gid: number } : {};
  return execFileP(process.execPath, [BIN, ...(args as string[])], { maxBuffer: 1 << 26, ...user }).then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }));
};

/** A named pipe at `file` (a CI step's stream that has not ended yet, for --timeout). */
export const mkfifo = (file: string): Promise<unknown> => execFileP('mkfifo', [file]);

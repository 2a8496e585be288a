// `replyscope` — the core in a terminal: conformance runs, replays and validation of captured streams.
// Every failure the user can cause ends in one clear line on stderr and a non-zero exit, never a stack trace.
import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { runCli, CliError, MAX_INPUT_BYTES, tooLarge } from './commands.ts';

const args = process.argv.slice(2);

// A reader that stops early (`replyscope replay … | head`) closes the pipe: that ends the output, it is no error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`replyscope: cannot write the output: ${err.code ?? err.message}\n`);
  process.exit(3);
});

/** Writes `chunk`, waiting while the pipe is full (a large output would otherwise pile up in memory). */
async function write(chunk: string): Promise<void> {
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}

function readInput(path: string): Uint8Array {
  try {
    if (path !== '-') {
      // Refused by its size before it is read: a 600 MiB file took 4 s and 700 MB of memory to be told it is too large.
      const { size } = statSync(path);
      if (size > MAX_INPUT_BYTES) throw tooLarge(path, size);
    }
    return readFileSync(path === '-' ? 0 : path); // "-": standard input (e.g. curl … | replyscope validate -)
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const what = path === '-' ? 'standard input' : path;
    // ERR_FS_FILE_TOO_LARGE: past what one Buffer holds (2 GiB); runCli says the smaller limit for the rest.
    throw new CliError(code === 'ENOENT' ? `no such file: ${path}` : code === 'EISDIR' ? `${what} is a directory, not a file`
      : code === 'ERR_FS_FILE_TOO_LARGE' ? `${what} is larger than one input can hold (512 MiB); split it` : `cannot read ${what}: ${code ?? String(err)}`);
  }
}

/** The package's version (the repository's package.json: the CLI runs from its sources, see bin/replyscope.js). */
function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

try {
  const { stdout, lines, exitCode, stderr } = await runCli(args, readInput, version());
  process.exitCode = exitCode;
  if (stdout) await write(stdout.endsWith('\n') ? stdout : `${stdout}\n`);
  if (lines) for (const line of lines) await write(line);
  if (stderr) process.stderr.write(`replyscope: ${stderr}\n`);
} catch (err) {
  if (err instanceof CliError) {
    process.stderr.write(`replyscope: ${err.message}\n`);
    process.exitCode = err.exitCode;
  } else {
    // An internal bug: still one line for the user, the detail behind an env switch.
    const detail = process.env.REPLYSCOPE_DEBUG ? `\n${(err as Error).stack}` : '';
    process.stderr.write(`replyscope: internal error: ${(err as Error).message ?? String(err)}${detail}\n`);
    process.exitCode = 3;
  }
}

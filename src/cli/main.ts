// `replyscope` — the core in a terminal: conformance runs, replays and validation of captured streams.
// Every failure the user can cause ends in one clear line on stderr and a non-zero exit, never a stack trace.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { runCli, CliError, outputOf } from './commands.ts';
import { readInput } from './read-input.ts';
import { failureOutput } from './run-errors.ts';

const args = process.argv.slice(2);

/** The reader of standard output has gone (see below): what is left to write goes nowhere. */
let outputClosed = false;

// A reader that stops early (`replyscope replay … | head`) closes the pipe: that ends the output, it is no error. A
// run whose exit code is known by then ends at once with it; one that does not know it yet — validate of several
// files writes each file's section as it goes, and its code is the worst of all of them — goes on without an output,
// so that `validate *.ndjson | head -1` still fails on a broken file, the files after the close included.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') {
    if (process.exitCode !== undefined) process.exit(process.exitCode);
    outputClosed = true;
    return;
  }
  process.stderr.write(`replyscope: cannot write the output: ${err.code ?? err.message}\n`);
  process.exit(3);
});

/** Writes `chunk`, waiting while the pipe is full (a large output would otherwise pile up in memory). */
async function write(chunk: string): Promise<void> {
  if (outputClosed || process.stdout.write(chunk)) return;
  try {
    await once(process.stdout, 'drain');
  } catch (err) {
    if (!outputClosed) throw err; // (`once` rejects on the stream's error: EPIPE is the end of the output, see above)
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

/**
 * `replyscope validate -` typed without a pipe waits on the terminal, silently: the user saw nothing happen. One line
 * on stderr says what it waits for and how to end it (canonical mode: Ctrl-D at a line's start is the end of input).
 */
function terminalHint(): void {
  const end = process.platform === 'win32' ? 'Ctrl-Z then Enter' : 'Ctrl-D on a line of its own';
  process.stderr.write(`replyscope: reading the input from the terminal: paste it, then press ${end} (or pipe it in: curl -sN URL | replyscope ${args[0]} -)\n`);
}

/**
 * Notes and messages on stderr: each its own "replyscope: " line (a second note read as the first one's continuation).
 */
function writeStderr(text: string): void {
  process.stderr.write(text.split('\n').map((l) => `replyscope: ${l}\n`).join(''));
}

try {
  const { stdout, lines, exitCode, stderr, usage } = await runCli(args, (path, timeout) => readInput(path, { timeout, onTerminal: terminalHint }), version(),
    { cwd: process.cwd(), githubWorkspace: process.env.GITHUB_WORKSPACE, write: async (part) => {
      // A part made before the end (validate's section of one of several files): its message next to it.
      await write(part.stdout);
      if (part.stderr) writeStderr(part.stderr);
    } });
  process.exitCode = exitCode;
  if (stdout) await write(stdout.endsWith('\n') ? stdout : `${stdout}\n`);
  if (lines) for (const line of lines) await write(line);
  if (stderr) writeStderr(stderr);
  if (usage) process.stderr.write(`${usage}\n`); // as it is (it read "replyscope: usage: replyscope <command>…")
} catch (err) {
  const internal = !(err instanceof CliError);
  // An internal bug: still one line for the user, the detail behind an env switch.
  const message = internal ? `internal error: ${(err as Error)?.message ?? String(err)}` : err.message;
  const detail = internal && process.env.REPLYSCOPE_DEBUG ? `\n${(err as Error)?.stack}` : '';
  process.stderr.write(`replyscope: ${message}${detail}\n`);
  process.exitCode = internal ? 3 : err.exitCode;
  // With --json, stdout is JSON on every run (a step that parses it got a parse error instead of this message); with
  // --github, an annotation says it in the run's summary.
  const out = failureOutput(outputOf(args), internal, message);
  if (out) await write(`${out}\n`);
}

// `replyscope` — the core in a terminal: conformance runs, replays and validation of captured streams.
// Every failure the user can cause ends in one clear line on stderr and a non-zero exit, never a stack trace.
import { readFileSync } from 'node:fs';
import { runCli, CliError } from './commands.ts';

const args = process.argv.slice(2);

try {
  const { stdout, exitCode, stderr } = await runCli(args, (path) => {
    try {
      return readFileSync(path === '-' ? 0 : path); // "-": standard input (e.g. curl … | replyscope validate -)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path === '-' ? 'standard input' : path}: ${code ?? String(err)}`);
    }
  });
  if (stdout) process.stdout.write(stdout.endsWith('\n') ? stdout : `${stdout}\n`);
  if (stderr) process.stderr.write(`replyscope: ${stderr}\n`);
  process.exitCode = exitCode;
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

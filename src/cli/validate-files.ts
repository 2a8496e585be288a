// `replyscope validate FILE…`: several inputs in one run (`validate captures/*.replyscope.ndjson` in CI), each read,
// checked and let go in turn — one input at a time in memory, as a loop in the shell would. The outputs:
// - --json: one array of every file's entries, each with "file" (the argument as given, "-" for standard input) —
//   the shape one file gives, so a step parses it alike whether the glob matched one file or twenty;
// - the text report: one file's as it was; several, each under a "==> FILE <==" line (as `tail` heads its files),
//   written as soon as that file is checked, then one line of totals; --github adds each file's annotations after its
//   report (they name their file);
// - the exit code: the worst of the files' (EXIT_ORDER).
import { CliError } from './cli-error.ts';
import { annotationPath, inputAnnotation } from './github-annotations.ts';
import { EXIT_TIMEOUT, TIMEOUT_CODE } from './input-cut.ts';
import { printable } from './printable.ts';
import { errorEntry, UNREADABLE_CODE } from './run-errors.ts';
import { plural, type ValidateOptions, type ValidateReport } from './validate.ts';

/**
 * Exit codes from the least to the worst: a run of several files exits with its worst file's. A file it could not read
 * (2) is worse than one that failed --fail-on (1): the run did not check everything it was given. A failure (1) wins
 * over a cut (4), as in one file. (3, an internal error, ends the run where it happens.)
 */
export const EXIT_ORDER = [0, EXIT_TIMEOUT, 1, 2, 3] as const;

export function worstExit(a: number, b: number): number {
  return EXIT_ORDER.indexOf(b as (typeof EXIT_ORDER)[number]) > EXIT_ORDER.indexOf(a as (typeof EXIT_ORDER)[number]) ? b : a;
}

/** A part of the run's output, written as soon as it is made: stdout as it is, stderr a message a line. */
export interface OutputPart {
  stdout: string;
  stderr?: string;
}

export interface ValidateEnv {
  cwd?: string;
  githubWorkspace?: string;
  /**
   * Writes a part of the output at once (main.ts). Several files in the text report: each file's section goes as soon
   * as that file is checked — a run over twenty captures, or one over a stream still arriving, showed nothing until
   * the last was done. Without it (tests in-process) the sections are in the result's stdout, as they would be written.
   */
  write?: (part: OutputPart) => Promise<void>;
}

/** One file's outcome: what validate found, or why it could not be read. */
type FileOutcome = { path: string; annotated: string | undefined } & ({ report: ValidateReport } | { error: CliError });

/** The code of input that could not be read: input.timeout when --timeout cut it (exit 4), else input.unreadable. */
const errorCode = (err: CliError) => (err.exitCode === EXIT_TIMEOUT ? TIMEOUT_CODE : UNREADABLE_CODE);

/**
 * Validates `files` in turn with `check` (which reads one, or throws a CliError for input it cannot read; --timeout
 * bounds each read on its own) and makes the run's output. One file in the text report without --github: its error is
 * thrown, as ever (one line on stderr, stdout empty).
 */
export async function validateFiles(files: readonly string[], opts: ValidateOptions, env: ValidateEnv,
  check: (path: string, opts: ValidateOptions) => Promise<ValidateReport>): Promise<{ stdout: string; exitCode: number; stderr?: string }> {
  const several = files.length > 1;
  // --json is one array, made at the end; one file's report is all the output there is.
  const write = several && !opts.json ? env.write : undefined;
  const outcomes: FileOutcome[] = [];
  const sections: string[] = [];
  const errors: string[] = [];
  let cut = 0; // of `errors`: inputs --timeout cut (no file missing: they waited too long)
  let exitCode = 0;
  const counts = { error: 0, warning: 0, info: 0 };
  let ignored = 0;
  for (const path of files) {
    // How annotations name it: from the repository's checkout (stdin has no file to show them on).
    const annotated = path === '-' ? undefined : env.cwd === undefined ? path : annotationPath(path, env.cwd, env.githubWorkspace);
    let outcome: FileOutcome;
    try {
      outcome = { path, annotated, report: await check(path, { ...opts, ...(annotated !== undefined ? { file: annotated } : {}) }) };
    } catch (err) {
      if (!(err instanceof CliError) || (!several && !opts.json && !opts.github)) throw err;
      outcome = { path, annotated, error: err };
    }
    exitCode = worstExit(exitCode, 'error' in outcome ? outcome.error.exitCode : outcome.report.exitCode);
    if ('error' in outcome) {
      errors.push(outcome.error.message);
      if (outcome.error.exitCode === EXIT_TIMEOUT) cut++;
    }
    else {
      for (const s of ['error', 'warning', 'info'] as const) counts[s] += outcome.report.counts[s];
      ignored += outcome.report.ignored;
    }
    if (!several || opts.json) outcomes.push(outcome); // (their output is made at the end)
    else if (write) await write({ stdout: `${section(outcome, opts)}\n\n`, ...('error' in outcome ? { stderr: outcome.error.message } : {}) });
    else sections.push(section(outcome, opts)); // (its text alone is kept, not its entries)
  }
  const stderr = errors.length && !write ? { stderr: errors.join('\n') } : {};
  if (opts.json) {
    const entries = outcomes.flatMap((o) => ('error' in o ? [{ file: o.path, ...errorEntry(errorCode(o.error), o.error.message, o.error.line) }]
      : o.report.entries.map((e) => ({ file: o.path, ...e }))));
    return { stdout: JSON.stringify(entries, null, 2), exitCode, ...stderr };
  }
  if (!several) {
    const [o] = outcomes;
    return { stdout: 'error' in o ? failed(o, opts, false) : o.report.text, exitCode, ...stderr };
  }
  const total = `${files.length} files: ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info` +
    `${ignored ? ` (${ignored} ignored)` : ''}${errors.length > cut ? `; ${plural(errors.length - cut, 'file')} could not be read` : ''}` +
    `${cut ? `; ${plural(cut, 'input')} cut by --timeout` : ''}`;
  return { stdout: sections.map((s) => `${s}\n\n`).join('') + total, exitCode, ...stderr };
}

/** An input it could not read: a line of the report (several files), its annotation (--github). */
function failed(o: FileOutcome & { error: CliError }, opts: ValidateOptions, several: boolean): string {
  return [
    ...(several ? [printable(`error (${errorCode(o.error)}): ${o.error.message}`)] : []),
    ...(opts.github ? [inputAnnotation(o.error, o.annotated)] : []),
  ].join('\n');
}

/** One file's part of the report of several: its "==> FILE <==" line (as `tail` heads its files), then its report. */
function section(o: FileOutcome, opts: ValidateOptions): string {
  return `${printable(`==> ${o.path === '-' ? 'stdin' : o.path} <==`)}\n${'error' in o ? failed(o, opts, true) : o.report.text}`;
}

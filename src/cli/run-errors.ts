// A run that failed — input it cannot read, a usage error, an internal error — in the output a CI step parses. With
// --json, stdout was empty then, and the step's `JSON.parse` (or `jq`) failed with a parse error of its own instead of
// saying why; with --github a usage error showed nowhere in the run's summary. Each is now an entry of the --json array
// (the shape of a note of no connection, at severity "error", with a code of its own) or an error annotation; the
// message still goes to stderr and the exit code stays.
import type { DiagnosticDoc } from '../core/diagnostics/types.ts';
import { annotate } from './github-annotations.ts';

export const UNREADABLE_CODE = 'input.unreadable';
export const USAGE_CODE = 'cli.usage';
export const INTERNAL_CODE = 'cli.internal';

/** The codes of a run's own failure: told in --json and by `replyscope codes`, never left out by --ignore. */
export const RUN_ERROR_DOCS: readonly DiagnosticDoc[] = [
  {
    code: UNREADABLE_CODE,
    severity: 'error',
    title: 'The input could not be read',
    explanation:
      'FILE could not be read, or is no input the CLI reads: a missing file, a directory, a file it may not read, an ' +
      'empty one, one past 512 MiB, a capture log or HAR that breaks its format, text that is none of the formats. ' +
      'Nothing of it was checked (the other FILEs of the run are). --json has it as the file\'s one entry ("file": ' +
      'FILE, "connection": null, "line" when a line is at fault), --github as an error annotation; the message goes ' +
      'to stderr too, and the run exits 2. --ignore cannot leave it out.',
  },
  {
    code: USAGE_CODE,
    severity: 'error',
    title: 'The command line could not be used',
    explanation:
      'An unknown option, a bad option value, a missing FILE: nothing was read. With --json it is the one entry of ' +
      'the run ("file": null), with --github an error annotation; the message goes to stderr too, and the run exits 2.',
  },
  {
    code: INTERNAL_CODE,
    severity: 'error',
    title: 'An internal error',
    explanation:
      'A bug in replyscope, not in the input: with --json the one entry of the run ("file": null), with --github an error ' +
      'annotation; the message goes to stderr (REPLYSCOPE_DEBUG=1 adds the stack trace), and the run exits 3.',
  },
];

/** Codes --ignore refuses: they say the run failed, not what the input holds. */
export const UNIGNORABLE_CODES: ReadonlySet<string> = new Set(RUN_ERROR_DOCS.map((d) => d.code));

/** A run's failure as a --json entry: the shape of a note of no connection ("file" is added by the caller). */
export function errorEntry(code: string, message: string, line?: number): Record<string, unknown> {
  return { connection: null, url: null, code, severity: 'error', index: 0, message, ...(line !== undefined ? { line } : {}) };
}

/**
 * What a failure thrown out of the run (a usage or an internal error) prints on stdout in the output asked for: the
 * --json array of one entry, or an annotation (it has no file to be on). Undefined in the text report (stderr says it).
 */
export function failureOutput(output: 'json' | 'github' | undefined, internal: boolean, message: string): string | undefined {
  if (output === 'json') return JSON.stringify([{ file: null, ...errorEntry(internal ? INTERNAL_CODE : USAGE_CODE, message) }], null, 2);
  if (output === 'github') return annotate('error', internal ? 'replyscope internal error' : 'replyscope usage', message, undefined, undefined);
  return undefined;
}

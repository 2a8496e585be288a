// GitHub Actions annotations (`::error file=…,line=…,title=…::message`, a workflow command on standard output): what
// `validate --github` prints, shown on the run's summary and, for a file in the repository, on that file's line.
// Split from validate.ts.
import type { Severity } from '../core/diagnostics/types.ts';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** GitHub's workflow-command escaping (data; properties escape `:` and `,` too). */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * One annotation at `severity` (info is a `notice`). `file=…,line=…`: a line only with a file (standard input has none
 * to show it on).
 */
export function annotate(severity: Severity, title: string, text: string, file: string | undefined, line: number | undefined): string {
  const place = file === undefined ? [] : [`file=${escapeProperty(file)}`, ...(line !== undefined ? [`line=${line}`] : [])];
  return `::${COMMAND[severity]} ${[...place, `title=${escapeProperty(title)}`].join(',')}::${escapeData(text)}`;
}

/** The error annotation of input that could not be read (on its line when known). */
export function inputAnnotation(err: { message: string; line?: number }, file: string | undefined): string {
  return annotate('error', 'replyscope input', err.message, file, err.line);
}

// GitHub Actions annotations (`::error file=…,line=…,title=…::message`, a workflow command on standard output): what
// `validate --github` prints, shown on the run's summary and, for a file in the repository, on that file's line.
// Split from validate.ts.
import path from 'node:path';
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

/**
 * FILE as an annotation names it: GitHub puts an annotation on a file only by its path from the repository's checkout
 * (GITHUB_WORKSPACE), with "/" — `captures/x.ndjson` given in a step with `working-directory: app`, `./x.ndjson` or an
 * absolute path under the checkout put it on no file. Outside a workflow, the path from the working directory. A file
 * outside both keeps the path given (there is no file of the repository to show it on).
 */
export function annotationPath(file: string, cwd: string, workspace: string | undefined): string {
  const rel = path.relative(path.resolve(workspace || cwd), path.resolve(cwd, file));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return file;
  return rel.split(path.sep).join('/');
}

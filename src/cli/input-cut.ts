// An input --timeout cut before it ended: what the CLI says of it, and its exit code. A CI job that pipes a live
// stream in (`curl -N … | replyscope validate --timeout 2m -`) gets a report of what arrived and a distinct exit code,
// so that a hung agent is told apart from an invalid stream — and a stream that is not meant to end (an idle session
// stream) can be checked for a while with `--ignore input.timeout`.
import type { ConnectionView } from '../core/analysis/types.ts';
import type { InputFormat } from '../core/capture/load-input.ts';
import type { DiagnosticDoc } from '../core/diagnostics/types.ts';
import { CliError } from './cli-error.ts';
import type { InputCut } from './read-input.ts';
import { RUN_ERROR_DOCS } from './run-errors.ts';

/** The exit code of a run whose input --timeout cut (unless validate found what --fail-on names: 1). */
export const EXIT_TIMEOUT = 4;

export const TIMEOUT_CODE = 'input.timeout';

/**
 * Codes only the CLI tells (the panel reads no input with a timeout, and has no run to fail); `replyscope codes` lists
 * them with the rest.
 */
export const CLI_DIAGNOSTIC_DOCS: readonly DiagnosticDoc[] = [
  {
    code: TIMEOUT_CODE,
    severity: 'error',
    title: 'The input was cut by --timeout',
    explanation:
      'The input had not ended when --timeout elapsed: the CLI stopped reading and checked what had arrived. A stream ' +
      'still open is not checked for how it ends (a reply that never ended, a pi stream without done or error) — it ' +
      'had not ended. The run exits 4 (1 when what arrived fails --fail-on); --ignore input.timeout makes the cut no ' +
      'failure, for a stream that is not meant to end.',
  },
  ...RUN_ERROR_DOCS,
];

const bytesText = (n: number) => `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`;

/** What arrived and when, for the messages: "12,345 bytes arrived, none in the last 28.1 s" (a quiet agent, or a slow one). */
function arrival(cut: InputCut, bytes: number): string {
  if (cut.lastDataMs === undefined) return 'nothing arrived';
  const quiet = (cut.timeout.ms - cut.lastDataMs) / 1000;
  return `${bytesText(bytes)} arrived, ${quiet >= 0.05 ? `none in the last ${quiet.toFixed(1)} s` : 'still arriving at the cut'}`;
}

/**
 * The note on a run whose input was cut: what arrived, and — `for` validate — what is checked and what is not, or —
 * for replay — what the replies printed are.
 */
export function cutNote(cut: InputCut, bytes: Uint8Array, format: InputFormat, conns: readonly ConnectionView[], purpose: 'validate' | 'replay'): string {
  const open = conns.filter((c) => c.state === 'live' || c.state === 'open').length;
  const streams = open === 1 ? 'the stream still open' : `the ${open} streams still open`;
  const said = purpose === 'replay'
    ? `The replies are printed as they stood then${open === 0 ? '.' : `: those of ${streams} had not ended (a pi message's stopReason "stop" is its initial value).`}`
    : open === 0 ? 'What arrived is checked.' : `What arrived is checked, not how ${streams} ${open === 1 ? 'ends' : 'end'} (a reply that never ended, a missing done or error).`;
  // A line format's last line without its line end is not read (see LoadOptions.unended); a JSON document is whole or bad.
  const unfinished = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a && format !== 'har' && format !== 'json-events';
  return `the input was cut by --timeout ${cut.timeout.text} before it ended: ${arrival(cut, bytes.length)}. ${said}` +
    (unfinished ? ' Its last line, unfinished, is left unread.' : '');
}

/** Input that could not be read after a cut: most likely cut in the middle (a JSON document), so the cut is the cause. */
export function cutLoadError(err: CliError, cut: InputCut, bytes: Uint8Array, name: string): CliError {
  if (bytes.length === 0) {
    return new CliError(`nothing arrived on ${name === 'stdin' ? 'standard input' : name} within --timeout ${cut.timeout.text}`, EXIT_TIMEOUT);
  }
  return new CliError(`${err.message} — the input was cut by --timeout ${cut.timeout.text} before it ended (${arrival(cut, bytes.length)})`, EXIT_TIMEOUT, err.line);
}

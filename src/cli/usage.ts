// `replyscope --help`: the usage. Split from commands.ts; README's CLI section says the same at length.
export const USAGE = `usage: replyscope <command> [options] FILE

commands:
  conformance CASE.json [--timeout DURATION]
                                 run a conformance case (AgentScope or pi) and print the output object as JSON
  replay FILE [--steps] [--reply ID] [--timeout DURATION]
                                 print the reconstructed messages of every reply found in FILE as JSON
                                 (--steps: the message after every step, one NDJSON line per step)
  validate FILE... [--json | --github] [--fail-on LEVEL] [--ignore CODES] [--timeout DURATION]
                                 print diagnostics; exit 1 when any has severity "error" (--fail-on warning|info:
                                 at that severity or above; never: only bad input or a cut fails). --ignore CODE,… (or
                                 PREFIX.*, repeatable) leaves those diagnostics out of the output and the exit code;
                                 --github adds one GitHub Actions annotation per diagnostic, on the input's line
                                 (its file relative to GITHUB_WORKSPACE); --json: one array of them, each with its
                                 "file", on every run (input it cannot read, a usage error: one entry, code
                                 input.unreadable, cli.usage). Several FILEs are checked in turn: the text report
                                 puts each under a "==> FILE <==" line, written once that file is checked, and
                                 ends with the totals
  codes                          list every diagnostic code with its severity and title

FILE: a JSON array of events, {"events": [...]}, NDJSON, raw SSE text, a Replyscope capture log, or a HAR file
(up to 512 MiB); "-" reads standard input, once (also after "--", where every other argument is a FILE). Options take
their value as "--fail-on warning" or "--fail-on=warning". --help (or -h) with any command prints this; --version.

--timeout DURATION (conformance, replay, validate): stop reading an input that has not ended by then — standard
input, a named pipe — and report what arrived, as cut (code input.timeout); each FILE gets the whole DURATION.
DURATION: seconds (30) or with a unit (500ms, 30s, 2m, 1h). A stream still open is not checked for how it ends. A
regular file is read at once.

exit codes: 0 ok; 1 validate found what --fail-on names; 2 bad input or usage; 3 an internal error or the output
could not be written (REPLYSCOPE_DEBUG=1 adds the stack trace); 4 --timeout cut the input (after the report of
what arrived; 1 instead when that fails --fail-on; --ignore input.timeout: no failure). Several FILEs: the worst
of theirs, from the worst: 3, 2, 1, 4, 0.`;

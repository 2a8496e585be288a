// The CLI's commands as a pure function of (arguments, file reader) → output, so tests run them in-process.
import { runAgentScopeCase } from '../core/agentscope/conformance.ts';
import { runPiCase } from '../core/pi/conformance.ts';
import { loadInputDetailed, InputError, MAX_INPUT_BYTES, type InputFormat } from '../core/capture/load-input.ts';
import { CaptureAnalyzer } from '../core/analysis/analyze.ts';
import { looksLikeCaptureLog } from '../core/capture/capture-log.ts';
import type { ConnectionView } from '../core/analysis/types.ts';
import { jsonText } from '../core/json-text.ts';
import { CliError } from './cli-error.ts';
import { DiagnosticLines } from './diagnostic-lines.ts';
import { isDuration, timeoutOf, type Timeout } from './duration.ts';
import { cutLoadError, cutNote, EXIT_TIMEOUT, TIMEOUT_CODE } from './input-cut.ts';
import type { InputCut, InputRead } from './read-input.ts';
import { replayNotes } from './replay-notes.ts';
import { USAGE } from './usage.ts';
import { codes, type InputNote, validate, validateOptions } from './validate.ts';
import { validateFiles, type ValidateEnv } from './validate-files.ts';

export { CliError, USAGE };

/** Reads FILE ("-": standard input) within the timeout: main.ts's readInput, or a test's reader of bytes alone. */
export type ReadFile = (path: string, timeout: Timeout | undefined) => Uint8Array | InputRead | Promise<Uint8Array | InputRead>;

export { MAX_INPUT_BYTES };

interface Parsed {
  command: string;
  /** The FILE arguments, in order: one for conformance and replay, one or more for validate, none for codes. */
  files: string[];
  flags: Map<string, string | true>;
}

const KNOWN_FLAGS: Record<string, { takesValue: boolean; commands: string[] }> = {
  '--steps': { takesValue: false, commands: ['replay'] },
  '--reply': { takesValue: true, commands: ['replay'] },
  '--json': { takesValue: false, commands: ['validate'] },
  '--fail-on': { takesValue: true, commands: ['validate'] },
  '--ignore': { takesValue: true, commands: ['validate'] },
  '--github': { takesValue: false, commands: ['validate'] },
  '--timeout': { takesValue: true, commands: ['conformance', 'replay', 'validate'] },
};

/** Options that may be given more than once (their values are joined with commas). */
const REPEATABLE = new Set(['--ignore']);

const COMMANDS = ['codes', 'conformance', 'replay', 'validate'];

function parseArgs(args: string[]): Parsed {
  const [command, ...rest] = args;
  if (!COMMANDS.includes(command)) {
    // "replyscope --fail-on warning validate FILE": an option where the command goes.
    if (command.startsWith('-')) throw new CliError(`the command comes first: codes, conformance, replay or validate, then its options (got the option "${command}"; --help for usage)`);
    throw new CliError(`unknown command "${command}" (expected codes, conformance, replay or validate; --help for usage)`);
  }
  const flags = new Map<string, string | true>();
  const files: string[] = [];
  let options = true; // until "--": after it, every argument is a FILE (even one that starts with "-")
  let took: string | undefined; // the last option that took the next argument as its value
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (options && a === '--') options = false;
    else if (options && a.startsWith('-') && a !== '-' && !a.startsWith('--')) throw new CliError(`unknown option ${a} for ${command} (--help for usage)`);
    else if (options && a.startsWith('--')) {
      // "--fail-on=warning" is "--fail-on warning" (both forms are common in CI scripts).
      const eq = a.indexOf('=');
      if (eq > 2) {
        const name = a.slice(0, eq);
        if (KNOWN_FLAGS[name]?.takesValue === false) throw new CliError(`option ${name} takes no value (got "${a}")`);
        rest.splice(i, 1, name, a.slice(eq + 1));
        i--;
        continue;
      }
      const spec = KNOWN_FLAGS[a];
      if (!spec || !spec.commands.includes(command)) throw new CliError(`unknown option ${a} for ${command} (--help for usage)`);
      if (spec.takesValue) {
        const v = rest[++i];
        if (v === undefined) throw new CliError(`option ${a} needs a value`);
        // (A level after --fail-on, a duration after --timeout, is what it should take: then FILE is simply missing.)
        const fits = a === '--fail-on' ? ['error', 'warning', 'info', 'never'].includes(v) : a === '--timeout' && isDuration(v);
        took = fits ? undefined : `${a} took "${v}" as its value`;
        const before = flags.get(a);
        if (before !== undefined && !REPEATABLE.has(a)) throw new CliError(`option ${a} given twice`);
        flags.set(a, typeof before === 'string' ? `${before},${v}` : v);
      } else flags.set(a, true);
    } else if (command === 'codes') throw new CliError(`codes takes no FILE (got "${a}")`);
    // Standard input is read to its end: a second "-" would read nothing (and say that it holds no stream).
    else if (a === '-' && files.includes('-')) throw new CliError('"-" (standard input) is given twice: it can be read once');
    else files.push(a);
  }
  if (command === 'codes') return { command, files, flags };
  // "validate --fail-on FILE" (the level forgotten) read FILE as the level and then said only "missing FILE".
  if (files.length === 0) throw new CliError(`${command}: missing FILE (${took ? `${took}; ` : ''}--help for usage)`);
  // validate checks each FILE on its own (`validate captures/*.ndjson`). replay's output is one capture's connections,
  // named by their ids in it, and conformance's one case's output object: one file each (a loop in the shell).
  if (files.length > 1 && command !== 'validate') {
    const got = `got ${files.length}: ${files.slice(0, 3).map((f) => `"${f}"`).join(', ')}${files.length > 3 ? ', …' : ''}`;
    throw new CliError(command === 'replay'
      ? `replay reads one FILE (${got}): its output is one capture's connections, by their ids in it — run it once per file (validate takes several)`
      : `conformance runs one CASE.json (${got}): its output is that case's object — run it once per case`);
  }
  return { command, files, flags };
}

/**
 * The output a run asked for, read from its arguments as parseArgs reads them (an option's value is no option), for a
 * failure thrown before or outside the run — a usage or an internal error (see run-errors.ts).
 */
export function outputOf(args: readonly string[]): 'json' | 'github' | undefined {
  if (args[0] !== 'validate') return undefined;
  let output: 'json' | 'github' | undefined;
  for (let i = 1; i < args.length && args[i] !== '--'; i++) {
    const a = args[i];
    if (a === '--json') output = 'json'; // (with --github too, a usage error: JSON is what a parser reads)
    else if (a === '--github' && output === undefined) output = 'github';
    else if (KNOWN_FLAGS[a]?.takesValue) i++;
  }
  return output;
}

function decodeJson(bytes: Uint8Array, path: string): unknown {
  const text = new TextDecoder().decode(bytes);
  try {
    return JSON.parse(text);
  } catch (err) {
    // A capture handed to the wrong command was told only "Unexpected non-whitespace character after JSON at position 157".
    if (looksLikeCaptureLog(text)) throw new CliError(`${path} is a capture log, not a conformance case: "replyscope validate ${path}" checks it, "replyscope replay ${path}" prints its replies`);
    throw new CliError(`${path} is not JSON: ${(err as Error).message}`);
  }
}

interface Analysis {
  conns: ConnectionView[];
  /** The notes of no connection: import notes, what the page opened that was not captured, a --timeout cut. */
  notices: InputNote[];
  format: InputFormat;
  /** validate's: the input's line of each diagnostic, where the input has lines (capture log, SSE, NDJSON). */
  lines?: DiagnosticLines;
  /** Page boundaries ("Preserve log"): the connections from index `before` on came after a navigation to `url`. */
  navigations?: readonly { t: number; url: string; before: number }[];
}

/**
 * The file's connections and notes. `cut`: --timeout cut the input, which had not ended — its streams are read as
 * still open, and a note says so; input that cannot be read then is told as cut (exit 4).
 */
function loadAnalysis(bytes: Uint8Array, path: string, cut: InputCut | undefined, purpose: 'validate' | 'replay'): Analysis {
  try {
    const analyzer = new CaptureAnalyzer();
    const loaded = loadInputDetailed(bytes, path, { unended: cut !== undefined });
    const { records } = loaded.capture;
    let lines: DiagnosticLines | undefined;
    if (purpose === 'validate' && loaded.recordLines) lines = DiagnosticLines.ofCaptureLog(records, loaded.recordLines, analyzer); // (pushes them)
    else analyzer.push(records);
    if (purpose === 'validate' && (loaded.format === 'sse' || loaded.format === 'ndjson')) lines = DiagnosticLines.ofBody(records);
    const conns = analyzer.connections();
    const notices: InputNote[] = analyzer.notices().map((n) => ({ text: n.text, level: n.level }));
    if (cut) notices.unshift({ text: cutNote(cut, bytes, loaded.format, conns, purpose), level: 'error', code: TIMEOUT_CODE });
    const navigations = analyzer.navigations();
    return { conns, notices, format: loaded.format, ...(lines ? { lines } : {}), ...(navigations.length ? { navigations } : {}) };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    const error = new CliError(err.message.startsWith(path) ? err.message : `${path}: ${err.message}`, 2, err.line);
    throw cut ? cutLoadError(error, cut, bytes, path) : error;
  }
}

function conformance(bytes: Uint8Array, path: string, cut: InputCut | undefined): string {
  let c: unknown;
  try {
    c = decodeJson(bytes, path);
  } catch (err) {
    throw cut && err instanceof CliError ? cutLoadError(err, cut, bytes, path) : err;
  }
  if (typeof c !== 'object' || c === null || Array.isArray(c)) {
    throw new CliError(`${path}: not a conformance case (expected a JSON object with "reply"/"client" and "events")`);
  }
  // Which runner reads it is told by these keys alone: without either, the AgentScope runner's complaint about
  // `reply` misled whoever wrote a pi case and forgot `client`.
  if (!('client' in c) && !('reply' in c)) {
    throw new CliError(`${path}: not a valid conformance case: it has neither "client" (a pi case: what the client sent, {model, context}) nor "reply" (an AgentScope case)`);
  }
  try {
    return JSON.stringify('client' in c ? runPiCase(c) : runAgentScopeCase(c), null, 1);
  } catch (err) {
    // The runners throw only for malformed cases; say what is wrong with the file in one line.
    throw new CliError(`${path}: not a valid conformance case: ${(err as Error).message}`);
  }
}

function replay(all: ConnectionView[], replyId: string | undefined): string {
  // With --reply, only the connection(s) that have it (the others were listed with "replies": []).
  const conns = replyId === undefined ? all : all.filter((c) => c.replies.some((r) => r.id === replyId));
  const out = conns.map((c) => ({
    connection: c.record.id,
    url: c.record.url,
    dialect: c.dialect,
    // A request that resumed an earlier stream (Last-Event-ID): the connection it continues and from which id; `query`:
    // the URL's query parameter that sent the id (no such header).
    resumes: c.resumes?.conn !== undefined ? { connection: c.resumes.conn, lastEventId: c.resumes.eventId, query: c.resumes.query } : undefined,
    replies: c.replies
      .filter((r) => replyId === undefined || r.id === replyId)
      .map((r) => ({
        id: r.id,
        name: r.name,
        orphan: r.orphan || undefined,
        // Began before the memory cap (or Clear) evicted the connection's head: `events` counts the kept ones, `final` continues
        // the digest's message (see evictionNote).
        continuesEviction: r.continuesEviction || undefined,
        // Began on the connection this one resumes: `final` is the page's whole message, `events` counts those here.
        continuesConnection: r.continuesConnection,
        events: r.eventIndices.length,
        // The client's message once the connection ended (a pi client failed by an abort), else after the last event.
        // null, not a key left out, when the client has no message (a pi `start` whose `partial` is null), as the
        // panel's messages export writes it: a consumer reading `.final` finds the key on every reply.
        final: (r.afterEnd ? r.afterEnd.message : r.history.length > 0 ? r.history.at(r.history.length - 1) : r.history.initial) ?? null,
      })),
  }));
  // A message may hold a value nested too deep for JSON.stringify (a legacy AgentScope stream's metadata): jsonText.
  return jsonText(out, 2) as string;
}

/**
 * `replay --steps`: the message after every step, one NDJSON line per step, written as it is made. Every step holds
 * the whole message, so the output grows with steps × message size: as one JSON document it passed V8's string limit
 * on a reply of ~12,000 deltas (a 1.3 MB stream); line by line it streams, and `head`/`jq` can stop early.
 */
function* replaySteps(conns: ConnectionView[], replyId: string | undefined): Generator<string> {
  for (const c of conns) {
    for (const r of c.replies) {
      if (replyId !== undefined && r.id !== replyId) continue;
      for (let k = 0; k < r.eventIndices.length; k++) {
        const message = k < r.history.evictedBefore ? null : r.history.at(k) ?? null; // steps before an eviction are gone
        yield `${jsonText({ connection: c.record.id, reply: r.id, step: k, event: r.eventIndices[k], message }) as string}\n`;
      }
    }
  }
}

/** How many reply ids the message of an unknown --reply lists before it counts the rest. */
const REPLY_IDS_LISTED = 10;

function checkReply(conns: ConnectionView[], replyId: string | undefined): void {
  if (replyId !== undefined && !conns.some((c) => c.replies.some((r) => r.id === replyId))) {
    const ids = conns.flatMap((c) => c.replies.map((r) => r.id));
    // An id as the panel's reply list shows it, cut ("85ee21c17…"), or typed short as a commit hash is: the one it
    // starts, named — the list alone left it to be found among the others, and past the first ten not at all.
    const start = replyId.replace(/…$/, '');
    const starts = start === '' ? [] : ids.filter((id) => id.startsWith(start));
    if (starts.length === 1) throw new CliError(`no reply with id "${replyId}" — did you mean ${starts[0]}? (--reply takes the whole id)`);
    const listed = starts.length > 1 ? starts : ids;
    const more = listed.length - REPLY_IDS_LISTED;
    const known = ids.length === 0
      ? 'the input has no replies'
      : `its replies${starts.length > 1 ? ` that start with "${start}"` : ''}: ${listed.slice(0, REPLY_IDS_LISTED).join(', ')}` +
        `${more > 0 ? ` and ${more} more (replay without --reply lists them all)` : ''}`;
    throw new CliError(`no reply with id "${replyId}" (${known})`);
  }
}

/**
 * How to split an input too large for one string. A capture log's chunk records need their connection's record
 * before them (a part cut at any line after the header is refused: "chunk record for connection …, which no earlier
 * line declares"), so it is split by connection, each part beginning with the header line.
 */
export const SPLIT_ADVICE = 'split it — a capture log by connection (the header line, then whole connections\' lines, in each part), ' +
  'an SSE body at a blank line';

/** The input is larger than one string holds: said before reading it when its size is known (a file, not a pipe). */
export function tooLarge(file: string, size: number): CliError {
  return new CliError(`${file} is ${(size / 2 ** 20).toFixed(0)} MiB: more than one input can hold (${Math.round(MAX_INPUT_BYTES / 2 ** 20)} MiB, ` +
    `the longest string JavaScript makes); ${SPLIT_ADVICE}`);
}

export interface CliResult {
  stdout: string;
  /** Output too large for one string, written line by line after `stdout` (replay --steps). */
  lines?: Iterable<string>;
  exitCode: number;
  /** Notes for standard error, one a line (main.ts starts each with "replyscope: "). */
  stderr?: string;
  /** The usage, for standard error as it is: no command was given. */
  usage?: string;
}

/** How messages and imported bodies name FILE. */
const nameOf = (path: string) => (path === '-' ? 'stdin' : path);

/** What a test's reader or main.ts's gives, as one shape (a reader may hand back bytes alone). */
function inputOf(got: Uint8Array | InputRead): InputRead {
  return 'bytes' in got && !ArrayBuffer.isView(got) ? got : { bytes: got as Uint8Array };
}

/** Where the CLI runs, for the paths its annotations name (main.ts: the process's; tests may leave it out: paths as given). */
export interface CliEnv {
  cwd?: string;
  /** GITHUB_WORKSPACE: the repository's checkout in a GitHub Actions job. */
  githubWorkspace?: string;
  /** main.ts's: writes a part of the output as soon as it is made (see ValidateEnv); without it, all is in the result. */
  write?: ValidateEnv['write'];
}

export async function runCli(args: string[], readFile: ReadFile, version = 'unknown', env: CliEnv = {}): Promise<CliResult> {
  // Help asked for anywhere (before a "--"), e.g. "replyscope validate --help", or as the command: the usage, on
  // standard output, exit 0 ("help" wrote it to stderr as an error message).
  const options = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (args[0] === 'help' || (args.length > 0 && options.some((a) => a === '--help' || a === '-h'))) return { stdout: USAGE, exitCode: 0 };
  // The version likewise, asked anywhere (`replyscope validate --version` was an unknown option, exit 2).
  if (args[0] === 'version' || options.includes('--version')) return { stdout: `replyscope ${version}`, exitCode: 0 };
  // No command: the usage, as an error (a CliError's message is one line; the usage is many).
  if (args.length === 0) return { stdout: '', usage: USAGE, exitCode: 2 };
  const p = parseArgs(args);
  if (p.command === 'codes') return { stdout: codes(), exitCode: 0 };
  // Options are checked before the file is read: a mistyped one fails at once, not after a large file's analysis.
  const checks = p.command === 'validate' ? validateOptions(p.flags) : undefined;
  const timeout = timeoutOf(p.flags.get('--timeout'));
  /** FILE's bytes, and whether --timeout cut them (each FILE gets the whole --timeout). */
  const read = async (path: string): Promise<InputRead> => {
    const input = inputOf(await readFile(path, timeout));
    if (input.bytes.length > MAX_INPUT_BYTES) throw tooLarge(nameOf(path), input.bytes.length);
    return input;
  };
  if (checks) {
    return validateFiles(p.files, checks, env, async (path, opts) => {
      const { bytes, cut } = await read(path);
      return validate(loadAnalysis(bytes, nameOf(path), cut, 'validate'), opts);
    });
  }
  const [path] = p.files;
  const file = nameOf(path);
  const { bytes, cut } = await read(path);
  if (p.command === 'conformance') {
    const stdout = conformance(bytes, file, cut);
    // (It parsed: the case was whole, only its end had not come.)
    return cut ? { stdout, exitCode: EXIT_TIMEOUT, stderr: `note: the input was cut by --timeout ${cut.timeout.text} before it ended; the case was read whole` } : { stdout, exitCode: 0 };
  }
  const reply = p.flags.get('--reply');
  const { conns, notices } = loadAnalysis(bytes, file, cut, 'replay');
  const note = replayNotes(conns, notices);
  const replyId = reply === true ? undefined : reply;
  checkReply(conns, replyId);
  const out = p.flags.has('--steps') ? { stdout: '', lines: replaySteps(conns, replyId) } : { stdout: replay(conns, replyId) };
  return { ...out, exitCode: cut ? EXIT_TIMEOUT : 0, ...(note ? { stderr: note } : {}) };
}

// `replyscope validate` and `replyscope codes`: diagnostics as a readable report, JSON or GitHub annotations, with
// the CI switches (--fail-on, --ignore). Split from commands.ts.
import type { ConnectionView } from '../core/analysis/types.ts';
import { diagnosticDoc, DIAGNOSTIC_DOCS } from '../core/diagnostics/catalog.ts';
import type { Diagnostic, Severity } from '../core/diagnostics/types.ts';
import { CliError } from './cli-error.ts';
import { annotate } from './github-annotations.ts';
import { CLI_DIAGNOSTIC_DOCS, EXIT_TIMEOUT, TIMEOUT_CODE } from './input-cut.ts';
import { printable } from './printable.ts';
import { UNIGNORABLE_CODES } from './run-errors.ts';

/** Every code the CLI may tell: the core's, and its own (input.timeout). */
const ALL_DOCS = [...DIAGNOSTIC_DOCS, ...CLI_DIAGNOSTIC_DOCS];
const docOf = (code: string) => diagnosticDoc(code) ?? CLI_DIAGNOSTIC_DOCS.find((d) => d.code === code);

/**
 * "event 3 (TEXT_BLOCK_START)"; "event 3 (not JSON)"; for a frame-level diagnostic "frame 5, before event 5
 * (TOOL_CALL_DELTA)" (the frame the client dropped has no event), or "after event 45 (…)" for a frame past the last
 * event and for the end of the body; "the connection" for what concerns it as a whole (Diagnostic.ofConnection: an
 * HTTP error, a note of its import) and where there is nothing to point at.
 */
function formatDiagnosticPlace(c: ConnectionView, d: Diagnostic): string {
  if (d.ofConnection) return 'the connection'; // (its index, 0, names no event)
  const ev = c.events[d.index];
  const type = ev && (/^\(.*\)$/.test(ev.type) ? ev.type.slice(1, -1) : ev.type === '?' ? 'no type' : ev.type); // "(not JSON)"
  if (d.frame !== undefined) {
    const end = d.frame >= c.frames.length;
    const frame = end ? 'the end of the body' : `frame ${d.frame}`;
    if (!ev) return frame;
    // A frame the client dropped is told at the event nearest it: the next one, or the last when none follows.
    if (end || ev.frameIndex < d.frame) return `${frame}, after event ${d.index} (${type})`;
    return ev.frameIndex !== d.frame ? `${frame}, before event ${d.index} (${type})` : `${frame}, event ${d.index} (${type})`;
  }
  if (!ev) return c.events.length === 0 ? 'the connection' : `event ${d.index}`;
  return `event ${d.index} (${type})`;
}

/** "event 3 (TEXT_BLOCK_START), line 12: …": the place, and the input's line when it has lines. */
function formatDiagnostic(c: ConnectionView, d: Diagnostic, line: number | undefined): string {
  return `${d.severity.padEnd(7)} ${d.code.padEnd(32)} ${formatDiagnosticPlace(c, d)}${line !== undefined ? `, line ${line}` : ''}: ${d.message}`;
}

/** "1 error", "2 errors". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export interface ValidateOptions {
  json: boolean;
  /** Also print each diagnostic as a GitHub Actions annotation on FILE (`--github`). */
  github: boolean;
  /** How the input is named in annotations (the FILE argument; stdin has none). */
  file?: string;
  /** The least severity that fails the run (undefined: never). */
  failOn: Severity | undefined;
  /** Whether a diagnostic code is left out (--ignore). */
  ignored: (code: string) => boolean;
}

/** Where the input's diagnostics lie (diagnostic-lines.ts), when it has lines. */
interface Lines {
  lineOf(c: ConnectionView, d: Diagnostic): number | undefined;
  noteLine(text: string): number | undefined;
}

function failOnOf(v: string | true | undefined): Severity | undefined {
  if (v === undefined) return 'error';
  if (v === 'never') return undefined;
  if (v === 'error' || v === 'warning' || v === 'info') return v;
  throw new CliError(`--fail-on takes error, warning, info or never (got "${String(v)}")`);
}

/**
 * The --ignore list as a predicate. Every entry must name a code there is (or a `PREFIX.*` that covers some): a typo
 * would otherwise ignore nothing, silently — and in CI, the point of the list is what it lets through.
 */
function ignoredOf(v: string | true | undefined): (code: string) => boolean {
  if (v === undefined || v === true) return () => false;
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const entries = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  // An empty list (a CI variable that came out empty) would ignore nothing while looking like it ignores something.
  if (entries.length === 0) throw new CliError(`--ignore: no codes given (got ${JSON.stringify(v)})`);
  for (const entry of entries) {
    if (entry.endsWith('.*')) {
      const prefix = entry.slice(0, -1); // keeps the dot: "sse.*" covers "sse.x", not "sselike.x"
      const covers = ALL_DOCS.filter((d) => d.code.startsWith(prefix));
      if (covers.length === 0) throw new CliError(`--ignore: no diagnostic code starts with "${prefix}" ("replyscope codes" lists them)`);
      if (covers.every((d) => UNIGNORABLE_CODES.has(d.code))) throw new CliError(`--ignore: the codes that start with "${prefix}" say that the run failed, and cannot be ignored`);
      prefixes.push(prefix);
    } else if (UNIGNORABLE_CODES.has(entry)) {
      // Input it could not read, a usage or an internal error: nothing was checked, and ignoring that would pass it.
      throw new CliError(`--ignore: ${entry} says that the run failed (nothing was checked), and cannot be ignored`);
    } else if (docOf(entry)) exact.add(entry);
    else throw new CliError(`--ignore: unknown diagnostic code "${entry}" ("replyscope codes" lists them)`);
  }
  return (code) => exact.has(code) || prefixes.some((p) => code.startsWith(p));
}

/** The validate options from the parsed flags (`file` is set for each FILE); throws CliError for a bad value or combination. */
export function validateOptions(flags: Map<string, string | true>): ValidateOptions {
  const json = flags.has('--json');
  const github = flags.has('--github');
  if (json && github) throw new CliError('--json and --github are two outputs: choose one');
  return { json, github, failOn: failOnOf(flags.get('--fail-on')), ignored: ignoredOf(flags.get('--ignore')) };
}

/** One GitHub Actions annotation of a connection's diagnostic, on the line the diagnostic is about when known. */
function annotation(c: ConnectionView, d: Diagnostic, file: string | undefined, line: number | undefined): string {
  return annotate(d.severity, `replyscope ${d.code}`, `${c.record.url}: ${formatDiagnosticPlace(c, d)}: ${d.message}`, file, line);
}

/** A note of no connection as an annotation on the file (a capture cut short showed nowhere in the run's summary). */
function noteAnnotation(n: InputNote, file: string | undefined, line: number | undefined): string {
  return annotate(n.level, `replyscope ${n.code ?? 'capture.notice'}`, n.text, file, line);
}

export function codes(): string {
  const width = Math.max(...ALL_DOCS.map((d) => d.code.length));
  // "info/warning": told as either (a capture's note has the note's severity), so --fail-on warning may fail on it.
  return ALL_DOCS.map((d) => `${d.code.padEnd(width)}  ${(d.alsoWarning ? `${d.severity}/warning` : d.severity).padEnd(12)}  ${d.title}`).join('\n');
}

/**
 * A note of no connection: the input's own (a log cut short, HAR entries skipped), that there was nothing to check,
 * or that --timeout cut the input (code input.timeout; the others are capture.notice).
 */
export interface InputNote {
  text: string;
  level: Severity;
  code?: string;
}

/**
 * The input's notes as diagnostics of no connection (code capture.notice), at their own level. They count like any
 * other: a log cut short after its last connection ended said so at "info" in --json and passed --fail-on warning,
 * where the same cut inside a connection (a capture.notice warning on it) failed the run.
 */
function inputNotes(all: ConnectionView[], notices: readonly InputNote[]): InputNote[] {
  const notes = [...notices];
  // Nothing to check passes every check: say so, so that a capture that came out empty is not taken for a clean one
  // (--json printed "[]" for it, as for a clean one).
  if (all.every((c) => c.events.length === 0)) {
    // Frames the SSE spec reads but the client does not (bare CR line ends): not "nothing to check".
    const frames = all.reduce((n, c) => n + c.frames.filter((f) => f.kind === 'data').length, 0);
    notes.push({ level: 'info', text: all.length === 0 ? 'the input holds no stream' : frames > 0
      ? `the client reads no events in it, where the SSE spec reads ${plural(frames, 'data frame')} (see the diagnostics)`
      : 'the input holds no events' });
  }
  return notes;
}

/** "— navigated to https://… at 2026-12-01T09:00:00.000Z —" (the time when the log has one). */
function pageLine({ t, url }: { t: number; url: string }): string {
  return `— navigated to ${url}${Number.isFinite(t) ? ` at ${new Date(t).toISOString()}` : ''} —`;
}

/** One --json entry: a diagnostic of a connection, or a note of none (`"connection": null`). */
export type Entry = { connection: string | null; url: string | null; code: string; severity: Severity; index: number; message: string; line?: number } & Partial<Diagnostic>;

/** What validate found in one input: the --json entries, the text report (empty with --json) and the exit code. */
export interface ValidateReport {
  entries: Entry[];
  text: string;
  exitCode: number;
  counts: Record<Severity, number>;
  /** How many diagnostics --ignore left out. */
  ignored: number;
}

export function validate({ conns: all, notices, lines: where, navigations = [] }: {
  conns: ConnectionView[]; notices: readonly InputNote[]; lines?: Lines; navigations?: readonly { t: number; url: string; before: number }[];
}, opts: ValidateOptions): ValidateReport {
  let ignoredCount = 0;
  const conns = all.map((c) => {
    // Those of the connection as a whole first, under its header line: before its events, as what they are about.
    const kept = [...c.diagnostics.filter((d) => d.ofConnection), ...c.diagnostics.filter((d) => !d.ofConnection)].filter((d) => !opts.ignored(d.code));
    ignoredCount += c.diagnostics.length - kept.length;
    return { conn: c, diagnostics: kept.map((d) => ({ d, line: where?.lineOf(c, d) })) };
  });
  const allNotes = inputNotes(all, notices);
  const notes = allNotes.filter((n) => !opts.ignored(n.code ?? 'capture.notice')).map((n) => ({ ...n, line: where?.noteLine(n.text) }));
  ignoredCount += allNotes.length - notes.length;
  const lineField = (line: number | undefined) => (line !== undefined ? { line } : {});
  const found: Entry[] = [
    ...notes.map((n) => ({ connection: null, url: null, code: n.code ?? 'capture.notice', severity: n.level, index: 0, message: n.text, ...lineField(n.line) })),
    // (`ofConnection` is left out: --json's shape is documented without it — its index, 0, is the one of a connection
    // without events.)
    ...conns.flatMap(({ conn: c, diagnostics }) => diagnostics.map(({ d: { ofConnection: _, ...d }, line }) => ({ connection: c.record.id, url: c.record.url, ...d, ...lineField(line) }))),
  ];
  const failOn = opts.failOn;
  // A cut input has an exit code of its own (4), unless what arrived fails the run (1): a hung agent is told apart
  // from a stream that broke a rule, and a script can wait again on 4.
  const failed = failOn !== undefined && found.some((d) => d.code !== TIMEOUT_CODE && SEVERITY_RANK[d.severity] >= SEVERITY_RANK[failOn]);
  const exitCode = failed ? 1 : found.some((d) => d.code === TIMEOUT_CODE) ? EXIT_TIMEOUT : 0;
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of found) counts[d.severity]++;
  if (opts.json) return { entries: found, text: '', exitCode, counts, ignored: ignoredCount };
  const lines: string[] = notes.map((n) => {
    const also = [...(n.level === 'info' ? [] : [n.level]), ...(n.line !== undefined ? [`line ${n.line}`] : [])];
    return `note${also.length ? ` (${also.join(', ')})` : ''}: ${n.text}`; // "note (warning, line 5): …"
  });
  let nextPage = 0;
  for (const [i, { conn: c, diagnostics }] of conns.entries()) {
    // A page boundary (a capture made with "Preserve log"): which page the connections below came from, as the panel
    // draws it between them.
    for (; nextPage < navigations.length && navigations[nextPage].before <= i; nextPage++) lines.push(pageLine(navigations[nextPage]));
    // A body imported from a file has no request: its synthesised method would read as if the file had been fetched.
    // (HAR entries keep their own method and absolute URL.)
    const fromFile = c.record.transport === 'import' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(c.record.url);
    const source = fromFile ? 'file' : c.record.method;
    lines.push(`${source} ${c.record.url} — ${c.dialect}, ${plural(c.events.length, 'event')}, ${plural(c.replies.length, 'reply', 'replies')}`);
    for (const { d, line } of diagnostics) lines.push(`  ${formatDiagnostic(c, d, line)}`);
  }
  for (; nextPage < navigations.length; nextPage++) lines.push(pageLine(navigations[nextPage])); // a page with no stream yet
  lines.push(`${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info${ignoredCount ? ` (${ignoredCount} ignored)` : ''}`);
  const shown = [...new Set(found.filter((d) => d.severity !== 'info').map((d) => d.code))];
  for (const code of shown) {
    const doc = docOf(code);
    if (doc) lines.push(`  ${code}: ${doc.title}`);
  }
  if (opts.github) {
    for (const n of notes) lines.push(noteAnnotation(n, opts.file, n.line));
    for (const { conn: c, diagnostics } of conns) for (const { d, line } of diagnostics) lines.push(annotation(c, d, opts.file, line));
  }
  // Every line quotes the input somewhere (an event type, a URL, a note): one line each, with no control character.
  return { entries: found, text: lines.map(printable).join('\n'), exitCode, counts, ignored: ignoredCount };
}

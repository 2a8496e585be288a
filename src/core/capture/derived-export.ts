// Replyscope's own derived exports (the panel's Export dialog, panel/store/export.ts): a diagnostics report and the
// reconstructed messages are JSON arrays of objects — which the input reader took for events, each one invalid, and
// made a connection of (5 "events", dialect unknown, imported as a success). They hold what analysis found, not the
// streams it read: told as what they are, with what to import instead. One reply's events (its export "Events of the
// selected reply") are the stream's own events and are read as events. The CLI's outputs are such files too — `validate
// --json` an array of diagnostics, `replay` one of connections, `replay --steps` NDJSON of messages — and were read
// as events of no known protocol: `replyscope validate` of its own report passed (exit 0), whatever the report held.

/** What a derived export is, said in the words of the Export dialog (or the CLI command) that made it. */
export type DerivedExport = 'diagnostics' | 'messages' | 'cli-diagnostics' | 'cli-replay' | 'cli-steps';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * An entry of the diagnostics report: { connection, url, dialect, diagnostics: [...] }; of the messages:
 * { connection, url, reply, dialect, message }. Neither has a `type`, which every event of either protocol has. An
 * earlier messages export left `message` out of a reply that had none (undefined, not null): such an entry is told by
 * its reply and dialect.
 */
function entryKind(v: unknown): DerivedExport | undefined {
  if (!isRecord(v) || 'type' in v) return undefined;
  const cli = cliEntryKind(v);
  if (cli || typeof v.connection !== 'string' || typeof v.url !== 'string') return cli;
  if (Array.isArray(v.diagnostics)) return 'diagnostics';
  if (typeof v.reply === 'string' && ('message' in v || typeof v.dialect === 'string')) return 'messages';
  return undefined;
}

/**
 * An entry of the CLI's outputs: `validate --json` { file, connection, url, code, severity, index, message } (file
 * and connection null for a note of no connection or a usage error); `replay` { connection, url, dialect, replies };
 * `replay --steps` { connection, reply, step, event, message }.
 */
function cliEntryKind(v: Record<string, unknown>): DerivedExport | undefined {
  if ('file' in v && 'connection' in v && typeof v.code === 'string' && typeof v.severity === 'string' && typeof v.message === 'string') return 'cli-diagnostics';
  if (typeof v.connection !== 'string') return undefined;
  if (typeof v.url === 'string' && typeof v.dialect === 'string' && Array.isArray(v.replies)) return 'cli-replay';
  if (typeof v.reply === 'string' && typeof v.step === 'number' && typeof v.event === 'number' && 'message' in v) return 'cli-steps';
  return undefined;
}

/**
 * Which derived export the parsed JSON is, when every entry of a non-empty array (or NDJSON's lines) is one of the same
 * kind; a lone object is one entry (`replay --steps` of a one-step reply is one line).
 */
export function derivedExportKind(value: unknown): DerivedExport | undefined {
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length === 0) return undefined;
  const kind = entryKind(entries[0]);
  return kind !== undefined && entries.every((v) => entryKind(v) === kind) ? kind : undefined;
}

const CLI_OUTPUTS: Partial<Record<DerivedExport, { command: string; what: string }>> = {
  'cli-diagnostics': { command: 'validate --json', what: 'the diagnostics found in a capture, not the capture' },
  'cli-replay': { command: 'replay', what: 'the reconstructed messages of a capture\'s replies, not the stream they were read from' },
  'cli-steps': { command: 'replay --steps', what: 'the message after every step of a reply, not the stream it was read from' },
};

/** The reader's message for a derived export: what it is, and what to import instead. */
export function derivedExportMessage(kind: DerivedExport): string {
  const cli = CLI_OUTPUTS[kind];
  if (cli) return `this is the output of "replyscope ${cli.command}": ${cli.what} — use the file it was made from (the capture log, the HAR or the stream itself)`;
  const what = kind === 'diagnostics'
    ? 'a Replyscope diagnostics report (Export → "Diagnostics report (JSON)"): the diagnostics found in a capture, not the capture'
    : 'Replyscope\'s reconstructed messages (Export → "Reconstructed messages (JSON)"): each reply\'s final message, not the stream it was read from';
  return `this is ${what} — import the capture log (.replyscope.ndjson) or the HAR it was exported from, or a reply's events (Export → "Events of the selected reply")`;
}

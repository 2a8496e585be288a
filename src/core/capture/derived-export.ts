// Replyscope's own derived exports (the panel's Export dialog, panel/store/export.ts): a diagnostics report and the
// reconstructed messages are JSON arrays of objects — which the input reader took for events, each one invalid, and
// made a connection of (5 "events", dialect unknown, imported as a success). They hold what analysis found, not the
// streams it read: told as what they are, with what to import instead. One reply's events (its export "Events of the
// selected reply") are the stream's own events and are read as events.

/** What a derived export is, said in the words of the Export dialog that made it. */
export type DerivedExport = 'diagnostics' | 'messages';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * An entry of the diagnostics report: { connection, url, dialect, diagnostics: [...] }; of the messages:
 * { connection, url, reply, dialect, message }. Neither has a `type`, which every event of either protocol has. An
 * earlier messages export left `message` out of a reply that had none (undefined, not null): such an entry is told by
 * its reply and dialect.
 */
function entryKind(v: unknown): DerivedExport | undefined {
  if (!isRecord(v) || 'type' in v || typeof v.connection !== 'string' || typeof v.url !== 'string') return undefined;
  if (Array.isArray(v.diagnostics)) return 'diagnostics';
  if (typeof v.reply === 'string' && ('message' in v || typeof v.dialect === 'string')) return 'messages';
  return undefined;
}

/** Which derived export the parsed JSON is, when every entry of a non-empty array is one of the same kind. */
export function derivedExportKind(value: unknown): DerivedExport | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const kind = entryKind(value[0]);
  return kind !== undefined && value.every((v) => entryKind(v) === kind) ? kind : undefined;
}

/** The reader's message for a derived export: what it is, and what to import instead. */
export function derivedExportMessage(kind: DerivedExport): string {
  const what = kind === 'diagnostics'
    ? 'a Replyscope diagnostics report (Export → "Diagnostics report (JSON)"): the diagnostics found in a capture, not the capture'
    : 'Replyscope\'s reconstructed messages (Export → "Reconstructed messages (JSON)"): each reply\'s final message, not the stream it was read from';
  return `this is ${what} — import the capture log (.replyscope.ndjson) or the HAR it was exported from, or a reply's events (Export → "Events of the selected reply")`;
}

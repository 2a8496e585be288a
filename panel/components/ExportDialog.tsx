// Export: capture log (all or selected connection), HAR, one reply's events (a test fixture), reconstructed
// messages, diagnostics report — each optionally redacted (headers, request bodies, text content).
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { MAX_INPUT_BYTES } from '../core-bridge.ts';
import { buildExport, exportBytesAbout, harBytesAtLeast, selectConnections, type ExportKind } from '../store/export.ts';
import { download, ExportCancelled, saveFilePicker, saveToFile, type ExportStatus } from '../store/export-writer.ts';
import type { PanelStore } from '../store/store.ts';
import { Modal } from './Modal.tsx';

const KINDS: [ExportKind, string][] = [
  ['capture-log', 'Capture log (.replyscope.ndjson)'],
  ['har', 'HAR 1.2'],
  ['reply-events', 'Events of the selected reply (JSON)'],
  ['messages', 'Reconstructed messages (JSON)'],
  ['diagnostics', 'Diagnostics report (JSON)'],
];

/** Why "Events of the selected reply" cannot be chosen. */
const NO_REPLY = 'select a reply first (in the Replies list)';

export function ExportDialog({ store, onClose }: { store: PanelStore; onClose: () => void }) {
  const [kind, setKind] = useState<ExportKind>('capture-log');
  const [scope, setScope] = useState<'all' | 'selected'>('all');
  const [redaction, setRedaction] = useState({ headers: false, requestBodies: false, textContent: false });
  const [error, setError] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<ExportStatus | undefined>(undefined);
  const [cancelled, setCancelled] = useState(false);
  /** The HAR being written (or last written) went past what an import reads. */
  const [pastImportLimit, setPastImportLimit] = useState(false);
  const running = useRef<AbortController | undefined>(undefined);
  const busy = status !== undefined;
  const conn = store.selectedConnId.value;
  const reply = store.selectedReplyId.value;
  const dialog = useRef<HTMLDivElement>(null);
  const connections = scope === 'selected' && conn ? [conn] : undefined;
  // A HAR past what an import reads is said before it is made (from a floor of its size), and while it is made
  // (from what was written): it was written, saved, and then refused by the import it came from.
  const selected = useMemo(() => selectConnections(store.capture(), connections), [scope, conn]);
  const harFloor = useMemo(() => (kind === 'har' ? harBytesAtLeast(selected) : 0), [kind, selected]);
  const harTooLarge = kind === 'har' && (harFloor > MAX_INPUT_BYTES || pastImportLimit);
  // A file likely too large to keep as a download (the browser holds it in memory until it is saved) is written
  // straight to a file the user chooses, where the browser lets a page do that.
  const about = useMemo(() => exportBytesAbout(selected, kind) ?? 0, [kind, selected]);
  const large = about > LARGE_FILE_BYTES;
  const picker = large ? saveFilePicker() : undefined;

  // Closing the dialog (Escape, the backdrop) stops an export under way: nothing is saved after the dialog is gone.
  useEffect(() => () => running.current?.abort(), []);

  // Keyboard: focus lands in the dialog, Escape closes it (listening from the first commit: a listener added after
  // the next paint would miss an Escape pressed right away).
  useLayoutEffect(() => {
    dialog.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const run = async () => {
    if (running.current) return;
    // The file is made in slices between frames (export-writer.ts): the dialog shows how far it has come, and Cancel
    // stops it. (Made at once, the HAR of a 300 MB capture held the page ~13 s with the dialog unchanged.)
    const abort = new AbortController();
    running.current = abort;
    setError(undefined);
    setCancelled(false);
    setPastImportLimit(false);
    setStatus({ phase: 'prepare', done: 0, total: 0, bytes: 0 });
    let shown = 0;
    let past = false;
    try {
      const file = buildExport(store.capture(), {
        kind,
        connections,
        reply: conn && reply ? { connection: conn, reply } : undefined,
        redaction,
      });
      const options = {
        signal: abort.signal,
        // Shown a few times a second: often enough to be seen moving, not so often that a screen reader is flooded.
        onProgress: (s: ExportStatus) => {
          if (kind === 'har' && !past && s.bytes > MAX_INPUT_BYTES) setPastImportLimit((past = true));
          const now = performance.now();
          if (now - shown < 200) return;
          shown = now;
          setStatus(s);
        },
      };
      const handle = picker && await picker({ suggestedName: file.name }).catch((err: Error) => {
        if (err.name === 'AbortError') throw new ExportCancelled(); // the user closed the picker: nothing to save
        return undefined; // not allowed here after all: a download
      });
      await (handle ? saveToFile(file, handle, options) : download(file, options));
      running.current = undefined;
      onClose();
    } catch (err) {
      running.current = undefined;
      setStatus(undefined);
      if (err instanceof ExportCancelled) setCancelled(true);
      else setError((err as Error).message);
    }
  };
  const cancel = () => (running.current ? running.current.abort() : onClose());
  const toggle = (k: keyof typeof redaction) => (e: Event) =>
    setRedaction({ ...redaction, [k]: (e.currentTarget as HTMLInputElement).checked });

  return (
    <Modal label="Export" class="export" testId="export-dialog" boxRef={dialog} onClose={onClose}>
      <h2>Export</h2>
      <fieldset disabled={busy}>
        <legend>Format</legend>
        {KINDS.map(([k, label]) => {
          // Disabled without a reply: it said nothing of why (a notification selected leaves no reply selected).
          const off = k === 'reply-events' && !reply;
          return (
            <label key={k} title={off ? 'Select a reply first (in the Replies list): this exports its events' : undefined}>
              <input type="radio" name="kind" value={k} checked={kind === k} disabled={off} onChange={() => setKind(k)} />
              {label}
              {off ? <span class="dim" data-testid="export-no-reply"> — {NO_REPLY}</span> : null}
            </label>
          );
        })}
      </fieldset>
      {kind !== 'reply-events' ? (
        <fieldset disabled={busy}>
          <legend>Connections</legend>
          <label><input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} />All</label>
          <label><input type="radio" name="scope" checked={scope === 'selected'} disabled={!conn} onChange={() => setScope('selected')} />Selected connection only</label>
        </fieldset>
      ) : null}
      <fieldset disabled={busy}>
        <legend>Redact</legend>
        <label><input type="checkbox" checked={redaction.headers} onChange={toggle('headers')} />Header values</label>
        <label><input type="checkbox" checked={redaction.requestBodies} onChange={toggle('requestBodies')} />Request bodies</label>
        <label><input type="checkbox" checked={redaction.textContent} onChange={toggle('textContent')} />Text content of events</label>
      </fieldset>
      {/* An alert: it appears where the user is not (focus stays on the button pressed), and said nothing. */}
      {error ? <div class="error-box" role="alert">{error}</div> : null}
      {harTooLarge ? (
        <div class="warn-box" data-testid="export-har-too-large">
          {pastImportLimit ? `This HAR is past ${mib(MAX_INPUT_BYTES)}, more than an import reads` : `This HAR will be over ${mib(harFloor, Math.floor)}, more than an import reads (${mib(MAX_INPUT_BYTES)})`}:
          it could not be opened here again (other tools may read it).
          The capture log of the same capture imports at any size.
          {busy ? null : <> <button class="link" onClick={() => setKind('capture-log')}>Choose the capture log</button></>}
        </div>
      ) : null}
      {large ? (
        <div class="info-box" data-testid="export-large">
          {picker
            ? `A large file (about ${mb(about)}): Export asks where to save it and writes it there as it is made.`
            : `A large file (about ${mb(about)}): more than the browser may keep to save (~500 MB) — if it cannot, the dialog says so.`}
        </div>
      ) : null}
      {/* The phase is announced (a live region); how far it has come is the progress bar's value, not read out at
          every step. */}
      <div class="export-busy" data-testid="export-busy">
        {status ? <progress max={status.total || undefined} value={status.total ? status.done : undefined} aria-label="Export progress" aria-valuetext={amountText(status).trim() || undefined} /> : null}
        <span>
          <span role="status">{status ? phaseText(kind, status) : cancelled ? 'Export cancelled — nothing was saved.' : ''}</span>
          {status ? <span aria-hidden="true">{amountText(status)}</span> : null}
        </span>
      </div>
      <div class="actions">
        {/* During an export Cancel stops it, and the dialog stays for another choice; otherwise it closes the dialog. */}
        <button onClick={cancel} data-testid="export-cancel">{busy ? 'Cancel export' : 'Cancel'}</button>
        {/* aria-disabled, not disabled: a disabled button drops the focus, which stays on it for the outcome */}
        <button class="primary" onClick={run} aria-disabled={busy} data-testid="export-go">Export</button>
      </div>
    </Modal>
  );
}

/** Past this, a file is written to one the user chooses, where that can be: the browser keeps ~500 MB of downloads. */
const LARGE_FILE_BYTES = 300e6;

const PHASES: Record<ExportStatus['phase'], string> = {
  prepare: 'Preparing',
  redact: 'Redacting',
  analyse: 'Reading the streams',
  write: 'Writing',
};

/** What is being done: "Writing the HAR…". */
function phaseText(kind: ExportKind, s: ExportStatus): string {
  if (s.phase !== 'write') return `${PHASES[s.phase]}…`;
  return kind === 'har' ? 'Writing the HAR…' : kind === 'capture-log' ? 'Writing the capture log…' : 'Writing the file…';
}

/** How far it has come and how large the file is so far: " 43% · 312 MB". */
function amountText(s: ExportStatus): string {
  const parts = [s.total > 0 ? `${Math.min(100, Math.floor((100 * s.done) / s.total))}%` : '', s.bytes > 0 ? mb(s.bytes) : ''].filter(Boolean);
  return parts.length ? ` ${parts.join(' · ')}` : '';
}

const mb = (bytes: number) => (bytes < 1e6 ? `${Math.max(1, Math.round(bytes / 1e3))} kB` : `${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB`);
const mib = (bytes: number, round = Math.round) => `${round(bytes / 2 ** 20)} MiB`;

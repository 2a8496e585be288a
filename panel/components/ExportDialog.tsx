// Export: capture log (all or selected connection), HAR, one reply's events (a test fixture), reconstructed
// messages, diagnostics report — each optionally redacted (headers, request bodies, text content).
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { buildExport, download, type ExportKind } from '../store/export.ts';
import type { PanelStore } from '../store/store.ts';
import { Modal } from './Modal.tsx';

const KINDS: [ExportKind, string][] = [
  ['capture-log', 'Capture log (.replyscope.ndjson)'],
  ['har', 'HAR 1.2'],
  ['reply-events', 'Events of the selected reply (JSON)'],
  ['messages', 'Reconstructed messages (JSON)'],
  ['diagnostics', 'Diagnostics report (JSON)'],
];

export function ExportDialog({ store, onClose }: { store: PanelStore; onClose: () => void }) {
  const [kind, setKind] = useState<ExportKind>('capture-log');
  const [scope, setScope] = useState<'all' | 'selected'>('all');
  const [redaction, setRedaction] = useState({ headers: false, requestBodies: false, textContent: false });
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const conn = store.selectedConnId.value;
  const reply = store.selectedReplyId.value;
  const dialog = useRef<HTMLDivElement>(null);

  // Keyboard: focus lands in the dialog, Escape closes it (listening from the first commit: a listener added after
  // the next paint would miss an Escape pressed right away).
  useLayoutEffect(() => {
    dialog.current?.querySelector<HTMLInputElement>('input:checked')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const run = async () => {
    if (busy) return;
    // The export holds the page's thread (the HAR of a 300 MB capture: ~15 s, redacted ~45 s): say so before it
    // starts — the dialog sat unchanged, as if the click had been lost, until the file came or the error did.
    setBusy(true);
    setError(undefined);
    await nextPaint();
    try {
      const file = buildExport(store.capture(), {
        kind,
        connections: scope === 'selected' && conn ? [conn] : undefined,
        reply: conn && reply ? { connection: conn, reply } : undefined,
        redaction,
      });
      await download(file); // rejects when the browser could not keep the file (it was saved as a cancelled download)
      onClose();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const toggle = (k: keyof typeof redaction) => (e: Event) =>
    setRedaction({ ...redaction, [k]: (e.currentTarget as HTMLInputElement).checked });

  return (
    <Modal label="Export" testId="export-dialog" boxRef={dialog} onClose={onClose}>
      <h2>Export</h2>
      <fieldset>
        <legend>Format</legend>
        {KINDS.map(([k, label]) => (
          <label key={k}>
            <input type="radio" name="kind" value={k} checked={kind === k} disabled={k === 'reply-events' && !reply} onChange={() => setKind(k)} />
            {label}
          </label>
        ))}
      </fieldset>
      {kind !== 'reply-events' ? (
        <fieldset>
          <legend>Connections</legend>
          <label><input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} />All</label>
          <label><input type="radio" name="scope" checked={scope === 'selected'} disabled={!conn} onChange={() => setScope('selected')} />Selected connection only</label>
        </fieldset>
      ) : null}
      <fieldset>
        <legend>Redact</legend>
        <label><input type="checkbox" checked={redaction.headers} onChange={toggle('headers')} />Header values</label>
        <label><input type="checkbox" checked={redaction.requestBodies} onChange={toggle('requestBodies')} />Request bodies</label>
        <label><input type="checkbox" checked={redaction.textContent} onChange={toggle('textContent')} />Text content of events</label>
      </fieldset>
      {/* An alert: it appears where the user is not (focus stays on the button pressed), and said nothing. */}
      {error ? <div class="error-box" role="alert">{error}</div> : null}
      {busy ? <div class="export-busy" role="status" data-testid="export-busy">Exporting… a large capture takes a while; the page is busy until the file is ready.</div> : null}
      <div class="actions">
        <button onClick={onClose}>Cancel</button>
        {/* aria-disabled, not disabled: a disabled button drops the focus, which stays on it for the outcome */}
        <button class="primary" onClick={run} aria-disabled={busy} data-testid="export-go">Export</button>
      </div>
    </Modal>
  );
}

/** After the next paint: what was rendered before is on screen. */
function nextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

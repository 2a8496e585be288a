// The per-tab memory cap: how much captured data each tab keeps before its oldest data is evicted. Stored by the
// extension for every tab; every capture, and a live panel's own bound (panel-compaction.ts), follows it at once.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { capMB, DEFAULT_CAP_MB, lowerCapWarning, MAX_CAP_MB, MIN_CAP_MB, readCapField } from '../lib/capture-cap.ts';
import type { LiveControls } from '../sources/source.ts';
import { Modal } from './Modal.tsx';

/** Saving closes the dialog; the toolbar's figure follows the stored cap (the extension reports it, see LiveState). */
export function CapDialog({ live, onClose }: {
  live: Required<Pick<LiveControls, 'captureLimit' | 'setCaptureLimit'>>;
  onClose: () => void;
}) {
  /** The stored cap (bytes), once read. */
  const [current, setCurrent] = useState<number | undefined>(undefined);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    live.captureLimit().then(
      (bytes) => {
        setCurrent(bytes);
        setText(capMB(bytes));
        requestAnimationFrame(() => field.current?.select());
      },
      (err: Error) => setError(`Could not read the memory cap: ${err.message}`),
    );
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const read = readCapField(text, current);
  const warning = current !== undefined && 'bytes' in read ? lowerCapWarning(current, read.bytes) : undefined;

  const save = () => {
    if (saving || current === undefined) return;
    if ('error' in read) {
      setError(read.error);
      field.current?.focus();
      return;
    }
    if (read.bytes === current) return onClose();
    setSaving(true);
    live.setCaptureLimit(read.bytes).then(
      () => onClose(),
      (err: Error) => {
        setSaving(false);
        setError(`Could not save the memory cap: ${err.message}`);
      },
    );
  };

  return (
    <Modal label="Memory cap" class="cap" testId="cap-dialog" onClose={onClose}>
      <h2>Memory cap</h2>
      <p class="dim">
        The most captured data (stream chunks, messages, request bodies) each tab keeps. Past it the oldest data is
        evicted: a reply continues from a digest of what went (&quot;evicted N events&quot;). Applies to every tab, at once.
      </p>
      <p data-testid="cap-current">
        {current === undefined ? 'Reading the cap…' : `Now: ${capMB(current)} MB${capMB(current) === String(DEFAULT_CAP_MB) ? ' (the default)' : ''}.`}
      </p>
      <form
        class="cap-field"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label for="cap-mb">Cap</label>
        <input
          id="cap-mb"
          ref={field}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellcheck={false}
          size={8}
          value={text}
          disabled={current === undefined || saving}
          aria-invalid={error !== undefined && 'error' in read ? true : undefined}
          aria-describedby={warning ? 'cap-hint cap-warning' : 'cap-hint'}
          onInput={(e) => {
            setText((e.currentTarget as HTMLInputElement).value);
            setError(undefined);
          }}
        />
        <span>MB</span>
      </form>
      <p id="cap-hint" class="dim">
        From {MIN_CAP_MB} to {MAX_CAP_MB} MB (default {DEFAULT_CAP_MB}; 1 MB = 1,048,576 bytes). The inspected page holds
        the capture, and a panel watching it live up to 3× the cap (6× for a moment) plus its analysis: at {MAX_CAP_MB} MB
        up to ~2 GB, within the ~3.5 GB of JavaScript memory a Chromium page gets — more could crash the panel.
      </p>
      {warning ? <p id="cap-warning" class="warn-box" data-testid="cap-warning">{warning}</p> : null}
      {/* An alert: said at once, also when it comes from Save with focus on the button. */}
      {error ? <div class="error-box" role="alert">{error}</div> : null}
      <div class="actions">
        <button onClick={onClose}>Cancel</button>
        {/* aria-disabled while saving, not disabled: a disabled button drops focus (see IncludeDialog). */}
        <button class="primary" onClick={save} disabled={current === undefined} aria-disabled={saving || undefined} data-testid="cap-save">Save</button>
      </div>
    </Modal>
  );
}

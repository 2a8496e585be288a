// The include list: URLs captured whatever their content type (a stream served as text/plain or application/json),
// and WebSockets recorded from their opening (a socket whose agent protocol Replyscope does not know). Stored by the
// extension for every site; applies to requests made after saving.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { LiveControls } from '../sources/source.ts';
import { Modal } from './Modal.tsx';

/** The patterns of a textarea: one per line, trimmed, blank lines and duplicates dropped. */
export function patternsOf(text: string): string[] {
  return [...new Set(text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0))];
}

/** Saving closes the dialog; the toolbar's count follows the stored list (the extension reports it, see LiveState). */
export function IncludeDialog({ live, onClose }: {
  live: Required<Pick<LiveControls, 'includeUrls' | 'setIncludeUrls'>>;
  onClose: () => void;
}) {
  const [text, setText] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    live.includeUrls().then(
      (list) => {
        setText(list.join('\n'));
        requestAnimationFrame(() => area.current?.focus());
      },
      (err: Error) => {
        setText('');
        setError(`Could not read the include list: ${err.message}`);
      },
    );
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const save = () => {
    if (saving) return;
    const patterns = patternsOf(text ?? '');
    setSaving(true);
    live.setIncludeUrls(patterns).then(
      () => onClose(),
      (err: Error) => {
        setSaving(false);
        setError(`Could not save the include list: ${err.message}`);
      },
    );
  };

  return (
    <Modal label="Include URLs" class="include" testId="include-dialog" onClose={onClose}>
      <h2>Include URLs</h2>
      <p class="dim">
        One pattern per line. A fetch or XHR response whose URL matches is captured whatever its content type; a
        WebSocket whose URL matches is recorded from its opening, whatever its messages. <code>*</code> matches any
        run of characters (the whole URL must match); a pattern without <code>*</code> matches anywhere in the URL.
        Applies to every site, from the next request: reload the page to capture from its start.
      </p>
      <textarea
        ref={area}
        rows={6}
        spellcheck={false}
        aria-label="URL patterns, one per line"
        placeholder={'/api/chat\nhttps://agent.example.com/*/stream\nwss://*/agent*'}
        value={text ?? ''}
        disabled={text === undefined || saving}
        onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {/* An alert: it appears where the user is not (focus stays on the button pressed), and said nothing. */}
      {error ? <div class="error-box" role="alert">{error}</div> : null}
      <div class="actions">
        <button onClick={onClose}>Cancel</button>
        {/* aria-disabled while saving, not disabled: a disabled button drops focus, and a failed save left the user
            nowhere (the alert above says what went wrong; Save stays focused for another try). */}
        <button class="primary" onClick={save} disabled={text === undefined} aria-disabled={saving || undefined} data-testid="include-save">Save</button>
      </div>
    </Modal>
  );
}

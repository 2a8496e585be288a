// A button that copies a text computed on click (the text can be megabytes: it is built only when asked for) and says
// how that went, until the text it would copy changes.
import { useEffect, useState } from 'preact/hooks';
import { copyText } from '../lib/clipboard.ts';

export function CopyButton({ text, label = 'Copy', title, name, resetKey }: {
  text: () => string;
  label?: string;
  title?: string;
  /** The accessible name when `label` alone is ambiguous (two "Copy" buttons side by side). */
  name?: string;
  /** When this changes (another step, another event), the button shows `label` again. */
  resetKey?: unknown;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  useEffect(() => setCopied(undefined), [resetKey]);
  const copy = () => {
    let value: string;
    try {
      value = text();
    } catch {
      setCopied('failed');
      return;
    }
    copyText(value).then(() => setCopied('yes'), () => setCopied('failed'));
  };
  return (
    <>
      <button type="button" class="copy" onClick={copy} title={title} aria-label={name && !copied ? name : undefined}>
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : label}
      </button>
      {/* Said aloud: a changed button label is not announced by screen readers. */}
      <span class="sr-only" role="status">{copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed' : ''}</span>
    </>
  );
}

// A bounded view of a possibly huge text (see lib/elide.ts for why): the head and tail of the text, with a bar in
// between that says how much is left out and offers to show more or to copy the whole text.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { elide, SHOWN_CHARS } from '../lib/elide.ts';
import { CopyButton } from './CopyButton.tsx';

/** Each "show more" shows this many times as much; a few clicks reach any size, each step costs a bounded layout. */
const GROWTH = 8;

function ElisionBar({ hidden, onMore, whole }: { hidden: number; onMore: (e: Event) => void; whole: () => string }) {
  return (
    <span class="elided" data-testid="elided" contentEditable={false}>
      {' '}… {hidden.toLocaleString('en-US')} characters not shown{' '}
      <button type="button" onClick={onMore}>Show more</button>{' '}
      <CopyButton text={whole} label="Copy all" title="Copy the whole text to the clipboard" />{' '}
      …{' '}
    </span>
  );
}

/** Text with its appended tail marked (the tail is what the current event added), bounded for layout. */
export function LongText({ text, appended }: { text: string; appended?: string }) {
  const [shown, setShown] = useState(SHOWN_CHARS);
  const marked = appended !== undefined && appended.length > 0 && text.endsWith(appended);
  const e = elide(text, shown);
  // The press that shows the rest takes the bar and its button away: focus fell to the document (the next Tab started
  // over at the toolbar). It goes to the pane the text is in (the message, the event detail: both take focus).
  const refocus = useRef<HTMLElement | null>(null);
  const more = (ev: Event) => {
    const button = ev.currentTarget as HTMLElement;
    refocus.current = document.activeElement === button ? button.parentElement?.closest<HTMLElement>('[tabindex]') ?? null : null;
    setShown((n) => n * GROWTH);
  };
  useLayoutEffect(() => {
    const pane = refocus.current;
    refocus.current = null;
    if (pane && e.hidden === 0 && (document.activeElement === null || document.activeElement === document.body)) pane.focus({ preventScroll: true });
  });
  if (e.hidden === 0) return marked ? <Marked text={text} appended={appended} /> : <>{text}</>;
  // The mark covers what of the appended part is visible: all of it in the tail, or the tail's whole length.
  const tailMarked = marked ? Math.min(appended.length, e.tail.length) : 0;
  return (
    <>
      {e.head}
      <ElisionBar hidden={e.hidden} onMore={more} whole={() => text} />
      {tailMarked > 0 ? <Marked text={e.tail} appended={e.tail.slice(e.tail.length - tailMarked)} /> : e.tail}
    </>
  );
}

function Marked({ text, appended }: { text: string; appended: string }) {
  return (
    <>
      {text.slice(0, text.length - appended.length)}
      <mark class="appended">{appended}</mark>
    </>
  );
}

/** A `<pre>` of a possibly huge text. */
export function LongPre({ text, class: cls, testId }: { text: string; class?: string; testId?: string }) {
  return (
    <pre class={cls} data-testid={testId}>
      <LongText text={text} />
    </pre>
  );
}

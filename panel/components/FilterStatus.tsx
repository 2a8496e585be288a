// What a filter left, said to screen readers when the filter changes (WCAG 4.1.3: a search's result count is a status
// message). Typing in a filter changed the list where the user is not (focus stays in the box), and nothing said
// whether anything matched. Said on a change of the filter only: a live stream changing the count is not repeated
// (one announcement per arriving event would drown everything else).
import { useEffect, useRef, useState } from 'preact/hooks';

/** `filter`: the filter's settings as one key; `text`: what it leaves, as of this render. */
export function FilterStatus({ filter, text }: { filter: string; text: string }) {
  const [said, setSaid] = useState('');
  const seen = useRef(filter);
  useEffect(() => {
    if (seen.current === filter) return;
    seen.current = filter;
    setSaid(text);
  }, [filter]);
  // Always in the document: a live region added with its text is not read.
  return <span class="sr-only" role="status">{said}</span>;
}

/** "1 connection", "3 of 5 connections" — `noun` with an s for all but one. */
export function countOf(shown: number, all: number, noun: string): string {
  const plural = all === 1 ? noun : `${noun}s`;
  return shown === all ? `${all} ${plural}` : `${shown} of ${all} ${plural}`;
}

// While a capture that replaced the panel's is read back to the selected event (read-back.ts), the step detail's panes
// say "Reading the capture up to the selected step…" in place of the message and the event: the control keyboard
// focus was on — a Copy button, the event pane itself — went with them, focus fell to the document, and the next Tab
// started over at the toolbar. Focus in a pane as it turns to reading stays on the pane, and goes back to the same
// control once the event is placed (the pane itself when that control is not there: the event has no parsed JSON).
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/** What can hold focus in a pane (its Copy buttons, the bubble's toggles, a focusable scroller). */
const FOCUSABLE = 'button, a[href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** The control focus was on when its pane turned to reading, told as the pane shown again can find it. */
interface Lost {
  pane: RefObject<HTMLElement | null>;
  /** Focus was on the pane's own element (a scroller read with the keys). */
  itself: boolean;
  tag: string;
  /** Its title, else its accessible name, else its text: a Copy button's title stays when its label reads "Copied". */
  label: string;
  /** Which of the pane's controls of that tag and label it was. */
  nth: number;
}

const labelOf = (el: Element) => el.getAttribute('title') ?? el.getAttribute('aria-label') ?? el.textContent ?? '';

function alike(pane: HTMLElement, tag: string, label: string): HTMLElement[] {
  return [...pane.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.tagName === tag && labelOf(el) === label);
}

function lostIn(pane: RefObject<HTMLElement | null>): Lost | undefined {
  const root = pane.current;
  const at = document.activeElement;
  if (!root || !(at instanceof HTMLElement) || !root.contains(at)) return undefined;
  if (at === root) return { pane, itself: true, tag: '', label: '', nth: 0 };
  const label = labelOf(at);
  return { pane, itself: false, tag: at.tagName, label, nth: alike(root, at.tagName, label).indexOf(at) };
}

/**
 * `reading`: the panes show that the capture is being read back. `panes`: their elements as rendered now — the
 * reading one's while reading (it takes focus then, so it must be focusable).
 */
export function usePaneFocusKept(reading: boolean, panes: RefObject<HTMLElement | null>[]): void {
  const lost = useRef<Lost | undefined>(undefined);
  // Read while rendering: the controls are still in the document (after the commit focus is on the document).
  if (reading && !lost.current) {
    for (const pane of panes) {
      lost.current = lostIn(pane);
      if (lost.current) break;
    }
  }
  useLayoutEffect(() => {
    const was = lost.current;
    const root = was?.pane.current;
    if (!was || !root) return;
    const at = document.activeElement;
    const dropped = at === null || at === document.body;
    if (reading) {
      if (dropped) root.focus();
      return;
    }
    lost.current = undefined;
    if (!dropped && !root.contains(at)) return; // the user went on elsewhere meanwhile
    const control = was.itself ? root : alike(root, was.tag, was.label)[was.nth] ?? root;
    control.focus();
  }, [reading]);
}

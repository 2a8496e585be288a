// The shell of the panel's dialogs (export, include list, keyboard help): a backdrop, a labelled modal dialog that
// keeps keyboard focus inside it while open — Tab from the last control wraps to the first, Shift+Tab the other way —
// and gives focus back to what had it (the button that opened it) when it closes. Without this, Tab walked out of
// an open dialog onto the toolbar under the backdrop, where Enter on Clear wiped the capture behind it.
// Escape and the other keys are each dialog's own.
import type { ComponentChildren, Ref } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The focusable controls of `box`, in tab order (document order: the dialogs set no positive tabindex). */
function focusables(box: HTMLElement): HTMLElement[] {
  return [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
}

export function Modal({ label, onClose, class: cls, testId, boxRef, tabIndex, children }: {
  label: string;
  onClose: () => void;
  class?: string;
  testId?: string;
  /** The dialog element, for a dialog that places focus itself. */
  boxRef?: Ref<HTMLDivElement>;
  /** -1: the dialog itself can hold focus (a dialog of text, no controls before its Close). */
  tabIndex?: number;
  children: ComponentChildren;
}) {
  const own = useRef<HTMLDivElement>(null);
  const box = (boxRef ?? own) as { current: HTMLDivElement | null };

  useLayoutEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const onKey = (e: KeyboardEvent) => {
      const el = box.current;
      if (e.key !== 'Tab' || !el) return;
      const list = focusables(el);
      if (list.length === 0) {
        e.preventDefault();
        el.focus();
        return;
      }
      const first = list[0];
      const last = list[list.length - 1];
      const at = document.activeElement;
      const inside = at instanceof Node && el.contains(at);
      if (e.shiftKey && (!inside || at === first || at === el)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || at === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      // Back to the opener, unless it is gone or focus has already been put somewhere on purpose.
      const now = document.activeElement;
      if (opener?.isConnected && (now === null || now === document.body || box.current?.contains(now))) opener.focus();
    };
  }, []);

  return (
    <div class="modal-back" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class={cls ? `modal ${cls}` : 'modal'} role="dialog" aria-modal="true" aria-label={label} data-testid={testId} tabIndex={tabIndex} ref={box}>
        {children}
      </div>
    </div>
  );
}

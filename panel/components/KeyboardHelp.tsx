// The `?` overlay: every keyboard shortcut of the panel in one place. Escape, `?` again (handled by the app's key
// listener, which knows at once that the overlay is open), Close or a click outside closes it.
import { Fragment } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { Modal } from './Modal.tsx';

/** Shortcut groups as shown; keys are rendered as <kbd>. Kept next to the handlers' documentation (Scrubber.tsx). */
export const SHORTCUTS: { group: string; items: [keys: string[], what: string][] }[] = [
  {
    group: 'Scrubber (selected reply)',
    items: [
      [['←', '→'], 'previous / next step'],
      [['Shift+←', 'Shift+→'], '10 steps back / forward'],
      [['Home', 'End'], 'first / last step'],
      [['End'], 'after an event of no reply (a CUSTOM): back to the reply, following it'],
      [['[', ']'], 'previous / next step with a diagnostic'],
      [['Space'], 'play / pause'],
    ],
  },
  {
    group: 'Lists',
    items: [
      [['↑', '↓'], 'previous / next row of the focused list (connections, replies, events)'],
      [['Page Up', 'Page Down'], 'in the replies list: ten rows up / down (Ctrl+Home / Ctrl+End: the first / last reply)'],
      [['Tab'], 'move between toolbar, lists and panes'],
      [['↑', '↓', '←', '→'], 'on a divider: resize the panes (Shift = larger steps)'],
      [['←', '→'], 'on a tab (Events, Timeline, Diagnostics; Message, JSON, Diff): the previous / next tab'],
      [['↑', '↓', '←', '→'], 'in the timeline\'s Table: move between its buttons (Home / End along a row, Ctrl+Home / Ctrl+End to the first / last lane, Page Up / Down by ten)'],
    ],
  },
  {
    group: 'Panel',
    items: [
      [['?'], 'show / hide this help'],
      [['Esc'], 'close this help, the export dialog or the include-URLs dialog'],
    ],
  },
];

export function KeyboardHelp({ onClose }: { onClose: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <Modal label="Keyboard shortcuts" class="help" testId="keyboard-help" boxRef={box} tabIndex={-1} onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      {/* One table for all groups, so the key column lines up across them. */}
      <table>
        {SHORTCUTS.map((g) => (
          <tbody key={g.group}>
            <tr>
              <th colSpan={2} scope="colgroup">{g.group}</th>
            </tr>
            {g.items.map(([keys, what]) => (
              <tr key={what}>
                <td class="keys">
                  {keys.map((k, i) => (
                    <Fragment key={k}>
                      {i > 0 ? ' ' : null}
                      <kbd>{k}</kbd>
                    </Fragment>
                  ))}
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
      <div class="actions">
        <button class="primary" onClick={onClose}>Close</button>
      </div>
    </Modal>
  );
}

// How a connection's state is shown — in the connection list's State column and the connection's details alike (the
// details printed the raw state: a file's unended connection read "End ● live" there and "open" in the list).
import type { ConnectionView } from '../../src/core/analysis/types.ts';

export interface StateShown {
  text: string;
  /** The class that colours it (styles.css: .state-live adds the "● " of a stream arriving). */
  cls: string;
  title?: string;
}

/**
 * A connection read from `file` is no live stream: while the file is analysed (`reading`, in slices) its end is not
 * read yet — it read "● live", as if it were arriving — and one whose file holds no end was still streaming when it
 * was saved: open. A live capture's connection (no file) is shown as it is.
 */
export function shownState(state: ConnectionView['state'], file: string | undefined, reading: boolean): StateShown {
  if (state !== 'live' || file === undefined) return { text: state, cls: `state-${state}` };
  return reading
    ? { text: 'reading…', cls: 'dim', title: `Being read from ${file}` }
    : { text: 'open', cls: 'state-open', title: `${file} holds no end for it: it was still streaming when the file was saved` };
}

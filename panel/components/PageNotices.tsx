// The capture's notices that belong to no connection: what the page opened that Replyscope cannot look into (a
// WebSocket, a worker) and what an import left out. Shown above the connections — and in the empty state, where
// "why is my stream not here?" is the question they answer. The first few are spelled out, the rest fold away.
// The whole bar folds to one line (the first notice, cut): three lines of a description above a docked panel left
// the event list two rows. Until the user chooses, a short window (DevTools docked below) shows one line and a
// taller one all of it; the choice holds for the session.
import { useState } from 'preact/hooks';
import type { NoticeRecord } from '../../src/core/capture/model.ts';
import { Icon } from './Icon.tsx';
import { STACKED, useMediaQuery } from './useMediaQuery.ts';

const SHOWN = 2;

type Fold = 'one-line' | 'all';
const FOLD_KEY = 'replyscope.notices';

function loadFold(): Fold | undefined {
  try {
    const v = sessionStorage.getItem(FOLD_KEY);
    return v === 'one-line' || v === 'all' ? v : undefined;
  } catch {
    return undefined; // storage can be unavailable (opaque origins, disabled storage)
  }
}

function saveFold(fold: Fold): void {
  try {
    sessionStorage.setItem(FOLD_KEY, fold);
  } catch {
    /* not remembered: fine */
  }
}

/**
 * Up to this window height the notes start on one line — and in a panel docked to the side, where the demo's
 * description took five lines at 360 px.
 */
const SHORT = `(max-height: 600px), ${STACKED}`;

export function PageNotices({ notices }: { notices: readonly NoticeRecord[] }) {
  const [fold, setFold] = useState(loadFold);
  const short = useMediaQuery(SHORT);
  if (notices.length === 0) return null;
  const oneLine = fold ? fold === 'one-line' : short;
  const choose = (f: Fold) => {
    setFold(f);
    saveFold(f);
  };
  const line = (n: NoticeRecord, i: number) => (
    <div key={i} class={`page-notice ${n.level}`} data-level={n.level} title={oneLine ? n.text : undefined}>
      <Icon name={n.level === 'warning' ? 'warnPrev' : 'info'} /> {n.text}
    </div>
  );
  const rest = notices.slice(SHOWN);
  const others = notices.length - 1;
  return (
    <div class={`page-notices${oneLine ? ' one-line' : ''}${notices.some((n) => n.level === 'warning') ? ' has-warning' : ''}`} data-testid="page-notices" role="note">
      <div class="page-notices-body">
        {oneLine ? (
          // A warning says more than the notes before it (a page's description, say): it is the line kept.
          line(notices.find((n) => n.level === 'warning') ?? notices[0], 0)
        ) : (
          <>
            {notices.slice(0, SHOWN).map(line)}
            {rest.length ? (
              <details>
                <summary>{rest.length} more note{rest.length === 1 ? '' : 's'}</summary>
                {rest.map((n, i) => line(n, i + SHOWN))}
              </details>
            ) : null}
          </>
        )}
      </div>
      {oneLine && others ? <span class="page-notices-more">+{others} more</span> : null}
      <button class="page-notices-fold" aria-expanded={!oneLine} data-testid="notices-fold" onClick={() => choose(oneLine ? 'all' : 'one-line')}
        title={oneLine ? 'Show the notes in full' : 'Show the notes on one line'} aria-label={oneLine ? 'Show the notes in full' : 'Show the notes on one line'}>
        <Icon name={oneLine ? 'expand' : 'collapse'} />
      </button>
    </div>
  );
}

// The capture's notices that belong to no connection: what the page opened that Replyscope cannot look into (a
// WebSocket, a worker) and what an import left out. Shown above the connections — and in the empty state, where
// "why is my stream not here?" is the question they answer. The first few are spelled out, the rest fold away.
import type { NoticeRecord } from '../../src/core/capture/model.ts';
import { Icon } from './Icon.tsx';

const SHOWN = 2;

export function PageNotices({ notices }: { notices: readonly NoticeRecord[] }) {
  if (notices.length === 0) return null;
  const line = (n: NoticeRecord, i: number) => (
    <div key={i} class={`page-notice ${n.level}`} data-level={n.level}>
      <Icon name={n.level === 'warning' ? 'warnPrev' : 'info'} /> {n.text}
    </div>
  );
  const rest = notices.slice(SHOWN);
  return (
    <div class={`page-notices${notices.some((n) => n.level === 'warning') ? ' has-warning' : ''}`} data-testid="page-notices" role="note">
      {notices.slice(0, SHOWN).map(line)}
      {rest.length ? (
        <details>
          <summary>{rest.length} more note{rest.length === 1 ? '' : 's'}</summary>
          {rest.map((n, i) => line(n, i + SHOWN))}
        </details>
      ) : null}
    </div>
  );
}

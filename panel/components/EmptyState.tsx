// The panel with nothing to show yet: why, and what to do — for the inspected page inside DevTools or in a tab (the
// words: lib/empty-words.ts), for a tab closed, a page Replyscope does not run in or a site with capture off, and for
// the standalone viewer, which has no page and offers a file.
import type { ComponentChildren } from 'preact';
import { emptyWords, type PanelHost } from '../lib/empty-words.ts';
import type { PanelSource } from '../sources/source.ts';

/** An import that failed, said whole where the user looks: the toolbar's status line cut it after ~60 characters. */
function ImportError({ status }: { status: { text: string; level: 'info' | 'error' } | undefined }) {
  if (!status || status.level !== 'error') return null;
  return <div class="error-box import-error" data-testid="import-error">{status.text}</div>;
}

/** `text` with its backticked parts as code. */
function Words({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>;
}

export const hostOf = (source: PanelSource): PanelHost => (source.kind === 'viewer' ? 'viewer' : source.host ?? 'tab');

function Guide({ host, origin, onOpen, before }: { host: PanelHost; origin: string | undefined; onOpen: () => void; before?: ComponentChildren }) {
  const words = emptyWords(host, origin);
  return (
    <div class="empty empty-guide" data-testid="empty" data-host={host}>
      {before}
      <strong>{words.title}</strong>
      {words.body.map((p, i) => <p key={i}><Words text={p} /></p>)}
      <p class="empty-open">
        <button class="open-file" onClick={onOpen}>{words.open}</button>{words.beside ? ` ${words.beside}` : null}
      </p>
      {words.after ? <p>{words.after}</p> : null}
      <p class="empty-demo" data-testid="empty-demo"><Words text={words.demo} /></p>
    </div>
  );
}

export function EmptyState({ source, onOpen, unreachable, off, closed, origin, status }: {
  source: PanelSource;
  onOpen: () => void;
  unreachable: boolean;
  off?: string;
  closed?: boolean;
  /** The inspected page's origin, once known. */
  origin?: string;
  status?: { text: string; level: 'info' | 'error' };
}) {
  if (source.kind === 'extension' && closed) {
    // (It said "No agent streams yet — reload the page or open the demo": there is no page left to reload.)
    return (
      <div class="empty" data-testid="empty" data-tab-closed="">
        <strong>The inspected tab was closed.</strong>
        Nothing was captured in it. You can still import a capture file.
      </div>
    );
  }
  if (source.kind === 'extension' && unreachable) {
    return (
      <div class="empty" data-testid="empty" data-unreachable="">
        <strong>Replyscope is not running in this page — reload it to capture its streams.</strong>
        The page was loaded before Replyscope was installed, updated or reloaded (extensions are not injected into
        pages that are already open), or it is a page extensions may not read (data: URLs, browser pages, the Web
        Store). You can still import a capture file.
      </div>
    );
  }
  if (source.kind === 'extension' && off !== undefined) {
    return (
      <div class="empty" data-testid="empty" data-capture-off="">
        <strong>Capture is off for {off}.</strong>
        Tick <em>Capture this site</em> in the toolbar to record its streams again, from the next request (reload the
        page to capture from its start). What was captured before it was switched off was dropped with it.
      </div>
    );
  }
  return <Guide host={hostOf(source)} origin={origin} onOpen={onOpen} before={source.kind === 'viewer' ? <ImportError status={status} /> : undefined} />;
}

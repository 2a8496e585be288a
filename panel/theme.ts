// Theme: inside DevTools follow `chrome.devtools.panels.themeName`; elsewhere (tab, viewer) follow
// prefers-color-scheme. `?theme=dark|light` forces one (screenshots, tests).

export type Theme = 'light' | 'dark';

function devtoolsTheme(): Theme | undefined {
  const panels = (globalThis as { chrome?: typeof chrome }).chrome?.devtools?.panels;
  if (!panels || typeof panels.themeName !== 'string') return undefined;
  return panels.themeName === 'dark' ? 'dark' : 'light';
}

export function installTheme(doc: Document, search: string): () => void {
  const forced = new URLSearchParams(search).get('theme');
  const set = (t: Theme) => (doc.documentElement.dataset.theme = t);
  if (forced === 'dark' || forced === 'light') {
    set(forced);
    return () => {};
  }
  const dt = devtoolsTheme();
  if (dt) {
    set(dt);
    return () => {};
  }
  const mq = doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)');
  const apply = () => set(mq?.matches ? 'dark' : 'light');
  apply();
  mq?.addEventListener('change', apply);
  return () => mq?.removeEventListener('change', apply);
}

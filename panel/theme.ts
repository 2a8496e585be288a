// Theme: inside DevTools follow `chrome.devtools.panels.themeName` — and its changes — since the panel should look
// like the DevTools around it whatever the OS says; elsewhere (tab, viewer) follow prefers-color-scheme.
// `?theme=dark|light` forces one (screenshots, tests).

export type Theme = 'light' | 'dark';

/** The slice of `chrome.devtools.panels` the theme needs (Chrome has setThemeChangeHandler, Firefox onThemeChanged). */
export interface DevtoolsPanelsLike {
  themeName?: unknown;
  setThemeChangeHandler?: (callback?: (theme: string) => void) => void;
  onThemeChanged?: { addListener(cb: (theme: string) => void): void; removeListener(cb: (theme: string) => void): void };
}

/** Chrome names its themes 'default' and 'dark', Firefox 'light' and 'dark'. */
export const themeOf = (name: unknown): Theme => (name === 'dark' ? 'dark' : 'light');

/** `chrome.devtools.panels` when this page runs inside DevTools (a DevTools panel page has `chrome.devtools`). */
export function devtoolsPanels(): DevtoolsPanelsLike | undefined {
  const g = globalThis as { chrome?: { devtools?: { panels?: DevtoolsPanelsLike } }; browser?: { devtools?: { panels?: DevtoolsPanelsLike } } };
  const panels = g.browser?.devtools?.panels ?? g.chrome?.devtools?.panels;
  return panels && typeof panels.themeName === 'string' ? panels : undefined;
}

type ThemeDoc = Pick<Document, 'documentElement' | 'defaultView'>;

/** Apply the theme now and keep it current; returns a function that stops listening. */
export function installTheme(doc: ThemeDoc, search: string, panels: DevtoolsPanelsLike | undefined = devtoolsPanels()): () => void {
  const forced = new URLSearchParams(search).get('theme');
  const set = (t: Theme) => (doc.documentElement.dataset.theme = t);
  if (forced === 'dark' || forced === 'light') {
    set(forced);
    return () => {};
  }
  if (panels) {
    set(themeOf(panels.themeName));
    const onChange = (name: string) => set(themeOf(name));
    if (panels.onThemeChanged) {
      panels.onThemeChanged.addListener(onChange);
      return () => panels.onThemeChanged?.removeListener(onChange);
    }
    if (panels.setThemeChangeHandler) {
      panels.setThemeChangeHandler(onChange);
      return () => panels.setThemeChangeHandler?.(undefined);
    }
    return () => {};
  }
  const mq = doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)');
  const apply = () => set(mq?.matches ? 'dark' : 'light');
  apply();
  mq?.addEventListener('change', apply);
  return () => mq?.removeEventListener('change', apply);
}

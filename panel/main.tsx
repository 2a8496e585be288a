// Entry point: the extension source when opened as `panel/index.html?tabId=N` inside the extension (DevTools panel
// or a normal tab), the standalone viewer source otherwise. The extension client is loaded only in the extension.
import './styles.css';
import './forced-colors.css';
import { createPanelApp } from './app.tsx';
import type { PanelSource } from './sources/source.ts';
import { createViewerSource } from './sources/viewer-source.ts';
import { installTheme } from './theme.ts';

async function pickSource(): Promise<PanelSource> {
  const param = new URLSearchParams(location.search).get('tabId');
  const tabId = param === null || param === '' ? NaN : Number(param);
  const inExtension = typeof chrome !== 'undefined' && Boolean(chrome.runtime?.id);
  if (!Number.isInteger(tabId) || tabId < 0 || !inExtension) return createViewerSource(location);
  const [{ connectToTab }, { createExtensionSource }] = await Promise.all([
    import('../src/extension/panel-connection.ts'),
    import('./sources/extension-source.ts'),
  ]);
  // A DevTools panel's page has chrome.devtools (as the devtools page does); the same page opened as a tab has not.
  return createExtensionSource(tabId, connectToTab, chrome.devtools?.inspectedWindow ? 'devtools' : 'tab');
}

installTheme(document, location.search);
void pickSource().then((source) => {
  const app = createPanelApp(source, document.getElementById('app')!);
  // Reachable from tests and the console for debugging; holds nothing the page could not read from the DOM.
  (globalThis as { replyscopePanel?: unknown }).replyscopePanel = app;
  addEventListener('pagehide', () => app.unmount());
});

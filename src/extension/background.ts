// Background service worker: a thin, stateless router (see background/router.ts). Captures live in each page's
// relay, so stopping this worker at any moment loses nothing.
import { installDebugHook } from './background/debug.ts';
import { Router } from './background/router.ts';

const router = new Router();
const extensionOrigin = chrome.runtime.getURL('');

chrome.runtime.onConnect.addListener((port) => {
  const sender = port.sender;
  if (sender?.id !== chrome.runtime.id) {
    port.disconnect();
    return;
  }
  const fromExtensionPage = typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin);
  if (port.name === 'relay' && !fromExtensionPage) {
    router.onRelayConnect(port);
    return;
  }
  const panel = /^panel:(\d+)$/.exec(port.name);
  if (panel && fromExtensionPage) {
    router.onPanelConnect(port, Number(panel[1]));
    return;
  }
  port.disconnect();
});

installDebugHook(router);

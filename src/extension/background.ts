// Background service worker: a thin, stateless router (see background/router.ts). Captures live in each page's
// relay, so stopping this worker at any moment loses nothing; the per-tab cap's bookkeeping (background/
// budget-keeper.ts) lives in storage.session.
import { installDebugHook } from './background/debug.ts';
import { BudgetKeeper, chromeBudgetIO } from './background/budget-keeper.ts';
import { Router } from './background/router.ts';

const router = new Router();
const budgets = new BudgetKeeper(chromeBudgetIO, router.drops);
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

// One-shot messages from content scripts: the relays' usage reports for the per-tab cap.
chrome.runtime.onMessage.addListener((message, sender) => {
  const tabId = sender.tab?.id;
  if (sender.id !== chrome.runtime.id || tabId === undefined || tabId < 0 || sender.frameId === undefined) return false;
  if (typeof sender.url === 'string' && sender.url.startsWith(extensionOrigin)) return false;
  budgets.onMessage(message, tabId, sender.frameId);
  return false;
});

installDebugHook(router, budgets);

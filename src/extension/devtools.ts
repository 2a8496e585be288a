// The DevTools page: adds the Replyscope panel, and keeps the log of the streams the page tap cannot see (a Worker's)
// from DevTools' network log (devtools-log.ts). The panel gets the inspected tab's id in its URL, so the same page
// also works opened as a normal tab (panel/index.html?tabId=N), where chrome.devtools does not exist.
//
// The log is Chromium's only: it was checked there with real DevTools (what its HAR entries hold — the initiator
// stack that tells the tap's own requests, a worker's requests at all), not in Firefox, where the panel always runs
// inside DevTools and an entry without such a stack would rest on the start-time pairing alone.
import { DevtoolsLog } from './devtools-log.ts';
import { devtoolsLogChannel } from './messages.ts';
import { readSettings } from './settings.ts';

if (chrome.devtools) {
  const tabId = chrome.devtools.inspectedWindow.tabId;
  chrome.devtools.panels.create('Replyscope', '', `panel/index.html?tabId=${tabId}`, () => {
    // Visible in the target list (CDP Target.getTargets), which is how the e2e test knows the panel exists.
    document.title = `Replyscope panel created for tab ${tabId}`;
  });

  if (import.meta.env.MODE !== 'firefox') startDevtoolsLog(tabId);
}

function startDevtoolsLog(tabId: number): void {
  const channel = new BroadcastChannel(devtoolsLogChannel(tabId));
  const log = new DevtoolsLog({
    post: (m) => channel.postMessage(m), extensionUrl: chrome.runtime.getURL(''), settings: () => readSettings(), now: () => Date.now(),
  });
  channel.onmessage = (e) => log.receive(e.data);
  // The page shown when DevTools opened (its URL read from the page: `location` cannot be redefined by its script) —
  // unless the tab navigated before the answer came: that page is the one shown then.
  let navigatedSince = false;
  chrome.devtools.inspectedWindow.eval('location.href', (url: unknown, _error: unknown) => {
    if (!navigatedSince) log.navigated(typeof url === 'string' ? url : '');
  });
  chrome.devtools.network.onNavigated.addListener((url) => {
    navigatedSince = true;
    log.navigated(url);
  });
  chrome.devtools.network.onRequestFinished.addListener((entry) => {
    void log.finished(entry, () => new Promise((resolve) => entry.getContent((text, encoding) => resolve({ text, encoding }))));
  });
}

// The DevTools page: adds the Replyscope panel. The panel gets the inspected tab's id in its URL, so the same page
// also works opened as a normal tab (panel/index.html?tabId=N), where chrome.devtools does not exist.
if (chrome.devtools) {
  const tabId = chrome.devtools.inspectedWindow.tabId;
  chrome.devtools.panels.create('Replyscope', '', `panel/index.html?tabId=${tabId}`, () => {
    // Visible in the target list (CDP Target.getTargets), which is how the e2e test knows the panel exists.
    document.title = `Replyscope panel created for tab ${tabId}`;
  });
}

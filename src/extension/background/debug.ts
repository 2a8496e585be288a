// A debug hook on the service worker's global, for e2e tests and bug reports: it can only be reached from extension
// contexts (a CDP session on the worker, or the extension's own pages), never from web pages.
//
//   replyscopeDebug.watch(tabId)     start collecting the tab's capture (like a panel would)
//   replyscopeDebug.records(tabId)   the collected records so far (a snapshot of every document, then live)
//   replyscopeDebug.documents(tabId) per-document view (frame URL, top/subframe, site on/off)
//   replyscopeDebug.tabIdOf(url)     the tab whose top document has this URL (asks the relays; no "tabs" permission)
//   replyscopeDebug.setPreserveLog(tabId, on) / clear(tabId)   what the panel's buttons do
//   replyscopeDebug.dropped(tabId)   invalid messages and records the tab's relays refused (as of their last snapshots)
//   replyscopeDebug.invalidMessages() invalid messages the background refused
//   replyscopeDebug.routes()         who is connected right now
//   replyscopeDebug.budget(tabId)    the per-tab cap's view of the tab's documents (bytes held, limit told)
import type { CaptureRecord } from '../../core/capture/model.ts';
import { TabCapture, type DocumentCapture } from '../tab-capture.ts';
import type { BudgetKeeper } from './budget-keeper.ts';
import type { Router } from './router.ts';
import type { TabBudgetState } from './tab-budget.ts';

export interface ReplyscopeDebug {
  watch(tabId: number): void;
  unwatch(tabId: number): void;
  records(tabId: number): CaptureRecord[];
  documents(tabId: number): Omit<DocumentCapture, 'records' | 'visitOfConn'>[];
  dropped(tabId: number): number;
  tabIdOf(url: string): Promise<number | undefined>;
  setPreserveLog(tabId: number, on: boolean): void;
  clear(tabId: number): void;
  routes(): ReturnType<Router['describe']>;
  invalidMessages(): number;
  budget(tabId: number): Promise<TabBudgetState>;
}

export function installDebugHook(router: Router, budgets: BudgetKeeper): void {
  const watched = new Map<number, { capture: TabCapture; remove: () => void }>();
  const debug: ReplyscopeDebug = {
    watch(tabId) {
      if (watched.has(tabId)) return;
      const capture = new TabCapture();
      const remove = router.addPanel(tabId, { post: (message) => void capture.apply(message) });
      watched.set(tabId, { capture, remove });
    },
    unwatch(tabId) {
      watched.get(tabId)?.remove();
      watched.delete(tabId);
    },
    records: (tabId) => watched.get(tabId)?.capture.records() ?? [],
    documents: (tabId) => (watched.get(tabId)?.capture.documents() ?? []).map(({ records: _r, visitOfConn: _v, ...doc }) => doc), // plain data: it crosses to the test
    dropped: (tabId) => watched.get(tabId)?.capture.dropped() ?? 0,
    async tabIdOf(url) {
      const tabs = await chrome.tabs.query({});
      for (const tab of tabs) {
        if (tab.id === undefined) continue;
        try {
          const answer = (await chrome.tabs.sendMessage(tab.id, { type: 'ping' }, { frameId: 0 })) as { url?: string } | undefined;
          if (answer?.url === url) return tab.id;
        } catch {
          // no relay in this tab (extension pages, about:blank)
        }
      }
      return undefined;
    },
    setPreserveLog(tabId, on) {
      const w = watched.get(tabId);
      if (w) w.capture.preserveLog = on;
    },
    clear(tabId) {
      watched.get(tabId)?.capture.clear();
      router.clearTab(tabId);
    },
    routes: () => router.describe(),
    invalidMessages: () => router.drops.total(),
    budget: (tabId) => budgets.state(tabId),
  };
  (globalThis as unknown as { replyscopeDebug: ReplyscopeDebug }).replyscopeDebug = debug;
}

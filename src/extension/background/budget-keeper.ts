// The per-tab memory cap's messaging (the policy is tab-budget.ts): relays report what they hold with a one-shot
// `usage` message; the keeper updates the tab's state, kept in storage.session so a service-worker restart loses
// none of it, and tells documents their new limit (`limit`, to the report's frame, naming the document). A document
// that no longer answers (its frame navigated or was removed) is dropped from the tab, and the rest rebalanced.
import { acceptMessage, relayUsageSchema, type BackgroundToRelay, type DropCounter } from '../messages.ts';
import { readSettings } from '../settings.ts';
import { report, rebalance, type LimitOrder, type TabBudgetState } from './tab-budget.ts';

export interface BudgetIO {
  /** The user's cap (bytes). */
  cap(): Promise<number>;
  load(tabId: number): Promise<TabBudgetState>;
  save(tabId: number, state: TabBudgetState): Promise<void>;
  /** Tells a document its limit; resolves true when that very document (docId) answered. */
  tell(tabId: number, order: LimitOrder): Promise<boolean>;
}

const key = (tabId: number) => `replyscope.budget.${tabId}`;

export const chromeBudgetIO: BudgetIO = {
  cap: async () => (await readSettings()).captureLimitBytes,
  async load(tabId) {
    const got = (await chrome.storage.session.get(key(tabId))) as Record<string, TabBudgetState | undefined>;
    return got[key(tabId)] ?? {};
  },
  async save(tabId, state) {
    if (Object.keys(state).length === 0) await chrome.storage.session.remove(key(tabId));
    else await chrome.storage.session.set({ [key(tabId)]: state });
  },
  async tell(tabId, order) {
    const message: BackgroundToRelay = { type: 'limit', docId: order.docId, bytes: order.bytes };
    try {
      return (await chrome.tabs.sendMessage(tabId, message, { frameId: order.frameId })) === true;
    } catch {
      return false; // no relay in that frame any more
    }
  },
};

export class BudgetKeeper {
  /** One update at a time per tab (reports of several frames may arrive together; each reads and writes the state). */
  private readonly queues = new Map<number, Promise<void>>();

  constructor(private readonly io: BudgetIO, private readonly drops: DropCounter) {}

  /** A runtime message from a content script of `tabId`, frame `frameId`: a usage report, or ignored (false). */
  onMessage(raw: unknown, tabId: number, frameId: number): boolean {
    if ((raw as { type?: unknown } | null)?.type !== 'usage') return false;
    const msg = acceptMessage(relayUsageSchema, raw, this.drops, 'relay→background');
    if (!msg) return false;
    this.serial(tabId, async () => {
      const state = await this.io.load(tabId);
      const cap = await this.io.cap();
      let orders = report(state, msg.docId, frameId, msg.bytes, msg.wantsMore, cap);
      // Tell each document; one that does not answer is gone: drop it and rebalance what is left (at most once
      // per document, so this ends).
      while (orders.length > 0) {
        const answers = await Promise.all(orders.map((o) => this.io.tell(tabId, o)));
        const gone = orders.filter((_, i) => !answers[i]).map((o) => o.docId);
        if (gone.length === 0) break;
        for (const docId of gone) delete state[docId];
        orders = rebalance(state, cap);
      }
      await this.io.save(tabId, state);
    });
    return true;
  }

  /** For tests: the tab's state once pending updates are done. */
  async state(tabId: number): Promise<TabBudgetState> {
    await this.queues.get(tabId);
    return this.io.load(tabId);
  }

  private serial(tabId: number, run: () => Promise<void>): void {
    const next = (this.queues.get(tabId) ?? Promise.resolve()).then(run).catch(() => undefined);
    this.queues.set(tabId, next);
    void next.then(() => {
      if (this.queues.get(tabId) === next) this.queues.delete(tabId);
    });
  }
}

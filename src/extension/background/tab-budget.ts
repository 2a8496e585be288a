// The memory cap per tab. Each document's relay bounds its own capture (relay/capture-store.ts); a tab with several
// capturing frames (iframes) would otherwise hold that cap once per frame. Relays report what they hold — only past
// a few MiB, and then once per few MiB of change, so small captures never wake the service worker — and when the
// tab's documents together hold more than the cap, every one of them gets the same per-document limit L, chosen so
// that Σ min(held, L) = cap ("water-filling"): a document under L keeps everything, the big ones give up their
// oldest data (each store evicts oldest first) down to L. An endless stream in one frame next to a finished one in
// another ends with both at L, not with the finished one keeping everything. When documents go away their share
// goes back to the others, and at the cap the limits are lifted. Pure logic here; budget-keeper.ts does the
// messaging and keeps the state across service-worker restarts.

/** What the background knows of one document of a tab. */
export interface BudgetDoc {
  frameId: number;
  /** Bytes its store held at its last report. */
  bytes: number;
  /** It would hold more if it could: it evicted data, or a stream of it is still open (its demand is unknown). */
  wantsMore: boolean;
  /** The per-document limit it was told (null: none, the user's cap applies alone). */
  limit: number | null;
}

/** A tab's documents by docId (plain data: it is kept in storage.session as is). */
export type TabBudgetState = Record<string, BudgetDoc>;

/** A limit to tell one document (null: lift it). */
export interface LimitOrder {
  docId: string;
  frameId: number;
  bytes: number | null;
}

/** No document is squeezed below this (a limit under a few chunks would evict everything it receives). */
export const MIN_DOC_LIMIT = 1024 * 1024;

/** The level L with Σ min(demand_i, L) = cap (or undefined when every demand fits already; Infinity: unbounded). */
export function waterLevel(bytes: readonly number[], cap: number): number | undefined {
  const total = bytes.reduce((a, b) => a + b, 0);
  if (total <= cap) return undefined;
  const sorted = [...bytes].sort((a, b) => a - b);
  let left = cap;
  for (let i = 0; i < sorted.length; i++) {
    const level = left / (sorted.length - i);
    if (sorted[i] >= level) return Math.max(MIN_DOC_LIMIT, Math.floor(level));
    left -= sorted[i];
  }
  return Math.max(MIN_DOC_LIMIT, Math.floor(left)); // unreachable: total > cap means some document is above the level
}

/**
 * The orders that bring every document of `state` to its limit (and records the limits told in `state`).
 * A document that wants more (it evicted, or still streams) counts as wanting as much as it can get: the open
 * streams share the cap from the start (instead of a document that has not grown yet being credited only what it
 * holds), and limits are not lifted just because the squeezed documents now fit (they would grow back at once) —
 * only when the level reaches the cap, e.g. after the other documents went away.
 * While a limit holds, every document is told, changed or not: its answer is how a document that went away without
 * a word (a crashed frame) is found and its share given back.
 */
export function rebalance(state: TabBudgetState, cap: number): LimitOrder[] {
  const ids = Object.keys(state);
  const demands = ids.map((id) => (state[id].wantsMore ? Infinity : state[id].bytes));
  const level = waterLevel(demands, cap);
  const limit = level === undefined || level >= cap ? null : level;
  const orders: LimitOrder[] = [];
  for (const docId of ids) {
    const doc = state[docId];
    if (limit === null && doc.limit === null) continue;
    doc.limit = limit;
    orders.push({ docId, frameId: doc.frameId, bytes: limit });
  }
  return orders;
}

/** A document's report: what it holds now (0: it is going away), whether it wants more. Returns the tab's orders. */
export function report(state: TabBudgetState, docId: string, frameId: number, bytes: number, wantsMore: boolean, cap: number): LimitOrder[] {
  if (bytes === 0) delete state[docId];
  else state[docId] = { frameId, bytes, wantsMore, limit: state[docId]?.limit ?? null };
  return rebalance(state, cap);
}

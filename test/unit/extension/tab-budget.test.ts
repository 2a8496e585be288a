// The per-tab memory cap: the water-filling policy (tab-budget.ts) and its keeper (budget-keeper.ts) with an
// in-memory stand-in for storage.session and the frames.
import { describe, expect, it } from 'vitest';
import { BudgetKeeper, type BudgetIO } from '../../../src/extension/background/budget-keeper.ts';
import { MIN_DOC_LIMIT, rebalance, report, waterLevel, type LimitOrder, type TabBudgetState } from '../../../src/extension/background/tab-budget.ts';
import { DropCounter } from '../../../src/extension/messages.ts';

const MiB = 1024 * 1024;

describe('waterLevel', () => {
  it('is undefined while everything fits, else the level L with Σ min(held, L) = cap', () => {
    expect(waterLevel([10 * MiB, 20 * MiB], 30 * MiB)).toBeUndefined();
    expect(waterLevel([10 * MiB, 50 * MiB], 40 * MiB)).toBe(30 * MiB); // 10 + 30
    expect(waterLevel([30 * MiB, 30 * MiB, 30 * MiB], 60 * MiB)).toBe(20 * MiB);
    expect(waterLevel([2 * MiB, 3 * MiB, 100 * MiB], 64 * MiB)).toBe(59 * MiB);
  });
  it('never goes below the minimum a document needs', () => {
    expect(waterLevel(Array(100).fill(10 * MiB), 16 * MiB)).toBe(MIN_DOC_LIMIT);
  });
});

describe('rebalance / report', () => {
  it('tells every document the level when the tab is over the cap, again on every report while it is, and lifts it at the cap', () => {
    const state: TabBudgetState = {};
    const cap = 64 * MiB;
    expect(report(state, 'a', 0, 40 * MiB, false, cap)).toEqual([]);
    const over = report(state, 'b', 3, 40 * MiB, false, cap);
    expect(over).toEqual([{ docId: 'a', frameId: 0, bytes: 32 * MiB }, { docId: 'b', frameId: 3, bytes: 32 * MiB }]);
    // Both evicted down to their limit: together they fit now, but they want more — the limit stays, and is
    // told again (an answer is how a vanished document is found).
    expect(report(state, 'a', 0, 29 * MiB, true, cap).map((o) => o.bytes)).toEqual([32 * MiB, 32 * MiB]);
    expect(report(state, 'b', 3, 29 * MiB, true, cap).map((o) => o.bytes)).toEqual([32 * MiB, 32 * MiB]);
    // One goes away (0): the other's level reaches the cap, so its limit is lifted; after that nothing is sent.
    expect(report(state, 'b', 3, 0, false, cap)).toEqual([{ docId: 'a', frameId: 0, bytes: null }]);
    expect(report(state, 'a', 0, 30 * MiB, true, cap)).toEqual([]);
    expect(state).toEqual({ a: { frameId: 0, bytes: 30 * MiB, wantsMore: true, limit: null } });
  });

  it('a document that wants no more and holds less than the level keeps everything; the others share the rest', () => {
    const state: TabBudgetState = {
      small: { frameId: 1, bytes: 4 * MiB, wantsMore: false, limit: null },
      big: { frameId: 2, bytes: 200 * MiB, wantsMore: false, limit: null },
      full: { frameId: 3, bytes: 10 * MiB, wantsMore: true, limit: null },
    };
    const orders = rebalance(state, 64 * MiB);
    expect(orders.map((o) => o.bytes)).toEqual([30 * MiB, 30 * MiB, 30 * MiB]); // 4 + 30 + 30 = 64
  });
});

/** A keeper over memory: frames answer for the documents listed in `alive`. */
function keeper(cap: number, alive: Set<string>) {
  const store = new Map<number, TabBudgetState>();
  const told: LimitOrder[] = [];
  const io: BudgetIO = {
    cap: async () => cap,
    load: async (tabId) => structuredClone(store.get(tabId) ?? {}),
    save: async (tabId, state) => void store.set(tabId, structuredClone(state)),
    tell: async (_tabId, order) => {
      told.push(order);
      return alive.has(order.docId);
    },
  };
  return { keeper: new BudgetKeeper(io, new DropCounter()), told };
}

describe('BudgetKeeper', () => {
  it('applies reports in order, tells the documents, and drops one that no longer answers', async () => {
    const alive = new Set(['a', 'b', 'c']);
    const { keeper: k, told } = keeper(30 * MiB, alive);
    for (const [doc, frame] of [['a', 0], ['b', 1], ['c', 2]] as const) k.onMessage({ type: 'usage', docId: doc, bytes: 20 * MiB, wantsMore: false }, 7, frame);
    expect(await k.state(7)).toEqual({
      a: { frameId: 0, bytes: 20 * MiB, wantsMore: false, limit: 10 * MiB },
      b: { frameId: 1, bytes: 20 * MiB, wantsMore: false, limit: 10 * MiB },
      c: { frameId: 2, bytes: 20 * MiB, wantsMore: false, limit: 10 * MiB },
    });
    // c's frame navigated without a word; the next report finds it gone and gives its share to the others.
    alive.delete('c');
    told.length = 0;
    k.onMessage({ type: 'usage', docId: 'a', bytes: 9 * MiB, wantsMore: true }, 7, 0);
    const state = await k.state(7);
    expect(Object.keys(state).sort()).toEqual(['a', 'b']);
    expect(state.a.limit).toBe(state.b.limit);
    expect(state.a.limit).toBe(15 * MiB); // a (wants more) and b (20 MiB) are both above the level: they split the cap
    expect(told.some((o) => o.docId === 'c')).toBe(true);
  });
  it('ignores anything but a well-formed usage report', async () => {
    const { keeper: k } = keeper(30 * MiB, new Set());
    expect(k.onMessage({ type: 'ping' }, 1, 0)).toBe(false);
    expect(k.onMessage({ type: 'usage', docId: 'x', bytes: -1, wantsMore: false }, 1, 0)).toBe(false);
    expect(k.onMessage({ type: 'usage', docId: 'x', bytes: 5, wantsMore: false, extra: 1 }, 1, 0)).toBe(false);
    expect(k.onMessage({ type: 'usage', docId: 'x', bytes: 5 }, 1, 0)).toBe(false);
    expect(await k.state(1)).toEqual({});
  });
});

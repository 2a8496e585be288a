// A relay that has a port open (a panel watches its tab) sends its usage reports over it instead of one-shot
// messages (cheaper for the page's thread): the router hands them to the per-tab cap's bookkeeping with the port's
// tab and frame, checks them like every other relay message, and they change nothing about who is connected.
import { describe, expect, it } from 'vitest';
import { Router } from '../../../src/extension/background/router.ts';
import type { RelayUsage } from '../../../src/extension/messages.ts';

/** The parts of a chrome.runtime.Port the router uses, with a way to deliver a message from the relay. */
function relayPort(tabId: number, frameId: number) {
  const listeners: ((m: unknown) => void)[] = [];
  const sent: unknown[] = [];
  let disconnected = false;
  const port = {
    name: 'relay',
    sender: { tab: { id: tabId }, frameId },
    onMessage: { addListener: (f: (m: unknown) => void) => listeners.push(f) },
    onDisconnect: { addListener: () => undefined },
    postMessage: (m: unknown) => sent.push(m),
    disconnect: () => {
      disconnected = true;
    },
  } as unknown as chrome.runtime.Port;
  return { port, deliver: (m: unknown) => listeners.forEach((f) => f(m)), sent, disconnected: () => disconnected };
}

describe('Router: usage reports over a relay port', () => {
  it('hands a well-formed report to the keeper with the port’s tab and frame, and nothing else happens', () => {
    const reports: [RelayUsage, number, number][] = [];
    const router = new Router((msg, tabId, frameId) => reports.push([msg, tabId, frameId]));
    const relay = relayPort(7, 3);
    router.onRelayConnect(relay.port);
    relay.deliver({ type: 'usage', docId: 'doc-1', bytes: 4096, wantsMore: true });
    expect(reports).toEqual([[{ type: 'usage', docId: 'doc-1', bytes: 4096, wantsMore: true }, 7, 3]]);
    // Not a hello: the port is neither attached nor hung up on.
    expect(relay.sent).toEqual([]);
    expect(relay.disconnected()).toBe(false);
  });

  it('drops and counts a malformed report', () => {
    const reports: unknown[] = [];
    const router = new Router((msg) => reports.push(msg));
    const relay = relayPort(7, 0);
    router.onRelayConnect(relay.port);
    relay.deliver({ type: 'usage', docId: 'doc-1', bytes: -5, wantsMore: false });
    relay.deliver({ type: 'usage', docId: 'doc-1', bytes: 5, wantsMore: false, extra: true });
    expect(reports).toEqual([]);
    expect(router.drops.total()).toBe(2);
  });
});

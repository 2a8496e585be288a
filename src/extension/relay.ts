// Isolated-world relay (document_start, every frame, declared before the tap so it listens first).
// Receives the tap's private port, validates every batch (zod; fetch chunks by hand, see relay/tap-batch.ts) and takes
// it in the tap's order (relay/tap-intake.ts), keeps this document's capture in a CaptureStore, applies the user's
// settings, and talks to the background only when there is something to say. The store's limit is the user's cap, or
// lower when the tab's documents together hold more (background/tab-budget.ts).
import './relay/zod-jitless.ts';
import { DropCounter, type RelayToTap, type WireRecord } from './messages.ts';
import { BackgroundLink } from './relay/background-link.ts';
import { CaptureStore } from './relay/capture-store.ts';
import { idleScheduler } from './relay/idle-outbox.ts';
import { TapIntake } from './relay/tap-intake.ts';
import { LEAVE_BATCH_EVENT, LEAVE_NODE_EVENT, PORT_EVENT, RELAY_READY_EVENT } from './tap/handshake.ts';
import { DEFAULT_CAPTURE_LIMIT_BYTES, parseSettings, readSettings, SETTINGS_KEYS, usageReportStep, type CaptureSettings } from './settings.ts';

const isTop = window === window.top;
const siteOrigin = topOrigin();
const drops = new DropCounter();
const store = new CaptureStore(DEFAULT_CAPTURE_LIMIT_BYTES);
const intake = new TapIntake(store, drops);
let settings: CaptureSettings | undefined;
let tapPort: MessagePort | undefined;
/** This document's share of the tab's cap, when the background set one (null: none). */
let tabLimit: number | null = null;

function topOrigin(): string {
  if (isTop) return location.origin;
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[ancestors.length - 1];
  try {
    return window.top?.location.origin ?? location.origin;
  } catch {
    return location.origin; // cross-origin parent and no ancestorOrigins (Firefox < 139): the frame's own origin
  }
}

function siteEnabled(): boolean {
  return !settings?.disabledSites.includes(siteOrigin);
}

const link: BackgroundLink = new BackgroundLink(
  () => ({ frameUrl: location.href, isTop, siteOrigin, siteEnabled: siteEnabled() }),
  (): { records: WireRecord[]; dropped: number } => ({ records: store.snapshot(), dropped: drops.total() + store.rejected + link.drops.total() }),
  (now) => store.clear(now),
  (bytes) => {
    tabLimit = bytes;
    applyLimit();
  },
  // What a burst may hold back: records held there are also in the store, so they cost nothing more until the store
  // evicts them. So: the store's free room, plus a quarter of the limit (the bound of its queue of evicted chunks
  // awaiting their digest) — near the limit, a burst holds back no more than that quarter.
  () => Math.max(0, store.limitBytes - store.size) + store.limitBytes / 4,
);

const nowMs = () => performance.timeOrigin + performance.now();

/** The store's limit from the user's cap and the tab's share; evicts at once when it went down. */
function applyLimit(): void {
  const cap = settings?.captureLimitBytes ?? DEFAULT_CAPTURE_LIMIT_BYTES;
  store.limitBytes = Math.min(cap, tabLimit ?? Infinity);
  const evicted = store.enforce(nowMs());
  if (evicted.length) link.records(evicted);
  reportUsage(evicted.length > 0);
  scheduleDigest();
}

/**
 * Digests what the store evicted in idle time, a slice at a time (see relay/digest-queue.ts): the page's thread is the
 * relay's, and digesting a tenth of a 64 MB capture at once took ~200 ms. The timeout bounds the wait on a page that
 * never idles.
 */
let digestScheduled = false;
function scheduleDigest(): void {
  if (digestScheduled || store.digestBacklog === 0) return;
  digestScheduled = true;
  idleScheduler((deadline) => {
    digestScheduled = false;
    const started = performance.now();
    // Idle time, or at least a few ms' worth when the deadline forced this call.
    const more = () => deadline.timeRemaining() > 1 || performance.now() - started < 4;
    const updates = store.digestPending(more, nowMs());
    if (updates.length) link.records(updates);
    scheduleDigest();
  }, 1000);
}

function reportUsage(force: boolean): void {
  link.usage(store.size, store.hasEvicted || store.hasOpenConnections, force, usageReportStep(settings?.captureLimitBytes ?? DEFAULT_CAPTURE_LIMIT_BYTES));
}

function onTapMessage(event: MessageEvent): void {
  takeTapBatch(event.data, false);
}

function takeTapBatch(data: unknown, leaving: boolean): void {
  const forward = intake.take(data, leaving, nowMs());
  if (!forward) return;
  if (forward.length) link.records(forward);
  reportUsage(false);
  scheduleDigest();
}

function onPortOffer(event: Event): void {
  if (tapPort || !(event instanceof MessageEvent) || event.ports.length !== 1) return;
  tapPort = event.ports[0];
  event.preventDefault(); // the receipt the tap waits for
  event.stopImmediatePropagation();
  window.removeEventListener(PORT_EVENT, onPortOffer, true);
  tapPort.onmessage = onTapMessage;
  sendConfig();
}

/** The tap's element for its last batch as the page leaves (handshake.ts): taken once, like the port. */
let leaveNode: EventTarget | undefined;
function onLeaveNodeOffer(event: Event): void {
  if (leaveNode || !tapPort || !(event instanceof MouseEvent) || !(event.relatedTarget instanceof Element) || event.relatedTarget.isConnected) return;
  leaveNode = event.relatedTarget;
  event.preventDefault(); // the receipt the tap waits for
  event.stopImmediatePropagation();
  window.removeEventListener(LEAVE_NODE_EVENT, onLeaveNodeOffer, true);
  leaveNode.addEventListener(LEAVE_BATCH_EVENT, (e) => {
    // Handled before the tap's dispatch returns, while the document is still there; sent on at once.
    takeTapBatch((e as CustomEvent).detail, true);
    link.leaving();
  });
}

function sendConfig(): void {
  if (!tapPort || !settings) return;
  const config: RelayToTap = { type: 'config', enabled: siteEnabled(), includeUrls: settings.includeUrls };
  tapPort.postMessage(config);
}

function applySettings(next: CaptureSettings): void {
  const wasEnabled = settings ? siteEnabled() : true;
  if (settings && next.captureLimitBytes !== settings.captureLimitBytes) link.capChanged(); // reported by applyLimit
  settings = next;
  if (intake.setSite(siteEnabled(), nowMs()) && wasEnabled) link.resnapshot();
  applyLimit();
  sendConfig();
  link.siteChanged();
}

window.addEventListener(PORT_EVENT, onPortOffer, true);
window.addEventListener(LEAVE_NODE_EVENT, onLeaveNodeOffer, true);
window.dispatchEvent(new Event(RELAY_READY_EVENT));

readSettings().then(applySettings, () => applySettings(parseSettings({})));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local' || !Object.values(SETTINGS_KEYS).some((k) => k in changes)) return;
  readSettings().then(applySettings, () => undefined);
});

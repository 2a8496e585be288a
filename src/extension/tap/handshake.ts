// The tap ↔ relay handshake, shared by both sides (dependency-free).
//
// At document_start, before any page script exists, the tap creates a MessageChannel and hands one port to the
// isolated-world relay by dispatching a *synchronous* event on window (the DOM is shared between worlds; a
// window.postMessage would be delivered later, when page scripts may already listen). The relay takes the first
// port it sees, calls preventDefault() as a receipt and stops listening; the tap keeps the other end in a closure.
// No global is left behind. If the relay was not there yet (another browser's injection order), the tap waits for
// the relay's own `RELAY_READY_EVENT` and hands the port over then — still before page scripts run.

/** Carries the port: a MessageEvent whose `ports[0]` is the relay's end. */
export const PORT_EVENT = 'replyscope:tap-port';
/** Fired by the relay when it starts listening (only matters if the tap ran first). */
export const RELAY_READY_EVENT = 'replyscope:relay-ready';

// The leave hand-off. A message posted on the port while the document unloads is never delivered, so the records the
// tap still batches when the page goes (`pagehide`) would be lost with it. Right after the port, the tap hands the
// relay a detached element of its own — `relatedTarget` of a synchronous MouseEvent on window, still before any page
// script: the DOM is shared between worlds, and an element never inserted is out of every page script's reach. On
// `pagehide` the tap dispatches its last batch on that element as a CustomEvent (`detail`, cloned into the relay's
// world), which the relay handles before the dispatch returns — while the document is still there.

/** Carries the element: a MouseEvent whose `relatedTarget` it is. The relay calls preventDefault() as a receipt. */
export const LEAVE_NODE_EVENT = 'replyscope:tap-leave-node';
/** Dispatched on that element: `detail` is a tap batch (`TapToRelay`). */
export const LEAVE_BATCH_EVENT = 'replyscope:tap-leave-batch';

// A stream held back on its way to the page: events that reached it long after the server stamped them, while others
// came at once — the buffering proxy (nginx's `proxy_buffering`), a compressing middleware, a framework that flushes
// at the end. The page saw nothing for seconds, then everything: the commonest "streaming does not stream" report,
// and the one thing a capture in the page can tell that the server's own logs cannot.
//
// Told from each event's delay: its arrival time (`t`, the page's clock) minus its `created_at` (the server's). The
// clocks' offset is the same for every event, so the largest delay minus the smallest is how much longer one event
// waited on its way than another, whatever the clocks say. (A numeric created_at — no AgentScope wire form — comes
// here in ms, read in its writer's unit: time/epoch-number.ts.) Only events with both times count: a HAR's fetch body has
// no arrival times, pi events no created_at — neither is ever told.
// Guards against other causes of a spread:
// - a created_at in whole seconds can be up to 1 s early, so the bar rises by that much for such a stream;
// - a server that stamps every event with one time (its reply's, say) gives delays that grow with arrival: the
//   events' created_at must span at least as much as the bar, as buffering events that were made over time does;
// - an event made before the request that brought it waited for no proxy: a server replaying a session's history, the
//   events made while a client was away and sent when it came back (a resumed stream, an EventSource reconnecting),
//   a reply a WebSocket page asked for again. Its making, in the page's clock, is at most its created_at plus the
//   least delay of any event (that event's own latency is ≥ 0); if that is before the request began — the
//   connection's, an EventSource's reconnection (by its first event after the note), the socket's last message the
//   page sent — the event is left out.
// One clock is assumed to stamp the connection's events: a gateway merging agents on hosts whose clocks disagree by a
// second or more reads as a spread too.
import type { Diagnostic } from '../diagnostics/types.ts';

/** How much longer one event may wait on its way than another before the stream counts as held back. */
export const HELD_BACK_MS = 1000;

/** What the watch reads: the connection's events' times by index (epoch ms; NaN when unknown). */
export interface EventClock {
  t: Float64Array;
  createdAt: Float64Array;
}

/**
 * Incremental over a connection's events (a live connection's view is rebuilt many times a second): a spread over all
 * events is kept as they come — an upper bound of the told one — and only when it passes the bar are the events
 * read again with the guards above (rarely: a held-back stream, or history replayed).
 */
export class HeldBackWatch {
  private upTo = 0;
  private minDelay = Infinity;
  private maxDelay = -Infinity;
  private cached?: { count: number; starts: number; found: Diagnostic | undefined };

  update(clock: EventClock, count: number): void {
    for (let i = this.upTo; i < count; i++) {
      const delay = clock.t[i] - clock.createdAt[i];
      if (Number.isNaN(delay)) continue;
      if (delay < this.minDelay) this.minDelay = delay;
      if (delay > this.maxDelay) this.maxDelay = delay;
    }
    this.upTo = Math.max(this.upTo, count);
  }

  /**
   * The warning, at the event that waited longest, or undefined. `starts`: when the requests that brought the events
   * began (page clock, ascending): the connection's, then each reconnection's.
   */
  diagnostic(clock: EventClock, starts: readonly number[]): Diagnostic | undefined {
    if (!(this.maxDelay - this.minDelay >= HELD_BACK_MS)) return undefined;
    const c = this.cached;
    if (c && c.count === this.upTo && c.starts === starts.length) return c.found;
    const found = told(clock, this.upTo, this.minDelay, starts);
    this.cached = { count: this.upTo, starts: starts.length, found };
    return found;
  }
}

function told({ t, createdAt }: EventClock, count: number, leastDelay: number, starts: readonly number[]): Diagnostic | undefined {
  let wholeSeconds = true;
  for (let i = 0; i < count && wholeSeconds; i++) if (Number.isFinite(createdAt[i]) && createdAt[i] % 1000 !== 0) wholeSeconds = false;
  const early = wholeSeconds ? 1000 : 0; // how early a created_at may read
  let minDelay = Infinity;
  let minAt = -1;
  let maxDelay = -Infinity;
  let maxAt = -1;
  let first = Infinity;
  let last = -Infinity;
  let s = 0;
  for (let i = 0; i < count; i++) {
    const delay = t[i] - createdAt[i];
    if (Number.isNaN(delay)) continue;
    while (s + 1 < starts.length && starts[s + 1] <= t[i]) s++;
    if (starts.length && createdAt[i] + early + leastDelay < starts[s]) continue; // made before its request
    if (delay < minDelay) {
      minDelay = delay;
      minAt = i;
    }
    if (delay > maxDelay) {
      maxDelay = delay;
      maxAt = i;
    }
    if (createdAt[i] < first) first = createdAt[i];
    if (createdAt[i] > last) last = createdAt[i];
  }
  const bar = HELD_BACK_MS + early;
  const held = maxDelay - minDelay;
  if (!(held >= bar) || last - first < bar) return undefined;
  return {
    code: 'stream.held-back',
    severity: 'warning',
    index: maxAt,
    related: [minAt],
    message: `event #${maxAt} reached the page ${seconds(held)} later, counted from its created_at, than event #${minAt} did from its own: ` +
      'the stream was held back between the agent and the page (a buffering proxy, compression, a late flush) — the UI could show none of it meanwhile — or the page read it late (its thread busy, paused in the debugger)',
  };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

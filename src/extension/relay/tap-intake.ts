// The relay's intake of the tap's batches: each checked (tap-batch.ts), kept in the order the tap numbered them, and
// recorded in the store only while capture is on for the site. Apart from relay.ts (which wires it to the page, the
// settings and the background) so that these rules can be driven without a browser.
//
// Order: the leave hand-off (tap/handshake.ts) may overtake batches still on the port. Those never come while the page
// leaves, and if it comes back from the back/forward cache they come after what followed them — dropped then, not
// appended out of order.
// The site switch: records that arrive before the settings are read are kept; they are dropped with the rest if the
// site turns out to be off (`setSite`).
import type { DropCounter, RelayRecord } from '../messages.ts';
import type { CaptureStore } from './capture-store.ts';
import { acceptTapBatch } from './tap-batch.ts';

export class TapIntake {
  /** The tap's next batch number (TapToRelay `seq`). */
  private nextSeq = 0;
  /** Whether capture is on for the site: undefined until the settings are read. */
  private siteOn: boolean | undefined;

  constructor(private readonly store: CaptureStore, private readonly drops: DropCounter) {}

  /**
   * One batch from the tap (`leaving`: handed over on the leave element as the page goes). Returns what the store
   * took, to forward live, or undefined when nothing was recorded.
   */
  take(data: unknown, leaving: boolean, now: number): RelayRecord[] | undefined {
    const msg = acceptTapBatch(data, this.drops);
    if (!msg) return undefined;
    const forward: RelayRecord[] = [];
    if (msg.seq !== undefined) {
      if (msg.seq < this.nextSeq) {
        this.drops.note('tap→relay', `batch ${msg.seq} came after the leave hand-off`);
        return undefined;
      }
      if (leaving && msg.seq > this.nextSeq) {
        forward.push(...this.store.add([{ kind: 'notice', t: now, level: 'warning', text: `The page left while ${msg.seq - this.nextSeq === 1 ? 'a batch' : `${msg.seq - this.nextSeq} batches`} of records was on its way to the capture: the streams open then may miss reads before their last ones` }], now).forward);
      }
      this.nextSeq = msg.seq + 1;
    }
    if (this.siteOn === false) return forward.length ? forward : undefined;
    forward.push(...this.store.add(msg.records, now).forward);
    return forward;
  }

  /**
   * The settings say whether capture is on for the site. Off: what the store holds goes (records kept before the
   * settings were read too); true when there was something to drop.
   */
  setSite(on: boolean, now: number): boolean {
    this.siteOn = on;
    if (on || this.store.size === 0) return false;
    this.store.clear(now, false);
    return true;
  }
}

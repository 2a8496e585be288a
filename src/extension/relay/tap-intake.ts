// The relay's intake of the tap's batches: each checked (tap-batch.ts), kept in the order the tap numbered them, and
// recorded in the store only while capture is on for the site. Apart from relay.ts (which wires it to the page, the
// settings and the background) so that these rules can be driven without a browser.
//
// Order: the leave hand-off (tap/handshake.ts) may overtake batches still on the port. Those never come while the page
// leaves, and if it comes back from the back/forward cache they come after what followed them — dropped then, not
// appended out of order, with a note in the capture (not counted among the invalid messages: nothing is wrong with
// them).
// The site switch: nothing is recorded for a site switched off, the notice that the page left while batches were on
// their way included. Records that arrive before the settings are read are kept — that notice too — and dropped with
// the rest if the site turns out to be off (`setSite`).
import type { NoticeRecord } from '../../core/capture/model.ts';
import type { DropCounter, RelayRecord } from '../messages.ts';
import type { CaptureStore } from './capture-store.ts';
import { acceptTapBatch } from './tap-batch.ts';

/** Said before the batch that overtook `missed` others as the page left. */
function leftNotice(missed: number, t: number): NoticeRecord {
  return {
    kind: 'notice', t, level: 'warning',
    text: `The page left while ${missed === 1 ? 'a batch' : `${missed} batches`} of records was on its way to the capture: the streams open then may miss reads before their last ones`,
  };
}

/** Said when a batch the leave hand-off overtook comes after all, once the page is back: it is dropped. */
function lateNotice(t: number): NoticeRecord {
  return {
    kind: 'notice', t, level: 'info',
    text: 'A batch of records sent before the page left came only after it was back from the back/forward cache, behind what followed it: it was dropped rather than put out of order, so the streams open when the page left miss those reads',
  };
}

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
    let missed = 0;
    const late = msg.seq !== undefined && msg.seq < this.nextSeq;
    if (msg.seq !== undefined && !late) {
      if (leaving) missed = msg.seq - this.nextSeq;
      this.nextSeq = msg.seq + 1; // counted on a site switched off too: the tap's numbers go on
    }
    // Nothing is recorded for a site switched off — the notices below neither (they are records like the others).
    if (this.siteOn === false) return undefined;
    // A late batch is well-formed, and dropped by design: not one of the invalid messages `drops` counts (the panel
    // shows that count as such) — the capture says what became of it instead.
    if (late) return this.store.add([lateNotice(now)], now).forward;
    const records = missed > 0 ? [leftNotice(missed, now), ...msg.records] : msg.records;
    return this.store.add(records, now).forward;
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

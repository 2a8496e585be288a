// The relay's side of the relay ↔ background hop. Silent until it matters: no port, no service-worker wake-up, until
// this document captures its first record (then one `hello`, so a panel already watching the tab learns of it) or a
// panel attaches (the background broadcasts `attach` to every frame of the tab). While attached, records flow live.
// The background detaches by disconnecting the port; so does a service-worker restart — the capture stays here, and
// the next `attach` (the panel reconnects) gets a complete snapshot.
import { IdleOutbox } from './idle-outbox.ts';
import { UsageReports } from './usage-reports.ts';
import { acceptMessage, backgroundToRelaySchema, DropCounter, type BackgroundToRelay, type DocumentInfo, type RelayToBackground, type RelayRecord, type RelayUsage, type WireRecord } from '../messages.ts';

type CaptureRecord = RelayRecord; // what the relay forwards (a snapshot holds only WireRecords)

/** Chrome refuses extension messages above 64 MiB; stay far below that per message. */
const MAX_MESSAGE_CHARS = 8 * 1024 * 1024;
/** Live batches are small: each is one post in idle time (see IdleOutbox), ~1–2 ms of the page's thread. */
const LIVE_BATCH_CHARS = 256 * 1024;

function approxChars(rec: CaptureRecord): number {
  switch (rec.kind) {
    case 'chunk':
      return 96 + (rec.text?.length ?? 0) + (rec.base64?.length ?? 0);
    case 'bytes':
      return 96 + rec.payload.byteLength;
    case 'message':
      return 96 + rec.data.length;
    case 'connection':
      return 512 + (rec.requestBody?.text?.length ?? 0) + (rec.requestBody?.base64?.length ?? 0);
    case 'evicted':
      // The derived state carries reply messages (each string capped, see eviction-digest.ts): count it, so a
      // snapshot is split before it nears the browser's message size limit.
      return 128 + (rec.derived ? derivedChars(rec.derived) : 0);
    default:
      return 128;
  }
}

function derivedChars(d: NonNullable<Extract<CaptureRecord, { kind: 'evicted' }>['derived']>): number {
  let n = d.carry.length + (d.sse?.lastEventId?.length ?? 0);
  for (const r of d.replies) n += JSON.stringify(r.message).length;
  if (d.pi?.state !== undefined) n += JSON.stringify(d.pi.state).length;
  return n;
}

/** Splits records into batches that fit in one message each; `sizes`, when given, gets each batch's approximate size. */
export function batchRecords<R extends CaptureRecord>(records: readonly R[], maxChars = MAX_MESSAGE_CHARS, sizes?: number[]): R[][] {
  const batches: R[][] = [];
  let current: R[] = [];
  let size = 0;
  for (const rec of records) {
    const n = approxChars(rec);
    if (current.length && size + n > maxChars) {
      batches.push(current);
      sizes?.push(size);
      current = [];
      size = 0;
    }
    current.push(rec);
    size += n;
  }
  batches.push(current);
  sizes?.push(size);
  return batches;
}

/** A random document id. (Not crypto.randomUUID: that exists only in secure contexts, and pages may be http.) */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class BackgroundLink {
  readonly docId = randomId();
  private readonly outbox: IdleOutbox<RelayToBackground>;
  private port: chrome.runtime.Port | undefined;
  private attached = false;
  private announced = false;
  /**
   * A `hello` is on its way and the background has not answered (attach or hang up). A document going away then sends
   * its capture unasked (see leaving): the answer would come too late.
   */
  private helloUnanswered = false;
  /** Usage reports to the tab's budget (see usage-reports.ts). */
  private readonly reports = new UsageReports((bytes, wantsMore) => this.sendUsage(bytes, wantsMore));
  readonly drops = new DropCounter();

  constructor(
    private readonly info: () => Omit<DocumentInfo, 'docId'>,
    private readonly snapshot: () => { records: WireRecord[]; dropped: number },
    private readonly clearStore: (now: number) => void,
    /** The tab's documents hold more than the cap together: this document's limit (null: lifted). */
    private readonly onLimit: (bytes: number | null) => void = () => undefined,
    /** The most captured characters a burst may hold back in the outbox (see IdleOutbox). */
    holdChars: () => number = () => Infinity,
  ) {
    this.outbox = new IdleOutbox<RelayToBackground>((m) => this.post(m), { holdChars });
    chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
      if (sender.id !== chrome.runtime.id || sender.tab) return false; // only our background, never another page
      const msg = acceptMessage(backgroundToRelaySchema, message, this.drops, 'background→relay');
      if (!msg) return false;
      if (msg.type === 'ping') {
        if (!this.info().isTop) return false; // only the top frame answers, so the answer is the tab's URL
        sendResponse({ url: location.href, docId: this.docId });
        return false;
      }
      if (msg.type === 'limit') {
        // Sent to this frame, but the frame may hold a newer document: only the one named answers "still here".
        if (msg.docId !== this.docId) sendResponse(false);
        else {
          this.onLimit(msg.bytes);
          sendResponse(true);
        }
        return false;
      }
      this.handle(msg);
      return false;
    });
    // Going away (navigation, tab closed, bfcache): what the panel has not been sent yet goes now, and the tab's
    // budget stops counting this document.
    addEventListener('pagehide', () => this.leaving());
    // Hidden now: what waits goes at once (see IdleOutbox).
    addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.outbox.flush();
    });
    // Back from the back/forward cache: the browser closed our port when the page was frozen, so the background
    // told watching panels this document was gone. Say hello again, so a watching panel gets the capture back and
    // what the restored page streams next.
    addEventListener('pageshow', (event) => {
      if (!event.persisted) return;
      const { bytes, wantsMore } = this.reports.latest;
      this.usage(bytes, wantsMore, true); // counted in the tab's budget again
      if (!this.announced) return;
      const stale = this.port; // closed by the browser; its disconnect event may not have been delivered yet
      this.port = undefined;
      this.attached = false;
      try {
        stale?.disconnect();
      } catch {
        // already gone
      }
      this.sayHello();
    });
  }

  /**
   * The document is going away: on `pagehide`, and again on the tap's leave hand-off (tap/handshake.ts) — in a frame
   * whose document.open() erased the relay's listeners, the only word of it. What waits in the outbox goes now, and the
   * tab's budget stops counting this document. A hello still unanswered sends the whole capture unasked: a document
   * that captured its first records just before it went (a widget's frame closed right after it streamed, a page that
   * left as its reply began) was otherwise never seen by a panel watching — the attach came back to a document gone.
   * With no panel watching, the background routes that snapshot to nobody.
   */
  leaving(): void {
    if (this.helloUnanswered) this.sendSnapshot();
    this.outbox.flush();
    if (this.reports.counted) this.reports.sendNow(0);
  }

  /** Live records from the store (already accepted). */
  records(records: CaptureRecord[]): void {
    if (this.attached) {
      const sizes: number[] = [];
      const batches = batchRecords(records, LIVE_BATCH_CHARS, sizes);
      for (let i = 0; i < batches.length; i++) this.outbox.push({ type: 'records', docId: this.docId, records: batches[i] }, sizes[i]);
    } else if (!this.announced) {
      // First capture of this document: say hello once; the background answers `attach` if a panel watches.
      this.announced = true;
      this.sayHello();
    }
  }

  private sayHello(): void {
    this.helloUnanswered = true;
    this.post({ type: 'hello', docId: this.docId, ...this.info() });
  }

  /**
   * What this document's capture holds now and whether it would hold more (`step`: the reporting step, see
   * settings.ts usageReportStep). Reported to the tab's budget once it reaches a step, then after each change of a
   * step or of `wantsMore` (spaced in time, see usage-reports.ts), or at once with `force`.
   */
  usage(bytes: number, wantsMore: boolean, force = false, step?: number): void {
    this.reports.update(bytes, wantsMore, force, step);
  }

  /** The user's cap changed: the next usage report goes at once if the tab's budget counts this document. */
  capChanged(): void {
    this.reports.capChanged();
  }

  private sendUsage(bytes: number, wantsMore: boolean): void {
    const message: RelayUsage = { type: 'usage', docId: this.docId, bytes, wantsMore };
    try {
      chrome.runtime.sendMessage(message).catch(() => undefined);
    } catch {
      // the extension was reloaded: nobody to tell
    }
  }

  /** Settings changed: a watching panel gets the new on/off state with a fresh snapshot. */
  siteChanged(): void {
    if (this.attached) this.sendSnapshot();
  }

  resnapshot(): void {
    if (this.attached) this.sendSnapshot();
  }

  private handle(msg: BackgroundToRelay): void {
    switch (msg.type) {
      case 'attach':
        this.attached = true;
        this.announced = true; // the background knows this document (a restore from bfcache says hello again)
        this.sendSnapshot();
        break;
      case 'detach':
        this.attached = false;
        this.helloUnanswered = false;
        this.outbox.clear();
        this.port?.disconnect();
        this.port = undefined;
        break;
      case 'clear':
        this.clearStore(performance.timeOrigin + performance.now());
        if (this.attached) this.sendSnapshot();
        break;
      case 'ping':
        break;
    }
  }

  /**
   * Everything kept, superseding live records not sent yet (the store already holds them). The head goes at once
   * (the panel learns of the document); the rest, possibly megabytes, in idle time like live records.
   */
  private sendSnapshot(): void {
    this.helloUnanswered = false; // a snapshot says all a hello would have led to
    const { records, dropped } = this.snapshot();
    this.outbox.clear();
    const [first, ...rest] = batchRecords(records, LIVE_BATCH_CHARS);
    this.post({ type: 'snapshot', docId: this.docId, ...this.info(), records: first ?? [], dropped });
    for (const batch of rest) this.outbox.push({ type: 'records', docId: this.docId, records: batch });
  }

  private post(message: RelayToBackground): void {
    try {
      this.ensurePort().postMessage(message);
    } catch {
      // The extension was reloaded or updated: this content script is orphaned and can no longer report.
      this.port = undefined;
      this.attached = false;
    }
  }

  private ensurePort(): chrome.runtime.Port {
    if (this.port) return this.port;
    const port = chrome.runtime.connect({ name: 'relay' });
    port.onMessage.addListener((message) => {
      const msg = acceptMessage(backgroundToRelaySchema, message, this.drops, 'background→relay');
      if (msg) this.handle(msg);
    });
    port.onDisconnect.addListener(() => {
      // Detached by the background, or the service worker stopped. Either way: quiet until the next attach.
      // (A port already replaced — see pageshow — says nothing about the current one.)
      void chrome.runtime.lastError;
      if (this.port !== port) return;
      this.port = undefined;
      this.attached = false;
      this.helloUnanswered = false; // hung up on: nobody watches
      this.outbox.clear(); // the next attach gets a full snapshot; records on a fresh port would be refused
    });
    this.port = port;
    return port;
  }
}

// The tap's outbox: numbers connections, batches records by time and size, and posts them to the relay over the
// private MessagePort. Timers, not requestAnimationFrame: background tabs and iframes must keep flowing.
// In a hidden page (a background tab) timers run about once a second (measured in Chromium 156: a 40 ms timer fired
// after ~1 s), so there the batch goes out at the end of the current task instead, woken by a message on a channel
// of the tap's own (messages are not throttled); a page turning hidden sends what waits at once.
// Before the relay's port arrives (only if the relay started after the tap) records wait in a bounded buffer.
import type { ConnectionRecord } from '../../core/capture/model.ts';
import { maskUrlUserinfo } from '../../core/capture/credential-mask.ts';
import type { BytesRecord, PageRecord, RelayToTap, TapToRelay, WireRecord } from '../messages.ts';
import { PAGE_LEFT_END } from '../../core/capture/notices.ts';
import { LEAVE_BATCH_EVENT } from './handshake.ts';
import { natives, nextTask, pageHidden, postOn, randomToken } from './natives.ts';

const FLUSH_DELAY_MS = 40;
const FLUSH_BYTES = 256 * 1024;
const MAX_BUFFER_WITHOUT_PORT = 4096;
/** How long after the page began to leave a stream error waits for `pagehide` (Firefox: see onBeforeUnload). */
export const LEAVE_HOLD_MS = 5000;

export interface TapConfig {
  enabled: boolean;
  includeUrls: string[];
}

export class TapEmitter {
  private readonly token = randomToken();
  private counter = 0;
  private pending: WireRecord[] = [];
  /** The payload buffers of pending bytes records: transferred, not copied, to the relay. */
  private transfer: ArrayBuffer[] = [];
  private pendingBytes = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The hidden page's wake-up channel (see the top of the file), and whether a wake-up is on its way. */
  private wake: MessageChannel | undefined;
  private wakePending = false;
  private port: MessagePort | undefined;
  /** The next batch's number (TapToRelay `seq`). */
  private seq = 0;
  /** The element the relay listens on for the batch still waiting when the page leaves (handshake.ts). */
  private leaveNode: Element | undefined;
  /**
   * Error ends emitted since the page's event loop last turned (a task of the tap's own clears them): one still here at
   * `pagehide` came with the page leaving, not before it (see endedByLeaving).
   */
  private readonly errorsThisTask = new Set<WireRecord>();
  /** Error ends held since the page began to leave (Firefox), and the timer that lets them go as errors. */
  private held: WireRecord[] = [];
  private leaveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The taps' checks for streams the browser stopped without telling the page (Firefox: see checkOnLeave). */
  private readonly leaveChecks: (() => void)[] = [];
  /** Until the relay says otherwise, record (the relay drops everything if the site is switched off). */
  config: TapConfig = { enabled: true, includeUrls: [] };
  readonly isSubframe: boolean;

  constructor() {
    let sub = false;
    try {
      sub = window.top !== window;
    } catch {
      sub = true;
    }
    this.isSubframe = sub;
    this.listen();
  }

  private readonly onVisibilityChange = (): void => {
    if (!pageHidden()) return;
    // The batch timer is about to be throttled to ~1 s: cancel it (schedule() then wakes through the channel).
    if (this.timer !== undefined) natives.clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  };

  // Leaving: a batch posted now would never be delivered (see handshake.ts) — it goes synchronously instead.
  // Only the browser's pagehide: a page script dispatching one of its own would overtake the batch still on the
  // port, which the relay then drops as late (its reads lost, a warning that the page left when it had not).
  private readonly onPageHide = (event: Event): void => {
    if (event.isTrusted) this.handOffOnLeave();
  };

  // Firefox stops the document's loads as the page begins to leave (right after `beforeunload`), not as the next page
  // commits: every open fetch body fails then ("TypeError: Error in input stream", as a dropped connection's), and
  // `pagehide` comes only once the next page has answered — measured in Firefox ESR 153: the error ~5 ms after
  // beforeunload, pagehide ~0.3 s later from a server answering in 0.3 s, many tasks between. So for a while an error
  // end is held back: `pagehide` hands it over as the page leaving; a page still here when the while is up (the
  // navigation cancelled, turned into a download, or answered later) sends it as the error it was. Not in Chromium,
  // where the error comes in the moment before pagehide (endedByLeaving) and a beforeunload listener would make every
  // navigation wait for the page's renderer.
  private readonly onBeforeUnload = (event: Event): void => {
    if (!event.isTrusted) return;
    if (this.leaveTimer !== undefined) natives.clearTimeout(this.leaveTimer);
    this.leaveTimer = natives.setTimeout(() => {
      this.leaveTimer = undefined;
      for (const r of this.held.splice(0)) this.pending.push(r);
      this.runLeaveChecks(); // a stream stopped silently, the page still here: its end goes as the error it is
      this.flush();
    }, LEAVE_HOLD_MS);
  };

  /**
   * A tap's check, run as the page leaves (`pagehide`) and when the hold after `beforeunload` is up: Firefox stops some
   * streams as the navigation begins without telling the page at all (an EventSource turns CLOSED with no error event),
   * so only a look at them then finds they ended. The check emits their error ends: at `pagehide` those are handed
   * over as the page leaving; with the page still here (the navigation cancelled) they go as the errors they are.
   */
  checkOnLeave(check: () => void): void {
    this.leaveChecks.push(check);
  }

  private runLeaveChecks(): void {
    for (const check of this.leaveChecks) check();
  }

  /**
   * Listens to the document and window: at install, and again after the page's document.open(), which erases every
   * listener of both (see document-open.ts). The same functions each time: the browser adds a listener once.
   */
  listen(): void {
    if (typeof document === 'undefined') return;
    natives.apply(natives.addEventListener, document, ['visibilitychange', this.onVisibilityChange, true]);
    natives.apply(natives.addEventListener, window, ['pagehide', this.onPageHide, true]);
    if (import.meta.env.MODE === 'firefox') natives.apply(natives.addEventListener, window, ['beforeunload', this.onBeforeUnload, true]);
  }

  attachLeaveNode(node: Element): void {
    this.leaveNode = node;
  }

  /** The page is going away: what waits goes to the relay before this returns, on the leave element. */
  private handOffOnLeave(): void {
    this.runLeaveChecks();
    if (this.errorsThisTask.size) this.pending = this.pending.map((r) => (this.errorsThisTask.has(r) ? endedByLeaving(r) : r));
    if (this.leaveTimer !== undefined) natives.clearTimeout(this.leaveTimer);
    this.leaveTimer = undefined;
    for (const r of this.held.splice(0)) this.pending.push(endedByLeaving(r));
    if (!this.leaveNode || !this.port) {
      this.flush();
      return;
    }
    // With nothing waiting, still a word (an empty batch, unnumbered: it orders nothing): the relay learns the page
    // leaves — after the page's document.open() erased the relay's own `pagehide` listener, it has no other way, and
    // its outbox or a capture the background has not asked for yet would go with the document.
    const message: TapToRelay = this.pending.length ? this.takeBatch().message : { type: 'records', records: [] };
    // `detail` is cloned into the relay's world when it reads it (no transfer: the page's buffers stay as they are).
    const event = new natives.CustomEvent(LEAVE_BATCH_EVENT, { detail: message });
    natives.apply(natives.dispatchEvent, this.leaveNode, [event]);
  }

  attachPort(port: MessagePort): void {
    this.port = port;
    natives.apply(natives.addEventListener, port, ['message', (event: MessageEvent) => this.onRelayMessage(event.data)]);
    natives.apply(natives.portStart, port, []);
    if (this.pending.length) this.schedule();
  }

  get connected(): boolean {
    return this.port !== undefined;
  }

  /** A new connection id, unique within the tab: `<frame token>:<counter>`. */
  nextId(): string {
    this.counter += 1;
    return `${this.token}:${this.counter}`;
  }

  emit(record: PageRecord, approxBytes = 64): void {
    if (!this.port && this.pending.length >= MAX_BUFFER_WITHOUT_PORT) return; // no relay in this frame
    if (record.kind === 'connection') record = boundConnection(record);
    if (record.kind === 'end' && record.state === 'error') {
      if (this.leaveTimer !== undefined) {
        this.held.push(record); // the page began to leave (onBeforeUnload)
        return;
      }
      this.noteError(record);
    }
    this.pending.push(record);
    this.pendingBytes += approxBytes;
    // A stream that completed goes at once: a page that leaves right after a stream ended (opens the page a reply
    // named) unloads before the batch timer fires, and the relay, which sends what it holds when the page goes away,
    // never got the stream's last records — a short stream not even its connection. Not an abort: the page leaving
    // aborts its streams just before `pagehide`, and a batch posted then is never delivered — it waits for the leave
    // hand-off, which comes a moment later (handOffOnLeave).
    if (this.pendingBytes >= FLUSH_BYTES || (record.kind === 'end' && record.state === 'complete')) this.flush();
    else this.schedule();
  }

  private noteError(record: WireRecord): void {
    // (await, not .then: a page that patched Promise.prototype.then would see the tap's call.)
    if (this.errorsThisTask.size === 0) void (async () => {
      await nextTask();
      this.errorsThisTask.clear();
    })();
    this.errorsThisTask.add(record);
  }

  /** A fetch chunk's payload (a buffer of its own, see ChunkSplitter): handed over to the relay without a copy. */
  emitBytes(record: BytesRecord): void {
    if (!this.port && this.pending.length >= MAX_BUFFER_WITHOUT_PORT) return;
    this.pending.push(record);
    this.transfer.push(record.payload.buffer as ArrayBuffer);
    this.pendingBytes += record.payload.byteLength;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.wakePending || !this.port) return;
    if (pageHidden()) {
      this.wakePending = true;
      postOn(this.wakeChannel().port2, null);
      return;
    }
    this.timer = natives.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, FLUSH_DELAY_MS);
  }

  flush(): void {
    if (!this.port || this.pending.length === 0) return;
    // A batch timer still running is left to fire (it finds the next batch, or nothing): on a fast stream, batches
    // fill up before it fires, and clearing and setting a timer per batch was a measurable share of the tap's work.
    const { message, transfer } = this.takeBatch();
    postOn(this.port, message, transfer);
  }

  /** The waiting records as the next numbered batch, and their payload buffers; the tap waits for none after. */
  private takeBatch(): { message: TapToRelay; transfer: ArrayBuffer[] } {
    const message: TapToRelay = { type: 'records', records: this.pending, seq: this.seq++ };
    const transfer = this.transfer;
    this.pending = [];
    this.transfer = [];
    this.pendingBytes = 0;
    return { message, transfer };
  }

  private wakeChannel(): MessageChannel {
    if (!this.wake) {
      const wake = new natives.MessageChannel();
      natives.apply(natives.addEventListener, wake.port1, ['message', () => {
        this.wakePending = false;
        this.flush();
      }]);
      natives.apply(natives.portStart, wake.port1, []);
      this.wake = wake;
    }
    return this.wake;
  }

  private onRelayMessage(data: unknown): void {
    // The relay is trusted (only it holds the other end), but keep the shape check cheap and explicit.
    const msg = data as RelayToTap | null;
    if (!msg || msg.type !== 'config' || typeof msg.enabled !== 'boolean' || !Array.isArray(msg.includeUrls)) return;
    this.config = { enabled: msg.enabled, includeUrls: msg.includeUrls.filter((u) => typeof u === 'string') };
  }
}

/** Longest URL or header value a connection record keeps (a page could pad them to megabytes: see boundConnection). */
const MAX_FIELD_CHARS = 8 * 1024;
/** Most headers a connection record keeps, each way. */
const MAX_HEADERS = 200;

const clip = (v: string): string => (v.length <= MAX_FIELD_CHARS ? v : `${v.slice(0, MAX_FIELD_CHARS)}… [${v.length - MAX_FIELD_CHARS} characters not kept]`);

/**
 * What a connection record may carry: credentials in a URL's userinfo masked, and URLs and header values bounded.
 * A page padded its URL (history.replaceState with a 1 MiB fragment) or a server its headers (200 KB each) and every
 * connection record held them — uncounted by the capture cap, and a snapshot too large to reach a panel opened later.
 */
function boundConnection(c: ConnectionRecord): ConnectionRecord {
  const headers = (h: [string, string][]): [string, string][] => h.slice(0, MAX_HEADERS).map(([k, v]) => [clip(k), clip(v)]);
  return {
    ...c,
    url: clip(maskUrlUserinfo(c.url)),
    frameUrl: clip(maskUrlUserinfo(c.frameUrl)),
    requestHeaders: headers(c.requestHeaders),
    ...(c.responseHeaders ? { responseHeaders: headers(c.responseHeaders) } : {}),
  };
}

/**
 * An error end the page leaving caused: the browser stops the document's loads as the next page commits, which fails
 * a fetch body with "TypeError: network error" and closes an EventSource as if it had failed — and runs `pagehide`
 * before the page's event loop turns again (measured in Chromium 156: an error up to ~15 ms before `pagehide`, and no
 * task in between). Firefox stops them as the page begins to leave, tasks earlier: those errors are held
 * (onBeforeUnload), and the streams it stops without a word to the page are found by the taps' checks (checkOnLeave).
 * Left as it was, a reload with Preserve log showed every stream the page had open as a failed connection
 * (`stream.network-error`), an EventSource as "an answer other than 200". An error the page answered by navigating (a
 * reload on failure) came tasks before it, and stays an error. Told as the relay tells a stream whose document went
 * away.
 */
function endedByLeaving(record: WireRecord): WireRecord {
  if (record.kind !== 'end' || record.state !== 'error') return record;
  return { ...record, state: 'aborted', error: `${LEFT_PAGE}${record.error ? `; the browser ended the stream with "${record.error}"` : ''}` };
}

/** Why a stream the page had open when it left ended (its error, if the browser gave one, follows). */
export const LEFT_PAGE = PAGE_LEFT_END;

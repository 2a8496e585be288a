// Keeps a live panel's memory bounded. The panel's store keeps every record it is sent and analyses all of them, so on
// a stream that runs past the capture cap it would grow without bound — while this client's TabCapture, like the
// relays, drops what they evict and keeps a cumulative eviction record with its digest (tab-capture.ts). When the
// data the panel holds passes COMPACT_FACTOR × the cap and the capture kept here is at most half of it, the panel is
// handed a fresh snapshot of that capture instead: the reset it gets after a navigation, the evicted head continuing
// from its digest — what a panel opened at that moment would show.
// A relay digests what it evicts in idle time, so for a moment an eviction record may have no current digest (a
// panel reset then would show the continuation's events as orphans): compaction waits for it, up to twice the
// threshold, past which bounded memory wins.
import type { CaptureRecord } from '../core/capture/model.ts';
import { requestBodyCost } from './retirement.ts';

/** The panel may hold this many times the capture cap before it is handed the (bounded) capture anew. */
export const COMPACT_FACTOR = 3;

/**
 * Captured data bytes of records: wire bytes of chunks, characters of messages and of request bodies (as the relay
 * counts them — a chat page's bodies, its whole conversation each turn, can outweigh its streams).
 */
export function dataBytes(records: readonly CaptureRecord[]): number {
  let n = 0;
  for (const r of records) {
    if (r.kind === 'chunk') n += r.bytes;
    else if (r.kind === 'message') n += r.data.length;
    else if (r.kind === 'connection') n += requestBodyCost(r);
  }
  return n;
}

/** Every eviction record carries its digest: a panel reading the capture continues each stream where it was cut. */
function digestsCurrent(records: readonly CaptureRecord[]): boolean {
  return records.every((r) => r.kind !== 'evicted' || r.derived !== undefined);
}

export class PanelCompaction {
  /** Data bytes the panel holds: its last snapshot plus what was appended since. */
  private held = 0;
  /** `held` at which the capture is looked at next (looking costs a pass over it). */
  private nextLook: number;

  constructor(private capBytes: number) {
    this.nextLook = this.threshold;
  }

  get threshold(): number {
    return COMPACT_FACTOR * this.capBytes;
  }

  /**
   * How much the documents that went away (kept by "preserve log") may hold when the panel is over its bound: half the
   * cap, so that with the live documents' (up to the cap) the capture handed anew is at most half the bound.
   */
  get goneBudget(): number {
    return Math.floor(this.capBytes / 2);
  }

  /** The cap changed (a setting): applies from the next records on. */
  setCap(bytes: number): void {
    this.capBytes = bytes;
    this.nextLook = Math.max(this.held, this.threshold);
  }

  /**
   * The capture last handed over has an eviction without its digest (bounded memory won, see the top): its stream
   * reads from the cut with no state — replies as orphans — and a live panel ignores the digest that comes later
   * (it read those events itself). So it is handed the capture again once the digest is there.
   */
  private undigested = false;

  /** The panel was handed `records` as its whole capture. */
  snapshotSent(records: readonly CaptureRecord[]): void {
    this.held = dataBytes(records);
    this.nextLook = Math.max(this.threshold, this.held + this.step());
    this.undigested = !digestsCurrent(records);
  }

  /**
   * The panel was sent `records` to append. True when it should be handed `capture()` (the capture kept here) as a
   * snapshot instead of keeping on growing; the caller then sends it (and calls snapshotSent).
   */
  appended(records: readonly CaptureRecord[], capture: () => readonly CaptureRecord[]): boolean {
    this.held += dataBytes(records);
    if (this.undigested && records.some((r) => r.kind === 'evicted' && r.derived !== undefined) && digestsCurrent(capture())) return true;
    if (this.held < this.nextLook) return false;
    const kept = capture();
    if (dataBytes(kept) * 2 <= this.held && (digestsCurrent(kept) || this.held >= 2 * this.threshold)) return true;
    this.nextLook = this.held + this.step();
    return false;
  }

  /** How much more the panel receives before the capture is looked at again. */
  private step(): number {
    return Math.max(64 * 1024, Math.floor(this.capBytes / 16));
  }
}

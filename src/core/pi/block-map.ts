// The blocks of a pi message by array index, as a persistent map: `set` returns a new map and leaves this one as it
// was, sharing everything but one small chunk and the index of chunks.
//
// Why: the client state is a new value per event (any step can be kept for time travel, see message-state.ts), and
// every delta writes its block. With a plain Map, each write copied every block of the message — O(blocks) per event
// — and every kept checkpoint held such a copy: a 33,000-event message of 1,500 blocks took 1.5 s and 35× its body in
// heap (now 0.28 s and 7.4×, `npm run bench:shapes`). Here a write copies one chunk of CHUNK slots and the chunk index (blocks / CHUNK entries).
//
// Indices are array indices up to 2^32 − 2 and may be sparse (one frame with contentIndex 4294967294 must stay cheap),
// so chunks are found through a Map keyed by `index / CHUNK`, not an array.
import type { PiBlock } from './message-state.ts';

/** Slots per chunk: a write copies CHUNK slots plus one index entry per CHUNK blocks (16: both small at 1,500 blocks,
 * and a message of a few blocks pays for one 16-slot copy where it copied a 3-entry Map). Arithmetic below divides
 * rather than shifts: indices reach 2^32 − 2, past what `>>` keeps exact. */
const CHUNK = 16;
const MAX_INDEX = 2 ** 32 - 2;

type Chunk = readonly (PiBlock | undefined)[];

export class BlockMap implements Iterable<[number, PiBlock]> {
  static readonly EMPTY = new BlockMap(new Map(), 0);

  /**
   * The map of `entries` (later entries for the same index win, as with Map). Entries come from a capture log here
   * (an eviction digest), which may have been edited: anything but [array index, object] pairs throws.
   */
  static from(entries: Iterable<unknown>): BlockMap {
    let map = BlockMap.EMPTY;
    for (const entry of entries) {
      const [index, block] = Array.isArray(entry) && entry.length === 2 ? entry : [];
      if (!Number.isInteger(index) || index < 0 || index > MAX_INDEX || block === null || typeof block !== 'object') {
        throw new TypeError(`not a [array index, block] pair: ${JSON.stringify(entry)?.slice(0, 80)}`);
      }
      map = map.set(index as number, block as PiBlock);
    }
    return map;
  }

  private constructor(
    /** Chunk number → its CHUNK slots, in the order chunks were first written. */
    private readonly chunks: ReadonlyMap<number, Chunk>,
    /** Blocks held. */
    readonly size: number,
  ) {}

  get(index: number): PiBlock | undefined {
    const key = Math.floor(index / CHUNK);
    return this.chunks.get(key)?.[index - key * CHUNK];
  }

  /** A map with `block` at `index` (an array index: an integer from 0 to 2^32 − 2). This map is not changed. */
  set(index: number, block: PiBlock): BlockMap {
    const key = Math.floor(index / CHUNK);
    const slot = index - key * CHUNK;
    const old = this.chunks.get(key);
    const chunk = old ? old.slice() : new Array<PiBlock | undefined>(CHUNK);
    chunk[slot] = block;
    const chunks = new Map(this.chunks).set(key, chunk);
    return new BlockMap(chunks, old?.[slot] === undefined ? this.size + 1 : this.size);
  }

  /** Every [index, block], chunk by chunk in the order chunks were first written, ascending within a chunk. */
  *entries(): IterableIterator<[number, PiBlock]> {
    for (const [key, chunk] of this.chunks) {
      for (let slot = 0; slot < CHUNK; slot++) {
        const block = chunk[slot];
        if (block !== undefined) yield [key * CHUNK + slot, block];
      }
    }
  }

  [Symbol.iterator](): IterableIterator<[number, PiBlock]> {
    return this.entries();
  }
}

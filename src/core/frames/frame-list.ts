// A connection's frames, kept in columns rather than as one object per frame.
//
// Why: a stream is mostly frames, and the analysis keeps every one of them (the panel lists them, diagnostics point
// at them). As objects, each frame was an object plus a boxed number for its time: 423 MB retained per million events
// against 354 MB in columns (typed arrays counted). Memory, not time: a probe (one more frame-shaped object per event:
// +14%) promised speed, but the change measured −2.7% in 10 alternated pairs, within the noise — V8 pretenured the
// frame objects already. Here a frame is a slot in five arrays (its time unboxed in an array of doubles); `at(i)`
// builds the `FrameView` object only when someone looks at that frame.
import type { FrameView } from '../analysis/types.ts';

/** A frame with where its text lies in the decoded body (offsets in UTF-16 code units; SSE spec frames). */
export interface PlacedFrame extends FrameView {
  /** Offset of the frame's first line (after the previous frame). */
  start: number;
  /** Offset just after the line end that completed the frame. */
  end: number;
  /** An NDJSON line the body ended without a line end (see ndjson.ts). */
  unterminated?: true;
}

/** What `push` takes: a frame object as the readers build them (its `index` is ignored). */
export type FrameInput = Omit<FrameView, 'index'> & { start?: number; end?: number; unterminated?: boolean };

const KINDS: readonly FrameView['kind'][] = ['data', 'comment', 'ndjson', 'message'];
const KIND_MASK = 3;
const HEARTBEAT = 4;
const FOREIGN = 8;
const SENT = 16;
const PLACED = 32;
const UNTERMINATED = 64;

/** An index as `Array.prototype.at` and `slice` read one (ToIntegerOrInfinity: NaN is 0, fractions are cut, -0 is 0). */
function integer(i: number): number {
  return Math.trunc(i) || 0;
}

/**
 * An `id:` field of an SSE frame without data lines. The spec dispatches no event for it, so it is no frame of the list
 * (the frames, the events and every check read as before), but its dispatch sets the client's last event ID all the
 * same — the spec's "dispatch the event" step 1 comes before the empty data buffer returns, and Chromium's
 * EventSourceParser sets `last_event_id_` at every blank line — so a later Last-Event-ID can name it.
 */
export interface IdOnlyFrame {
  id: string;
  /** The frames before it: it came between frame `before - 1` and frame `before`. */
  before: number;
  /** Body offsets of its text, as a frame's (`start`: its first line; `end`: after its blank line). */
  start: number;
  end: number;
  /** Arrival time of its blank line. */
  t: number;
}

/** The fields few frames have: an SSE `event:` / `id:`, a client note. */
interface Rare {
  event?: string;
  id?: string;
  clientNote?: string;
}

export class FrameList implements Iterable<FrameView> {
  /** A list holding these frames (their `index` is ignored: a frame's index is its position). */
  static from(frames: Iterable<FrameInput>): FrameList {
    const list = new FrameList();
    for (const f of frames) list.push(f);
    return list;
  }

  // Typed columns grown by doubling: a write to a typed array is cheaper than five `push`es, and holds no pointer.
  private times = new Float64Array(16);
  private starts = new Float64Array(16); // body offsets: a long-lived stream passes 2³¹ code units
  private ends = new Float64Array(16);
  private flags = new Uint8Array(16);
  private readonly datas: string[] = [];
  private rare: Map<number, Rare> | undefined;
  private idOnly: IdOnlyFrame[] | undefined;

  get length(): number {
    return this.datas.length;
  }

  /** Adds a frame (its `index` is ignored: a frame's index is its position). */
  push(f: FrameInput): void {
    const placed = f.start !== undefined && f.end !== undefined;
    const kind = KINDS.indexOf(f.kind);
    if (kind === -1) throw new Error(`FrameList.push: unknown frame kind ${JSON.stringify(f.kind)}`); // (-1 would set every flag bit)
    this.add(f.t, kind, f.data, f.heartbeat, placed ? f.start as number : 0, placed ? f.end as number : 0,
      f.event, f.id, (f.foreign ? FOREIGN : 0) | (f.sent ? SENT : 0) | (placed ? PLACED : 0) | (f.unterminated ? UNTERMINATED : 0));
    if (f.clientNote !== undefined) this.setClientNote(this.length - 1, f.clientNote);
  }

  /** The SSE spec reading's frame, without an object per frame (the decoder's hot path). */
  pushSpec(t: number, kind: 'data' | 'comment', data: string, heartbeat: boolean, start: number, end: number, event?: string, id?: string): void {
    this.add(t, kind === 'data' ? 0 : 1, data, heartbeat, start, end, event, id, PLACED);
  }

  private add(t: number, kind: number, data: string, heartbeat: boolean, start: number, end: number, event: string | undefined,
    id: string | undefined, bits: number): void {
    const i = this.datas.length;
    if (i === this.times.length) this.grow();
    this.times[i] = t;
    this.starts[i] = start;
    this.ends[i] = end;
    this.flags[i] = kind | (heartbeat ? HEARTBEAT : 0) | bits;
    this.datas.push(data);
    if (event !== undefined || id !== undefined) {
      const r: Rare = {};
      if (event !== undefined) r.event = event;
      if (id !== undefined) r.id = id;
      (this.rare ??= new Map()).set(i, r);
    }
  }

  private grow(): void {
    const n = this.times.length * 2;
    this.times = grown(this.times, n);
    this.starts = grown(this.starts, n);
    this.ends = grown(this.ends, n);
    this.flags = grown(this.flags, n);
  }

  t(i: number): number {
    return this.times[i];
  }
  data(i: number): string {
    return this.datas[i];
  }
  kind(i: number): FrameView['kind'] {
    return KINDS[this.flags[i] & KIND_MASK];
  }
  heartbeat(i: number): boolean {
    return (this.flags[i] & HEARTBEAT) !== 0;
  }
  /** Body offsets of an SSE spec frame (0 for frames that have none: messages, NDJSON lines). */
  start(i: number): number {
    return this.starts[i];
  }
  end(i: number): number {
    return this.ends[i];
  }
  event(i: number): string | undefined {
    return this.rare?.get(i)?.event;
  }
  clientNote(i: number): string | undefined {
    return this.rare?.get(i)?.clientNote;
  }
  /** The frame's own SSE `id:` field (not the last event ID it inherits from earlier frames). */
  id(i: number): string | undefined {
    return this.rare?.get(i)?.id;
  }

  /** An SSE frame without data lines carried `id:` (see IdOnlyFrame): kept beside the frames, at the place it came. */
  addIdOnly(id: string, start: number, end: number, t: number): void {
    (this.idOnly ??= []).push({ id, before: this.length, start, end, t });
  }

  /** The `id:` fields of frames without data, in the order they came (see IdOnlyFrame). */
  idOnlyFrames(): readonly IdOnlyFrame[] {
    return this.idOnly ?? NONE;
  }

  /**
   * Where a client that sent `id` as Last-Event-ID stood (see analysis/stream-resume.ts): the last change of the last
   * event ID to `id` — a frame's own `id:` (`last`: that frame), or a frame without data (`idOnly`; `last`: the frame
   * after it = its `before`) — and the first frame from which the id had changed again (`next`; -1: it never did):
   * the next frame with an `id:` of its own, or the frame after the next id-only frame. Walks the few frames with
   * rare fields and the id-only ones, not every frame: asked once per resumed request.
   */
  idSpan(id: string): { last: number; next: number; idOnly?: IdOnlyFrame } {
    let last = -1;
    for (const [i, r] of this.rare ?? []) if (r.id === id && i > last) last = i;
    // An id-only frame with `before` b came after frames 0..b-1: later than frame `last` when b > last.
    let only = -1;
    const list = this.idOnly ?? NONE;
    for (let k = list.length - 1; k >= 0; k--) {
      if (list[k].id === id) {
        if (list[k].before > last) only = k;
        break;
      }
    }
    if (last === -1 && only === -1) return { last, next: -1 };
    // The id changed again at the first frame with an id of its own from `from` on, or at the next id-only frame.
    const from = only === -1 ? last + 1 : list[only].before;
    let next = -1;
    for (const [i, r] of this.rare ?? []) if (r.id !== undefined && i >= from && (next === -1 || i < next)) next = i;
    for (let k = only + 1; k < list.length; k++) {
      if (list[k].before >= from) {
        if (next === -1 || list[k].before < next) next = list[k].before;
        break; // (in order: the first one is the earliest)
      }
    }
    return only === -1 ? { last, next } : { last: from, next, idOnly: list[only] };
  }

  /** The client's last event ID after the frames read so far: the id of the last frame or id-only frame that set one. */
  lastId(): string | undefined {
    let at = -1;
    let id: string | undefined;
    for (const [i, r] of this.rare ?? []) {
      if (r.id !== undefined && i > at) {
        at = i;
        id = r.id;
      }
    }
    const only = this.idOnly?.at(-1);
    return only !== undefined && only.before > at ? only.id : id;
  }

  setClientNote(i: number, note: string): void {
    // A note kept for a frame not pushed yet would attach to whatever frame comes to that index.
    if (!(Number.isInteger(i) && i >= 0 && i < this.length)) throw new RangeError(`FrameList.setClientNote: no frame ${i} (of ${this.length})`);
    const rare = (this.rare ??= new Map());
    const r = rare.get(i);
    if (r) r.clientNote = note;
    else rare.set(i, { clientNote: note });
  }

  /** Frame `i` as an object (a new one per call; `i` read as `Array.prototype.at` reads it: negative counts from the end). */
  at(i: number): PlacedFrame | undefined {
    i = integer(i);
    if (i < 0) i += this.length;
    if (!(i >= 0 && i < this.length)) return undefined;
    const flags = this.flags[i];
    const f = { index: i, t: this.times[i], kind: KINDS[flags & KIND_MASK], data: this.datas[i], heartbeat: (flags & HEARTBEAT) !== 0 } as PlacedFrame;
    // Messages and NDJSON lines have no place in an SSE reading: no start/end (as their objects had none).
    if (flags & PLACED) {
      f.start = this.starts[i];
      f.end = this.ends[i];
    }
    if (flags & FOREIGN) f.foreign = true;
    if (flags & SENT) f.sent = true;
    if (flags & UNTERMINATED) f.unterminated = true;
    const r = this.rare?.get(i);
    if (r?.event !== undefined) f.event = r.event;
    if (r?.id !== undefined) f.id = r.id;
    if (r?.clientNote !== undefined) f.clientNote = r.clientNote;
    return f;
  }

  /** Frames `from` (inclusive) to `to` (exclusive) as objects; the bounds read as `Array.prototype.slice` reads them. */
  slice(from = 0, to = this.length): PlacedFrame[] {
    const n = this.length;
    const bound = (x: number) => {
      const k = integer(x);
      return k < 0 ? Math.max(0, n + k) : Math.min(k, n);
    };
    const end = bound(to);
    const out: PlacedFrame[] = [];
    for (let i = bound(from); i < end; i++) out.push(this.at(i) as PlacedFrame);
    return out;
  }

  toArray(): PlacedFrame[] {
    return this.slice();
  }

  /** `JSON.stringify` writes the frames, as it wrote the array of frame objects this list replaced. */
  toJSON(): PlacedFrame[] {
    return this.toArray();
  }

  map<T>(fn: (f: PlacedFrame, i: number) => T): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.length; i++) out.push(fn(this.at(i) as PlacedFrame, i));
    return out;
  }

  filter(keep: (f: PlacedFrame, i: number) => unknown): PlacedFrame[] {
    const out: PlacedFrame[] = [];
    for (let i = 0; i < this.length; i++) {
      const f = this.at(i) as PlacedFrame;
      if (keep(f, i)) out.push(f);
    }
    return out;
  }

  *[Symbol.iterator](): Iterator<PlacedFrame> {
    for (let i = 0; i < this.length; i++) yield this.at(i) as PlacedFrame;
  }
}

const NONE: readonly IdOnlyFrame[] = [];

/** `a` copied into a new typed array of `n` slots (n ≥ a.length): how a typed column grows. */
export function grown<T extends Float64Array | Uint8Array>(a: T, n: number): T {
  const b = new (a.constructor as new (length: number) => T)(n);
  b.set(a);
  return b;
}

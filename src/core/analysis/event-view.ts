// The EventView objects of a connection, built for a million-event capture: one small object per event that keeps
// the wire text (a slice of the chunk text, not a copy) and what analysis decided, but not the parsed JSON — `raw`
// re-parses the text when the panel or the CLI asks for it (parsed JSON is several times the size of its text) —
// and with the verdict fields (valid, issues, extras, diagnostics) in one shared object for the usual case of a
// valid event with nothing to say (four fields fewer per event; measured ~3% of the analysis heap).
import type { Diagnostic } from '../diagnostics/types.ts';
import { grown } from '../frames/frame-list.ts';
import type { RawEvent } from './body-reader.ts';
import type { EventFacts } from './stream-processor.ts';
import type { EventView, SchemaIssue } from './types.ts';

/** Shared "nothing here" arrays: most events have no issues, extras or diagnostics (treat them as read-only). */
export const NO_ISSUES: SchemaIssue[] = [];
export const NO_STRINGS: string[] = [];
export const NO_DIAGNOSTICS: Diagnostic[] = [];

interface Verdict {
  valid: boolean;
  issues: SchemaIssue[];
  extras: string[];
  diagnostics: Diagnostic[];
}
const CLEAN: Verdict = Object.freeze({ valid: true, issues: NO_ISSUES, extras: NO_STRINGS, diagnostics: NO_DIAGNOSTICS });

/**
 * The arrival times and created_at values of one connection's events, by event index, unboxed. A number field of
 * an object holds a separate heap number (16 bytes and one more object for the GC to trace, per field and event);
 * on a million-event capture these two were a measurable share of ingest time at scale (GC) and of its memory.
 */
export class EventTimes {
  t = new Float64Array(1024);
  /** NaN: the event has no createdAt (a createdAt is always finite). */
  createdAt = new Float64Array(1024);

  set(index: number, t: number, createdAt: number | undefined): void {
    if (index >= this.t.length) {
      const size = Math.max(index + 1, this.t.length * 2);
      this.t = grown(this.t, size);
      this.createdAt = grown(this.createdAt, size);
    }
    this.t[index] = t;
    this.createdAt[index] = createdAt ?? NaN;
  }
}

/**
 * One event of a connection (build it with `analysedEvent`). The fields are declared, not initialised: instances are
 * object literals with this prototype, not `new AnalysedEvent()`. V8 allocates objects that a literal creates — and
 * that nearly all survive — directly in the old generation (allocation-site pretenuring), which it did not do for
 * `new` (measured): every class instance was copied by the young-generation GC on its way to the old one. Measured on a
 * million-event capture (--trace-gc-nvp): 98 MB less promoted, 0.5 s less GC pause, 7–13% less ingest time.
 */
export class AnalysedEvent implements EventView {
  /** Also this event's slot in `times` (an event keeps its index). */
  declare index: number;
  declare frameIndex: number;
  declare type: string;
  declare rawText: string;
  declare replyId?: string;
  declare blockId?: string;
  declare preview: string;
  declare private verdict: Verdict;
  declare private readonly times: EventTimes;

  private constructor() {
    throw new Error('use analysedEvent()');
  }

  /** Arrival time (see EventTimes). */
  get t(): number {
    return this.times.t[this.index];
  }
  set t(v: number) {
    this.times.t[this.index] = v;
  }
  get createdAt(): number | undefined {
    const v = this.times.createdAt[this.index];
    return Number.isNaN(v) ? undefined : v;
  }
  set createdAt(v: number | undefined) {
    this.times.createdAt[this.index] = v ?? NaN;
  }

  get valid(): boolean {
    return this.verdict.valid;
  }
  set valid(v: boolean) {
    this.own().valid = v;
  }
  get issues(): SchemaIssue[] {
    return this.verdict.issues;
  }
  set issues(v: SchemaIssue[]) {
    this.own().issues = v;
  }
  get extras(): string[] {
    return this.verdict.extras;
  }
  set extras(v: string[]) {
    this.own().extras = v;
  }
  get diagnostics(): Diagnostic[] {
    return this.verdict.diagnostics;
  }
  set diagnostics(v: Diagnostic[]) {
    this.own().diagnostics = v;
  }

  /** Parsed JSON as received (a fresh parse of `rawText` on every read; undefined when the text is not JSON). */
  get raw(): unknown {
    try {
      return JSON.parse(this.rawText);
    } catch {
      return undefined;
    }
  }

  /** Serialise like a plain EventView (getters are not own properties, so JSON.stringify would drop them). */
  toJSON(): EventView {
    const { verdict: _verdict, times: _times, ...own } = this;
    // The keys in the order they had as own fields (t after frameIndex, createdAt after preview): exports stay the same.
    const out: Record<string, unknown> = {};
    const createdAt = this.createdAt;
    for (const [k, v] of Object.entries(own)) {
      if (v === undefined) continue; // replyId / blockId: absent, as they were before events became literals
      out[k] = v;
      if (k === 'frameIndex') out.t = this.t;
      else if (k === 'preview' && createdAt !== undefined) out.createdAt = createdAt;
    }
    return { ...(out as Omit<EventView, 'valid' | 'issues' | 'extras' | 'diagnostics' | 'raw'>), valid: this.valid, issues: this.issues, extras: this.extras, diagnostics: this.diagnostics, raw: this.raw };
  }

  /** The verdict object of this event alone (before a write; the shared clean one is never written). */
  private own(): Verdict {
    if (this.verdict === CLEAN) this.verdict = { ...CLEAN };
    return this.verdict;
  }
}

const PROTO = AnalysedEvent.prototype;

/** The view of event `index` (see AnalysedEvent for why a literal); its times go to `times`. */
export function analysedEvent(ev: RawEvent, index: number, f: EventFacts, times: EventTimes): AnalysedEvent {
  times.set(index, ev.t, f.createdAt);
  const verdict: Verdict = f.valid && !f.issues.length && !f.extras.length && !f.diagnostics.length ? CLEAN : {
    valid: f.valid,
    issues: f.issues.length ? f.issues : NO_ISSUES,
    extras: f.extras.length ? f.extras : NO_STRINGS,
    diagnostics: f.diagnostics.length ? f.diagnostics : NO_DIAGNOSTICS,
  };
  // The key order is the export order (see toJSON): the order the class's fields had.
  return {
    __proto__: PROTO,
    index,
    frameIndex: ev.frameIndex,
    type: f.type,
    rawText: ev.rawText,
    preview: f.preview,
    verdict,
    times,
    replyId: f.replyId,
    blockId: f.blockId,
  } as unknown as AnalysedEvent;
}

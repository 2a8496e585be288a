// One event as a body reader hands it to the analysis: its text, where it came from, and the text's JSON.
import type { WireDelta } from './agentscope-wire-delta.ts';

/** One event as the client reads it, before any protocol interpretation. */
export interface RawEvent {
  /** Position in the reader's event sequence (the connection event index the analysis gives it). */
  seq: number;
  /** The spec frame holding it; -1 until that frame completes (then the reader lists it in `takeResolved`). */
  frameIndex: number;
  t: number;
  rawText: string;
  /** JSON.parse result; undefined when `parseError` is set. */
  raw: unknown;
  parseError?: string;
  /**
   * True when the reader knows `rawText` holds no lone surrogate (it came from chunk texts that are well-formed, and
   * an event's text never splits a surrogate pair: it is cut at line ends and ASCII). False: not known.
   */
  wellFormed?: boolean;
  /** The AgentScope delta's fields when the text has its exact wire shape (read without JSON.parse: see below). */
  wireDelta?: WireDelta;
}

/**
 * An event the reader read. The common AgentScope delta is recognised by its wire shape (agentscope-wire-delta.ts):
 * its text is then known to be valid JSON and is parsed only when `raw` is first read — the analysis' delta lane
 * needs just the fields the shape gave. Every other text is parsed at once, as before.
 */
export class ReadEvent implements RawEvent {
  parseError: string | undefined = undefined;
  private value: unknown = undefined;
  private parsed = true;

  constructor(
    public seq: number,
    public frameIndex: number,
    public t: number,
    public rawText: string,
    public wellFormed: boolean,
    public wireDelta: WireDelta | undefined,
  ) {
    if (wireDelta !== undefined) this.parsed = false;
    else {
      try {
        this.value = JSON.parse(rawText);
      } catch (err) {
        this.parseError = (err as Error).message;
      }
    }
  }

  get raw(): unknown {
    if (!this.parsed) {
      this.value = JSON.parse(this.rawText);
      this.parsed = true;
    }
    return this.value;
  }

  set raw(value: unknown) {
    this.value = value;
    this.parsed = true;
  }
}

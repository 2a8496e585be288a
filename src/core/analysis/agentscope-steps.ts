// The steps of an AgentScope stream as the analysis keeps them: per connection event index, what a history replay
// needs to apply that event again (the event, or for a delta just its parts), its arrival time, and the clock that
// makes the replay deterministic. Split from agentscope-stream.ts.
import { applyEvent, type ApplyContext } from '../agentscope/append-event.ts';
import type { Msg } from '../agentscope/blocks.ts';
import type { Kind } from '../agentscope/lifecycle.ts';
import { AGENTSCOPE_EVENT_TYPES, type AgentEvent } from '../agentscope/schema.ts';
import { fastValidateAgentScope } from './agentscope-fast-validate.ts';

/**
 * Delta events (text, thinking, tool-call arguments, tool-result text: nearly every event of a real stream) are kept
 * by the history in columns, not as objects: the delta text, a type code and the block / tool-call id (shared with
 * every event naming it) — only the fields append_event reads for these types. Their id, created_at and metadata
 * are not read (the clock comes from the apply context). `deltaEvent` rebuilds the validated event when a seek
 * replays the step. Measured on a million-event capture: ~60 bytes per event less than keeping the event object.
 */
const DELTA_TYPES = ['TEXT_BLOCK_DELTA', 'THINKING_BLOCK_DELTA', 'TOOL_CALL_DELTA', 'TOOL_RESULT_TEXT_DELTA'] as const;
const DELTA_CODE = new Map<string, number>(DELTA_TYPES.map((t, i) => [t, i + 1]));
/**
 * Code of a step kept as its wire text: an event the fast validator accepted is read again from its text on replay
 * instead of keeping the parsed object (the text is kept anyway, by the event view). Measured: ~1.5 KB less per
 * short reply (six such events), where the objects outweighed the wire text.
 */
const WIRE = 5;

/** The block kind each delta code streams into (index = code). */
export const DELTA_KIND = [undefined, 'text', 'thinking', 'tool_call', 'tool_result'] as unknown as Kind[];

function deltaEvent(code: number, replyId: string, target: string, delta: string): AgentEvent {
  const type = DELTA_TYPES[code - 1];
  return (code >= 3
    ? { type, metadata: {}, reply_id: replyId, tool_call_id: target, delta }
    : { type, metadata: {}, reply_id: replyId, block_id: target, delta }) as AgentEvent;
}

/** The event the fast validator made of `text` at ingest (the same again: it is a pure function of the text). */
function wireEvent(text: string): AgentEvent {
  const event = fastValidateAgentScope(JSON.parse(text));
  if (event === undefined) throw new Error('agentscope-steps: an event kept as wire text no longer validates');
  return event;
}

/**
 * Per event type: its name as a constant (an event's own `type` string is a fresh copy per event), its delta code
 * (0: not a delta kept in columns) and whether it counts as a content delta for time-to-first-token — looked up once
 * per event (each lookup of a fresh string hashes it).
 */
export interface TypeInfo {
  name: string;
  delta: number;
  token: boolean;
}
export const TYPE_INFO = new Map<string, TypeInfo>(AGENTSCOPE_EVENT_TYPES.map((t) => [t, { name: t, delta: DELTA_CODE.get(t) ?? 0, token: t.endsWith('_DELTA') }]));

/**
 * A time as Python's `datetime.isoformat()` writes the reference's clock: no zone, microseconds (six digits, none
 * when zero) — arrival times are fractional milliseconds, so the microseconds are there to write.
 */
function isoOf(t: number): string {
  // The events of one chunk share its arrival time: remember the last conversion (it is on every event's path).
  if (t === lastT) return lastIso;
  if (Number.isFinite(t)) {
    const us = Math.round(t * 1000);
    const fraction = ((us % 1_000_000) + 1_000_000) % 1_000_000;
    const seconds = new Date((us - fraction) / 1000).toISOString().slice(0, 19);
    lastIso = fraction === 0 ? seconds : `${seconds}.${String(fraction).padStart(6, '0')}`;
  } else lastIso = '1970-01-01T00:00:00';
  lastT = t;
  return lastIso;
}

/**
 * The clock the reconstruction stamps with (see contextFor): the arrival time, or — when the input has none (a raw
 * SSE body, a HAR without times) — the event's own `created_at`, the server's clock at that moment (it was the epoch:
 * every block dated 1970, under a message dated today).
 */
export function clockOf(t: number, createdAt: unknown): number {
  if (Number.isFinite(t) || typeof createdAt !== 'string') return t;
  // A plain isoformat keeps its wall-clock reading and its microseconds (isoOf writes it back as it was sent).
  const m = PLAIN_ISO.exec(createdAt);
  if (m) {
    const seconds = Date.parse(`${m[1]}Z`);
    return Number.isNaN(seconds) ? t : seconds + Number((m[2] ?? '').padEnd(6, '0') || 0) / 1000;
  }
  const parsed = Date.parse(createdAt); // with a zone: that instant (as UTC wall clock, to the millisecond)
  return Number.isNaN(parsed) ? t : parsed;
}

const PLAIN_ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?$/;
let lastT = NaN;
let lastIso = '';

/**
 * The clock the reference reads while applying an event, made deterministic: blocks are stamped with the event's
 * time and generated ids derive from the event index, so replaying from a checkpoint gives the same message.
 */
export function contextFor(index: number, t: number): ApplyContext {
  // A plain literal (an accessor for a lazy eventTime made creation slower than the cached formatting it saved).
  let n = 0;
  const time = isoOf(t);
  return { now: () => time, newId: () => `gen-${index}-${n++}`, eventTime: time };
}

/** The per-index columns (packed: events outside any reply leave placeholders). */
export class StepColumns {
  /** The event a history step replays: the validated event, or for a delta its text (see DELTA_TYPES); null: an
   * invalid event (changes nothing). */
  private readonly events: (AgentEvent | string | null)[] = [];
  private codes = new Uint8Array(1024);
  private readonly targets: (string | undefined)[] = [];
  /** The clock each step stamps with: arrival times, else created_at (see clockOf; an unboxed double array). */
  private readonly times: number[] = [];

  /** Step `index` is a delta (`code` of DELTA_TYPES) into block / tool call `target`. */
  setDelta(index: number, code: number, delta: string, target: string, t: number): void {
    this.pack(index);
    this.events[index] = delta;
    this.codes[index] = code;
    this.targets[index] = target;
    this.times[index] = t;
  }

  /**
   * Step `index` replays `event` (null: an invalid event). `wire`: the event's wire text, when the fast validator
   * made `event` from it (then the text is kept instead, see WIRE).
   */
  setEvent(index: number, event: AgentEvent | null, t: number, wire?: string): void {
    this.pack(index);
    const asWire = event !== null && wire !== undefined;
    this.events[index] = asWire ? wire : event;
    this.codes[index] = asWire ? WIRE : 0;
    this.targets[index] = undefined;
    this.times[index] = t;
  }

  /** The message after applying step `index` to `msg` (reply `replyId`; `base`: events evicted before index 0). */
  reduce(msg: Msg, index: number, replyId: string, base: number): Msg {
    const e = this.events[index];
    if (e === null || e === undefined) return msg;
    const code = this.codes[index];
    const event = typeof e !== 'string' ? e : code === WIRE ? wireEvent(e) : deltaEvent(code, replyId, this.targets[index] as string, e);
    return applyEvent(msg, event, contextFor(base + index, this.times[index])).msg;
  }

  private pack(index: number): void {
    while (this.events.length < index) {
      this.events.push(null);
      this.targets.push(undefined);
      this.times.push(NaN);
    }
    if (index >= this.codes.length) {
      const grown = new Uint8Array(Math.max(index + 1, this.codes.length * 2));
      grown.set(this.codes);
      this.codes = grown;
    }
  }
}

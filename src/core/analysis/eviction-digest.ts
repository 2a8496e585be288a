// What a connection's evicted records amount to. When the memory cap evicts the oldest chunks/messages of a
// connection, their digest keeps just enough to continue the analysis from the eviction point — the client's
// unfinished line, the number of events read, and (AgentScope) every reply's message so far; (pi proxy) the client
// state — like redux-devtools merging old actions into a base state. Memory is O(replies), not O(events): events
// are applied and forgotten.
//
// The digest must agree byte for byte with a full analysis of the same records, so it reads the body exactly as
// BodyReader does (both clients split on "\n" and parse lines starting "data: "; see eviction-digest-reading.ts),
// validates and applies events exactly as AgentScopeStream does (same validation, same deterministic clock from
// `contextFor` with the connection event index), and starts replies as AgentScopeReplies does.
import type { ConnectionRecord, EvictedPiState, EvictedReply, EvictionDerived } from '../capture/model.ts';
import { applyEvent } from '../agentscope/append-event.ts';
import type { Msg } from '../agentscope/blocks.ts';
import { normaliseLegacyEvent } from '../agentscope/legacy.ts';
import { initialReplyMessage } from '../agentscope/replies.ts';
import { validateEvent } from '../agentscope/schema.ts';
import { initialPiLifecycle, stepPiLifecycle, type PiLifecycleState } from '../pi/lifecycle.ts';
import { validateWire } from './agentscope-wire-validate.ts';
import { clockOf, contextFor } from './agentscope-steps.ts';
import { clientDialect, isAgentScope } from './dialect.ts';
import { EvictionDigestReading } from './eviction-digest-reading.ts';
import { encodePiState } from './pi-state-json.ts';
import type { Dialect } from './types.ts';
import { MAX_DERIVED_CHARS, MAX_GROWING_CHARS, capText } from '../capture/capped-text.ts';
import { piProxyRequestModel, type RequestBodyText } from '../capture/stream-request.ts';

export { MAX_DERIVED_CHARS, MAX_GROWING_CHARS, cappedBy } from '../capture/capped-text.ts';

/** base64 keeps whole 4-character groups, so the reference's decode-concat-reencode of later chunks still works. */
function capBase64(v: string, limit: number): string {
  if (v.length <= limit) return v;
  return v.slice(v.length - (MAX_DERIVED_CHARS - (MAX_DERIVED_CHARS % 4)));
}

/** Told of base64 data a cap cut: the block's id (or its position) and how many characters went. */
type OnCut = (block: string, chars: number) => void;

/**
 * `limit`: MAX_GROWING_CHARS while the digest is fed, MAX_DERIVED_CHARS when it is written out (see capped-text.ts).
 * `index` / `parent`: where the block is (`content[2]`, `content[2].output[0]`), named only when a cut is told — this
 * runs for every block a record may have changed, so nothing is allocated while nothing is cut.
 */
function capBlock<B>(b: B, limit: number, onCut: OnCut | undefined, index: number, parent?: string): B {
  const o = b as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const k of CAPPED_STRINGS) {
    const v = o[k];
    if (typeof v !== 'string' || v.length <= limit) continue;
    const capped = capText(v, limit);
    if (capped !== v) (out ??= { ...o })[k] = capped;
  }
  if (Array.isArray(o.output)) {
    const outer = o.output as unknown[];
    let output: unknown[] | undefined;
    for (let i = 0; i < outer.length; i++) {
      const x = capBlock(outer[i], limit, onCut, i, blockPath(index, parent));
      if (x !== outer[i]) (output ??= outer.slice())[i] = x;
    }
    if (output) (out ??= { ...o }).output = output;
  }
  const src = o.source as Record<string, unknown> | undefined;
  if (src && typeof src.data === 'string' && src.data.length > limit) {
    const data = capBase64(src.data, limit);
    (out ??= { ...o }).source = { ...src, data };
    onCut?.(typeof o.id === 'string' ? o.id : blockPath(index, parent), src.data.length - data.length);
  }
  return (out ?? o) as B;
}

function blockPath(index: number, parent: string | undefined): string {
  return `${parent === undefined ? 'content' : `${parent}.output`}[${index}]`;
}

/** A block's strings that grow with its deltas (a tool result's `output` may be a string or a list of blocks). */
const CAPPED_STRINGS = ['text', 'thinking', 'input', 'output'] as const;

/**
 * The message with over-long strings capped (the same object when nothing needed it). `before`: the content as it
 * was last capped at this limit — a block still the same object is not looked at again (a record changes one block,
 * and a reply can have thousands: looking at every block per record made digesting quadratic in the blocks).
 */
function capMessage(msg: Msg, limit: number, onCut?: OnCut, before?: readonly unknown[]): Msg {
  let content: Msg['content'] | undefined;
  for (let i = 0; i < msg.content.length; i++) {
    const b = msg.content[i];
    if (before !== undefined && before[i] === b) continue;
    const c = capBlock(b, limit, onCut, i);
    if (c !== b) (content ??= msg.content.slice())[i] = c;
  }
  return content ? { ...msg, content } : msg;
}

interface DigestReply {
  id: string;
  msg: Msg;
  orphan: boolean;
  ended: boolean;
  /** Base64 characters the cap cut from the head of a block's data, by block (they no longer decode to what was sent). */
  cutData?: Map<string, number>;
  /** The content as last capped at MAX_GROWING_CHARS (see capMessage's `before`). */
  capped?: readonly unknown[];
}

export class EvictionDigest extends EvictionDigestReading {
  // What the digest reads of its connection's answer — not the record itself (see EvictionDigestReading).
  private readonly response: { status?: number; statusText?: string };
  /**
   * The request body's text, until the stream's dialect is known: pi's proxy client is told by its request
   * (clientDialect). Then only what that client reads of it is kept (`piRequest`: the model), and only for it.
   */
  private requestBody: RequestBodyText | undefined;
  private piRequest?: { model: { api: unknown; provider: unknown; id: unknown } };
  private readonly replies = new Map<string, DigestReply>();
  private readonly touched = new Set<DigestReply>();
  private pi?: PiLifecycleState;
  /** The latest created_at of a valid event, as the lifecycle's clock check keeps it (string and parsed). */
  private clock?: { text: string; t: number };

  constructor(conn: ConnectionRecord) {
    super(conn);
    this.response = { status: conn.status, statusText: conn.statusText };
    const body = conn.requestBody;
    // No pi proxy request without it, whole or cut (piProxyRequestModel): the text of any other body is not kept.
    this.requestBody = body?.text?.includes('"context"') ? { text: body.text, truncated: body.truncated } : undefined;
  }

  /**
   * Keeps the digest within the cap it serves: one endless reply would otherwise grow its message (and every snapshot
   * carrying it) without limit. Strings longer than MAX_GROWING_CHARS are cut back to their newest MAX_DERIVED_CHARS
   * behind a marker (and any longer than that when written out), and an unfinished line that long is given up:
   * skipped to its end (`lost`, or `carryLost` while the eviction point is inside it: the analysis then starts at the
   * next line). The replies go on without that one event.
   */
  protected override bound(): void {
    for (const r of this.touched) this.cap(r, MAX_GROWING_CHARS); // only replies this record changed
    this.touched.clear();
    if (this.carry.length > MAX_DERIVED_CHARS) {
      // What the client will make of the line is known from its head: an SSE data line or any NDJSON line is an event.
      const event = this.kind === 'ndjson' ? this.carry.trim() !== '' : this.carry.startsWith('data: ') && this.carry.slice(6).trim() !== '';
      this.carry = '';
      this.skipping = { event };
      this.sse?.lost(); // (the line's rest may hold more of the spec's lines: CR ends one too)
    }
  }

  /**
   * Caps the reply's strings longer than `limit`, counting the base64 characters cut from a block's data. While the
   * digest is fed, only the blocks changed since the last time are looked at (`r.capped`).
   */
  private cap(r: DigestReply, limit: number): void {
    const before = limit === MAX_GROWING_CHARS ? r.capped : undefined;
    r.msg = capMessage(r.msg, limit, (block, chars) => (r.cutData ??= new Map()).set(block, (r.cutData.get(block) ?? 0) + chars), before);
    if (limit === MAX_GROWING_CHARS) r.capped = r.msg.content;
  }

  /**
   * Forgets the replies that ended (the panel's Clear: the capture goes on from here, and in a stream that keeps to the
   * protocol nothing follows a reply's end). An event that names one after all then starts a reply of its own, an
   * orphan. The events read stay counted, so those that follow keep their numbers.
   */
  forgetEnded(): void {
    for (const [id, r] of this.replies) if (r.ended) this.replies.delete(id);
    this.touched.clear();
  }

  /** The dialect the page's client reads (see clientDialect): a proxy client's state is derived for it. */
  private get dialect(): Dialect {
    const stream = this.detector.dialect;
    if (stream === 'unknown') return stream;
    if (this.requestBody !== undefined) {
      // Known now, and for good (DialectDetector never turns to or from pi's forms once it has decided).
      const model = clientDialect(stream, this.requestBody) === 'pi-proxy' ? piProxyRequestModel(this.requestBody) : undefined;
      if (model) this.piRequest = { model: { api: model.api, provider: model.provider, id: model.id } }; // all initialPiState reads
      this.requestBody = undefined;
    }
    return stream === 'pi-assistant' && this.piRequest ? 'pi-proxy' : stream;
  }

  /** The JSON-serialisable digest (a fresh object; the digest keeps going). */
  derived(): EvictionDerived {
    const dialect = this.dialect;
    // A line given up and still open at the eviction point is an event the client will read: counted already, so the
    // kept events keep their numbers (its rest is skipped by the analysis, see carryLost).
    const open = this.skipping?.event ? 1 : 0;
    const out: EvictionDerived = { events: this.events + open, carry: this.carry, replies: [] };
    if (dialect !== 'unknown') out.dialect = dialect;
    for (const r of this.replies.values()) {
      this.cap(r, MAX_DERIVED_CHARS); // exactly the newest MAX_DERIVED_CHARS (the same text as cutting after each record)
      const rep: EvictedReply = { id: r.id, name: r.msg.name, role: r.msg.role, message: r.msg as unknown as Record<string, unknown> };
      if (r.orphan) rep.orphan = true;
      if (r.ended) rep.ended = true;
      if (r.cutData) rep.cutData = [...r.cutData].map(([block, chars]) => ({ block, chars }));
      out.replies.push(rep);
    }
    if (dialect === 'pi-proxy') out.pi = this.piDerived();
    if (this.clock) out.lastCreatedAt = this.clock.text;
    if (this.lost + open > 0) out.lost = this.lost + open;
    if (this.skipping) out.carryLost = true;
    if (this.sse) out.sse = { frameStart: this.sse.pending === false, ...(this.sse.lastEventId !== undefined ? { lastEventId: this.sse.lastEventId } : {}) };
    // Events held while the protocol is unknown are applied by the analysis once a later event tells it: not derived.
    const incomplete = this.incomplete ?? (this.pending.length > 0 ? `${this.pending.length} evicted events named no known protocol yet` : undefined);
    if (incomplete !== undefined) out.incomplete = incomplete;
    return out;
  }

  protected override apply(index: number, t: number, text: string, json: { raw: unknown } | undefined): void {
    const dialect = this.dialect;
    if (isAgentScope(dialect)) this.applyAgentScope(index, t, text, json);
    else if (dialect === 'pi-proxy') this.applyPi(index, text, json);
    // pi AssistantMessageEvent / AgentEvent forms carry the whole message in every event: nothing to keep.
  }

  /** As AgentScopeStream.push: invalid events change nothing; CUSTOM belongs to no reply. */
  private applyAgentScope(index: number, t: number, text: string, json: { raw: unknown } | undefined): void {
    if (!json) return;
    const norm = normaliseLegacyEvent(json.raw);
    const v = norm.legacy ? validateEvent(norm.raw) : validateWire(text, norm.raw);
    if (!v.ok) return;
    const event = v.event;
    this.tick(event.created_at);
    if (event.type === 'CUSTOM') return;
    const ctx = contextFor(index, clockOf(t, event.created_at));
    let r = this.replies.get(event.reply_id);
    if (!r) {
      const { initial, orphan } = initialReplyMessage(event, ctx);
      r = { id: event.reply_id, msg: initial, orphan, ended: false };
      this.replies.set(r.id, r);
    } else if (event.type === 'REPLY_START' && r.orphan) r.orphan = false;
    r.msg = applyEvent(r.msg, event, ctx).msg;
    this.touched.add(r);
    if (event.type === 'REPLY_START') r.ended = false;
    else if (event.type === 'REPLY_END') r.ended = true;
  }

  /** As AgentScopeLifecycle's clock check: the latest time, with ties and earlier times not replacing it. */
  private tick(createdAt: string | undefined): void {
    if (!createdAt) return;
    const t = Date.parse(createdAt);
    if (!Number.isNaN(t) && (!this.clock || t >= this.clock.t)) this.clock = { text: createdAt, t };
  }

  /** As PiStream.push for the proxy form: the client state comes out of the same lifecycle steps. */
  private applyPi(index: number, text: string, json: { raw: unknown } | undefined): void {
    if (!this.pi) {
      this.pi = initialPiLifecycle(this.piRequest, 'proxy');
      if (this.response.status !== undefined) {
        this.pi = stepPiLifecycle(this.pi, { kind: 'response', status: this.response.status, statusText: this.response.statusText }).state;
      }
    }
    this.pi = json
      ? stepPiLifecycle(this.pi, { kind: 'event', index, raw: json.raw }).state
      : stepPiLifecycle(this.pi, { kind: 'malformed', index, data: text, error: parseErrorOf(text) }).state;
  }

  private piDerived(): EvictedPiState {
    if (!this.pi) return { derived: false, reason: 'no pi event was evicted' };
    // The client applied an event the digest could not read: its state is not the client's.
    if (this.lost > 0 || this.skipping?.event) return { derived: false, reason: 'an evicted event was on a line longer than the digest keeps' };
    const encoded = encodePiState(this.pi.client);
    if (typeof encoded === 'string') return { derived: false, reason: encoded };
    return { derived: true, state: encoded };
  }
}

function parseErrorOf(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

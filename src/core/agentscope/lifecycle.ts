// Incremental lifecycle checker for a stream of AgentScope events (a session stream may carry many replies).
// `push` is called once per event as it arrives (live streams) and returns the diagnostics about that event;
// `finish` returns the end-of-stream ones. Codes are documented in diagnostic-docs.ts.
//
// Why our own tracking next to append_event's outcome: the reference only tells us *that* it skipped or raised; a
// frontend developer needs to know *why* (delta before its START? after its END? a START repeated?), and several
// problems (invalid tool-call JSON, a media type switch, a non-monotonic clock) do not change the outcome at all.
// The outcome, when given, is still honoured: every `warned`/`error` status surfaces at its index.
import type { Diagnostic, Severity } from '../diagnostics/types.ts';
import type { ApplyOutcome } from './append-event.ts';
import type { Msg, ToolCallBlock } from './blocks.ts';

type ToolCallState = ToolCallBlock['state'];
import type { AgentEvent, ValidationResult } from './schema.ts';
import { PyError, pyAnyUrl, pyB64Decode } from './py-compat.ts';
import { parseLocalIso } from '../time/python-iso.ts';

type Kind = 'text' | 'thinking' | 'data' | 'tool_call' | 'tool_result';

interface BlockState {
  kind: Kind;
  start: number;
  end: number | null;
  mediaType?: string;
  input?: string;
  callState?: ToolCallState;
  answered?: number;
}

interface ReplyState {
  id: string;
  start: number;
  ended: number | null;
  last: number;
  blocks: Map<string, BlockState>;
  /** Ids of tool results present (TOOL_RESULT_START or EXTERNAL_EXECUTION_RESULT). */
  results: Map<string, number>;
  /** Deltas/ends seen for a block id not started yet: a later START turns them into delta-before-start. */
  early: Map<string, number[]>;
}

export interface PushOptions {
  /** The event was normalised from the legacy agentscope-typescript dialect. */
  legacy?: boolean;
}

const key = (kind: Kind, id: string) => `${kind}\u0000${id}`;
const LABEL: Record<Kind, string> = { text: 'text block', thinking: 'thinking block', data: 'data block', tool_call: 'tool call', tool_result: 'tool result' };

/** Tool-call state transitions the documented diagram allows, as seen on the wire. */
const ALLOWED: Record<string, ToolCallState[]> = {
  asking: ['pending'], // REQUIRE_USER_CONFIRM
  submitted: ['pending', 'allowed'], // REQUIRE_EXTERNAL_EXECUTION (ALLOW happens server-side without an event)
};

export class AgentScopeLifecycle {
  private replies = new Map<string, ReplyState>();
  private lastCreatedAt: { t: number; index: number } | null = null;

  /** Diagnostics about event `index`. `parsed` is the validation result; `outcome` what append_event did, if known. */
  push(index: number, parsed: ValidationResult, outcome?: ApplyOutcome, options: PushOptions = {}): Diagnostic[] {
    const out: Diagnostic[] = [];
    const add = (code: string, severity: Severity, message: string, related?: number[]) =>
      out.push(related && related.length ? { code, severity, index, message, related } : { code, severity, index, message });
    if (options.legacy) add('as.legacy-dialect', 'info', 'Legacy agentscope-typescript event (camelCase) normalised to the current wire format.');
    if (!parsed.ok) {
      const text = parsed.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      if (parsed.reason === 'unknown-type') add('as.unknown-event-type', 'warning', `${text}; the reference rejects it.`);
      else add('as.invalid-event', 'error', `Invalid event (the reference rejects it): ${text}`);
      return out;
    }
    if (parsed.extras.length) add('as.extra-fields', 'info', `Fields the schema does not know (ignored by the reference): ${parsed.extras.join(', ')}`);
    const event = parsed.event;
    this.checkClock(event, index, add);
    if (event.type === 'CUSTOM') {
      add('as.custom-event', 'info', `CUSTOM "${event.name}" notification (the Python Msg.append_event would raise on it; frontends skip it).`);
      return out;
    }
    this.checkEvent(event, index, add);
    this.ensureOutcome(outcome, out, add);
    return out;
  }

  /**
   * Continue from a reply whose earlier events were evicted (memory cap): its blocks are taken from the message the
   * evicted events built, so later deltas/ends find them. `at` stands for the evicted positions (the first event
   * after the eviction point); a block counts as ended when its message block has `finished_at`.
   */
  seedReply(id: string, msg: Msg, options: { ended: boolean; at: number }): void {
    const { at } = options;
    const r: ReplyState = { id, start: at, ended: options.ended ? at : null, last: at, blocks: new Map(), results: new Map(), early: new Map() };
    for (const b of msg.content) {
      const end = b.finished_at !== null ? at : null;
      const put = (kind: Kind, extra: Partial<BlockState> = {}) => {
        if (!r.blocks.has(key(kind, b.id))) r.blocks.set(key(kind, b.id), { kind, start: at, end, ...extra });
      };
      if (b.type === 'text' || b.type === 'thinking') put(b.type);
      else if (b.type === 'data') put('data', { mediaType: b.source.media_type });
      else if (b.type === 'tool_call') put('tool_call', { input: b.input, callState: b.state });
      else if (b.type === 'tool_result') {
        if (!r.results.has(b.id)) r.results.set(b.id, at);
        put('tool_result', { end: end ?? (b.state === 'running' ? null : at) });
      }
    }
    for (const [k, b] of r.blocks) {
      if (b.kind === 'tool_call' && r.results.has(k.slice(k.indexOf('\u0000') + 1))) b.answered = at;
    }
    this.replies.set(id, r);
  }

  /** Continue the created_at order check from the latest time of evicted events (`at` stands for their positions). */
  seedClock(createdAt: string, at: number): void {
    const t = Date.parse(createdAt);
    if (!Number.isNaN(t)) this.lastCreatedAt = { t, index: at };
  }

  /** End-of-stream diagnostics: replies never ended, blocks never closed, tool calls never answered. */
  finish(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const r of this.replies.values()) {
      if (r.ended !== null) continue;
      out.push({ code: 'as.reply-not-ended', severity: 'warning', index: r.last, message: `Reply ${r.id} never got a REPLY_END.`, related: [r.start] });
      for (const [id, b] of this.openBlocks(r)) {
        out.push({ code: 'as.block-not-ended', severity: 'warning', index: b.start, message: `${LABEL[b.kind]} ${id} never ended (stream ended).` });
      }
      for (const [id, b] of this.unanswered(r)) {
        const parked = b.callState === 'asking' || b.callState === 'submitted';
        out.push({
          code: 'as.tool-call-unanswered',
          severity: parked ? 'info' : 'warning',
          index: b.start,
          message: parked ? `Tool call ${id} is parked (${b.callState}) waiting for the client when the stream ends.` : `Tool call ${id} never got a result.`,
        });
      }
    }
    return out;
  }

  private checkClock(event: AgentEvent, index: number, add: AddFn) {
    if (!event.created_at) return;
    const t = parseLocalIso(event.created_at);
    if (Number.isNaN(t)) return;
    if (this.lastCreatedAt && t < this.lastCreatedAt.t) {
      add('as.non-monotonic-created-at', 'warning', `created_at ${event.created_at} is earlier than the previous event's.`, [this.lastCreatedAt.index]);
    }
    if (!this.lastCreatedAt) this.lastCreatedAt = { t, index };
    else if (t >= this.lastCreatedAt.t) {
      this.lastCreatedAt.t = t; // in place: this runs for every event
      this.lastCreatedAt.index = index;
    }
  }

  private reply(event: Exclude<AgentEvent, { type: 'CUSTOM' }>, index: number, add: AddFn): ReplyState {
    let r = this.replies.get(event.reply_id);
    if (!r) {
      r = { id: event.reply_id, start: index, ended: null, last: index, blocks: new Map(), results: new Map(), early: new Map() };
      this.replies.set(event.reply_id, r);
      if (event.type !== 'REPLY_START') add('as.foreign-reply-id', 'warning', `Event names reply ${event.reply_id}, which never started in this stream.`);
      return r;
    }
    if (event.type === 'REPLY_START') {
      if (r.ended === null) add('as.duplicate-reply-start', 'info', `Reply ${r.id} started again before it ended (a parked reply resuming).`, [r.start]);
      r.ended = null; // a second REPLY_START continues the same message
    } else if (r.ended !== null) {
      add('as.event-after-reply-end', 'warning', `${event.type} after this reply's REPLY_END (the reference still applies it).`, [r.ended]);
    }
    r.last = index;
    return r;
  }

  private checkEvent(event: Exclude<AgentEvent, { type: 'CUSTOM' }>, index: number, add: AddFn) {
    const r = this.reply(event, index, add);
    const start = (kind: Kind, id: string, extra: Partial<BlockState> = {}) => {
      const k = key(kind, id);
      const first = r.blocks.get(k);
      if (first) add('as.duplicate-start-id', 'warning', `${LABEL[kind]} ${id} started twice; the reference appends a second block and only ever updates the first.`, [first.start]);
      else r.blocks.set(k, { kind, start: index, end: null, ...extra });
      const early = r.early.get(k);
      if (early) {
        add('as.delta-before-start', 'error', `${LABEL[kind]} ${id} received events before its START; the reference dropped them.`, early);
        r.early.delete(k);
      }
    };
    const find = (kind: Kind, id: string, isEnd: boolean): BlockState | undefined => {
      const k = key(kind, id);
      const b = r.blocks.get(k);
      if (!b) {
        const code = kind === 'tool_call' || kind === 'tool_result' ? 'as.unknown-tool-call-id' : 'as.unknown-block-id';
        add(code, 'warning', `No ${LABEL[kind]} with id ${id} in this reply; the reference skips the event.`);
        const early = r.early.get(k);
        if (early) early.push(index); // in place: a long run of orphan deltas must stay linear
        else r.early.set(k, [index]);
        return undefined;
      }
      if (b.end !== null) {
        add(isEnd ? 'as.repeated-end' : 'as.delta-after-end', 'warning', `${event.type} after ${LABEL[kind]} ${id} ended (the reference still applies it).`, [b.end]);
      }
      if (isEnd) b.end = index;
      return b;
    };
    switch (event.type) {
      case 'REPLY_END':
        for (const [id, b] of this.openBlocks(r)) add('as.block-not-ended', 'warning', `${LABEL[b.kind]} ${id} was never ended before REPLY_END.`, [b.start]);
        for (const [id, b] of this.unanswered(r)) add('as.tool-call-unanswered', 'warning', `Tool call ${id} has no result at REPLY_END.`, [b.start]);
        r.ended = index;
        return;
      case 'TEXT_BLOCK_START':
      case 'THINKING_BLOCK_START':
        return start(event.type === 'TEXT_BLOCK_START' ? 'text' : 'thinking', event.block_id);
      case 'DATA_BLOCK_START':
        return start('data', event.block_id, { mediaType: event.media_type });
      case 'TEXT_BLOCK_DELTA':
      case 'TEXT_BLOCK_END':
      case 'THINKING_BLOCK_DELTA':
      case 'THINKING_BLOCK_END':
        find(event.type.startsWith('TEXT') ? 'text' : 'thinking', event.block_id, event.type.endsWith('_END'));
        return;
      case 'DATA_BLOCK_DELTA': {
        const b = find('data', event.block_id, false);
        if (b && b.mediaType !== undefined && event.media_type !== b.mediaType) {
          add('as.media-type-changed', 'warning', `Delta media_type ${event.media_type} differs from the block's ${b.mediaType} (the reference ignores the delta's).`, [b.start]);
        }
        if (b) checkBase64(event.data, add);
        return;
      }
      case 'DATA_BLOCK_END':
        find('data', event.block_id, true);
        return;
      case 'TOOL_CALL_START':
        return start('tool_call', event.tool_call_id, { input: '', callState: 'pending' });
      case 'TOOL_CALL_DELTA': {
        const b = find('tool_call', event.tool_call_id, false);
        if (b) b.input = (b.input ?? '') + event.delta;
        return;
      }
      case 'TOOL_CALL_END': {
        const b = find('tool_call', event.tool_call_id, true);
        if (b && !isJson(b.input ?? '')) add('as.tool-input-invalid-json', 'warning', `Tool call ${event.tool_call_id} input is not valid JSON at TOOL_CALL_END: ${JSON.stringify((b.input ?? '').slice(0, 80))}`, [b.start]);
        return;
      }
      case 'TOOL_RESULT_START': {
        const call = r.blocks.get(key('tool_call', event.tool_call_id));
        if (!call) add('as.tool-result-without-call', 'warning', `Tool result for ${event.tool_call_id}, which no TOOL_CALL_START in this reply announced.`);
        else call.answered ??= index;
        r.results.set(event.tool_call_id, index);
        return start('tool_result', event.tool_call_id);
      }
      case 'TOOL_RESULT_TEXT_DELTA':
        find('tool_result', event.tool_call_id, false);
        return;
      case 'TOOL_RESULT_DATA_DELTA': {
        const b = find('tool_result', event.tool_call_id, false);
        if (b && event.url !== null) {
          const u = pyAnyUrl(event.url);
          if (!u.ok) add('as.invalid-url', 'error', `Invalid URL ${JSON.stringify(event.url)}: ${u.message} (the reference raises).`);
          else if (u.url !== event.url) add('as.url-normalised', 'info', `URL stored normalised as ${u.url}.`);
        }
        return;
      }
      case 'TOOL_RESULT_END': {
        find('tool_result', event.tool_call_id, true);
        const call = r.blocks.get(key('tool_call', event.tool_call_id));
        if (call) call.callState = 'finished';
        return;
      }
      case 'REQUIRE_USER_CONFIRM':
      case 'REQUIRE_EXTERNAL_EXECUTION': {
        const target: ToolCallState = event.type === 'REQUIRE_USER_CONFIRM' ? 'asking' : 'submitted';
        for (const tc of event.tool_calls) {
          const call = r.blocks.get(key('tool_call', tc.id));
          if (!call) {
            add('as.unknown-tool-call-id', 'warning', `${event.type} names tool call ${tc.id}, unknown in this reply (the reference skips it silently).`);
            continue;
          }
          if (!ALLOWED[target].includes(call.callState ?? 'pending')) {
            add('as.state-transition', 'warning', `Tool call ${tc.id}: ${call.callState} → ${target} is not in the documented state diagram (the reference overwrites).`, [call.start]);
          }
          call.callState = target;
        }
        return;
      }
      case 'USER_CONFIRM_RESULT':
        for (const cr of event.confirm_results) {
          const call = r.blocks.get(key('tool_call', cr.tool_call.id));
          if (!call) add('as.unknown-tool-call-id', 'warning', `USER_CONFIRM_RESULT names tool call ${cr.tool_call.id}, unknown in this reply (skipped).`);
          else if (call.callState !== 'asking') add('as.state-transition', 'warning', `Confirmation for tool call ${cr.tool_call.id} in state ${call.callState}, not asking: the reference ignores it.`, [call.start]);
          else call.callState = cr.confirmed ? 'allowed' : 'finished';
        }
        return;
      case 'EXTERNAL_EXECUTION_RESULT': {
        const before = new Set(r.results.keys());
        for (const res of event.execution_results) {
          if (before.has(res.id)) {
            add('as.duplicate-tool-result', 'warning', `Result for ${res.id} skipped: the reply already has a result with that id.`, [r.results.get(res.id)!]);
            continue;
          }
          const call = r.blocks.get(key('tool_call', res.id));
          if (!call) add('as.tool-result-without-call', 'warning', `External result for ${res.id}, which no TOOL_CALL_START in this reply announced.`);
          else {
            if (call.callState !== 'submitted') add('as.state-transition', 'warning', `External result for tool call ${res.id} in state ${call.callState}, not submitted.`, [call.start]);
            call.answered ??= index;
          }
          if (!r.results.has(res.id)) r.results.set(res.id, index);
          // The appended result can be streamed into like a started one; a non-running state counts as ended.
          if (!r.blocks.has(key('tool_result', res.id))) {
            r.blocks.set(key('tool_result', res.id), { kind: 'tool_result', start: index, end: res.state === 'running' ? null : index });
          }
        }
        return;
      }
      default:
        return; // MODEL_CALL_*, EXCEED_MAX_ITERS, USER_INTERRUPT: nothing to track
    }
  }

  /** Make sure a `warned`/`error` outcome is visible even if our own tracking saw nothing wrong. */
  private ensureOutcome(outcome: ApplyOutcome | undefined, out: Diagnostic[], add: AddFn) {
    if (!outcome) return;
    const has = (...codes: string[]) => out.some((d) => codes.includes(d.code));
    if (outcome.warning?.kind === 'foreign-reply' && !has('as.foreign-reply-id')) add('as.foreign-reply-id', 'warning', outcome.warning.message);
    if (outcome.warning?.kind === 'unknown-block' && !has('as.unknown-block-id', 'as.unknown-tool-call-id')) add('as.unknown-block-id', 'warning', outcome.warning.message);
    if (outcome.error?.kind === 'invalid-base64' && !has('as.invalid-base64')) add('as.invalid-base64', 'error', `The reference raises: ${outcome.error.message}`);
    if (outcome.error?.kind === 'invalid-url' && !has('as.invalid-url')) add('as.invalid-url', 'error', `The reference raises: ${outcome.error.message}`);
  }

  private *openBlocks(r: ReplyState): Iterable<[string, BlockState]> {
    for (const [k, b] of r.blocks) if (b.end === null) yield [k.slice(k.indexOf('\u0000') + 1), b];
  }

  private *unanswered(r: ReplyState): Iterable<[string, BlockState]> {
    for (const [k, b] of r.blocks) {
      const id = k.slice(k.indexOf('\u0000') + 1);
      if (b.kind === 'tool_call' && b.answered === undefined && !r.results.has(id) && b.callState !== 'finished') yield [id, b];
    }
  }
}

type AddFn = (code: string, severity: Severity, message: string, related?: number[]) => void;

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** A chunk the reference raises on is an error; one it decodes only leniently (junk, data after padding) a warning. */
function checkBase64(data: string, add: AddFn) {
  if (data === '') return;
  try {
    pyB64Decode(data);
  } catch (err) {
    if (err instanceof PyError) add('as.invalid-base64', 'error', `Chunk ${JSON.stringify(data.slice(0, 40))} is not decodable: the reference raises ${err.text}.`);
    return;
  }
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(data)) {
    add('as.base64-lenient', 'warning', `Chunk ${JSON.stringify(data.slice(0, 40))} is not canonical base64; the reference's lenient decoder drops junk/whitespace and anything after padding.`);
  }
}

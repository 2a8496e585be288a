// Incremental lifecycle checker for a stream of AgentScope events (a session stream may carry many replies).
// `push` is called once per event as it arrives (live streams) and returns the diagnostics about that event;
// `finish` returns the end-of-stream ones. Codes are documented in diagnostic-docs.ts.
//
// Why our own tracking next to append_event's outcome: the reference only tells us *that* it skipped or raised; a
// frontend developer needs to know *why* (delta before its START? after its END? a START repeated?), and several
// problems (invalid tool-call JSON, a media type switch, a non-monotonic clock) do not change the outcome at all.
// The outcome, when given, is still honoured: every `warned`/`error` status surfaces at its index.
//
// The bookkeeping (replies, blocks, clock, the diagnostics being collected) is LifecycleTracker's
// (lifecycle-tracker.ts); this file holds the rules per event type and the end-of-stream report.
import type { Diagnostic } from '../diagnostics/types.ts';
import { describeRounded, roundedIntegers } from '../frames/json-integers.ts';
import type { ApplyOutcome } from './append-event.ts';
import type { Msg } from './blocks.ts';
import { ALLOWED, LABEL, addBlock, addResult, blockOf, newReply, type BlockState, type Kind, type ToolCallState } from './lifecycle-state.ts';
import { LifecycleTracker, isJson } from './lifecycle-tracker.ts';
import type { AgentEvent, ValidationResult } from './schema.ts';

export type { Kind } from './lifecycle-state.ts';
import { pyAnyUrl } from './py-compat.ts';
import { localIso } from './iso-times.ts';
import { cappedBy } from '../capture/capped-text.ts';

export interface PushOptions {
  /** The event was normalised from the legacy agentscope-typescript dialect. */
  legacy?: boolean;
}

export class AgentScopeLifecycle extends LifecycleTracker {
  /** Diagnostics about event `index`. `parsed` is the validation result; `outcome` what append_event did, if known. */
  push(index: number, parsed: ValidationResult, outcome?: ApplyOutcome, options: PushOptions = {}): Diagnostic[] {
    this.begin(index);
    if (options.legacy) this.add('as.legacy-dialect', 'info', 'Legacy agentscope-typescript event (camelCase) normalised to the current wire format.');
    if (!parsed.ok) {
      const text = parsed.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      if (parsed.reason === 'unknown-type') this.add('as.unknown-event-type', 'warning', `${text}; the reference rejects it.`);
      else this.add('as.invalid-event', 'error', `Invalid event (the reference rejects it): ${text}`);
      return this.take();
    }
    if (parsed.extras.length) this.add('as.extra-fields', 'info', `Fields the schema does not know (ignored by the reference): ${parsed.extras.join(', ')}`);
    const event = parsed.event;
    const createdAt = event.created_at;
    this.checkClock(createdAt, createdAt ? localIso(createdAt) : NaN, index);
    if (event.type === 'CUSTOM') {
      this.add('as.custom-event', 'info', `CUSTOM "${event.name}" notification (the Python Msg.append_event would raise on it; frontends skip it).`);
      return this.take();
    }
    this.checkEvent(event, index);
    if (outcome && (outcome.warning || outcome.error)) this.ensureOutcome(outcome);
    return this.take();
  }

  /**
   * `push` of a valid delta event without extra fields or legacy form, given its fields (the analysis' delta lane
   * has them at hand; reading them from the event object costs more than the checks). `kind`: the block kind the
   * event type streams into (text, thinking, tool_call, tool_result). `createdAtLocal`: `createdAt` as Python-local ms
   * (`localIso`; NaN when there is none or it is empty), which the caller has read already.
   */
  pushDelta(index: number, type: string, replyId: string, kind: Kind, id: string, delta: string, createdAt: string | undefined, createdAtLocal: number): Diagnostic[] {
    this.begin(index);
    this.checkClock(createdAt, createdAtLocal, index);
    const r = this.reply(type, replyId, index);
    const b = this.find(r, type, index, kind, id, false);
    if (b && kind === 'tool_call') b.input = (b.input ?? '') + delta;
    return this.take();
  }

  /**
   * Continue from a reply whose earlier events were evicted (memory cap): its blocks are taken from the message the
   * evicted events built, so later deltas/ends find them. `at` stands for the evicted positions (the first event
   * after the eviction point); a block counts as ended when its message block has `finished_at`.
   */
  seedReply(id: string, msg: Msg, options: { ended: boolean; at: number }): void {
    const { at } = options;
    const r = newReply(id, at);
    r.ended = options.ended ? at : null;
    for (const b of msg.content) {
      const end = b.finished_at !== null ? at : null;
      const put = (kind: Kind, extra: Partial<BlockState> = {}) => {
        if (!blockOf(r, kind, b.id)) addBlock(r, { kind, id: b.id, start: at, end, ...extra });
      };
      if (b.type === 'text' || b.type === 'thinking') put(b.type);
      else if (b.type === 'data') put('data', { mediaType: b.source.media_type });
      else if (b.type === 'tool_call') put('tool_call', { input: b.input, callState: b.state });
      else if (b.type === 'tool_result') {
        if (!r.results?.has(b.id)) addResult(r, b.id, at);
        put('tool_result', { end: end ?? (b.state === 'running' ? null : at) });
      }
    }
    for (const b of r.order) {
      if (b.kind === 'tool_call' && r.results?.has(b.id)) b.answered = at;
    }
    this.replies.set(id, r);
  }

  /** Continue the created_at order check from the latest time of evicted events (`at` stands for their positions). */
  seedClock(createdAt: string, at: number): void {
    const t = Date.parse(createdAt);
    if (!Number.isNaN(t)) this.seedClockAt(t, at);
  }

  /** End-of-stream diagnostics: replies never ended, blocks never closed, tool calls never answered. */
  finish(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const r of this.replies.values()) {
      if (r.ended !== null) continue;
      const unanswered = [...this.unanswered(r)];
      // A reply parked on a confirmation or an external execution sends no REPLY_END: the agent breaks off its loop
      // without one (agent/_agent.py, break_execution_for_hitl) and the service resumes it with a REPLY_START of the
      // same id. Such a reply at the end of a stream is waiting for the client, like its parked calls — told as info,
      // not as a reply that never ended (a warning, failing `validate --fail-on warning` on an ordinary capture).
      const parkedCalls = unanswered.filter((b) => b.callState === 'asking' || b.callState === 'submitted');
      out.push(
        parkedCalls.length
          ? {
            code: 'as.reply-not-ended', severity: 'info', index: r.last, related: [r.start],
            message: `Reply ${r.id} is parked waiting for the client (${parkedCalls.map((b) => `tool call ${b.id} ${b.callState}`).join(', ')}): no REPLY_END until it resumes.`,
          }
          : { code: 'as.reply-not-ended', severity: 'warning', index: r.last, message: `Reply ${r.id} never got a REPLY_END.`, related: [r.start] },
      );
      for (const b of this.openBlocks(r)) {
        out.push({ code: 'as.block-not-ended', severity: 'warning', index: b.start, message: `${LABEL[b.kind]} ${b.id} never ended (stream ended).` });
      }
      for (const b of unanswered) {
        const parked = b.callState === 'asking' || b.callState === 'submitted';
        out.push({
          code: 'as.tool-call-unanswered',
          severity: parked ? 'info' : 'warning',
          index: b.start,
          message: parked ? `Tool call ${b.id} is parked (${b.callState}) waiting for the client when the stream ends.` : `Tool call ${b.id} never got a result.`,
        });
      }
    }
    return out;
  }

  /**
   * At TOOL_CALL_END: the input the deltas built must be JSON, and JSON a frontend can read as written — an integer
   * beyond 2^53 (a 64-bit id) survives the agent's `json.loads` but not a `JSON.parse` of the input.
   */
  private checkToolInput(id: string, b: BlockState): void {
    const input = b.input ?? '';
    // An input whose head the memory cap evicted (its digest keeps the newest part behind a marker) cannot be checked:
    // the eviction note says what was cut; a "not valid JSON" warning would blame the stream for it.
    if (cappedBy(input) !== undefined) return;
    if (!isJson(input)) {
      this.add('as.tool-input-invalid-json', 'warning', `Tool call ${id} input is not valid JSON at TOOL_CALL_END: ${JSON.stringify(input.slice(0, 80))}`, [b.start]);
      return;
    }
    const found = roundedIntegers(input);
    if (found.length === 0) return;
    const shown = describeRounded(found);
    this.add('as.tool-input-unsafe-integer', 'warning', `Tool call ${id} input has the integer ${shown.literal}, beyond 2^53: Python's json.loads keeps it exact; ` +
      `JSON.parse of the input — any JavaScript frontend that shows or runs the call — reads ${shown.read}${shown.more}.`, [b.start]);
  }

  private checkEvent(event: Exclude<AgentEvent, { type: 'CUSTOM' }>, index: number) {
    const r = this.reply(event.type, event.reply_id, index);
    switch (event.type) {
      case 'REPLY_END':
        for (const b of this.openBlocks(r)) this.add('as.block-not-ended', 'warning', `${LABEL[b.kind]} ${b.id} was never ended before REPLY_END.`, [b.start]);
        for (const b of this.unanswered(r)) this.add('as.tool-call-unanswered', 'warning', `Tool call ${b.id} has no result at REPLY_END.`, [b.start]);
        r.ended = index;
        return;
      case 'TEXT_BLOCK_START':
        return this.start(r, index, 'text', event.block_id);
      case 'THINKING_BLOCK_START':
        return this.start(r, index, 'thinking', event.block_id);
      case 'DATA_BLOCK_START':
        return this.start(r, index, 'data', event.block_id, { mediaType: event.media_type });
      case 'TEXT_BLOCK_DELTA':
        this.find(r, event.type, index, 'text', event.block_id, false);
        return;
      case 'TEXT_BLOCK_END':
        this.find(r, event.type, index, 'text', event.block_id, true);
        return;
      case 'THINKING_BLOCK_DELTA':
        this.find(r, event.type, index, 'thinking', event.block_id, false);
        return;
      case 'THINKING_BLOCK_END':
        this.find(r, event.type, index, 'thinking', event.block_id, true);
        return;
      case 'DATA_BLOCK_DELTA': {
        const b = this.find(r, event.type, index, 'data', event.block_id, false);
        if (b && b.mediaType !== undefined && event.media_type !== b.mediaType) {
          this.add('as.media-type-changed', 'warning', `Delta media_type ${event.media_type} differs from the block's ${b.mediaType} (the reference ignores the delta's).`, [b.start]);
        }
        if (b) this.checkBase64(event.data);
        return;
      }
      case 'DATA_BLOCK_END':
        this.find(r, event.type, index, 'data', event.block_id, true);
        return;
      case 'TOOL_CALL_START':
        return this.start(r, index, 'tool_call', event.tool_call_id, { input: '', callState: 'pending' });
      case 'TOOL_CALL_DELTA': {
        const b = this.find(r, event.type, index, 'tool_call', event.tool_call_id, false);
        if (b) b.input = (b.input ?? '') + event.delta;
        return;
      }
      case 'TOOL_CALL_END': {
        const b = this.find(r, event.type, index, 'tool_call', event.tool_call_id, true);
        if (b) this.checkToolInput(event.tool_call_id, b);
        return;
      }
      case 'TOOL_RESULT_START': {
        const call = blockOf(r, 'tool_call', event.tool_call_id);
        if (!call) this.add('as.tool-result-without-call', 'warning', `Tool result for ${event.tool_call_id}, which no TOOL_CALL_START in this reply announced.`);
        else call.answered ??= index;
        addResult(r, event.tool_call_id, index);
        return this.start(r, index, 'tool_result', event.tool_call_id);
      }
      case 'TOOL_RESULT_TEXT_DELTA':
        this.find(r, event.type, index, 'tool_result', event.tool_call_id, false);
        return;
      case 'TOOL_RESULT_DATA_DELTA': {
        const b = this.find(r, event.type, index, 'tool_result', event.tool_call_id, false);
        if (b && event.url !== null) {
          const u = pyAnyUrl(event.url);
          if (!u.ok) this.add('as.invalid-url', 'error', `Invalid URL ${JSON.stringify(event.url)}: ${u.message} (the reference raises).`);
          else if (u.url !== event.url) this.add('as.url-normalised', 'info', `URL stored normalised as ${u.url}.`);
        }
        return;
      }
      case 'TOOL_RESULT_END': {
        this.find(r, event.type, index, 'tool_result', event.tool_call_id, true);
        const call = blockOf(r, 'tool_call', event.tool_call_id);
        if (call) call.callState = 'finished';
        return;
      }
      case 'REQUIRE_USER_CONFIRM':
      case 'REQUIRE_EXTERNAL_EXECUTION': {
        const target: ToolCallState = event.type === 'REQUIRE_USER_CONFIRM' ? 'asking' : 'submitted';
        for (const tc of event.tool_calls) {
          const call = blockOf(r, 'tool_call', tc.id);
          if (!call) {
            this.add('as.unknown-tool-call-id', 'warning', `${event.type} names tool call ${tc.id}, unknown in this reply (the reference skips it silently).`);
            continue;
          }
          if (!ALLOWED[target].includes(call.callState ?? 'pending')) {
            this.add('as.state-transition', 'warning', `Tool call ${tc.id}: ${call.callState} → ${target} is not in the documented state diagram (the reference overwrites).`, [call.start]);
          }
          call.callState = target;
        }
        return;
      }
      case 'USER_CONFIRM_RESULT':
        for (const cr of event.confirm_results) {
          const call = blockOf(r, 'tool_call', cr.tool_call.id);
          if (!call) this.add('as.unknown-tool-call-id', 'warning', `USER_CONFIRM_RESULT names tool call ${cr.tool_call.id}, unknown in this reply (skipped).`);
          else if (call.callState !== 'asking') this.add('as.state-transition', 'warning', `Confirmation for tool call ${cr.tool_call.id} in state ${call.callState}, not asking: the reference ignores it.`, [call.start]);
          else call.callState = cr.confirmed ? 'allowed' : 'finished';
        }
        return;
      case 'EXTERNAL_EXECUTION_RESULT': {
        const before = new Set(r.results?.keys());
        for (const res of event.execution_results) {
          if (before.has(res.id)) {
            this.add('as.duplicate-tool-result', 'warning', `Result for ${res.id} skipped: the reply already has a result with that id.`, [r.results?.get(res.id) as number]);
            continue;
          }
          const call = blockOf(r, 'tool_call', res.id);
          if (!call) this.add('as.tool-result-without-call', 'warning', `External result for ${res.id}, which no TOOL_CALL_START in this reply announced.`);
          else {
            if (call.callState !== 'submitted') this.add('as.state-transition', 'warning', `External result for tool call ${res.id} in state ${call.callState}, not submitted.`, [call.start]);
            call.answered ??= index;
          }
          if (!r.results?.has(res.id)) addResult(r, res.id, index);
          // The appended result can be streamed into like a started one; a non-running state counts as ended.
          if (!blockOf(r, 'tool_result', res.id)) {
            addBlock(r, { kind: 'tool_result', id: res.id, start: index, end: res.state === 'running' ? null : index });
          }
        }
        return;
      }
      default:
        return; // MODEL_CALL_*, EXCEED_MAX_ITERS, USER_INTERRUPT: nothing to track
    }
  }

  /** Make sure a `warned`/`error` outcome is visible even if our own tracking saw nothing wrong. */
  private ensureOutcome(outcome: ApplyOutcome) {
    const has = (...codes: string[]) => this.out.some((d) => codes.includes(d.code));
    if (outcome.warning?.kind === 'foreign-reply' && !has('as.foreign-reply-id')) this.add('as.foreign-reply-id', 'warning', outcome.warning.message);
    if (outcome.warning?.kind === 'unknown-block' && !has('as.unknown-block-id', 'as.unknown-tool-call-id')) this.add('as.unknown-block-id', 'warning', outcome.warning.message);
    if (outcome.error?.kind === 'invalid-base64' && !has('as.invalid-base64')) this.add('as.invalid-base64', 'error', `The reference raises: ${outcome.error.message}`);
    if (outcome.error?.kind === 'invalid-url' && !has('as.invalid-url')) this.add('as.invalid-url', 'error', `The reference raises: ${outcome.error.message}`);
  }
}
